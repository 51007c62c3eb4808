import Foundation

/// One property value of an object, held by its Swift type without boxing it in `Any`.
///
/// Values an attribute stores (see `AttributeValues.normalize`) have a case of their own; so do the
/// relationship states. Anything else (a transformable's object, a decimal, a URL) is boxed in `other`.
/// `@Managed` accessors read and write the typed cases directly: no existential, no dynamic cast.
@usableFromInline
enum SlotValue {
    case null
    case string(String)
    case int16(Int16)
    case int32(Int32)
    case int64(Int64)
    case double(Double)
    case float(Float)
    case bool(Bool)
    case date(Date)
    case uuid(UUID)
    case data(Data)
    /// A composite attribute's value: element values by name, nested for nested composites.
    case composite([String: Any])
    /// A to-one relationship's object.
    case object(NSManagedObject)
    /// A to-one relationship's row, not yet turned into an object.
    case reference(RowReference)
    /// A to-many relationship's objects.
    case objects(RelationshipObjects)
    /// Any other value.
    case other(SlotBox)

    /// The typed value for `value` (its exact Swift type decides the case).
    init(_ value: Any?) {
        guard let value else {
            self = .null
            return
        }
        let type = Swift.type(of: value)
        if type == String.self {
            self = .string(value as! String)
        } else if type == Int64.self {
            self = .int64(value as! Int64)
        } else if type == Int32.self {
            self = .int32(value as! Int32)
        } else if type == Int16.self {
            self = .int16(value as! Int16)
        } else if type == Double.self {
            self = .double(value as! Double)
        } else if type == Float.self {
            self = .float(value as! Float)
        } else if type == Bool.self {
            self = .bool(value as! Bool)
        } else if type == Date.self {
            self = .date(value as! Date)
        } else if type == UUID.self {
            self = .uuid(value as! UUID)
        } else if type == Data.self {
            self = .data(value as! Data)
        } else if type == [String: Any].self {
            self = .composite(value as! [String: Any])
        } else if type == RowReference.self {
            self = .reference(value as! RowReference)
        } else if type == RelationshipObjects.self {
            self = .objects(value as! RelationshipObjects)
        } else if type is NSManagedObject.Type {
            self = .object(value as! NSManagedObject)
        } else {
            self = .other(SlotBox(value))
        }
    }

    /// The value as `Any` (nil for `null`), with the Swift type it was stored with.
    @usableFromInline
    var any: Any? {
        let value = self
        return value.takeAny()
    }

    /// The value as `Any` (as `any` gives it), consuming it: its payload moves into the existential.
    consuming func takeAny() -> Any? {
        switch consume self {
        case .null: return nil
        case .string(let v): return v
        case .int16(let v): return v
        case .int32(let v): return v
        case .int64(let v): return v
        case .double(let v): return v
        case .float(let v): return v
        case .bool(let v): return v
        case .date(let v): return v
        case .uuid(let v): return v
        case .data(let v): return v
        case .composite(let v): return v
        case .object(let v): return v
        case .reference(let v): return v
        case .objects(let v): return v
        case .other(let box): return box.value
        }
    }

    /// Whether destroying this value does anything: false for the plain-data cases and for strings the
    /// runtime keeps no reference count for (see `StringLayout.isImmortal`).
    @inline(__always)
    var needsDestroying: Bool {
        switch self {
        case .null, .int16, .int32, .int64, .double, .float, .bool, .date: return false
        case .string(let string): return !StringLayout.isImmortal(string)
        default: return true
        }
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Whether this is the exact type an attribute of `type` stores (so it needs no normalizing).
    func isNormalized(for type: NSAttributeType) -> Bool {
        switch (self, type) {
        case (.null, _), (.string, .stringAttributeType), (.int16, .integer16AttributeType),
            (.int32, .integer32AttributeType),
            (.int64, .integer64AttributeType), (.double, .doubleAttributeType), (.float, .floatAttributeType),
            (.bool, .booleanAttributeType), (.date, .dateAttributeType), (.uuid, .UUIDAttributeType),
            (.data, .binaryDataAttributeType):
            return true
        default:
            return false
        }
    }

    // MARK: Typed access for @Managed (specialized in the caller; the type tests fold away)

    /// The value as a `T`, when `T` is the stored type, `Int` for a stored integer, or an Optional of
    /// either; nil when the caller must convert (see `ManagedValueCoercion`).
    @inlinable @inline(__always)
    func value<T>(as type: T.Type) -> T? {
        switch self {
        case .null: return SlotValue.none(as: T.self)
        case .string(let v): return SlotValue.exact(v, as: T.self)
        case .int64(let v): return SlotValue.exact(v, as: T.self) ?? SlotValue.exact(Int(v), as: T.self)
        case .int32(let v): return SlotValue.exact(v, as: T.self) ?? SlotValue.exact(Int(v), as: T.self)
        case .int16(let v): return SlotValue.exact(v, as: T.self) ?? SlotValue.exact(Int(v), as: T.self)
        case .double(let v): return SlotValue.exact(v, as: T.self)
        case .float(let v): return SlotValue.exact(v, as: T.self)
        case .bool(let v): return SlotValue.exact(v, as: T.self)
        case .date(let v): return SlotValue.exact(v, as: T.self)
        case .uuid(let v): return SlotValue.exact(v, as: T.self)
        case .data(let v): return SlotValue.exact(v, as: T.self)
        case .composite(let v): return SlotValue.exact(v, as: T.self)
        default: return nil
        }
    }

    /// `v` as a `T` when `T` is `V` or `V?`.
    @inlinable @inline(__always)
    static func exact<V, T>(_ v: V, as: T.Type) -> T? {
        TypeIdentity.cast(v, to: T.self) ?? TypeIdentity.cast(Optional(v), to: T.self)
    }

    /// nil as a `T`, when `T` is the Optional of a type with a case of its own.
    @inlinable @inline(__always)
    static func none<T>(as: T.Type) -> T? {
        if let none = TypeIdentity.cast(String?.none, to: T.self) { return none }
        if let none = TypeIdentity.cast(Int?.none, to: T.self) { return none }
        if let none = TypeIdentity.cast(Int64?.none, to: T.self) { return none }
        if let none = TypeIdentity.cast(Int32?.none, to: T.self) { return none }
        if let none = TypeIdentity.cast(Int16?.none, to: T.self) { return none }
        if let none = TypeIdentity.cast(Double?.none, to: T.self) { return none }
        if let none = TypeIdentity.cast(Float?.none, to: T.self) { return none }
        if let none = TypeIdentity.cast(Bool?.none, to: T.self) { return none }
        if let none = TypeIdentity.cast(Date?.none, to: T.self) { return none }
        if let none = TypeIdentity.cast(UUID?.none, to: T.self) { return none }
        if let none = TypeIdentity.cast(Data?.none, to: T.self) { return none }
        if let none = TypeIdentity.cast([String: Any]?.none, to: T.self) { return none }
        return nil
    }

    /// The typed value for a property's Swift value, when `T` is a type with a case of its own (or its
    /// Optional); nil when the value must go through `AttributeValues.normalize`.
    @inlinable @inline(__always)
    static func from<T>(_ v: T) -> SlotValue? {
        if let s = typed(v, String.self) { return s.map(SlotValue.string) ?? .null }
        if let s = typed(v, Int64.self) { return s.map(SlotValue.int64) ?? .null }
        if let s = typed(v, Int.self) { return s.map { SlotValue.int64(Int64($0)) } ?? .null }
        if let s = typed(v, Int32.self) { return s.map(SlotValue.int32) ?? .null }
        if let s = typed(v, Int16.self) { return s.map(SlotValue.int16) ?? .null }
        if let s = typed(v, Double.self) { return s.map(SlotValue.double) ?? .null }
        if let s = typed(v, Float.self) { return s.map(SlotValue.float) ?? .null }
        if let s = typed(v, Bool.self) { return s.map(SlotValue.bool) ?? .null }
        if let s = typed(v, Date.self) { return s.map(SlotValue.date) ?? .null }
        if let s = typed(v, UUID.self) { return s.map(SlotValue.uuid) ?? .null }
        if let s = typed(v, Data.self) { return s.map(SlotValue.data) ?? .null }
        if let s = typed(v, [String: Any].self) { return s.map(SlotValue.composite) ?? .null }
        return nil
    }

    /// `v` as a `V?` when `T` is `V` or `V?` (the outer Optional says whether `T` matched).
    @inlinable @inline(__always)
    static func typed<T, V>(_ v: T, _: V.Type) -> V?? {
        if let value = TypeIdentity.cast(v, to: V.self) { return .some(value) }
        if let value = TypeIdentity.cast(v, to: V?.self) { return .some(value) }
        return nil
    }
}

/// A value of a type without a `SlotValue` case of its own.
@usableFromInline
final class SlotBox {
    let value: Any
    init(_ value: Any) { self.value = value }
}

/// An object's values by slot (see `EntityLayout`): typed storage that reads and writes as `Any?`
/// where the caller does not know the type.
@usableFromInline
struct SlotValues: RandomAccessCollection, MutableCollection, ExpressibleByArrayLiteral {
    @usableFromInline private(set) var typed: [SlotValue]

    init(_ typed: [SlotValue]) { self.typed = typed }
    @usableFromInline init(arrayLiteral elements: Any?...) { typed = elements.map(SlotValue.init) }

    @usableFromInline var startIndex: Int { 0 }
    @usableFromInline var endIndex: Int { typed.count }

    @usableFromInline subscript(position: Int) -> Any? {
        get { typed[position].any }
        set { typed[position] = SlotValue(newValue) }
    }

    /// A slot's typed value.
    @inlinable
    subscript(slot slot: Int) -> SlotValue {
        @inline(__always) get { typed[slot] }
        @inline(__always) set { typed[slot] = newValue }
    }
}
