import Foundation

/// A value saved per scene (window) and restored on reload, reconnect and server restart.
///
/// Takes the types Apple's `SceneStorage` takes (`Bool`, `Int`, `Double`, `String`, `URL`, `Data`,
/// `RawRepresentable` with an `Int` or `String` raw value, and optionals of these), and any other
/// `Codable` value.
@MainActor @propertyWrapper
public struct SceneStorage<Value>: DynamicProperty, SceneBindable {
    final class Box {
        let key: String
        let initial: Value
        let encode: (Value) -> Data?
        let decode: (Data) -> Value?
        weak var scene: SceneInstance?
        var owner: String?
        init(key: String, initial: Value, encode: @escaping (Value) -> Data?, decode: @escaping (Data) -> Value?) {
            self.key = key; self.initial = initial; self.encode = encode; self.decode = decode
        }
    }
    let box: Box

    /// The stored value, or the default.
    public var wrappedValue: Value {
        get {
            guard let data = box.scene?.sceneStorage[box.key], let v = box.decode(data) else { return box.initial }
            return v
        }
        nonmutating set {
            guard let scene = box.scene, let data = box.encode(newValue) else { return }
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

/// Values are stored as a one-element JSON array (`[value]`), so every type has the same envelope.
enum SceneStorageCoding {
    static func encode<T: Encodable>(_ value: T) -> Data? { try? JSONEncoder().encode([value]) }
    static func decode<T: Decodable>(_ type: T.Type, _ data: Data) -> T? { (try? JSONDecoder().decode([T].self, from: data))?.first }
}

extension SceneStorage {
    /// Storage under `key` whose values are kept as `Stored` (the value itself, or its raw value).
    private init<Stored: Codable>(key: String, initial: Value, storedAs: Stored.Type,
                                  _ encode: @escaping (Value) -> Stored, _ decode: @escaping (Stored) -> Value?) {
        box = Box(key: key, initial: initial, encode: { SceneStorageCoding.encode(encode($0)) },
                  decode: { SceneStorageCoding.decode(Stored.self, $0).flatMap(decode) })
    }

    /// Creates storage under `key` with a default value (`Bool`, `Int`, `Double`, `String`, `URL`,
    /// `Data`, or any `Codable` value).
    public init(wrappedValue: Value, _ key: String) where Value: Codable {
        self.init(key: key, initial: wrappedValue, storedAs: Value.self, { $0 }, { $0 })
    }

    /// Creates storage under `key` for a value with a `String` raw value.
    @_disfavoredOverload
    public init(wrappedValue: Value, _ key: String) where Value: RawRepresentable, Value.RawValue == String {
        self.init(key: key, initial: wrappedValue, storedAs: String.self, { $0.rawValue }, { Value(rawValue: $0) })
    }

    /// Creates storage under `key` for a value with an `Int` raw value.
    @_disfavoredOverload
    public init(wrappedValue: Value, _ key: String) where Value: RawRepresentable, Value.RawValue == Int {
        self.init(key: key, initial: wrappedValue, storedAs: Int.self, { $0.rawValue }, { Value(rawValue: $0) })
    }

    /// Creates optional storage under `key`, `nil` by default.
    public init<Wrapped: Codable>(_ key: String) where Value == Wrapped? {
        self.init(wrappedValue: nil, key)
    }

    /// Creates optional storage under `key` for a value with a `String` raw value, `nil` by default.
    @_disfavoredOverload
    public init<Wrapped: RawRepresentable>(_ key: String) where Value == Wrapped?, Wrapped.RawValue == String {
        self.init(key: key, initial: nil, storedAs: String?.self, { $0?.rawValue }, { raw in .some(raw.flatMap { Wrapped(rawValue: $0) }) })
    }

    /// Creates optional storage under `key` for a value with an `Int` raw value, `nil` by default.
    @_disfavoredOverload
    public init<Wrapped: RawRepresentable>(_ key: String) where Value == Wrapped?, Wrapped.RawValue == Int {
        self.init(key: key, initial: nil, storedAs: Int?.self, { $0?.rawValue }, { raw in .some(raw.flatMap { Wrapped(rawValue: $0) }) })
    }
}
