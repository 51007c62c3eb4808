import Foundation

/// A value saved per scene (window) and restored on reload, reconnect and server restart.
@MainActor @propertyWrapper
public struct SceneStorage<Value: Codable>: DynamicProperty, SceneBindable {
    final class Box {
        let key: String
        let initial: Value
        weak var scene: SceneInstance?
        var owner: String?
        init(key: String, initial: Value) { self.key = key; self.initial = initial }
    }
    let box: Box

    /// Creates storage under `key` with a default value.
    public init(wrappedValue: Value, _ key: String) { box = Box(key: key, initial: wrappedValue) }

    /// The stored value, or the default.
    public var wrappedValue: Value {
        get {
            guard let data = box.scene?.sceneStorage[box.key],
                  let v = try? JSONDecoder().decode([Value].self, from: data).first else { return box.initial }
            return v
        }
        nonmutating set {
            guard let scene = box.scene, let data = try? JSONEncoder().encode([newValue]) else { return }
            scene.sceneStorage[box.key] = data
            if let owner = box.owner { scene.markDirty(owner) } else { scene.invalidate() }
        }
    }

    /// A binding to the stored value.
    public var projectedValue: Binding<Value> {
        let me = self
        return Binding(get: { me.wrappedValue }, set: { me.wrappedValue = $0 })
    }

    func install(in scene: SceneInstance, key: String, context: RenderContext) { box.scene = scene; box.owner = context.record?.path }
}

extension SceneStorage {
    /// Creates optional storage under `key`, `nil` by default.
    public init<Wrapped: Codable>(_ key: String) where Value == Wrapped? {
        self.init(wrappedValue: nil, key)
    }
}
