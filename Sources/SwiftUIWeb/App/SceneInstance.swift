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
    var observed: [ObjectIdentifier: (ObservableObjectPublisher, UInt64)] = [:]
    var dirty = false
    var sink: (@Sendable (String) -> Void)?
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

    init(id: String, host: AppHost, group: String? = nil) { self.id = id; self.host = host; self.group = group }

    func slot(for key: String, context: RenderContext? = nil, make: () -> Any) -> StorageSlot {
        context?.usedSlots.insert(key)
        if let s = slots[key] { return s }
        let s = StorageSlot(value: make(), scene: self); slots[key] = s; return s
    }

    func observe(_ object: some ObservableObject) {
        let key = ObjectIdentifier(object)
        if observed[key] != nil { return }
        let publisher = object.objectWillChange
        let token = publisher.subscribe { [weak self] in SceneInstance.invalidate(self) }
        observed[key] = (publisher, token)
    }

    func installDynamicProperties(of view: Any, path: String, context: RenderContext) {
        for child in Mirror(reflecting: view).children {
            if let b = child.value as? any SceneBindable {
                b.install(in: self, key: path + "/" + (child.label ?? "?"), context: context)
            }
        }
    }

    func makeContext() -> RenderContext {
        let context = RenderContext(scene: self)
        context.environment.openWindow = OpenWindowAction { [weak self] group in self?.openWindow(group: group) }
        return context
    }

    /// Asks the browser to open a new window of a window group.
    func openWindow(group: String?) {
        pending.append(.open(url: group.map { "/?g=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") } ?? "/"))
        invalidate()
    }

    /// Renders the scene's root view to a node tree, with the window bar (title, toolbar, New Window).
    func render() -> Node {
        renderCount += 1
        let context = makeContext()
        // @Observable objects read anywhere in the pass re-render the scene when they change.
        let nodes = withObservationTracking {
            context.render(host.rootView(group: group), path: "v", axis: .vertical)
        } onChange: { [weak self] in SceneInstance.invalidate(self) }
        actions = context.actions
        inputs = context.inputs
        title = context.title ?? ""
        slots = slots.filter { context.usedSlots.contains($0.key) }
        runLifecycle(context)
        let newWindowURL = group.map { "/?g=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") } ?? "/"
        let bar = Node("header", id: "bar", attributes: [("class", "sw-windowbar")], children: [
            Node("div", id: "bar.l", attributes: [("class", "sw-toolbar sw-leading")], children: context.toolbar.filter { $0.attributes.first?.1.contains("sw-leading") == true }),
            Node("div", id: "bar.t", attributes: [("class", "sw-window-title")], text: context.titleShown ? "" : title),
            Node("div", id: "bar.r", attributes: [("class", "sw-toolbar")], children: context.toolbar.filter { $0.attributes.first?.1.contains("sw-leading") != true }),
            Node("a", id: "bar.new", attributes: [("class", "sw-newwindow"), ("href", newWindowURL), ("target", "_blank"), ("title", "New Window")],
                 children: [Node("span", id: "bar.new.i", attributes: [("class", "sw-symbol")], raw: Symbols.svg("macwindow.badge.plus")),
                            Node("span", id: "bar.new.t", text: "New Window")]),
        ])
        return Node("main", id: "root", attributes: [("class", "sw-window")], children: [
            bar, Node("div", id: "content", attributes: [("class", "sw-content")], children: nodes),
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
                if !old.equals(hook.value) { let h = hook; fire.append { h.fire(old.value) } }
            } else if hook.initial {
                let h = hook; fire.append { h.fire(nil) }
            }
            values[hook.path] = (hook.value, hook.equals)
        }
        changeValues = values
        for (path, r) in running where context.tasks[path] == nil { r.task.cancel(); running[path] = nil }
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

    /// Marks the scene for re-rendering and schedules a flush.
    func invalidate() {
        if dirty { return }
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
            dirty = false
            let oldTitle = title
            let new = render()
            if let old = lastTree { Differ.diff(old, new, into: &patches) } else { patches.append(.replace(id: "root", html: new.html)) }
            if title != oldTitle { patches.append(.title(title)) }
            lastTree = new
            if !dirty { break }
        }
        if let echo {
            patches.removeAll {
                if case .attribute(echo.id, let name, let value) = $0, name == "value" || name == "checked" { return value == echo.value }
                return false
            }
        }
        patches += pending
        pending = []
        if !patches.isEmpty, let sink {
            sink("[" + patches.map(\.json).joined(separator: ",") + "]")
        }
        return patches
    }

    /// Full HTML document for the first response.
    public func document() -> String {
        var tree = render()
        if dirty { dirty = false; tree = render() }
        lastTree = tree
        return """
        <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">\
        <title>\(HTML.escape(title))</title><style>\(ClientAssets.css)</style></head>\
        <body data-scene="\(id)">\(tree.html)<script src="/_swiftuiweb/client.js"></script></body></html>
        """
    }

    /// Handles one event from the browser; returns the patches produced.
    @discardableResult
    func handle(event: ClientEvent) -> [Patch] {
        lastSeen = Date()
        switch event.t {
        case "click":
            guard let action = actions[event.id] else { return [] }
            action()
            return flush()
        case "submit":
            guard let action = actions[event.id + "!submit"] else { return [] }
            action()
            return flush()
        case "input":
            guard let input = inputs[event.id] else { return [] }
            let value = event.v ?? ""
            input(value)
            return flush(echo: (event.id, value))
        default:
            return []
        }
    }

    /// Stops the scene's tasks (when it is freed).
    func close() {
        for r in running.values { r.task.cancel() }
        running = [:]
        for (_, (publisher, token)) in observed { publisher.cancel(token) }
        observed = [:]
    }
}

/// An event message from the browser: `{"t":"click","id":"…"}`, `{"t":"input","id":"…","v":"…"}` or
/// `{"t":"submit","id":"…"}`.
public struct ClientEvent: Codable, Sendable {
    /// Event type: `click`, `input` or `submit`.
    public var t: String
    /// Target element id.
    public var id: String
    /// New value for `input`.
    public var v: String?
    /// Creates an event.
    public init(t: String, id: String, v: String? = nil) { self.t = t; self.id = id; self.v = v }
}
