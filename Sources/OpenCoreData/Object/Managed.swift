import Foundation
import Synchronization

/// Declares a managed property of an `NSManagedObject` subclass, in place of `@NSManaged`
/// (which needs the Objective-C runtime that Linux lacks).
///
/// ```swift
/// final class Aircraft: NSManagedObject {}
///
/// extension Aircraft {
///     @Managed public var tailNumber: String?
///     @Managed public var colorScheme: [String: Any]?
///     @Managed public var logEntries: NSSet?
/// }
/// ```
/// The property reads and writes the object's value for the entity's property of the same name, as
/// `@NSManaged` does: faults fire, changes are tracked and inverse relationships kept. Like `@NSManaged`,
/// it may be declared in the class or in an extension. The macro turns the property into a getter and a
/// setter and declares a `ManagedProperty` constant beside it, so an access finds the value's slot
/// without a key path or a string lookup (the class must not be generic: it holds that constant).
@attached(accessor, names: named(get), named(set))
@attached(peer, names: prefixed(_managed_))
public macro Managed() = #externalMacro(module: "OpenCoreDataMacros", type: "ManagedMacro")

/// A `@Managed` property of an `NSManagedObject` subclass: its name, whose literal's address is the
/// identity the entity layouts' slot tables know it by. The `@Managed` macro declares one per property,
/// as a static constant of the class; the compiler folds it into the accessors, so an access loads no
/// global and calls nothing to find it.
///
/// Two constants share an identity only when their names are the same literal text, and a name
/// always means the same slot of a given entity layout.
public struct ManagedProperty: Sendable {
    /// The property's name (the entity's property it reads and writes), as written in the source.
    public let staticName: StaticString

    /// A property named `name` (a string literal).
    @inlinable
    public init(_ name: StaticString) { staticName = name }

    /// The property's name as a `String`.
    public var name: String { staticName.description }

    /// The identity the slot tables know the property by: the address of its name's text (or, for a
    /// name of one Unicode scalar that the compiler keeps in place of an address, that scalar's value,
    /// which is below any address).
    @inlinable
    var id: UInt {
        staticName.hasPointerRepresentation
            ? UInt(bitPattern: staticName.utf8Start) : UInt(staticName.unicodeScalar.value)
    }
}

extension NSManagedObject {
    /// The value of a `@Managed` property (the getter the `@Managed` macro writes).
    ///
    /// Inlinable, so that each use is specialized for its value type in the caller's module (no generic
    /// metadata at run time). A loaded attribute of the declared type is read in place; anything else
    /// goes through key-value coding's path and conversions.
    @inlinable @inline(__always)
    public final func _managedValue<Value>(_ property: ManagedProperty) -> Value {
        if let value = _loadedManagedValue(id: property.id, as: Value.self) { return value }
        let stored = _managedSlotValue(property)
        // The stored type (or its Optional): no cast. Anything else is converted.
        if let value = stored.value(as: Value.self) { return value }
        let raw = stored.any
        if let value = raw as? Value { return value }
        return ManagedValueCoercion.coerce(raw, to: Value.self, name: property.name, entity: entity)
    }

    /// Sets the value of a `@Managed` property (the setter the `@Managed` macro writes): tracked as a
    /// change, with inverse relationships kept, as `setValue(_:forKey:)` does.
    @inlinable @inline(__always)
    public final func _setManagedValue<Value>(_ newValue: Value, _ property: ManagedProperty) {
        if let typed = SlotValue.from(newValue) {
            _setManagedSlotValue(typed, property)
        } else {
            _setManagedValue(ManagedValueCoercion.box(newValue), property)
        }
    }

    /// The value of the `@Managed` attribute known to the slot table as `id`, when it is loaded (a
    /// fetched row or an object's own values), the table has it already, and the value is a `T` as
    /// stored (or nil of an Optional `T`); nil otherwise, and the caller takes the general path.
    @inlinable @inline(__always)
    final func _loadedManagedValue<T>(id: UInt, as type: T.Type) -> T? {
        ManagedFastPath.loadedValue(of: self, id: id, as: T.self)
    }

    /// The value of a `@Managed` property, through key-value coding's path (a fault fires, a
    /// relationship is read as objects).
    @usableFromInline
    final func _managedSlotValue(_ property: ManagedProperty) -> SlotValue {
        let layout = payload.layout
        guard let slot = layout.managedSlots.slotAndKey(for: property, layout: layout)?.slot else {
            return SlotValue(value(forKey: property.name))
        }
        return loadedAttribute(atSlot: slot, layout: layout) ?? SlotValue(value(atSlot: slot))
    }

    /// Sets a typed value of a `@Managed` property: stored as it is when it has the attribute's type,
    /// otherwise normalized as key-value coding does.
    @usableFromInline
    final func _setManagedSlotValue(_ value: SlotValue, _ property: ManagedProperty) {
        let layout = payload.layout
        guard let (slot, key) = layout.managedSlots.slotAndKey(for: property, layout: layout),
            let type = layout.attributeTypes[slot]
        else {
            _setManagedValue(value.any, property)
            return
        }
        var stored = value
        if case .composite(let dictionary) = value,
            let composite = layout.properties[slot] as? NSCompositeAttributeDescription
        {
            // A composite's elements are normalized one by one (usually they already have their types).
            stored = .composite(CompositeValues.normalize(dictionary, composite: composite))
        } else if !value.isNormalized(for: type) {
            _setManagedValue(value.any, property)
            return
        }
        willChangeValue(forKey: key)
        fireFaultIfNeeded()
        markChanged(slot: slot)
        data.values![slot: slot] = stored
        didChangeValue(forKey: key)
    }

    /// Sets the value of a `@Managed` property through key-value coding's conversions.
    @usableFromInline
    final func _setManagedValue(_ value: Any?, _ property: ManagedProperty) {
        let layout = payload.layout
        guard let (slot, key) = layout.managedSlots.slotAndKey(for: property, layout: layout) else {
            setValue(value, forKey: property.name)
            return
        }
        willChangeValue(forKey: key)
        setValue(value, atSlot: slot, maintainInverse: true)
        didChangeValue(forKey: key)
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
    static func coerce<Value>(_ any: Any?, to type: Value.Type, name key: String, entity: NSEntityDescription) -> Value
    {
        if any == nil, let none = Optional<Any>.none as? Value { return none }
        if let converted = convert(any, to: type) { return converted }
        if any == nil, let zero = zeroValue(type) { return zero }
        fatalError(
            "\(entity.name ?? "?").\(key) holds \(String(describing: any)) of type \(any.map { String(describing: Swift.type(of: $0)) } ?? "nil"), which is not a \(Value.self)"
        )
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

    private init(int: Int64) {
        int64 = int
        double = Double(int)
        isInteger = true
    }
    private init(double: Double) {
        self.double = double
        self.int64 = double.isFinite && abs(double) < 9.2e18 ? Int64(double) : 0
        isInteger = false
    }
}
