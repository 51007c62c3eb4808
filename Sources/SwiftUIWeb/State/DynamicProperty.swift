/// A stored property of a view that SwiftUIWeb connects to scene storage before `body` runs.
public protocol DynamicProperty {}

/// Internal hook: a property wrapper that binds itself to its scene.
@MainActor
protocol SceneBindable {
    func install(in scene: SceneInstance, key: String, context: RenderContext)
}

/// One storage slot of a scene (what `@State` and `@StateObject` point at).
@MainActor
final class StorageSlot {
    var value: Any
    weak var scene: SceneInstance?
    /// The path of the view that owns the slot (its changes re-render that view).
    var owner: String?
    init(value: Any, scene: SceneInstance?) { self.value = value; self.scene = scene }
}
