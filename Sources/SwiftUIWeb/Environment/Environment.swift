import Synchronization

/// A key for a value in ``EnvironmentValues``.
public protocol EnvironmentKey {
    /// The type of the value.
    associatedtype Value
    /// The value when no ancestor has set one.
    static var defaultValue: Value { get }
}

/// The values a view inherits from its ancestors.
public struct EnvironmentValues: @unchecked Sendable {
    /// A value set for a key, with the stamp of the write that set it: a copy of the environment keeps its
    /// stamps, so two environments with the same stamp for a key hold the same value without comparing them.
    struct Entry {
        let value: Any
        let stamp: UInt64
    }
    var values: [ObjectIdentifier: Entry] = [:]
    var objects: [ObjectIdentifier: AnyObject] = [:]

    /// Creates the default environment.
    public init() {}

    /// Reads or writes the value for a key.
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { (values[ObjectIdentifier(key)]?.value as? K.Value) ?? K.defaultValue }
        set { values[ObjectIdentifier(key)] = Entry(value: newValue, stamp: Self.nextStamp()) }
    }

    private static let stamps = Atomic<UInt64>(0)
    private static func nextStamp() -> UInt64 { stamps.wrappingAdd(1, ordering: .relaxed).newValue }

    /// Whether `other` holds the same values: the same keys, each value set by the same write or equal by `==`,
    /// and the same objects. A value that is not `Equatable` (an action's closure) set by another write counts as
    /// different.
    func isEquivalent(to other: EnvironmentValues) -> Bool {
        guard values.count == other.values.count, objects.count == other.objects.count else { return false }
        for (key, object) in objects {
            guard let theirs = other.objects[key], theirs === object else { return false }
        }
        for (key, entry) in values {
            guard let theirs = other.values[key] else { return false }
            if entry.stamp == theirs.stamp { continue }
            guard let value = entry.value as? any Equatable, value.isEqual(to: theirs.value) else { return false }
        }
        return true
    }
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(to other: Any) -> Bool { (other as? Self).map { $0 == self } ?? false }
}

/// Reads a value from the view's environment.
@MainActor @propertyWrapper
public struct Environment<Value>: DynamicProperty, SceneBindable {
    final class Box {
        var value: Value?
        init() {}
    }
    let read: @MainActor (EnvironmentValues) -> Value?
    let box = Box()

    /// Reads the value at a key path of ``EnvironmentValues``.
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { read = { $0[keyPath: keyPath] } }

    /// The value (the default environment's when read outside `body`).
    public var wrappedValue: Value {
        if let v = box.value { return v }
        if let v = read(EnvironmentValues()) { return v }
        fatalError(
            "No \(Value.self) found in the environment. A View.environment(_:) for it may be missing as an ancestor of this view."
        )
    }

    func install(in scene: SceneInstance, key: String, context: RenderContext) {
        box.value = read(context.environment)
        if let observable = box.value as? any ObservableObject { scene.observe(observable, context: context) }
    }
}

extension Environment where Value: AnyObject & Observable {
    /// Reads an `@Observable` object placed in the environment with `environment(_:)`.
    public init(_ type: Value.Type) {
        read = { $0.objects[ObjectIdentifier(type)] as? Value }
    }
}

extension Environment {
    /// Reads an optional `@Observable` object placed in the environment with `environment(_:)`.
    public init<T: AnyObject & Observable>(_ type: T.Type) where Value == T? {
        read = { .some($0.objects[ObjectIdentifier(type)] as? T) }
    }
}

struct EnvironmentWriter<Content: View>: View, PrimitiveView {
    let content: Content
    let transform: (inout EnvironmentValues) -> Void
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let saved = context.environment
        transform(&context.environment)
        defer { context.environment = saved }
        return context.render(content, path: path)
    }
}

extension View {
    /// Sets an environment value for this view and its descendants.
    public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View {
        EnvironmentWriter(content: self) { $0[keyPath: keyPath] = value }
    }
    /// Places an `@Observable` object in the environment, read with `@Environment(T.self)`.
    public func environment<T: AnyObject & Observable>(_ object: T?) -> some View {
        EnvironmentWriter(content: self) { $0.objects[ObjectIdentifier(T.self)] = object }
    }
    /// Transforms the environment for this view and its descendants.
    public func transformEnvironment<V>(
        _ keyPath: WritableKeyPath<EnvironmentValues, V>, transform: @escaping (inout V) -> Void
    ) -> some View {
        EnvironmentWriter(content: self) { transform(&$0[keyPath: keyPath]) }
    }
}

// MARK: Built-in values

/// Dismisses the presentation (sheet, alert) that contains the view.
@MainActor
public struct DismissAction: Sendable {
    let action: @MainActor @Sendable () -> Void
    /// Dismisses.
    public func callAsFunction() { action() }
}

/// Opens a new window (a new scene of a window group) in the browser.
@MainActor
public struct OpenWindowAction: Sendable {
    let open: @MainActor @Sendable (String?) -> Void
    var openValue: @MainActor @Sendable (String?, ObjectIdentifier, Data) -> Void = { _, _, _ in }
    /// Opens a new window of the app's main window group.
    public func callAsFunction() { open(nil) }
    /// Opens a new window of the window group (or the window) with this id.
    public func callAsFunction(id: String) { open(id) }
    /// Opens a window presenting `value`, in the window group for its type (the window already
    /// presenting it, if one is open, is shown instead).
    public func callAsFunction<D: Codable & Hashable>(value: D) {
        guard let data = PresentedValueCoding.encode(value) else { return }
        openValue(nil, ObjectIdentifier(D.self), data)
    }
    /// Opens a window of the group with this id presenting `value`.
    public func callAsFunction<D: Codable & Hashable>(id: String, value: D) {
        guard let data = PresentedValueCoding.encode(value) else { return }
        openValue(id, ObjectIdentifier(D.self), data)
    }
}

/// Closes windows (`@Environment(\.dismissWindow)`).
@MainActor
public struct DismissWindowAction: Sendable {
    let dismiss: @MainActor @Sendable (_ own: Bool, _ id: String?, _ type: ObjectIdentifier?, _ value: Data?) -> Void
    /// Closes the window this view is in.
    public func callAsFunction() { dismiss(true, nil, nil, nil) }
    /// Closes the windows of the group (or the window) with this id.
    public func callAsFunction(id: String) { dismiss(false, id, nil, nil) }
    /// Closes the windows presenting `value`.
    public func callAsFunction<D: Codable & Hashable>(value: D) {
        dismiss(false, nil, ObjectIdentifier(D.self), PresentedValueCoding.encode(value))
    }
    /// Closes the windows of the group with this id presenting `value`.
    public func callAsFunction<D: Codable & Hashable>(id: String, value: D) {
        dismiss(false, id, ObjectIdentifier(D.self), PresentedValueCoding.encode(value))
    }
}

/// A presented value's stored form: JSON with sorted keys, so equal values have equal bytes.
enum PresentedValueCoding {
    static func encode<D: Encodable>(_ value: D) -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do { return try encoder.encode([value]) } catch {
            preconditionFailure("openWindow(value:) could not encode \(D.self): \(error)")
        }
    }
    static func decode<D: Decodable>(_ type: D.Type, _ data: Data) throws -> D? {
        try JSONDecoder().decode([D].self, from: data).first
    }
}

/// Light or dark appearance.
public enum ColorScheme: Sendable, Hashable { case light, dark }

/// A scene's operational state.
public enum ScenePhase: Sendable, Hashable { case active, inactive, background }

private struct DismissKey: EnvironmentKey { static var defaultValue: DismissAction { DismissAction {} } }
private struct OpenWindowKey: EnvironmentKey { static var defaultValue: OpenWindowAction { OpenWindowAction { _ in } } }
private struct DismissWindowKey: EnvironmentKey {
    static var defaultValue: DismissWindowAction { DismissWindowAction { _, _, _, _ in } }
}
private struct IsEnabledKey: EnvironmentKey { static var defaultValue: Bool { true } }
private struct ColorSchemeKey: EnvironmentKey { static var defaultValue: ColorScheme { .light } }
private struct ScenePhaseKey: EnvironmentKey { static var defaultValue: ScenePhase { .active } }
private struct FontKey: EnvironmentKey { static var defaultValue: Font? { nil } }
private struct IsPresentedKey: EnvironmentKey { static var defaultValue: Bool { false } }
private struct LocaleKey: EnvironmentKey { static var defaultValue: Locale { .current } }
private struct CalendarKey: EnvironmentKey { static var defaultValue: Calendar { .current } }
private struct TimeZoneKey: EnvironmentKey { static var defaultValue: TimeZone { .current } }

extension EnvironmentValues {
    /// Dismisses the current presentation.
    public var dismiss: DismissAction {
        get { self[DismissKey.self] }
        set { self[DismissKey.self] = newValue }
    }
    /// Opens new windows.
    public var openWindow: OpenWindowAction {
        get { self[OpenWindowKey.self] }
        set { self[OpenWindowKey.self] = newValue }
    }
    /// Closes windows.
    public var dismissWindow: DismissWindowAction {
        get { self[DismissWindowKey.self] }
        set { self[DismissWindowKey.self] = newValue }
    }
    /// Whether controls accept interaction (`disabled(_:)` turns it off).
    public var isEnabled: Bool {
        get { self[IsEnabledKey.self] }
        set { self[IsEnabledKey.self] = newValue }
    }
    /// The color scheme (always light in the default stylesheet).
    public var colorScheme: ColorScheme {
        get { self[ColorSchemeKey.self] }
        set { self[ColorSchemeKey.self] = newValue }
    }
    /// The window's phase: `.active` while its page is visible and focused, `.inactive` while visible
    /// without focus, `.background` while hidden or not connected.
    public var scenePhase: ScenePhase {
        get { self[ScenePhaseKey.self] }
        set { self[ScenePhaseKey.self] = newValue }
    }
    /// The default font.
    public var font: Font? {
        get { self[FontKey.self] }
        set { self[FontKey.self] = newValue }
    }
    /// Whether the view is inside a presentation (sheet).
    public var isPresented: Bool {
        get { self[IsPresentedKey.self] }
        set { self[IsPresentedKey.self] = newValue }
    }
    /// The locale.
    public var locale: Locale {
        get { self[LocaleKey.self] }
        set { self[LocaleKey.self] = newValue }
    }
    /// The calendar.
    public var calendar: Calendar {
        get { self[CalendarKey.self] }
        set { self[CalendarKey.self] = newValue }
    }
    /// The time zone.
    public var timeZone: TimeZone {
        get { self[TimeZoneKey.self] }
        set { self[TimeZoneKey.self] = newValue }
    }
}
