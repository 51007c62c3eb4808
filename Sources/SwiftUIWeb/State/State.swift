/// A value owned by a view and stored in its scene; changing it re-renders the scene.
@MainActor @propertyWrapper
public struct State<Value>: DynamicProperty, SceneBindable {
    final class Box { var slot: StorageSlot?; let initial: Value; init(_ v: Value) { initial = v } }
    let box: Box

    /// Creates state with an initial value.
    public init(wrappedValue value: Value) { box = Box(value) }
    /// Creates state with an initial value.
    public init(initialValue value: Value) { box = Box(value) }

    /// The current value.
    public var wrappedValue: Value {
        get { (box.slot?.value as? Value) ?? box.initial }
        nonmutating set {
            guard let slot = box.slot else { return }
            slot.value = newValue
            slot.scene?.changed(slot)
        }
    }

    /// A binding to the value.
    public var projectedValue: Binding<Value> {
        let box = self.box
        return Binding(get: { (box.slot?.value as? Value) ?? box.initial },
                       set: { v in if let slot = box.slot { slot.value = v; slot.scene?.changed(slot) } })
    }

    func install(in scene: SceneInstance, key: String, context: RenderContext) {
        box.slot = scene.slot(for: key, context: context) { box.initial }
    }
}

extension State where Value: ExpressibleByNilLiteral {
    /// Creates state whose initial value is `nil`.
    public init() { self.init(wrappedValue: nil) }
}

/// A two-way connection to a value owned elsewhere.
@MainActor @propertyWrapper @dynamicMemberLookup
public struct Binding<Value>: DynamicProperty {
    let getter: @MainActor () -> Value
    let setter: @MainActor (Value) -> Void

    /// Creates a binding from a getter and a setter.
    nonisolated public init(get: @escaping @MainActor () -> Value, set: @escaping @MainActor (Value) -> Void) {
        getter = get; setter = set
    }
    /// Creates a binding from another binding (`@Binding var x: T` initializer).
    public init(projectedValue: Binding<Value>) { self = projectedValue }
    /// A binding to an immutable value.
    public static func constant(_ value: Value) -> Binding<Value> { Binding(get: { value }, set: { _ in }) }

    /// The current value.
    public var wrappedValue: Value {
        get { getter() }
        nonmutating set { setter(newValue) }
    }
    /// The binding itself.
    public var projectedValue: Binding<Value> { self }

    /// A binding to a property of the value.
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        let g = getter, s = setter
        return Binding<Subject>(get: { g()[keyPath: keyPath] }, set: { v in var whole = g(); whole[keyPath: keyPath] = v; s(whole) })
    }
}
