import Foundation

/// How an external URL (`/_swiftuiweb/open?url=…`, the browser's stand-in for the system opening a URL with the
/// app) finds its window, as SwiftUI's `handlesExternalEvents` and `onOpenURL` decide on Apple's platforms:
/// a window whose content prefers the URL (`handlesExternalEvents(preferring:allowing:)`) receives it; otherwise
/// a new window opens in the first scene whose `handlesExternalEvents(matching:)` conditions match (the first
/// window group when no scene names any), and its `onOpenURL` handlers receive the URL once it is shown.
///
/// A condition matches when the URL's absolute string contains it; `"*"` matches every URL.
enum ExternalEvents {
    /// Whether `conditions` accept `url`.
    static func matches(_ conditions: Set<String>, _ url: URL) -> Bool {
        let text = url.absoluteString
        return conditions.contains { $0 == "*" || (!$0.isEmpty && text.contains($0)) }
    }

    /// The catalog entry a new window for `url` opens in: the first with matching conditions, else (when no entry
    /// names conditions) the first window group. When entries name conditions and none matches, no scene handles
    /// the URL: an error that names it.
    static func entry(for url: URL, in catalog: SceneCatalog, appName: String) throws -> SceneCatalog.Entry {
        let candidates = catalog.entries.filter { $0.kind == .windowGroup || $0.kind == .window }
        if let match = candidates.first(where: { $0.externalEvents.map { matches($0, url) } ?? false }) {
            return match
        }
        if !candidates.contains(where: { $0.externalEvents != nil }), let first = candidates.first { return first }
        throw ExternalURLError(
            "no scene of \(appName) handles \(url.absoluteString): each names the URLs it opens with "
                + "handlesExternalEvents(matching:), and none matches")
    }
}

/// A scene with `handlesExternalEvents(matching:)` conditions.
public struct ExternalEventsScene<Content: Scene>: Scene, PrimitiveScene {
    let content: Content
    let conditions: Set<String>
    /// Primitive scene.
    public var body: Never { fatalError("primitive scene") }
    func collect(into catalog: inout SceneCatalog) {
        let first = catalog.entries.count
        catalog.add(content)
        for index in first..<catalog.entries.count {
            catalog.entries[index].externalEvents = (catalog.entries[index].externalEvents ?? []).union(conditions)
        }
    }
}

extension Scene {
    /// The URLs that open a new window of this scene: those whose absolute string contains one of `conditions`
    /// (`"*"`: every URL). Without any scene naming conditions, the first window group opens them.
    public func handlesExternalEvents(matching conditions: Set<String>) -> some Scene {
        ExternalEventsScene(content: self, conditions: conditions)
    }
}

/// What a window's content says of external URLs (`handlesExternalEvents(preferring:allowing:)`).
struct ExternalEventPreference {
    var preferring: Set<String>
    var allowing: Set<String>
}

struct ExternalEventsView<Content: View>: View, PrimitiveView {
    let content: Content
    let preference: ExternalEventPreference
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        context.addExternalEventPreference(preference)
        return context.render(content, path: path)
    }
}

struct OpenURLView<Content: View>: View, PrimitiveView {
    let content: Content
    let action: (URL) -> Void
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        context.addOpenURLHandler(action)
        return context.render(content, path: path)
    }
}

extension View {
    /// Says which external URLs this window prefers to receive (instead of a new window opening for them), and
    /// which it can receive. A URL matches a set when its absolute string contains one of the strings (`"*"`:
    /// every URL).
    public func handlesExternalEvents(preferring: Set<String>, allowing: Set<String>) -> some View {
        ExternalEventsView(
            content: self, preference: ExternalEventPreference(preferring: preferring, allowing: allowing))
    }

    /// Runs `action` when the window receives an external URL (see `handlesExternalEvents`).
    public func onOpenURL(perform action: @escaping (URL) -> Void) -> some View {
        OpenURLView(content: self, action: action)
    }
}

extension AppHost {
    /// Routes an external URL: to a live window that prefers it (delivered at once), or to a new window of the
    /// scene that handles it (delivered when it first renders). Returns the window, and whether it is new.
    func openExternalURL(_ url: URL) throws -> (scene: SceneInstance, isNew: Bool) {
        let preferred = scenes.values.filter { $0.id != "app" && $0.connection != 0 }
            .sorted { $0.lastSeen > $1.lastSeen }
            .first { scene in
                scene.externalPreferences.contains {
                    ExternalEvents.matches($0.preferring, url) && ExternalEvents.matches($0.allowing, url)
                }
            }
        if let preferred {
            preferred.receive(url)
            return (preferred, false)
        }
        let entry = try ExternalEvents.entry(for: url, in: SceneCatalog(app: app), appName: appName)
        let scene = entry.kind == .window ? singleScene(group: entry.id ?? "") : newScene(group: entry.id)
        scene.receive(url)
        return (scene, true)
    }
}

/// An external URL no scene handles, or that is not a URL.
struct ExternalURLError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension SceneInstance {
    /// Queues `url` for the window's `onOpenURL` handlers: delivered now if the window has rendered, else after
    /// its first pass.
    func receive(_ url: URL) {
        pendingURLs.append(url)
        if lastTree != nil { deliverPendingURLs() }
    }

    /// Hands queued URLs to the handlers of the last pass, then renders again. A URL that arrives while the
    /// window has no handler is reported in the window (nothing receives it), not dropped in silence.
    func deliverPendingURLs() {
        guard !pendingURLs.isEmpty else { return }
        let urls = pendingURLs
        pendingURLs = []
        if openURLHandlers.isEmpty {
            report(
                "This window can't open \(urls.map(\.absoluteString).joined(separator: ", ")): it has no onOpenURL handler."
            )
            return
        }
        for url in urls {
            for handler in openURLHandlers { handler(url) }
        }
        invalidate()
    }
}
