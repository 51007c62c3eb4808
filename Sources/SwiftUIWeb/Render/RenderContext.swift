/// The axis of the stack a view is laid out in (for `frame(maxWidth: .infinity)` and `Spacer`).
enum StackAxis { case none, horizontal, vertical }

/// Collects the output of one render pass of a scene: nodes, actions, title, navigation detail,
/// toolbar items and life-cycle hooks; carries what a view inherits (environment, stack axis).
@MainActor
package final class RenderContext {
    let scene: SceneInstance
    private(set) var actions: [String: () -> Void] = [:]
    private(set) var inputs: [String: (String) -> Void] = [:]
    var title: String?
    /// Whether a navigation container already shows the title in the page.
    var titleShown = false
    private(set) var detail: (any View)?
    package var environment = EnvironmentValues()
    var axis: StackAxis = .none
    private(set) var toolbar: [Node] = []
    /// Values published to commands (`focusedValue`, `focusedSceneValue`) in this pass.
    private(set) var focused: [FocusedEntry] = []
    /// Life-cycle hooks, by path: run by the scene after the pass.
    private(set) var appear: [String: () -> Void] = [:]
    private(set) var disappear: [String: () -> Void] = [:]
    private(set) var changes: [ChangeHook] = []
    private(set) var tasks: [String: TaskHook] = [:]
    /// `onOpenURL` handlers and `handlesExternalEvents(preferring:allowing:)` preferences of this pass.
    private(set) var openURLHandlers: [(URL) -> Void] = []
    private(set) var externalPreferences: [ExternalEventPreference] = []
    /// The `preferredColorScheme` the window's views ask for in this pass: the first asked (the outermost view's).
    private(set) var preferredColorScheme: ColorScheme?
    private var colorSchemeAsked = false
    /// Controls tied to focus states (`focused(_:equals:)`): by focus state key, element id to value.
    private(set) var focusTargets: [String: [String: AnyHashable]] = [:]
    /// The `onSubmit` action in effect for text fields.
    var onSubmit: (() -> Void)?
    /// Inside an alert: buttons also dismiss it.
    var alertDismiss: (() -> Void)?
    /// The selection of the enclosing `List(selection:)`.
    var listSelection: ListSelection?
    /// `navigationDestination(for:)` registrations of the enclosing navigation stack, by value type.
    private(set) var destinations: [ObjectIdentifier: (Any) -> any View] = [:]
    /// The selected plain `NavigationLink` (its path) of the enclosing navigation view.
    var linkSelection: StorageSlot?
    /// Pushes onto the enclosing navigation stack.
    var push: ((StackEntry) -> Void)?
    /// Storage slots used in this pass (others are dropped afterwards).
    private(set) var usedSlots: Set<String> = []
    /// Tags of rendered nodes (from `tag(_:)` and `ForEach` identities), for pickers and list selection.
    private(set) var tags: [String: AnyHashable] = [:]
    /// The effects of the views being rendered, innermost last.
    var effects: [Effects] = []
    /// The view record being rendered (owner of the state installed now).
    var record: ViewRecord?
    /// Inside a picker or a selectable list: `ForEach` tags its rows with their identities.
    var wantsTags = false
    /// Inside a `List`: a `ForEach` with `onDelete` or `onMove` gives its rows edit controls.
    var inList = false
    /// Directly inside a lazy container (`List`, `LazyVStack`): a long `ForEach` renders a window of its rows.
    /// Passed through `ForEach`, `Section`, `Group` and custom views; stacks and other containers clear it.
    var lazyRows = false
    /// Inside a view whose body was evaluated afresh: descendants are evaluated too.
    var forcing = false
    /// Inside a `TabView`: the path of the one tab whose content is rendered (the others show only their
    /// label), or "" while the tab view only reads its tabs' labels and tags.
    var shownTab: String?

    init(scene: SceneInstance) { self.scene = scene }

    /// Renders any view at a structural path.
    package func render(_ view: any View, path: String) -> [Node] {
        if let primitive = view as? any PrimitiveView { return primitive.makeNodes(self, path: path) }
        return scene.renderRecord(view, path: path, context: self)
    }

    /// Renders a container's content with a temporary stack axis. The content is not directly inside a lazy
    /// container unless the container is one (`lazyRows`) or passes it on (a `Section` in a `List`).
    func render(_ view: any View, path: String, axis: StackAxis, lazyRows: Bool = false) -> [Node] {
        let saved = self.axis
        let savedLazy = self.lazyRows
        let savedFrame = environment.shapeFrame
        self.axis = axis
        self.lazyRows = lazyRows
        environment.shapeFrame = nil  // A frame's size is for the view directly inside it.
        defer {
            self.axis = saved
            self.lazyRows = savedLazy
            environment.shapeFrame = savedFrame
        }
        return render(view, path: path)
    }

    /// Registers a click action for an element, unless controls are disabled here.
    func action(_ id: String, _ f: @escaping () -> Void) -> Bool {
        guard environment.isEnabled else { return false }
        addAction(id, f)
        return true
    }

    /// Registers an input handler for an element, unless controls are disabled here.
    func input(_ id: String, _ f: @escaping (String) -> Void) -> Bool {
        guard environment.isEnabled else { return false }
        addInput(id, f)
        return true
    }

    /// Attributes every control carries: the disabled state.
    var disabledAttribute: [(String, String)] { [("disabled", environment.isEnabled ? "false" : "true")] }

    // MARK: effects (recorded for replay)

    func addAction(_ id: String, _ f: @escaping () -> Void) {
        actions[id] = f
        effects.last?.actions.append((id, f))
    }
    func addInput(_ id: String, _ f: @escaping (String) -> Void) {
        inputs[id] = f
        effects.last?.inputs.append((id, f))
    }
    func setTag(_ id: String, _ tag: AnyHashable) {
        tags[id] = tag
        effects.last?.tags.append((id, tag))
    }
    func addAppear(_ path: String, _ f: @escaping () -> Void) {
        appear[path] = f
        effects.last?.appear.append((path, f))
    }
    func addDisappear(_ path: String, _ f: @escaping () -> Void) {
        disappear[path] = f
        effects.last?.disappear.append((path, f))
    }
    func addChange(_ hook: ChangeHook) {
        changes.append(hook)
        effects.last?.changes.append(hook)
    }
    func addTask(_ path: String, _ hook: TaskHook) {
        tasks[path] = hook
        effects.last?.tasks.append((path, hook))
    }
    func addOpenURLHandler(_ handler: @escaping (URL) -> Void) {
        openURLHandlers.append(handler)
        effects.last?.openURLHandlers.append(handler)
    }
    func addExternalEventPreference(_ preference: ExternalEventPreference) {
        externalPreferences.append(preference)
        effects.last?.externalPreferences.append(preference)
    }
    func addPreferredColorScheme(_ scheme: ColorScheme?) {
        if let scheme, !colorSchemeAsked {  // nil: no preference, which leaves the choice to other views
            colorSchemeAsked = true
            preferredColorScheme = scheme
        }
        effects.last?.colorSchemes.append(scheme)
    }
    func addFocusTarget(key: String, element: String, value: AnyHashable) {
        focusTargets[key, default: [:]][element] = value
        effects.last?.focusTargets.append((key, element, value))
    }
    func useSlot(_ key: String) {
        usedSlots.insert(key)
        effects.last?.slots.append(key)
    }
    func addFocused(_ entry: FocusedEntry) {
        focused.append(entry)
        effects.last?.focused.append(entry)
    }
    func addToolbar(_ nodes: [Node]) {
        toolbar += nodes
        effects.last?.toolbar += nodes
    }
    func addDestination(_ type: ObjectIdentifier, _ make: @escaping (Any) -> any View) {
        destinations[type] = make
        effects.last?.destinations.append((type, make))
    }
    func setDetail(_ view: any View) {
        detail = view
        effects.last?.detail = view
    }
    /// A navigation container took the detail its links set; it goes no further up.
    func consumeDetail(restoring saved: (any View)?) {
        detail = saved
        effects.last?.detail = nil
    }
    /// A navigation stack took its destinations; they go no further up.
    func consumeDestinations(restoring saved: [ObjectIdentifier: (Any) -> any View]) {
        destinations = saved
        effects.last?.destinations = []
    }
    func resetDestinations() { destinations = [:] }
    func resetDetail() { detail = nil }

    /// Replays a reused subtree's effects.
    func replay(_ e: Effects) {
        for (k, f) in e.actions { addAction(k, f) }
        for (k, f) in e.inputs { addInput(k, f) }
        for (k, t) in e.tags { setTag(k, t) }
        for (k, f) in e.appear { addAppear(k, f) }
        for (k, f) in e.disappear { addDisappear(k, f) }
        for h in e.changes { addChange(h) }
        for (k, h) in e.tasks { addTask(k, h) }
        for k in e.slots { useSlot(k) }
        for (t, m) in e.destinations { addDestination(t, m) }
        if !e.toolbar.isEmpty { addToolbar(e.toolbar) }
        for f in e.focused { addFocused(f) }
        for h in e.openURLHandlers { addOpenURLHandler(h) }
        for p in e.externalPreferences { addExternalEventPreference(p) }
        for c in e.colorSchemes { addPreferredColorScheme(c) }
        for t in e.focusTargets { addFocusTarget(key: t.key, element: t.element, value: t.value) }
        if let d = e.detail { setDetail(d) }
        if title == nil, let t = e.title { title = t }
        if e.titleShown { titleShown = true }
    }
}
