import Foundation

/// A publisher that tells subscribers an object is about to change.
public final class ObservableObjectPublisher: @unchecked Sendable {
    private let lock = NSLock()
    private var subscribers: [UInt64: @Sendable () -> Void] = [:]
    private var next: UInt64 = 0

    /// Creates a publisher.
    public init() {}

    /// Announces a change to every subscriber.
    public func send() {
        lock.lock(); let subs = Array(subscribers.values); lock.unlock()
        for s in subs { s() }
    }

    /// Subscribes; returns a token for `cancel(_:)`.
    func subscribe(_ f: @escaping @Sendable () -> Void) -> UInt64 {
        lock.lock(); defer { lock.unlock() }
        next += 1; subscribers[next] = f; return next
    }

    /// Removes a subscription.
    func cancel(_ token: UInt64) { lock.lock(); subscribers[token] = nil; lock.unlock() }
}

/// A class whose changes views observe.
public protocol ObservableObject: AnyObject {
    /// Publishes before the object changes.
    var objectWillChange: ObservableObjectPublisher { get }
}

private final class PublisherTable: @unchecked Sendable {
    let lock = NSLock()
    var table: [ObjectIdentifier: (weak: Weak, publisher: ObservableObjectPublisher)] = [:]
    struct Weak { weak var object: AnyObject? }
    static let shared = PublisherTable()

    func publisher(for object: AnyObject) -> ObservableObjectPublisher {
        lock.lock(); defer { lock.unlock() }
        let key = ObjectIdentifier(object)
        if let entry = table[key], entry.weak.object === object { return entry.publisher }
        if table.count > 1024 { table = table.filter { $0.value.weak.object != nil } }
        let p = ObservableObjectPublisher()
        table[key] = (Weak(object: object), p)
        return p
    }
}

extension ObservableObject {
    /// The default publisher, one per object.
    public var objectWillChange: ObservableObjectPublisher { PublisherTable.shared.publisher(for: self) }
}

/// A property of an ``ObservableObject`` that announces its changes.
@propertyWrapper
public struct Published<Value> {
    var value: Value

    /// Creates a published property.
    public init(wrappedValue: Value) { value = wrappedValue }

    /// Only accessible through the enclosing object.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError() }
        set { fatalError() }
    }

    /// Reads and writes through the enclosing object, sending `objectWillChange` before a write.
    public static subscript<EnclosingSelf: ObservableObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].value }
        set {
            object.objectWillChange.send()
            object[keyPath: storageKeyPath].value = newValue
        }
    }
}
