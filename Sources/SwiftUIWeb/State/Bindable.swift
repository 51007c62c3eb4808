/// Bindings to the mutable properties of an `@Observable` object (`$model.name`).
@MainActor @propertyWrapper @dynamicMemberLookup
public struct Bindable<Value: AnyObject>: DynamicProperty {
    /// The object.
    public var wrappedValue: Value
    /// Wraps an object.
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    /// Wraps an object.
    public init(_ wrappedValue: Value) { self.wrappedValue = wrappedValue }
    /// The wrapper itself, for `$model.property`.
    public var projectedValue: Bindable<Value> { self }
    /// A binding to a property of the object.
    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject> {
        let o = wrappedValue
        return Binding(get: { o[keyPath: keyPath] }, set: { o[keyPath: keyPath] = $0 })
    }
}
