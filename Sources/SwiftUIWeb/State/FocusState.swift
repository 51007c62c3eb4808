/// Which control has keyboard focus, as a value a view reads and sets: `focused(_:equals:)` ties controls to
/// values (or `focused(_:)` one control to `true`); reading gives the value of the control the page has focused
/// (`false` or `nil` when none of them is); setting moves the page's focus to that control (or away from them).
@MainActor @propertyWrapper
public struct FocusState<Value: Hashable>: DynamicProperty, SceneBindable {
    final class Box {
        weak var scene: SceneInstance?
        var key = ""
        let none: Value
        init(none: Value) { self.none = none }
    }
    let box: Box

    /// Focus state for one control: `true` while it has focus.
    public init() where Value == Bool { box = Box(none: false) }
    /// Focus state for several controls, each tied to a value: `nil` while none of them has focus.
    public init<T: Hashable>() where Value == T? { box = Box(none: nil) }

    /// The value of the focused control, or `false` / `nil`; setting it moves the page's focus.
    public var wrappedValue: Value {
        get { box.scene?.focusValue(key: box.key, as: Value.self) ?? box.none }
        nonmutating set {
            box.scene?.moveFocus(key: box.key, to: AnyHashable(newValue), clearing: newValue == box.none)
        }
    }

    /// The binding `focused(_:equals:)` takes.
    public var projectedValue: Binding { Binding(box: box) }

    /// A focus state handed to `focused(_:equals:)`, or down to a subview.
    @MainActor @propertyWrapper
    public struct Binding {
        let box: Box
        /// The value of the focused control, or `false` / `nil`; setting it moves the page's focus.
        public var wrappedValue: Value {
            get { box.scene?.focusValue(key: box.key, as: Value.self) ?? box.none }
            nonmutating set {
                box.scene?.moveFocus(key: box.key, to: AnyHashable(newValue), clearing: newValue == box.none)
            }
        }
        /// The binding itself.
        public var projectedValue: Binding { self }
    }

    func install(in scene: SceneInstance, key: String, context: RenderContext) {
        box.scene = scene
        box.key = key
        // A slot only to know the view that owns the state: it renders again when the page's focus moves.
        _ = scene.slot(for: key, context: context) { 0 }
        scene.focusStateKeys.insert(key)
    }
}

/// Ties a view's element to a focus state's value.
struct FocusedView<Content: View>: View, PrimitiveView {
    let content: Content
    let key: String
    let value: AnyHashable
    var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let nodes = context.render(content, path: path + ".f")
        guard let first = nodes.first else { return nodes }
        context.addFocusTarget(key: key, element: first.id, value: value)
        return nodes
    }
}

extension View {
    /// Ties this control to `value` of a focus state: the state reads `value` while the control has focus, and
    /// setting the state to `value` focuses it.
    public func focused<Value: Hashable>(_ binding: FocusState<Value>.Binding, equals value: Value) -> some View {
        FocusedView(content: self, key: binding.box.key, value: AnyHashable(value))
    }

    /// Ties this control to a Boolean focus state: `true` while it has focus, and setting `true` focuses it.
    public func focused(_ condition: FocusState<Bool>.Binding) -> some View {
        FocusedView(content: self, key: condition.box.key, value: AnyHashable(true))
    }
}

extension SceneInstance {
    /// The value a focus state reads: the one its control with the page's focus is tied to.
    func focusValue<Value>(key: String, as type: Value.Type) -> Value? {
        guard let element = focusedElement, let value = focusTargets[key]?[element] else { return nil }
        return value.base as? Value
    }

    /// Moves the page's focus to the control tied to `value` (or, `clearing`, away from this state's controls).
    /// A value no rendered control is tied to moves nothing, as in SwiftUI.
    func moveFocus(key: String, to value: AnyHashable, clearing: Bool) {
        let targets = focusTargets[key] ?? [:]
        if clearing {
            guard let element = focusedElement, targets[element] != nil else { return }
            focusedElement = nil
            pending.append(.focus(id: ""))
        } else {
            guard let element = targets.first(where: { $0.value == value })?.key else { return }
            guard element != focusedElement else { return }
            focusedElement = element
            pending.append(.focus(id: element))
        }
        focusMoved()
    }

    /// The page's focus moved: the views that own focus states render again.
    func focusMoved() {
        for key in focusStateKeys {
            if let slot = slots[key] { changed(slot) } else { focusStateKeys.remove(key) }
        }
        schedule()
    }
}
