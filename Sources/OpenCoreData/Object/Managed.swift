import Foundation
import Synchronization

/// Declares a managed property of an `NSManagedObject` subclass, in place of `@NSManaged`
/// (which needs the Objective-C runtime that Linux lacks).
///
/// ```swift
/// final class Aircraft: NSManagedObject {
///     @Managed var tailNumber: String?
///     @Managed var colorScheme: [String: Any]?
///     @Managed var logEntries: NSSet?
/// }
/// ```
/// Reading and writing go through `value(forKey:)` / `setValue(_:forKey:)` with the property's
/// name (taken from the declaration), so faults fire,
/// changes are tracked and inverses are kept, as with `@NSManaged`.
@propertyWrapper
public struct Managed<Value> {
    // One byte, not zero: the wrapper takes almost no space in the object (a fetch of a million rows
    // holds a million objects), but every wrapper keeps its own offset. Key paths to zero-sized stored
    // properties at one offset are equal, which would make all @Managed properties of a class one key.
    // The property is named by its declaration, as with @NSManaged.
    private let marker: UInt8 = 0

    /// Uses the declared property's name as the key.
    public init() {}

    /// Not available: a managed property is only reachable through its object.
    @available(*, unavailable, message: "@Managed is only available on properties of NSManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("unreachable") }
        set { fatalError("unreachable") }
    }

    /// Reads and writes the enclosing object's value for this property.
    ///
    /// Inlinable, so that each use is specialized for its value type in the caller's module (no generic
    /// metadata at run time); the object's side is one non-generic call that finds the slot by key path.
    @inlinable
    public static subscript<Object: NSManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        get {
            // A loaded attribute of the stored type: read in place, inlined here (no call, no copy of the slot).
            if let value = object._loadedManagedValue(storage: storageKeyPath, as: Value.self) { return value }
            let stored = object._managedSlotValue(storage: storageKeyPath)
            // The stored type (or its Optional): no cast. Anything else is converted.
            if let value = stored.value(as: Value.self) { return value }
            let raw = stored.any
            if let value = raw as? Value { return value }
            return ManagedValueCoercion.coerce(raw, to: Value.self, storage: storageKeyPath, entity: object.entity)
        }
        set {
            if let typed = SlotValue.from(newValue) {
                object._setManagedSlotValue(typed, storage: storageKeyPath)
            } else {
                object._setManagedValue(ManagedValueCoercion.box(newValue), storage: storageKeyPath)
            }
        }
    }
}

extension NSManagedObject {
    /// The value of the `@Managed` attribute whose wrapper storage is at `storage`, when it is loaded (a
    /// fetched row or an object's own values), the slot table knows the key path, and the value is a `T`
    /// as stored (or nil of an Optional `T`); nil otherwise, and the caller takes the general path.
    ///
    /// Inlined into each accessor: it touches only plain data (the slot table's entries, the row block's
    /// buffer), so it retains nothing but the value it returns.
    @inlinable @inline(__always)
    final func _loadedManagedValue<T>(storage: AnyKeyPath, as type: T.Type) -> T? {
        // Unretained: the object holds its payload, which holds its layout and slot table.
        unowned(unsafe) let payload = self.payload
        unowned(unsafe) let table = payload.layout.managedSlots
        guard let slot = ManagedSlotTable.attributeSlot(for: ObjectIdentifier(storage), entries: table.entries,
                                                        count: table.published.load(ordering: .acquiring)) else { return nil }
        switch payload.kind {
        case .rows:
            unowned(unsafe) let block = unsafeDowncast(payload, to: RowBlock.self)
            return block.slots[Int(batchIndex) &* block.stride &+ slot].value(as: T.self)
        case .data:
            return unsafeDowncast(payload, to: ObjectData.self).values?[slot: slot].value(as: T.self)
        case .batch:
            return nil
        }
    }

    /// The value of the `@Managed` property whose wrapper storage is at `storage` (support for `Managed`).
    @usableFromInline
    final func _managedSlotValue(storage: AnyKeyPath) -> SlotValue {
        let layout = payload.layout
        guard let slot = layout.managedSlots.slot(for: storage, layout: layout) else {
            return SlotValue(value(forKey: ManagedKeyNames.name(of: storage)))
        }
        return loadedAttribute(atSlot: slot, layout: layout) ?? SlotValue(value(atSlot: slot))
    }

    /// Sets a typed value of the `@Managed` property whose wrapper storage is at `storage`: stored as
    /// it is when it has the attribute's type, otherwise normalized as key-value coding does.
    @usableFromInline
    final func _setManagedSlotValue(_ value: SlotValue, storage: AnyKeyPath) {
        let layout = payload.layout
        guard let (slot, key) = layout.managedSlots.slotAndKey(for: storage, layout: layout), let type = layout.attributeTypes[slot] else {
            _setManagedValue(value.any, storage: storage)
            return
        }
        var stored = value
        if case .composite(let dictionary) = value, let composite = layout.properties[slot] as? NSCompositeAttributeDescription {
            // A composite's elements are normalized one by one (usually they already have their types).
            stored = .composite(CompositeValues.normalize(dictionary, composite: composite))
        } else if !value.isNormalized(for: type) {
            _setManagedValue(value.any, storage: storage)
            return
        }
        willChangeValue(forKey: key)
        fireFaultIfNeeded()
        markChanged(slot: slot)
        data.values![slot: slot] = stored
        didChangeValue(forKey: key)
    }

    /// Sets the value of the `@Managed` property whose wrapper storage is at `storage` (support for `Managed`).
    @usableFromInline
    final func _setManagedValue(_ value: Any?, storage: AnyKeyPath) {
        let layout = payload.layout
        guard let (slot, key) = layout.managedSlots.slotAndKey(for: storage, layout: layout) else {
            setValue(value, forKey: ManagedKeyNames.name(of: storage))
            return
        }
        willChangeValue(forKey: key)
        setValue(value, atSlot: slot, maintainInverse: true)
        didChangeValue(forKey: key)
    }
}

/// The slots `@Managed` properties read and write, per entity layout, found by the wrapper's storage key path.
///
/// Key path literals are uniqued by the runtime, so a key path's identity names the property; the table
/// keeps each key path alive, so an identity is never reused by another key path. An entity has few
/// properties, so a linear scan of identities beats hashing. Entries are only ever appended (at most
/// 256: key paths of generic classes are not uniqued, and must not grow the table forever), so readers
/// take no lock: an entry is written before the count that publishes it.
@usableFromInline
final class ManagedSlotTable: @unchecked Sendable {
    @usableFromInline
    struct Entry {
        @usableFromInline let id: ObjectIdentifier
        @usableFromInline let slot: Int
        /// Whether the slot holds an attribute other than a composite (read in place by
        /// `attributeSlot(for:)`; a fetched row's composite may not be built yet, see `RowBlock.value`).
        @usableFromInline let isAttribute: Bool
        let key: String
    }

    private static let capacity = 256
    @usableFromInline let entries = UnsafeMutablePointer<Entry>.allocate(capacity: ManagedSlotTable.capacity)
    @usableFromInline let published = Atomic<Int>(0)
    /// Serializes writers, and keeps the key paths alive.
    private let lock = NSLock()
    private var keyPaths: [AnyKeyPath] = []

    deinit {
        entries.deinitialize(count: published.load(ordering: .acquiring))
        entries.deallocate()
    }

    /// The slot of the property whose wrapper storage is at `storage`; nil when the entity has no such
    /// property (the caller then goes through key-value coding, which reports the error).
    @inline(__always)
    func slot(for storage: AnyKeyPath, layout: EntityLayout) -> Int? {
        let id = ObjectIdentifier(storage)
        let count = published.load(ordering: .acquiring)
        for i in 0..<count where entries[i].id == id { return entries[i].slot }
        return add(storage, layout: layout)?.slot
    }

    /// The slot of the attribute whose wrapper storage is at `storage`, if the table has it already
    /// (nil for a relationship, or a key path not seen yet: the caller takes the general path, which adds it).
    @inlinable @inline(__always)
    func attributeSlot(for storage: AnyKeyPath) -> Int? {
        Self.attributeSlot(for: ObjectIdentifier(storage), entries: entries, count: published.load(ordering: .acquiring))
    }

    /// `attributeSlot(for:)` over the first `count` entries (the table's fields read by the caller,
    /// which then needs no reference to the table itself).
    @inlinable @inline(__always)
    static func attributeSlot(for id: ObjectIdentifier, entries: UnsafeMutablePointer<Entry>, count: Int) -> Int? {
        var i = 0
        while i < count {
            let entry = entries + i
            if entry.pointee.id == id { return entry.pointee.isAttribute ? entry.pointee.slot : nil }
            i &+= 1
        }
        return nil
    }

    /// The slot and key (the property's name) of the property whose wrapper storage is at `storage`.
    func slotAndKey(for storage: AnyKeyPath, layout: EntityLayout) -> (slot: Int, key: String)? {
        let id = ObjectIdentifier(storage)
        let count = published.load(ordering: .acquiring)
        for i in 0..<count where entries[i].id == id { return (entries[i].slot, entries[i].key) }
        return add(storage, layout: layout)
    }

    private func add(_ storage: AnyKeyPath, layout: EntityLayout) -> (slot: Int, key: String)? {
        let name = ManagedKeyNames.name(of: storage)
        guard let slot = layout.slotByName[name] else { return nil }
        let id = ObjectIdentifier(storage)
        lock.withLock {
            let count = published.load(ordering: .relaxed)
            guard count < Self.capacity, !(0..<count).contains(where: { entries[$0].id == id }) else { return }
            (entries + count).initialize(to: Entry(id: id, slot: slot, isAttribute: layout.attributeTypes[slot].map { $0 != .compositeAttributeType } ?? false, key: name))
            keyPaths.append(storage)
            published.store(count + 1, ordering: .releasing)
        }
        return (slot, name)
    }
}

/// Property names recovered from the wrapper's storage key path (`\Aircraft._tailNumber`), cached.
enum ManagedKeyNames {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [AnyKeyPath: String] = [:]

    static func name(of keyPath: AnyKeyPath) -> String {
        lock.lock()
        if let cached = cache[keyPath] { lock.unlock(); return cached }
        lock.unlock()
        let description = "\(keyPath)"
        var name = description.split(separator: ".").last.map(String.init) ?? description
        if name.hasPrefix("_") { name.removeFirst() }
        lock.lock(); cache[keyPath] = name; lock.unlock()
        return name
    }
}

/// Conversions between the values an object stores and the Swift types its properties declare.
@usableFromInline
enum ManagedValueCoercion {
    /// The value to store for a property's Swift value (optionals unwrapped, nested ones too).
    @inlinable
    static func box<Value>(_ value: Value) -> Any? {
        // Only Optionals need unwrapping; casting other values to a protocol makes Swift try bridging.
        guard Value.self is AnyOptional.Type, let optional = value as? AnyOptional else { return value }
        return optional.wrappedAny
    }

    /// A stored value converted to a property's Swift type (numbers across widths, sets, zero for nil).
    @usableFromInline
    static func coerce<Value>(_ any: Any?, to type: Value.Type, storage: AnyKeyPath, entity: NSEntityDescription) -> Value {
        let key = ManagedKeyNames.name(of: storage)
        if any == nil, let none = Optional<Any>.none as? Value { return none }
        if let converted = convert(any, to: type) { return converted }
        if any == nil, let zero = zeroValue(type) { return zero }
        fatalError("\(entity.name ?? "?").\(key) holds \(String(describing: any)) of type \(any.map { String(describing: Swift.type(of: $0)) } ?? "nil"), which is not a \(Value.self)")
    }

    private static func convert<Value>(_ any: Any?, to type: Value.Type) -> Value? {
        guard let any else { return nil }
        if let number = NumericValue(any) {
            switch type {
            case is Int.Type, is Int?.Type: return Int(exactly: number.int64) as? Value ?? Int(number.int64) as? Value
            case is Int16.Type, is Int16?.Type: return Int16(truncatingIfNeeded: number.int64) as? Value
            case is Int32.Type, is Int32?.Type: return Int32(truncatingIfNeeded: number.int64) as? Value
            case is Int64.Type, is Int64?.Type: return number.int64 as? Value
            case is Double.Type, is Double?.Type: return number.double as? Value
            case is Float.Type, is Float?.Type: return Float(number.double) as? Value
            case is Bool.Type, is Bool?.Type: return (number.int64 != 0) as? Value
            case is NSNumber.Type, is NSNumber?.Type: return NSNumber(value: number.double) as? Value
            case is Decimal.Type, is Decimal?.Type: return Decimal(number.double) as? Value
            default: break
            }
        }
        if let set = any as? NSSet {
            if let value = Set(set.allObjects.compactMap { $0 as? NSManagedObject }) as? Value { return value }
        }
        if let ordered = any as? NSOrderedSet {
            if let value = ordered.array as? Value { return value }
        }
        return nil
    }

    private static func zeroValue<Value>(_ type: Value.Type) -> Value? {
        switch type {
        case is Int.Type: return 0 as? Value
        case is Int16.Type: return Int16(0) as? Value
        case is Int32.Type: return Int32(0) as? Value
        case is Int64.Type: return Int64(0) as? Value
        case is Double.Type: return 0.0 as? Value
        case is Float.Type: return Float(0) as? Value
        case is Bool.Type: return false as? Value
        default: return nil
        }
    }
}

/// Lets a generic `Optional` be unwrapped to `Any?`.
@usableFromInline
protocol AnyOptional {
    var wrappedAny: Any? { get }
}

extension Optional: AnyOptional {
    @usableFromInline
    var wrappedAny: Any? {
        switch self {
        case .some(let value): return ManagedValueCoercion.box(value)
        case .none: return nil
        }
    }
}

/// A number of any of the types attribute values come in.
struct NumericValue {
    let int64: Int64
    let double: Double
    let isInteger: Bool

    init?(_ any: Any) {
        switch any {
        case let v as Int: self.init(int: Int64(v))
        case let v as Int64: self.init(int: v)
        case let v as Int32: self.init(int: Int64(v))
        case let v as Int16: self.init(int: Int64(v))
        case let v as Int8: self.init(int: Int64(v))
        case let v as UInt: self.init(int: Int64(truncatingIfNeeded: v))
        case let v as UInt64: self.init(int: Int64(truncatingIfNeeded: v))
        case let v as UInt32: self.init(int: Int64(v))
        case let v as UInt16: self.init(int: Int64(v))
        case let v as UInt8: self.init(int: Int64(v))
        case let v as Bool: self.init(int: v ? 1 : 0)
        case let v as Double: self.init(double: v)
        case let v as Float: self.init(double: Double(v))
        case let v as Decimal: self.init(double: NSDecimalNumber(decimal: v).doubleValue)
        case let v as NSNumber: self.init(double: v.doubleValue)
        default: return nil
        }
    }

    private init(int: Int64) { int64 = int; double = Double(int); isInteger = true }
    private init(double: Double) {
        self.double = double
        self.int64 = double.isFinite && abs(double) < 9.2e18 ? Int64(double) : 0
        isInteger = false
    }
}
