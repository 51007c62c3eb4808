/// The axis of the stack a view is laid out in (for `frame(maxWidth: .infinity)` and `Spacer`).
enum StackAxis { case none, horizontal, vertical }

/// Collects the output of one render pass of a scene: nodes, actions, title, navigation detail,
/// toolbar items and life-cycle hooks; carries what a view inherits (environment, stack axis).
@MainActor
final class RenderContext {
    let scene: SceneInstance
    var actions: [String: () -> Void] = [:]
    var inputs: [String: (String) -> Void] = [:]
    var title: String?
    /// Whether a navigation container already shows the title in the page.
    var titleShown = false
    var detail: (any View)?
    var environment = EnvironmentValues()
    var axis: StackAxis = .none
    var toolbar: [Node] = []
    /// Life-cycle hooks, by path: run by the scene after the pass.
    var appear: [String: () -> Void] = [:]
    var disappear: [String: () -> Void] = [:]
    var changes: [ChangeHook] = []
    var tasks: [String: TaskHook] = [:]
    /// The `onSubmit` action in effect for text fields.
    var onSubmit: (() -> Void)?
    /// The selection of the enclosing `List(selection:)`.
    var listSelection: ListSelection?
    /// `navigationDestination(for:)` registrations of the enclosing navigation stack, by value type.
    var destinations: [ObjectIdentifier: (Any) -> any View] = [:]
    /// The selected plain `NavigationLink` (its path) of the enclosing navigation view.
    var linkSelection: StorageSlot?
    /// Pushes onto the enclosing navigation stack.
    var push: ((StackEntry) -> Void)?
    /// Inside an alert: buttons also dismiss it.
    var alertDismiss: (() -> Void)?
    /// Storage slots used in this pass (others are dropped afterwards).
    var usedSlots: Set<String> = []
    /// Tags of rendered nodes (from `tag(_:)` and `ForEach` identities), for pickers and list selection.
    var tags: [String: AnyHashable] = [:]

    init(scene: SceneInstance) { self.scene = scene }

    /// Renders any view at a structural path.
    func render(_ view: any View, path: String) -> [Node] {
        if let primitive = view as? any PrimitiveView { return primitive.makeNodes(self, path: path) }
        scene.installDynamicProperties(of: view, path: path, context: self)
        return render(view.body, path: path)
    }

    /// Renders with a temporary stack axis.
    func render(_ view: any View, path: String, axis: StackAxis) -> [Node] {
        let saved = self.axis
        self.axis = axis
        defer { self.axis = saved }
        return render(view, path: path)
    }

    /// Registers a click action for an element, unless controls are disabled here.
    func action(_ id: String, _ f: @escaping () -> Void) -> Bool {
        guard environment.isEnabled else { return false }
        actions[id] = f
        return true
    }

    /// Registers an input handler for an element, unless controls are disabled here.
    func input(_ id: String, _ f: @escaping (String) -> Void) -> Bool {
        guard environment.isEnabled else { return false }
        inputs[id] = f
        return true
    }

    /// Attributes every control carries: the disabled state.
    var disabledAttribute: [(String, String)] { [("disabled", environment.isEnabled ? "false" : "true")] }
}
