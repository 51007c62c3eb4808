import Foundation

/// One live window: its storage, its last rendering, and the socket it is bound to.
@MainActor
public final class SceneInstance {
    /// Unguessable id (128 random bits, hex).
    public let id: String
    let host: AppHost
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

    init(id: String, host: AppHost) { self.id = id; self.host = host }

    func slot(for key: String, make: () -> Any) -> StorageSlot {
        if let s = slots[key] { return s }
        let s = StorageSlot(value: make(), scene: self); slots[key] = s; return s
    }

    func observe(_ object: some ObservableObject) {
        let key = ObjectIdentifier(object)
        if observed[key] != nil { return }
        let publisher = object.objectWillChange
        let token = publisher.subscribe { [weak self] in
            Task { @MainActor in self?.invalidate() }
        }
        observed[key] = (publisher, token)
    }

    func installDynamicProperties(of view: any View, path: String, context: RenderContext) {
        for child in Mirror(reflecting: view).children {
            if let b = child.value as? any SceneBindable {
                b.install(in: self, key: path + "/" + (child.label ?? "?"), context: context)
            }
        }
    }

    /// Renders the scene's root view to a node tree.
    func render() -> Node {
        let context = RenderContext(scene: self)
        let nodes = context.render(host.rootView(), path: "v")
        actions = context.actions
        inputs = context.inputs
        title = context.title ?? ""
        return Node("main", id: "root", attributes: [("class", "sw-window")], children: nodes)
    }

    /// Marks the scene for re-rendering and schedules a flush.
    func invalidate() {
        if dirty { return }
        dirty = true
        Task { @MainActor in self.flush() }
    }

    /// Re-renders and returns the patches against the last rendering (and sends them if connected).
    @discardableResult
    func flush() -> [Patch] {
        dirty = false
        let oldTitle = title
        let new = render()
        var patches: [Patch] = []
        if let old = lastTree { Differ.diff(old, new, into: &patches) } else { patches.append(.replace(id: "root", html: new.html)) }
        if title != oldTitle { patches.append(.title(title)) }
        lastTree = new
        if !patches.isEmpty, let sink {
            sink("[" + patches.map(\.json).joined(separator: ",") + "]")
        }
        return patches
    }

    /// Full HTML document for the first response.
    func document() -> String {
        let tree = render()
        lastTree = tree
        return """
        <!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">\
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
        case "input":
            guard let input = inputs[event.id] else { return [] }
            input(event.v ?? "")
        default:
            return []
        }
        return flush()
    }
}

/// An event message from the browser: `{"t":"click","id":"…"}` or `{"t":"input","id":"…","v":"…"}`.
public struct ClientEvent: Codable, Sendable {
    /// Event type: `click` or `input`.
    public var t: String
    /// Target element id.
    public var id: String
    /// New value for `input`.
    public var v: String?
    /// Creates an event.
    public init(t: String, id: String, v: String? = nil) { self.t = t; self.id = id; self.v = v }
}
