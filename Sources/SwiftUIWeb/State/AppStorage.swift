import Foundation

/// A value kept in user defaults (`UserDefaults.standard` unless a store is given, or set with
/// `defaultAppStorage(_:)`), shared by every window and kept across restarts. On Linux,
/// `UserDefaults.standard` is the property list `$XDG_CONFIG_HOME/<executable>.plist`
/// (`~/.config/<executable>.plist`).
///
/// Every window that shows the value renders again when any of them changes it.
@MainActor @propertyWrapper
public struct AppStorage<Value>: DynamicProperty, SceneBindable {
    final class Box {
        let key: String
        let initial: Value
        let store: UserDefaults?
        let read: (UserDefaults, String) -> Value?
        let write: (UserDefaults, String, Value) -> Void
        var resolved: UserDefaults?
        weak var scene: SceneInstance?
        init(
            key: String, initial: Value, store: UserDefaults?, read: @escaping (UserDefaults, String) -> Value?,
            write: @escaping (UserDefaults, String, Value) -> Void
        ) {
            self.key = key
            self.initial = initial
            self.store = store
            self.read = read
            self.write = write
        }
        var defaults: UserDefaults { store ?? resolved ?? .standard }
    }
    let box: Box

    /// The stored value, or the default when the store has none.
    public var wrappedValue: Value {
        get { box.read(box.defaults, box.key) ?? box.initial }
        nonmutating set {
            box.write(box.defaults, box.key, newValue)
            // Written through at once, so a killed server keeps the setting.
            box.defaults.synchronize()
            box.scene?.host.appStorageChanged()
        }
    }

    /// A binding to the stored value.
    public var projectedValue: Binding<Value> {
        let me = self
        return Binding(get: { me.wrappedValue }, set: { me.wrappedValue = $0 })
    }

    func install(in scene: SceneInstance, key: String, context: RenderContext) {
        box.scene = scene
        box.resolved = context.environment.defaultAppStorage
    }

    init(
        key: String, initial: Value, store: UserDefaults?, read: @escaping (UserDefaults, String) -> Value?,
        write: @escaping (UserDefaults, String, Value) -> Void
    ) {
        box = Box(key: key, initial: initial, store: store, read: read, write: write)
    }
}

/// Reads and writes the property-list types user defaults hold.
enum AppStorageCoding {
    static func read<T>(_ type: T.Type) -> (UserDefaults, String) -> T? {
        { defaults, key in
            guard let object = defaults.object(forKey: key) else { return nil }
            switch type {
            case is Bool.Type: return (object as? Bool ?? (object as? NSNumber)?.boolValue) as? T
            case is Int.Type: return (object as? Int ?? (object as? NSNumber)?.intValue) as? T
            case is Double.Type: return (object as? Double ?? (object as? NSNumber)?.doubleValue) as? T
            case is URL.Type: return defaults.url(forKey: key) as? T
            default: return object as? T
            }
        }
    }
    static func write<T>(_ type: T.Type) -> (UserDefaults, String, T) -> Void {
        { defaults, key, value in
            if let url = value as? URL { defaults.set(url, forKey: key) } else { defaults.set(value, forKey: key) }
        }
    }
}

extension AppStorage {
    /// A Boolean setting.
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value == Bool {
        self.init(
            key: key, initial: wrappedValue, store: store, read: AppStorageCoding.read(Bool.self),
            write: AppStorageCoding.write(Bool.self))
    }
    /// An integer setting.
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value == Int {
        self.init(
            key: key, initial: wrappedValue, store: store, read: AppStorageCoding.read(Int.self),
            write: AppStorageCoding.write(Int.self))
    }
    /// A floating-point setting.
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value == Double {
        self.init(
            key: key, initial: wrappedValue, store: store, read: AppStorageCoding.read(Double.self),
            write: AppStorageCoding.write(Double.self))
    }
    /// A string setting.
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value == String {
        self.init(
            key: key, initial: wrappedValue, store: store, read: AppStorageCoding.read(String.self),
            write: AppStorageCoding.write(String.self))
    }
    /// A URL setting.
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value == URL {
        self.init(
            key: key, initial: wrappedValue, store: store, read: AppStorageCoding.read(URL.self),
            write: AppStorageCoding.write(URL.self))
    }
    /// A data setting.
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil) where Value == Data {
        self.init(
            key: key, initial: wrappedValue, store: store, read: AppStorageCoding.read(Data.self),
            write: AppStorageCoding.write(Data.self))
    }
    /// A setting stored as its `Int` raw value.
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil)
    where Value: RawRepresentable, Value.RawValue == Int {
        let read = AppStorageCoding.read(Int.self)
        self.init(
            key: key, initial: wrappedValue, store: store, read: { read($0, $1).flatMap { Value(rawValue: $0) } },
            write: { $0.set($2.rawValue, forKey: $1) })
    }
    /// A setting stored as its `String` raw value.
    public init(wrappedValue: Value, _ key: String, store: UserDefaults? = nil)
    where Value: RawRepresentable, Value.RawValue == String {
        let read = AppStorageCoding.read(String.self)
        self.init(
            key: key, initial: wrappedValue, store: store, read: { read($0, $1).flatMap { Value(rawValue: $0) } },
            write: { $0.set($2.rawValue, forKey: $1) })
    }
}

extension AppStorage where Value: ExpressibleByNilLiteral {
    /// An optional Boolean setting (`nil` when unset; setting `nil` removes it).
    public init(_ key: String, store: UserDefaults? = nil) where Value == Bool? {
        self.init(optional: key, store: store, Bool.self)
    }
    /// An optional integer setting.
    public init(_ key: String, store: UserDefaults? = nil) where Value == Int? {
        self.init(optional: key, store: store, Int.self)
    }
    /// An optional floating-point setting.
    public init(_ key: String, store: UserDefaults? = nil) where Value == Double? {
        self.init(optional: key, store: store, Double.self)
    }
    /// An optional string setting.
    public init(_ key: String, store: UserDefaults? = nil) where Value == String? {
        self.init(optional: key, store: store, String.self)
    }
    /// An optional URL setting.
    public init(_ key: String, store: UserDefaults? = nil) where Value == URL? {
        self.init(optional: key, store: store, URL.self)
    }
    /// An optional data setting.
    public init(_ key: String, store: UserDefaults? = nil) where Value == Data? {
        self.init(optional: key, store: store, Data.self)
    }

    private init<T>(optional key: String, store: UserDefaults?, _ type: T.Type) where Value == T? {
        let read = AppStorageCoding.read(T.self)
        let write = AppStorageCoding.write(T.self)
        self.init(
            key: key, initial: nil, store: store, read: { .some(read($0, $1)) },
            write: { defaults, key, value in
                if let value { write(defaults, key, value) } else { defaults.removeObject(forKey: key) }
            })
    }
}

private struct DefaultAppStorageKey: EnvironmentKey { static var defaultValue: UserDefaults? { nil } }
extension EnvironmentValues {
    /// The store `@AppStorage` uses when it names none (`nil`: `UserDefaults.standard`).
    var defaultAppStorage: UserDefaults? {
        get { self[DefaultAppStorageKey.self] }
        set { self[DefaultAppStorageKey.self] = newValue }
    }
}

extension View {
    /// Sets the store `@AppStorage` uses in this view and its descendants.
    public func defaultAppStorage(_ store: UserDefaults) -> some View { environment(\.defaultAppStorage, store) }
}

extension AppHost {
    /// A setting changed: every window renders again (a setting may show anywhere).
    func appStorageChanged() {
        for scene in scenes.values { scene.invalidate() }
    }
}
