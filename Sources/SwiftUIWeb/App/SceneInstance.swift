import Foundation

/// One live window: its storage, its last rendering, and the socket it is bound to.
@MainActor
public final class SceneInstance {
    /// Unguessable id (128 random bits, hex).
    public let id: String
    let host: AppHost
    /// The id of the window group this window belongs to (`nil`: the app's first group).
    let group: String?
    var slots: [String: StorageSlot] = [:]
    var sceneStorage: [String: Data] = [:] { didSet { host.persist(self) } }
    var lastTree: Node?
    var actions: [String: () -> Void] = [:]
    var inputs: [String: (String) -> Void] = [:]
    var title: String = ""
    var observed: [ObjectIdentifier: (subscription: AnyCancellable, paths: Set<String>)] = [:]
    var dirty = false
    /// Every view must be evaluated again (set by changes not tied to one view).
    var needsFull = true
    /// The custom views of the last pass, by path: their cached nodes, effects and dirty state.
    var records: [String: ViewRecord] = [:]
    private var live: Set<String> = []
    /// How many view bodies were evaluated (for tests and the benchmark).
    public private(set) var bodyEvaluations = 0
    var sink: (@Sendable (String) -> Void)?
    /// Closes the window's socket (the page reconnects by itself).
    var hangUp: (@Sendable () -> Void)?
    /// The socket the scene is bound to (0: none); events from any other socket are ignored.
    var connection: UInt64 = 0
    /// The page holds exactly `lastTree`: served by `document()` and not changed since.
    var pageInSync = false
    var lastSeen = Date()
    /// Patches produced outside a render (window opening), sent with the next flush.
    var pending: [Patch] = []
    // Life-cycle state from the previous pass.
    var appeared: [String: () -> Void] = [:]
    var disappearing: [String: () -> Void] = [:]
    var changeValues: [String: (value: Any, equals: (Any) -> Bool)] = [:]
    var running: [String: (hook: TaskHook, task: Task<Void, Never>)] = [:]
    /// How many passes ran (for tests and the benchmark).
    public private(set) var renderCount = 0
    /// The values the focused view and this window publish to commands (from the last pass).
    var focusedValues = FocusedValues()
    /// The id of the page element that has keyboard focus (sent by the page).
    var focusedElement: String?
    /// Whether the last pass had values that depend on which element has focus.
    private var focusDependent = false
    /// The window's phase, from the page's visibility and focus (`.background` while no page is connected).
    var phase: ScenePhase = .background
    /// The system's appearance as the page reports it.
    var systemColorScheme: ColorScheme = .light
    /// The window's `preferredColorScheme`, from its last render (`nil`: none asked for, the system's).
    var preferredColorScheme: ColorScheme?
    /// The menu bar of a window whose menus never change (built once).
    private var staticMenuBar: Node??
    /// The document window shows its Rename sheet.
    var renaming = false
    /// A message for the person (a failed menu command), shown at the top of the window until dismissed.
    var notice: String?
    /// The window's `onOpenURL` handlers and external-event preferences (from the last pass).
    var openURLHandlers: [(URL) -> Void] = []
    var externalPreferences: [ExternalEventPreference] = []
    /// External URLs waiting for the window's first pass.
    var pendingURLs: [URL] = []
    /// Controls tied to focus states in the last pass: by focus state (its slot key), element id to value.
    var focusTargets: [String: [String: AnyHashable]] = [:]
    /// The slot keys of the window's `@FocusState`s.
    var focusStateKeys: Set<String> = []
    /// The animation of a `withAnimation` block that changed what this window shows: its next patches animate.
    var pendingAnimation: Animation?

    init(id: String, host: AppHost, group: String? = nil) {
        self.id = id
        self.host = host
        self.group = group
    }

    func slot(for key: String, context: RenderContext? = nil, make: () -> Any) -> StorageSlot {
        context?.useSlot(key)
        let owner = context?.record?.path
        if let s = slots[key] {
            s.owner = owner
            return s
        }
        let s = StorageSlot(value: make(), scene: self)
        s.owner = owner
        slots[key] = s
        return s
    }

    /// A slot's value changed: its owning view (or, without one, the whole window) renders again.
    func changed(_ slot: StorageSlot) {
        if let animation = AnimationTransaction.current { pendingAnimation = animation }
        if let owner = slot.owner { markDirty(owner) } else { invalidate() }
    }

    /// Re-renders the views that observe `object` when it announces a change.
    func observe<O: ObservableObject>(_ object: O, context: RenderContext?) {
        let key = ObjectIdentifier(object)
        let path = context?.record?.path
        if var entry = observed[key] {
            if let path {
                entry.paths.insert(path)
                observed[key] = entry
            }
            return
        }
        // A change may be announced on any thread: the handler only records it and wakes the scene.
        let subscription = object.objectWillChange.sink { @Sendable [marks, weak self] _ in
            // A change made in a `withAnimation` block (a task-local value, so never another task's) animates
            // the window it touches.
            marks.add(object: key, animation: AnimationTransaction.current)
            SceneInstance.wake(self)
        }
        observed[key] = (AnyCancellable(subscription), path.map { [$0] } ?? [])
        // OpenCombine gives a class with no @Published property a new publisher on every read (Apple's Combine
        // keeps one per object), so its `objectWillChange.send()` reaches nobody: say so, and how to fix it,
        // rather than leave views that never update.
        if O.ObjectWillChangePublisher.self == ObservableObjectPublisher.self,
            (object.objectWillChange as AnyObject) !== (object.objectWillChange as AnyObject)
        {
            let message =
                "\(O.self) has no @Published property, so its objectWillChange is a new publisher on every read and "
                + "views cannot observe it: declare `let objectWillChange = ObservableObjectPublisher()` in it."
            if host.unobservableTypes.insert(ObjectIdentifier(O.self)).inserted { host.logger.error("\(message)") }
            report(message)
        }
    }

    /// Changes announced from any thread, applied on the main actor before the next pass (or at once
    /// by the flush of the event whose handler made them).
    nonisolated let marks = Marks()

    final class Marks: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: Set<String> = [], objects: Set<ObjectIdentifier> = []
        private var animation: Animation?
        func add(path: String) {
            lock.lock()
            paths.insert(path)
            lock.unlock()
        }
        func add(object: ObjectIdentifier, animation: Animation? = nil) {
            lock.lock()
            objects.insert(object)
            if let animation { self.animation = animation }
            lock.unlock()
        }
        func take() -> (Set<String>, Set<ObjectIdentifier>, Animation?) {
            lock.lock()
            defer { lock.unlock() }
            let r = (paths, objects, animation)
            paths = []
            objects = []
            animation = nil
            return r
        }
    }

    nonisolated static func wake(_ scene: SceneInstance?) {
        guard let scene else { return }
        Task { @MainActor in scene.applyMarks() }
    }

    func applyMarks() {
        let (paths, objects, animation) = marks.take()
        if let animation { pendingAnimation = animation }
        for p in paths { markDirty(p) }
        for key in objects {
            guard let entry = observed[key], !entry.paths.isEmpty else {
                invalidate()
                continue
            }
            for p in entry.paths { markDirty(p) }
        }
    }

    /// Marks one view for re-rendering (its ancestors learn that something below them changed).
    func markDirty(_ path: String) {
        guard let r = records[path] else {
            invalidate()
            return
        }
        r.dirty = true
        var p = r.parent
        while let q = p, !q.dirtyBelow {
            q.dirtyBelow = true
            p = q.parent
        }
        schedule()
    }

    /// Renders a custom view: replays its cached output when neither it nor anything below it changed,
    /// walks its last body again when only something below changed, and evaluates `body` otherwise.
    func renderRecord(_ view: any View, path: String, context: RenderContext) -> [Node] {
        let type = ObjectIdentifier(Swift.type(of: view))
        let old = records[path].flatMap { $0.type == type && $0.body != nil ? $0 : nil }
        if !context.forcing, let old, !old.dirty, !old.dirtyBelow {
            context.replay(old.effects)
            old.parent = context.record
            context.record?.children.append(old)
            markLive(old)
            return old.nodes
        }
        let record = ViewRecord(path: path, type: type)
        record.parent = context.record
        context.record?.children.append(record)
        records[path] = record
        live.insert(path)
        let savedRecord = context.record
        let savedForcing = context.forcing
        let titleBefore = context.title
        let shownBefore = context.titleShown
        let collector = Effects()
        context.effects.append(collector)
        context.record = record
        var nodes: [Node] = []
        withObservationTracking {
            if !context.forcing, let old, !old.dirty, let body = old.body {
                // Only something below changed: walk the last body again, without evaluating it.
                record.body = body
                record.ownSlots = old.ownSlots
                for k in old.ownSlots { context.useSlot(k) }
                nodes = context.render(body, path: path)
            } else {
                context.forcing = true
                let before = collector.slots.count
                installDynamicProperties(of: view, path: path, context: context)
                record.ownSlots = Array(collector.slots[before...])
                bodyEvaluations += 1
                let body = view.body
                record.body = body
                nodes = context.render(body, path: path)
            }
        } onChange: { [marks, weak self] in
            marks.add(path: path)
            SceneInstance.wake(self)
        }
        context.forcing = savedForcing
        context.record = savedRecord
        context.effects.removeLast()
        if titleBefore == nil { collector.title = context.title }
        collector.titleShown = !shownBefore && context.titleShown
        context.effects.last?.absorb(collector)
        record.effects = collector
        record.nodes = nodes
        return nodes
    }

    private func markLive(_ r: ViewRecord) {
        live.insert(r.path)
        for c in r.children { markLive(c) }
    }

    func installDynamicProperties(of view: Any, path: String, context: RenderContext) {
        if Mirror(reflecting: view).children.isEmpty { return }
        for child in Mirror(reflecting: view).children {
            if let b = child.value as? any SceneBindable {
                b.install(in: self, key: path + "/" + (child.label ?? "?"), context: context)
            }
        }
    }

    func makeContext() -> RenderContext {
        let context = RenderContext(scene: self)
        var open = OpenWindowAction { [weak self] group in self?.openWindow(group: group) }
        open.openValue = { [weak self] group, type, value in self?.openWindow(group: group, type: type, value: value) }
        context.environment.openWindow = open
        context.environment.dismissWindow = DismissWindowAction { [weak self] own, group, type, value in
            self?.dismissWindows(own: own, group: group, type: type, value: value)
        }
        installDocumentActions(in: &context.environment)
        context.environment.scenePhase = phase
        context.environment.colorScheme = preferredColorScheme ?? systemColorScheme
        // The window's edit mode: a slot of the window (not of a view), so a change renders the whole window.
        let editMode = slot(for: "_swiftuiweb.editMode", context: context) { EditMode.inactive }
        context.environment.editMode = Binding(
            get: { editMode.value as? EditMode ?? .inactive },
            set: { [weak editMode] mode in
                guard let editMode else { return }
                editMode.value = mode
                editMode.scene?.changed(editMode)
            })
        return context
    }

    /// Asks the browser to open a new window of a window group (a `Window` or `Settings` scene's one
    /// window is reused: the browser window is named after it).
    func openWindow(group: String?) {
        let url = group.map { "/?g=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") } ?? "/"
        let kind = SceneCatalog(app: host.app).entry(for: group)?.kind
        if let group, kind == .window || kind == .settings || kind == .previews {
            pending.append(.openNamed(url: url, name: "swiftuiweb-" + group))
        } else {
            pending.append(.open(url: url))
        }
        schedule()
    }

    /// The reserved @SceneStorage key of the value a window presents.
    static let valueKey = "_swiftuiweb.value"

    /// A binding to the value the window presents (`WindowGroup(for:)`), kept in its @SceneStorage.
    func presentedValue<D: Codable & Hashable>(_ type: D.Type) -> Binding<D?> {
        Binding(
            get: { [weak self] in
                guard let data = self?.sceneStorage[SceneInstance.valueKey] else { return nil }
                do { return try PresentedValueCoding.decode(D.self, data) } catch {
                    self?.host.logger.error(
                        "window \(self?.id ?? "?"): its presented \(D.self) no longer decodes (\(error)); it presents none"
                    )
                    return nil
                }
            },
            set: { [weak self] value in
                guard let self else { return }
                self.sceneStorage[SceneInstance.valueKey] = value.flatMap { PresentedValueCoding.encode($0) }
                self.invalidate()
            })
    }

    /// Opens a window presenting a value: the group with this id (or the first for the value's type); the
    /// window already presenting the value is shown again instead of a second one.
    func openWindow(group: String?, type: ObjectIdentifier, value: Data) {
        let catalog = SceneCatalog(app: host.app)
        guard
            let entry = group.flatMap({ catalog.entry(for: $0) })
                ?? catalog.entries.first(where: { $0.valueType == type }),
            entry.valueType == type
        else {
            report("openWindow(value:): no window group presents this type of value")
            return
        }
        if let existing = host.scenes.values.first(where: {
            $0.group == entry.id && $0.sink != nil && $0.sceneStorage[SceneInstance.valueKey] == value
        }) {
            pending.append(.openNamed(url: "/?w=" + existing.id, name: "swiftuiweb-" + existing.id))
        } else {
            let scene = host.newScene(group: entry.id)
            scene.sceneStorage[SceneInstance.valueKey] = value
            pending.append(.open(url: "/?w=" + scene.id))
        }
        schedule()
    }

    /// Closes this window, or the windows of a group and/or presenting a value.
    func dismissWindows(own: Bool, group: String?, type: ObjectIdentifier?, value: Data?) {
        if own {
            pending.append(.close)
            schedule()
            return
        }
        for scene in host.scenes.values where scene.sink != nil {
            if let group, scene.group != group { continue }
            if let value, scene.sceneStorage[SceneInstance.valueKey] != value { continue }
            scene.pending.append(.close)
            scene.schedule()
        }
    }

    /// Opens a URL of this server in a new browser window.
    func openURL(_ url: String) {
        pending.append(.open(url: url))
        schedule()
    }

    /// Loads a URL of this server in this window.
    func navigate(_ url: String) {
        pending.append(.navigate(url: url))
        schedule()
    }

    /// Shows a message at the top of the window (a command that failed), until dismissed.
    func report(_ message: String) {
        notice = message
        invalidate()
    }

    /// Renders the scene's root view to a node tree, with the window bar (title, toolbar, New Window).
    func render() -> Node {
        renderCount += 1
        let context = makeContext()
        context.forcing = needsFull
        needsFull = false
        live = []
        let catalog = SceneCatalog(app: host.app)
        var nodes = context.render(
            RootView(content: host.rootView(for: self, catalog: catalog)), path: "v", axis: .vertical)
        let isDocument = catalog.entry(for: group)?.kind == .document
        if renaming, isDocument {
            let sheet = context.render(RenameDocumentView(scene: self), path: "rename", axis: .vertical)
            nodes.append(
                Node(
                    "div", id: "rename~", attributes: [("class", "sw-overlay")],
                    children: [
                        Node(
                            "div", id: "rename~s",
                            attributes: [("class", "sw-sheet"), ("role", "dialog"), ("aria-label", "Rename Document")],
                            children: sheet)
                    ]))
        }
        var values = FocusedValues()
        focusDependent = false
        for entry in context.focused {
            if entry.sceneWide || entry.covers(focusedElement) { entry.apply(&values) }
            if !entry.sceneWide { focusDependent = true }
        }
        focusedValues = values
        focusTargets = context.focusTargets
        // Without commands or documents, a window has the same menu bar every pass (all its items act in
        // the page, none registers an action): it is built once.
        let menuBar: Node?
        if catalog.commands.isEmpty && catalog.documentGroups.isEmpty {
            if staticMenuBar == nil {
                staticMenuBar = .some(MenuBar(scene: self, context: context, catalog: catalog).build())
            }
            menuBar = staticMenuBar ?? nil
        } else {
            menuBar = MenuBar(scene: self, context: context, catalog: catalog).build()
        }
        records = records.filter { live.contains($0.key) }
        for (key, entry) in observed {
            let paths = entry.paths.filter { live.contains($0) }
            if paths.isEmpty {
                entry.subscription.cancel()
                observed[key] = nil
            } else {
                observed[key]?.paths = paths
            }
        }
        actions = context.actions
        inputs = context.inputs
        title = context.title ?? catalog.entry(for: group)?.title ?? ""
        if isDocument, let controller = try? host.documentController(for: self) {  // A document that failed to open keeps the view's title.
            title = DocumentLibrary.displayName(controller.name) + (controller.isEdited ? " — Edited" : "")
        }
        slots = slots.filter { context.usedSlots.contains($0.key) }
        openURLHandlers = context.openURLHandlers
        externalPreferences = context.externalPreferences
        if context.preferredColorScheme != preferredColorScheme {
            // The window's scheme changed: render again, so that every view reads it from the environment.
            preferredColorScheme = context.preferredColorScheme
            invalidate()
        }
        runLifecycle(context)
        deliverPendingURLs()
        let newWindowURL =
            group.map { "/?g=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") } ?? "/"
        // "New Window" belongs to window groups (and the start page); a single window or a document's has none.
        let kind = catalog.entry(for: group)?.kind ?? .windowGroup
        let opensNewWindows = kind == .windowGroup || kind == .documentBrowser
        let bar = Node(
            "header", id: "bar", attributes: [("class", "sw-windowbar")],
            children: (menuBar.map { [$0] } ?? []) + [
                Node(
                    "div", id: "bar.l", attributes: [("class", "sw-toolbar sw-leading")],
                    children: context.toolbar.filter { $0.attributes.first?.1.contains("sw-leading") == true }),
                Node(
                    "div", id: "bar.t", attributes: [("class", "sw-window-title")],
                    text: context.titleShown ? "" : title),
                Node(
                    "div", id: "bar.r", attributes: [("class", "sw-toolbar")],
                    children: context.toolbar.filter { $0.attributes.first?.1.contains("sw-leading") != true }),
            ] + (opensNewWindows ? [newWindowLink(newWindowURL)] : []))
        var noticeNodes: [Node] = []
        if let notice {
            context.addAction("notice.x") { [weak self] in
                self?.notice = nil
                self?.invalidate()
            }
            noticeNodes.append(
                Node(
                    "div", id: "notice", attributes: [("class", "sw-notice"), ("role", "alert")],
                    children: [
                        Node("span", id: "notice.t", text: notice),
                        Node(
                            "button", id: "notice.x",
                            attributes: [("class", "sw-button sw-borderless"), ("data-click", "1")], text: "Dismiss"),
                    ]))
            actions = context.actions
        }
        let scheme = preferredColorScheme.map { $0 == .dark ? "dark" : "light" } ?? ""
        return Node(
            "main", id: "root", attributes: [("class", "sw-window"), ("data-scheme", scheme)],
            children: [bar] + noticeNodes + [
                Node("div", id: "content", attributes: [("class", "sw-content")], children: nodes)
            ])
    }

    /// The window bar's "New Window" link.
    private func newWindowLink(_ url: String) -> Node {
        Node(
            "a", id: "bar.new",
            attributes: [("class", "sw-newwindow"), ("href", url), ("target", "_blank"), ("title", "New Window")],
            children: [
                Node(
                    "span", id: "bar.new.i", attributes: [("class", "sw-symbol")],
                    raw: Symbols.svg("macwindow.badge.plus")),
                Node("span", id: "bar.new.t", text: "New Window"),
            ])
    }

    /// Runs onAppear / onDisappear / onChange / task hooks after a pass.
    private func runLifecycle(_ context: RenderContext) {
        var fire: [() -> Void] = []
        for (path, f) in context.appear where appeared[path] == nil { fire.append(f) }
        for (path, f) in disappearing where context.disappear[path] == nil { fire.append(f) }
        appeared = context.appear
        disappearing = context.disappear
        var values: [String: (value: Any, equals: (Any) -> Bool)] = [:]
        for hook in context.changes {
            if let old = changeValues[hook.path] {
                if !old.equals(hook.value) {
                    let h = hook
                    fire.append { h.fire(old.value) }
                }
            } else if hook.initial {
                let h = hook
                fire.append { h.fire(nil) }
            }
            values[hook.path] = (hook.value, hook.equals)
        }
        changeValues = values
        for (path, r) in running where context.tasks[path] == nil {
            r.task.cancel()
            running[path] = nil
        }
        for (path, hook) in context.tasks {
            if let r = running[path] {
                if r.hook.equals(hook.id) { continue }
                r.task.cancel()
            }
            let work = hook.work
            running[path] = (hook, Task(priority: hook.priority) { @MainActor in await work() })
        }
        for f in fire { f() }
    }

    /// Invalidates a scene from any thread (hopping to the main actor).
    nonisolated static func invalidate(_ scene: SceneInstance?) {
        guard let scene else { return }
        Task { @MainActor in scene.invalidate() }
    }

    /// Marks the whole scene for re-rendering and schedules a flush.
    func invalidate() {
        needsFull = true
        schedule()
    }

    func schedule() {
        if dirty || id == "app" { return }
        dirty = true
        Task { @MainActor in if self.dirty { self.flush() } }
    }

    /// Re-renders and returns the patches against the last rendering (and sends them if connected).
    /// `echo` is the value an input event just set: a `value`/`checked` patch repeating it to its own
    /// element is left out, so a fast typist's field is never reset to an older value.
    @discardableResult
    public func flush() -> [Patch] { flush(echo: nil) }

    @discardableResult
    func flush(echo: (id: String, value: String)?) -> [Patch] {
        var patches: [Patch] = []
        // Life-cycle hooks may change state again: settle in a few passes.
        for _ in 0..<4 {
            applyMarks()
            dirty = false
            let oldTitle = title
            let new = render()
            if let old = lastTree {
                Differ.diff(old, new, into: &patches)
            } else {
                patches.append(.replace(id: "root", html: new.html))
            }
            if title != oldTitle { patches.append(.title(title)) }
            lastTree = new
            if !dirty { break }
        }
        if let echo {
            patches.removeAll {
                if case .attribute(echo.id, let name, let value) = $0, name == "value" || name == "checked" {
                    return value == echo.value
                }
                return false
            }
        }
        patches += pending
        pending = []
        if let animation = pendingAnimation, !patches.isEmpty {
            patches.insert(.animate(seconds: animation.duration + animation.delayTime, curve: animation.curve), at: 0)
        }
        pendingAnimation = nil
        if !patches.isEmpty {
            if let sink { sink("[" + patches.map(\.json).joined(separator: ",") + "]") } else { pageInSync = false }
        }
        return patches
    }

    /// Full HTML document for the first response.
    public func document() -> String {
        applyMarks()
        needsFull = true
        var tree = render()
        if dirty {
            dirty = false
            tree = render()
        }
        lastTree = tree
        pageInSync = true
        return """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">\
            <title>\(HTML.escape(title))</title><style>\(ClientAssets.css)</style></head>\
            <body data-scene="\(id)">\(tree.html)<script src="/_swiftuiweb/client.js"></script></body></html>
            """
    }

    /// Handles one event from the browser (as the server does for each message of the window's socket); returns
    /// the patches produced, which are also sent to the page when one is connected.
    @discardableResult
    public func handle(event: ClientEvent) -> [Patch] {
        lastSeen = Date()
        switch event.t {
        case "click":
            guard let action = actions[event.id] else { return [] }
            action()
            host.endUndoEventGroups()
            return flush()
        case "phase":
            let new: ScenePhase = event.id == "active" ? .active : event.id == "inactive" ? .inactive : .background
            guard new != phase else { return [] }
            phase = new
            invalidate()
            return flush()
        case "splice":
            // A long text field sends its edits; the server applies them to the value it last rendered.
            guard let input = inputs[event.id], let a = event.a, let d = event.d, let n = event.n else { return [] }
            let base = lastTree?.find(id: event.id)?.attributes.first { $0.0 == "value" }?.1 ?? ""
            let units = base.utf16
            guard units.count == n, a >= 0, d >= 0, a <= n, d <= n - a,
                let start = units.index(units.startIndex, offsetBy: a, limitedBy: units.endIndex).flatMap({
                    String.Index($0, within: base)
                }),
                let end = units.index(units.startIndex, offsetBy: a + d, limitedBy: units.endIndex).flatMap({
                    String.Index($0, within: base)
                })
            else {
                // The page edited another value than the server's (a change crossed it): it gets the value again.
                pending.append(.attribute(id: event.id, name: "value", value: base))
                return flush()
            }
            let value = String(base[..<start]) + (event.v ?? "") + String(base[end...])
            host.currentInput = id + "/" + event.id
            input(value)
            host.currentInput = nil
            host.endUndoEventGroups()
            return flush(echo: (event.id, value))
        case "focus":
            // The element that got keyboard focus; "" when focus left the page's controls.
            let element = event.id.isEmpty ? nil : event.id
            let changed = focusedElement != element
            focusedElement = element
            guard changed else { return [] }
            if !focusStateKeys.isEmpty { focusMoved() }
            guard focusDependent || !focusStateKeys.isEmpty else { return [] }
            if focusDependent { invalidate() }
            return flush()
        case "submit":
            guard let action = actions[event.id + "!submit"] else { return [] }
            action()
            host.endUndoEventGroups()
            return flush()
        case "hover":
            // The pointer entered ("1") or left ("0") an element with an `onHover` handler.
            guard let hover = inputs[event.id + "!hover"] else { return [] }
            hover(event.v ?? "0")
            return flush()
        case "window":
            // The page scrolled a long list: it asks for the rows around what it shows.
            guard let move = inputs[event.id + "!window"], let a = event.a, let d = event.d else { return [] }
            move("\(a),\(d)")
            return flush()
        case "drag":
            // A drag on a view with a DragGesture moved or ended: "c|e,startX,startY,x,y".
            guard let drag = inputs[event.id + "!drag"], let report = event.v else { return [] }
            drag(report)
            return flush()
        case "scheme":
            // The system's light or dark appearance, as the page sees it.
            let reported: ColorScheme = event.v == "dark" ? .dark : .light
            guard reported != systemColorScheme else { return [] }
            systemColorScheme = reported
            if preferredColorScheme == nil { invalidate() }
            return flush()
        case "tap", "press", "magnify", "rotate":
            // A gesture the page recognized on a view: its report goes to the view's gesture handlers.
            guard let gesture = inputs[event.id + "!" + event.t], let report = event.v else { return [] }
            gesture(report)
            host.endUndoEventGroups()
            return flush()
        case "geometry":
            // The page measured a GeometryReader: "width,height,x,y".
            guard let measure = inputs[event.id + "!geometry"], let report = event.v else { return [] }
            measure(report)
            return flush()
        case "input":
            guard let input = inputs[event.id] else { return [] }
            let value = event.v ?? ""
            host.currentInput = id + "/" + event.id
            input(value)
            host.currentInput = nil
            host.endUndoEventGroups()
            return flush(echo: (event.id, value))
        default:
            return []
        }
    }

    /// Stops the scene's tasks (when it is freed).
    func close() {
        for r in running.values { r.task.cancel() }
        running = [:]
        for entry in observed.values { entry.subscription.cancel() }
        observed = [:]
    }
}

/// One custom view of a window's last pass.
@MainActor
final class ViewRecord {
    let path: String
    let type: ObjectIdentifier
    weak var parent: ViewRecord?
    var children: [ViewRecord] = []
    var body: (any View)?
    var nodes: [Node] = []
    var effects = Effects()
    var ownSlots: [String] = []
    /// Its own state changed: evaluate `body` again.
    var dirty = false
    /// A descendant's state changed: walk the last body again to reach it.
    var dirtyBelow = false
    init(path: String, type: ObjectIdentifier) {
        self.path = path
        self.type = type
    }
}

/// The window's root: a custom view so that what the root reads is tracked like any view's.
struct RootView: View {
    let content: any View
    var body: some View { Group { AnyView(content) } }
}
