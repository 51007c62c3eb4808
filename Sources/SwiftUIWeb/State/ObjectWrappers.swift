/// An observable object owned by a view (or by the App, then shared by all its windows).
@MainActor @propertyWrapper
public struct StateObject<ObjectType: ObservableObject>: DynamicProperty, SceneBindable {
    @MainActor final class Box {
        let make: () -> ObjectType
        var slot: StorageSlot?
        var fallback: ObjectType?
        init(_ make: @escaping () -> ObjectType) { self.make = make }
        var object: ObjectType {
            if let o = slot?.value as? ObjectType { return o }
            if let fallback { return fallback }
            let o = make()
            fallback = o
            return o
        }
    }
    let box: Box

    /// Creates the object lazily, once per owning scene (or once per App).
    public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) { box = Box(thunk) }

    /// The object.
    public var wrappedValue: ObjectType { box.object }
    /// Bindings to the object's properties.
    public var projectedValue: ObservedObject<ObjectType>.Wrapper { .init(object: box.object) }

    func install(in scene: SceneInstance, key: String, context: RenderContext) {
        let b = box
        box.slot = scene.slot(for: key, context: context) { b.make() }
        scene.observe(box.object, context: context)
    }
}

/// An observable object passed into a view; the scene re-renders when it changes.
@MainActor @propertyWrapper
public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty, SceneBindable {
    /// Bindings to an object's properties.
    @MainActor @dynamicMemberLookup
    public struct Wrapper {
        let object: ObjectType
        /// A binding to a property of the object.
        public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>) -> Binding<
            Subject
        > {
            let o = object
            return Binding(get: { o[keyPath: keyPath] }, set: { o[keyPath: keyPath] = $0 })
        }
    }

    /// The object.
    public var wrappedValue: ObjectType
    /// Observes an object.
    public init(wrappedValue: ObjectType) { self.wrappedValue = wrappedValue }
    /// Observes an object.
    public init(initialValue: ObjectType) { self.wrappedValue = initialValue }
    /// Bindings to the object's properties.
    public var projectedValue: Wrapper { Wrapper(object: wrappedValue) }

    func install(in scene: SceneInstance, key: String, context: RenderContext) {
        scene.observe(wrappedValue, context: context)
    }
}

/// An observable object supplied by an ancestor view with `environmentObject(_:)`.
@MainActor @propertyWrapper
public struct EnvironmentObject<ObjectType: ObservableObject>: DynamicProperty, SceneBindable {
    final class Box { var object: ObjectType? }
    let box = Box()
    /// Reads the object from the environment.
    public init() {}
    /// The object; traps with a clear message when no ancestor supplied one.
    public var wrappedValue: ObjectType {
        guard let o = box.object else {
            fatalError(
                "No ObservableObject of type \(ObjectType.self) found. A View.environmentObject(_:) for \(ObjectType.self) may be missing as an ancestor of this view."
            )
        }
        return o
    }
    /// Bindings to the object's properties.
    public var projectedValue: ObservedObject<ObjectType>.Wrapper { .init(object: wrappedValue) }

    func install(in scene: SceneInstance, key: String, context: RenderContext) {
        if let o = context.environment.objects[ObjectIdentifier(ObjectType.self)] as? ObjectType {
            box.object = o
            scene.observe(o, context: context)
        }
    }
}

extension View {
    /// Supplies an observable object to this view's descendants.
    public func environmentObject<T: ObservableObject>(_ object: T) -> some View {
        EnvironmentObjectWriter(content: self, key: ObjectIdentifier(T.self), object: object)
    }
}

struct EnvironmentObjectWriter<Content: View>: View, PrimitiveView {
    let content: Content
    let key: ObjectIdentifier
    let object: AnyObject
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let saved = context.environment.objects[key]
        context.environment.objects[key] = object
        defer { context.environment.objects[key] = saved }
        return context.render(content, path: path)
    }
}
