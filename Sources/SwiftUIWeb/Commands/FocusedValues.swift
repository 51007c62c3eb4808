/// A key for a value the focused view (or the focused window) publishes to commands.
public protocol FocusedValueKey {
    /// The type of the value.
    associatedtype Value
}

/// The values published by the focused view and window, read by commands with `@FocusedValue` and
/// `@FocusedBinding`.
public struct FocusedValues {
    var values: [ObjectIdentifier: Any] = [:]
    /// Creates empty focused values.
    public init() {}
    /// The value for a key, if the focused view or window publishes one.
    public subscript<Key: FocusedValueKey>(key: Key.Type) -> Key.Value? {
        get { values[ObjectIdentifier(key)] as? Key.Value }
        set { values[ObjectIdentifier(key)] = newValue }
    }
}

/// One `focusedValue` / `focusedSceneValue` of a pass: the path of the view that published it and what it sets.
struct FocusedEntry {
    let path: String
    let sceneWide: Bool
    let apply: (inout FocusedValues) -> Void

    /// Whether the focused element (by id) is inside the view at `path`.
    func covers(_ focused: String?) -> Bool {
        guard let focused, focused.hasPrefix(path) else { return false }
        guard let next = focused.dropFirst(path.count).first else { return true }
        return next == "." || next == "~" || next == "!"
    }
}

/// Reads a value the focused view or window publishes (`nil` when none does).
@MainActor @propertyWrapper
public struct FocusedValue<Value>: DynamicProperty, SceneBindable {
    final class Box { var value: Value? }
    let keyPath: KeyPath<FocusedValues, Value?>
    let box = Box()
    /// Reads the value at a key path of ``FocusedValues``.
    public init(_ keyPath: KeyPath<FocusedValues, Value?>) { self.keyPath = keyPath }
    /// The value, if published.
    public var wrappedValue: Value? { box.value }
    func install(in scene: SceneInstance, key: String, context: RenderContext) {
        box.value = scene.focusedValues[keyPath: keyPath]
    }
}

/// A binding the focused view or window publishes, read and written by commands.
@MainActor @propertyWrapper
public struct FocusedBinding<Value>: DynamicProperty, SceneBindable {
    final class Box { var binding: Binding<Value>? }
    let keyPath: KeyPath<FocusedValues, Binding<Value>?>
    let box = Box()
    /// Reads the binding at a key path of ``FocusedValues``.
    public init(_ keyPath: KeyPath<FocusedValues, Binding<Value>?>) { self.keyPath = keyPath }
    /// The bound value (`nil` when no focused view publishes the binding; setting it then does nothing).
    public var wrappedValue: Value? {
        get { box.binding?.wrappedValue }
        nonmutating set {
            guard let binding = box.binding, let newValue else { return }
            binding.wrappedValue = newValue
        }
    }
    /// A binding to the optional value.
    public var projectedValue: Binding<Value?> {
        let box = self.box
        return Binding(get: { box.binding?.wrappedValue }, set: { v in if let v { box.binding?.wrappedValue = v } })
    }
    func install(in scene: SceneInstance, key: String, context: RenderContext) {
        box.binding = scene.focusedValues[keyPath: keyPath]
    }
}

struct FocusedValueWriter<Content: View>: View, PrimitiveView {
    let content: Content
    let sceneWide: Bool
    let apply: (inout FocusedValues) -> Void
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        context.addFocused(FocusedEntry(path: path, sceneWide: sceneWide, apply: apply))
        return context.render(content, path: path)
    }
}

extension View {
    /// Publishes a value to commands while this view (or something in it) has focus.
    public func focusedValue<Value>(_ keyPath: WritableKeyPath<FocusedValues, Value?>, _ value: Value) -> some View {
        FocusedValueWriter(content: self, sceneWide: false) { $0[keyPath: keyPath] = value }
    }
    /// Publishes a value (or none) to commands while this view has focus.
    public func focusedValue<Value>(_ keyPath: WritableKeyPath<FocusedValues, Value?>, _ value: Value?) -> some View {
        FocusedValueWriter(content: self, sceneWide: false) { $0[keyPath: keyPath] = value }
    }
    /// Publishes a value to commands while this view's window is the focused one.
    public func focusedSceneValue<Value>(_ keyPath: WritableKeyPath<FocusedValues, Value?>, _ value: Value) -> some View
    {
        FocusedValueWriter(content: self, sceneWide: true) { $0[keyPath: keyPath] = value }
    }
    /// Publishes a value (or none) to commands while this view's window is the focused one.
    public func focusedSceneValue<Value>(
        _ keyPath: WritableKeyPath<FocusedValues, Value?>, _ value: Value?
    ) -> some View {
        FocusedValueWriter(content: self, sceneWide: true) { $0[keyPath: keyPath] = value }
    }
}
