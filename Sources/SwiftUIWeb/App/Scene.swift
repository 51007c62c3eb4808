/// A part of an app's user interface whose life cycle the system manages: here, a browser window.
@MainActor @preconcurrency
public protocol Scene {
    /// The type of scene representing the body.
    associatedtype Body: Scene
    /// The content of the scene.
    @SceneBuilder var body: Body { get }
}

extension Never: Scene {}

/// A scene SwiftUIWeb knows how to show: it adds its windows (and commands) to the app's catalog.
@MainActor
protocol PrimitiveScene {
    func collect(into catalog: inout SceneCatalog)
}

/// Builds scenes.
@MainActor @resultBuilder
public enum SceneBuilder {
    /// One scene.
    public static func buildBlock<S: Scene>(_ scene: S) -> S { scene }
    /// Several scenes: the first window group is the one windows open on.
    public static func buildBlock<S0: Scene, S1: Scene>(_ s0: S0, _ s1: S1) -> SceneList {
        SceneList(scenes: [s0, s1])
    }
    /// Three scenes.
    public static func buildBlock<S0: Scene, S1: Scene, S2: Scene>(_ s0: S0, _ s1: S1, _ s2: S2) -> SceneList {
        SceneList(scenes: [s0, s1, s2])
    }
    /// 4 scenes.
    public static func buildBlock<S0: Scene, S1: Scene, S2: Scene, S3: Scene>(
        _ s0: S0, _ s1: S1, _ s2: S2, _ s3: S3
    ) -> SceneList { SceneList(scenes: [s0, s1, s2, s3]) }
    /// 5 scenes.
    public static func buildBlock<S0: Scene, S1: Scene, S2: Scene, S3: Scene, S4: Scene>(
        _ s0: S0, _ s1: S1, _ s2: S2, _ s3: S3, _ s4: S4
    ) -> SceneList { SceneList(scenes: [s0, s1, s2, s3, s4]) }
    /// 6 scenes.
    public static func buildBlock<S0: Scene, S1: Scene, S2: Scene, S3: Scene, S4: Scene, S5: Scene>(
        _ s0: S0, _ s1: S1, _ s2: S2, _ s3: S3, _ s4: S4, _ s5: S5
    ) -> SceneList { SceneList(scenes: [s0, s1, s2, s3, s4, s5]) }
    /// 7 scenes.
    public static func buildBlock<S0: Scene, S1: Scene, S2: Scene, S3: Scene, S4: Scene, S5: Scene, S6: Scene>(
        _ s0: S0, _ s1: S1, _ s2: S2, _ s3: S3, _ s4: S4, _ s5: S5, _ s6: S6
    ) -> SceneList { SceneList(scenes: [s0, s1, s2, s3, s4, s5, s6]) }
    /// 8 scenes.
    public static func buildBlock<
        S0: Scene, S1: Scene, S2: Scene, S3: Scene, S4: Scene, S5: Scene, S6: Scene, S7: Scene
    >(_ s0: S0, _ s1: S1, _ s2: S2, _ s3: S3, _ s4: S4, _ s5: S5, _ s6: S6, _ s7: S7) -> SceneList {
        SceneList(scenes: [s0, s1, s2, s3, s4, s5, s6, s7])
    }
    /// 9 scenes.
    public static func buildBlock<
        S0: Scene, S1: Scene, S2: Scene, S3: Scene, S4: Scene, S5: Scene, S6: Scene, S7: Scene, S8: Scene
    >(_ s0: S0, _ s1: S1, _ s2: S2, _ s3: S3, _ s4: S4, _ s5: S5, _ s6: S6, _ s7: S7, _ s8: S8) -> SceneList {
        SceneList(scenes: [s0, s1, s2, s3, s4, s5, s6, s7, s8])
    }
    /// 10 scenes.
    public static func buildBlock<
        S0: Scene, S1: Scene, S2: Scene, S3: Scene, S4: Scene, S5: Scene, S6: Scene, S7: Scene, S8: Scene, S9: Scene
    >(_ s0: S0, _ s1: S1, _ s2: S2, _ s3: S3, _ s4: S4, _ s5: S5, _ s6: S6, _ s7: S7, _ s8: S8, _ s9: S9) -> SceneList {
        SceneList(scenes: [s0, s1, s2, s3, s4, s5, s6, s7, s8, s9])
    }
    /// `if`/`else` between scenes.
    public static func buildEither<S: Scene>(first s: S) -> SceneList { SceneList(scenes: [s]) }
    /// `if`/`else` between scenes.
    public static func buildEither<S: Scene>(second s: S) -> SceneList { SceneList(scenes: [s]) }
    /// Optional scenes (`#if`, `if`).
    public static func buildOptional<S: Scene>(_ s: S?) -> SceneList { SceneList(scenes: s.map { [$0] } ?? []) }
}

/// A list of scenes from ``SceneBuilder``.
public struct SceneList: Scene, PrimitiveScene {
    let scenes: [any Scene]
    /// Primitive scene.
    public var body: Never { fatalError("primitive scene") }
    func collect(into catalog: inout SceneCatalog) {
        for scene in scenes { catalog.add(scene) }
    }
}

/// A scene that presents a group of identically structured windows; every browser window is one instance.
public struct WindowGroup<Content: View>: Scene, PrimitiveScene {
    let root: @MainActor (SceneInstance) -> Content
    let id: String?
    let title: String?
    /// The type of value the group's windows present (`nil`: none).
    var valueType: ObjectIdentifier?
    /// Creates a window group.
    public init(@ViewBuilder content: @escaping @MainActor () -> Content) {
        root = { _ in content() }
        id = nil
        title = nil
    }
    /// Creates a window group with a title.
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: @escaping @MainActor () -> Content) {
        root = { _ in content() }
        id = nil
        self.title = String(title)
    }
    /// Creates a window group with a title and an identifier.
    public init<S: StringProtocol>(_ title: S, id: String, @ViewBuilder content: @escaping @MainActor () -> Content) {
        root = { _ in content() }
        self.id = id
        self.title = String(title)
    }
    /// Creates a window group with an identifier.
    public init(id: String, @ViewBuilder content: @escaping @MainActor () -> Content) {
        root = { _ in content() }
        self.id = id
        title = nil
    }

    init(
        title: String?, id: String?, valueType: ObjectIdentifier?, root: @escaping @MainActor (SceneInstance) -> Content
    ) {
        self.title = title
        self.id = id
        self.valueType = valueType
        self.root = root
    }

    /// Primitive scene.
    public var body: Never { fatalError("primitive scene") }
    func collect(into catalog: inout SceneCatalog) {
        let root = self.root
        // A value group without an id gets one of its own, so its windows find it again.
        let groupID = id ?? (valueType != nil ? "_for\(catalog.entries.count)" : nil)
        catalog.entries.append(
            .init(kind: .windowGroup, id: groupID, title: title, valueType: valueType) { scene in root(scene) })
    }
}

/// The content of a window that presents a value (`WindowGroup(for:)`): the app's view with a binding to
/// the value, which is kept with the window (restored on reload and after a restart).
public struct PresentedWindowContent<Data: Codable & Hashable, Content: View>: View {
    let value: Binding<Data?>
    let content: @MainActor (Binding<Data?>) -> Content
    /// The app's view.
    public var body: some View { content(value) }
}

extension WindowGroup {
    /// A group of windows, each presenting a value given to `openWindow(value:)`.
    public init<D: Codable & Hashable, C: View>(
        for type: D.Type, @ViewBuilder content: @escaping @MainActor (Binding<D?>) -> C
    )
    where Content == PresentedWindowContent<D, C> {
        self.init(title: nil, id: nil, valueType: ObjectIdentifier(D.self)) { scene in
            PresentedWindowContent(value: scene.presentedValue(D.self), content: content)
        }
    }
    /// A group of windows with an identifier, each presenting a value given to `openWindow(id:value:)`.
    public init<D: Codable & Hashable, C: View>(
        id: String, for type: D.Type, @ViewBuilder content: @escaping @MainActor (Binding<D?>) -> C
    )
    where Content == PresentedWindowContent<D, C> {
        self.init(title: nil, id: id, valueType: ObjectIdentifier(D.self)) { scene in
            PresentedWindowContent(value: scene.presentedValue(D.self), content: content)
        }
    }
    /// A titled group of windows with an identifier, each presenting a value.
    public init<S: StringProtocol, D: Codable & Hashable, C: View>(
        _ title: S, id: String, for type: D.Type, @ViewBuilder content: @escaping @MainActor (Binding<D?>) -> C
    ) where Content == PresentedWindowContent<D, C> {
        self.init(title: String(title), id: id, valueType: ObjectIdentifier(D.self)) { scene in
            PresentedWindowContent(value: scene.presentedValue(D.self), content: content)
        }
    }
}

/// A scene that presents one window: opening it again shows the same window.
public struct Window<Content: View>: Scene, PrimitiveScene {
    let title: String
    let id: String
    let content: @MainActor () -> Content
    /// Creates a single window with a title and an identifier (used by `openWindow(id:)`).
    public init<S: StringProtocol>(_ title: S, id: String, @ViewBuilder content: @escaping @MainActor () -> Content) {
        self.title = String(title)
        self.id = id
        self.content = content
    }
    /// Primitive scene.
    public var body: Never { fatalError("primitive scene") }
    func collect(into catalog: inout SceneCatalog) {
        let content = self.content
        catalog.entries.append(.init(kind: .window, id: id, title: title) { _ in content() })
    }
}

/// A scene for the app's settings: one window, opened from the app menu's "Settings…" item (⌘,).
///
/// Apple's SwiftUI has `Settings` on macOS only, and the seed wraps it in `#if os(macOS)`. On Linux the
/// `os(macOS)` condition is false, so that code leaves the Settings scene out, as it would on iOS. Apps
/// that want it here write `#if os(macOS) || os(Linux)`: the browser's windows behave like a Mac's.
public struct Settings<Content: View>: Scene, PrimitiveScene {
    let content: @MainActor () -> Content
    /// Creates the settings scene.
    public init(@ViewBuilder content: @escaping @MainActor () -> Content) { self.content = content }
    /// Primitive scene.
    public var body: Never { fatalError("primitive scene") }
    func collect(into catalog: inout SceneCatalog) {
        let content = self.content
        catalog.entries.append(
            .init(kind: .settings, id: SceneCatalog.settingsID, title: "Settings") { _ in content() })
    }
}

/// Everything the app's scenes declare: the windows it can open and the commands of its menu bar.
@MainActor
struct SceneCatalog {
    enum Kind { case windowGroup, window, settings, documentBrowser, document, previews }

    /// One kind of window.
    struct Entry {
        let kind: Kind
        /// The id `openWindow(id:)` and `?g=` name (`nil`: a window group without one).
        let id: String?
        let title: String?
        var valueType: ObjectIdentifier? = nil
        /// `handlesExternalEvents(matching:)`: the URLs that open a window of this kind (`nil`: none named).
        var externalEvents: Set<String>? = nil
        let root: @MainActor (SceneInstance) -> any View
    }

    static let settingsID = "_settings"
    static let browserID = "_documents"
    /// The preview gallery's group (present when the app has previews).
    nonisolated static let previewsID = "_previews"

    var entries: [Entry] = []
    var commands: [any Commands] = []
    var documentGroups: [DocumentGroupSpec] = []
    /// `commandsRemoved()`: the scene's default menu items are left out.
    var removesDefaultCommands = false

    init() {}

    init(app: any App) {
        add(app.body)
        let previews = PreviewCatalog.items
        if !previews.isEmpty {
            entries.append(
                .init(kind: .previews, id: SceneCatalog.previewsID, title: "Previews") { _ in
                    PreviewGallery(items: previews)
                })
        }
    }

    mutating func add(_ scene: any Scene) {
        if let primitive = scene as? any PrimitiveScene {
            primitive.collect(into: &self)
        } else {
            add(scene.body)
        }
    }

    /// The window kind for a group id (`nil`: the first window group, window or document browser).
    func entry(for group: String?) -> Entry? {
        if let group { return entries.first { $0.id == group } }
        return entries.first { $0.kind != .settings && $0.kind != .document && $0.kind != .previews }
    }

    var hasSettings: Bool { entries.contains { $0.kind == .settings } }
}
