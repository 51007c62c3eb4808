/// A part of an app's user interface whose life cycle the system manages: here, a browser window.
@MainActor @preconcurrency
public protocol Scene {
    /// The type of scene representing the body.
    associatedtype Body: Scene
    /// The content of the scene.
    @SceneBuilder var body: Body { get }
}

extension Never: Scene {}

/// Primitive scenes expose their root view.
@MainActor
protocol PrimitiveScene {
    var rootView: any View { get }
    var groupID: String? { get }
}

extension PrimitiveScene { var groupID: String? { nil } }

/// Builds scenes.
@MainActor @resultBuilder
public enum SceneBuilder {
    /// One scene.
    public static func buildBlock<S: Scene>(_ scene: S) -> S { scene }
    /// Several scenes: the first window group is the one windows open on.
    public static func buildBlock<S0: Scene, S1: Scene>(_ s0: S0, _ s1: S1) -> SceneList { SceneList(scenes: [s0, s1]) }
    /// Three scenes.
    public static func buildBlock<S0: Scene, S1: Scene, S2: Scene>(_ s0: S0, _ s1: S1, _ s2: S2) -> SceneList { SceneList(scenes: [s0, s1, s2]) }
    /// 4 scenes.
    public static func buildBlock<S0: Scene, S1: Scene, S2: Scene, S3: Scene>(_ s0: S0, _ s1: S1, _ s2: S2, _ s3: S3) -> SceneList { SceneList(scenes: [s0, s1, s2, s3]) }
    /// 5 scenes.
    public static func buildBlock<S0: Scene, S1: Scene, S2: Scene, S3: Scene, S4: Scene>(_ s0: S0, _ s1: S1, _ s2: S2, _ s3: S3, _ s4: S4) -> SceneList { SceneList(scenes: [s0, s1, s2, s3, s4]) }
    /// 6 scenes.
    public static func buildBlock<S0: Scene, S1: Scene, S2: Scene, S3: Scene, S4: Scene, S5: Scene>(_ s0: S0, _ s1: S1, _ s2: S2, _ s3: S3, _ s4: S4, _ s5: S5) -> SceneList { SceneList(scenes: [s0, s1, s2, s3, s4, s5]) }
    /// 7 scenes.
    public static func buildBlock<S0: Scene, S1: Scene, S2: Scene, S3: Scene, S4: Scene, S5: Scene, S6: Scene>(_ s0: S0, _ s1: S1, _ s2: S2, _ s3: S3, _ s4: S4, _ s5: S5, _ s6: S6) -> SceneList { SceneList(scenes: [s0, s1, s2, s3, s4, s5, s6]) }
    /// 8 scenes.
    public static func buildBlock<S0: Scene, S1: Scene, S2: Scene, S3: Scene, S4: Scene, S5: Scene, S6: Scene, S7: Scene>(_ s0: S0, _ s1: S1, _ s2: S2, _ s3: S3, _ s4: S4, _ s5: S5, _ s6: S6, _ s7: S7) -> SceneList { SceneList(scenes: [s0, s1, s2, s3, s4, s5, s6, s7]) }
    /// 9 scenes.
    public static func buildBlock<S0: Scene, S1: Scene, S2: Scene, S3: Scene, S4: Scene, S5: Scene, S6: Scene, S7: Scene, S8: Scene>(_ s0: S0, _ s1: S1, _ s2: S2, _ s3: S3, _ s4: S4, _ s5: S5, _ s6: S6, _ s7: S7, _ s8: S8) -> SceneList { SceneList(scenes: [s0, s1, s2, s3, s4, s5, s6, s7, s8]) }
    /// 10 scenes.
    public static func buildBlock<S0: Scene, S1: Scene, S2: Scene, S3: Scene, S4: Scene, S5: Scene, S6: Scene, S7: Scene, S8: Scene, S9: Scene>(_ s0: S0, _ s1: S1, _ s2: S2, _ s3: S3, _ s4: S4, _ s5: S5, _ s6: S6, _ s7: S7, _ s8: S8, _ s9: S9) -> SceneList { SceneList(scenes: [s0, s1, s2, s3, s4, s5, s6, s7, s8, s9]) }
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
    var rootView: any View {
        for s in scenes { if let v = SceneList.root(of: s) { return v } }
        return EmptyView()
    }
    static func root(of scene: any Scene, group: String? = nil) -> (any View)? {
        if let list = scene as? SceneList { for s in list.scenes { if let v = root(of: s, group: group) { return v } }; return nil }
        if let p = scene as? any PrimitiveScene {
            if let group { return p.groupID == group ? p.rootView : nil }
            return p.rootView
        }
        return root(of: scene.body, group: group)
    }
}

/// A scene that presents a group of identically structured windows; every browser window is one instance.
public struct WindowGroup<Content: View>: Scene, PrimitiveScene {
    let content: @MainActor () -> Content
    let id: String?
    /// Creates a window group.
    public init(@ViewBuilder content: @escaping @MainActor () -> Content) { self.content = content; id = nil }
    /// Creates a window group with a title.
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: @escaping @MainActor () -> Content) { self.content = content; id = nil }
    /// Creates a window group with a title and an identifier.
    public init<S: StringProtocol>(_ title: S, id: String, @ViewBuilder content: @escaping @MainActor () -> Content) { self.content = content; self.id = id }
    /// Creates a window group with an identifier.
    public init(id: String, @ViewBuilder content: @escaping @MainActor () -> Content) { self.content = content; self.id = id }
    /// Primitive scene.
    public var body: Never { fatalError("primitive scene") }
    var rootView: any View { content() }
    var groupID: String? { id }
}
