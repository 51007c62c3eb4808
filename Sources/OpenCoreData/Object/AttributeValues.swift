import Foundation

/// Converts values set through key-value coding into the Swift type of their attribute.
///
/// Integers of any width become the attribute's width (Int16/Int32/Int64), numbers become Double,
/// Float, Decimal or Bool as declared, and composites become `[String: Any]` with normalized elements.
/// A value that cannot be converted is kept as given and reported by validation when saved.
enum AttributeValues {
    static func normalize(_ value: Any?, for attribute: NSAttributeDescription) -> Any? {
        guard let value else { return nil }
        // Exact types first: casts to Foundation classes (NSNull, NSNumber) make Swift try bridging.
        switch attribute.attributeType {
        case .stringAttributeType: if let v = value as? String { return v }
        case .doubleAttributeType: if let v = value as? Double { return v }
        case .integer64AttributeType: if let v = value as? Int64 { return v }
        case .integer32AttributeType: if let v = value as? Int32 { return v }
        case .integer16AttributeType: if let v = value as? Int16 { return v }
        case .booleanAttributeType: if let v = value as? Bool { return v }
        case .dateAttributeType: if let v = value as? Date { return v }
        case .binaryDataAttributeType: if let v = value as? Data { return v }
        case .UUIDAttributeType: if let v = value as? UUID { return v }
        case .compositeAttributeType:
            if let composite = attribute as? NSCompositeAttributeDescription, let dictionary = value as? [String: Any] {
                return CompositeValues.normalize(dictionary, composite: composite)
            }
        default: break
        }
        if isNull(value) { return nil }
        switch attribute.attributeType {
        case .integer16AttributeType:
            if let v = value as? Int16 { return v }
            if let n = NumericValue(value), n.isInteger || n.double.rounded() == n.double, let v = Int16(exactly: n.int64) { return v }
        case .integer32AttributeType:
            if let v = value as? Int32 { return v }
            if let n = NumericValue(value), n.isInteger || n.double.rounded() == n.double, let v = Int32(exactly: n.int64) { return v }
        case .integer64AttributeType:
            if let v = value as? Int64 { return v }
            if let n = NumericValue(value), n.isInteger || n.double.rounded() == n.double { return n.int64 }
        case .doubleAttributeType:
            if let v = value as? Double { return v }
            if let n = NumericValue(value) { return n.double }
        case .floatAttributeType:
            if let v = value as? Float { return v }
            if let n = NumericValue(value) { return Float(n.double) }
        case .decimalAttributeType:
            if let v = value as? Decimal { return v }
            if let v = value as? NSDecimalNumber { return v.decimalValue }
            if let n = NumericValue(value) { return n.isInteger ? Decimal(n.int64) : Decimal(n.double) }
            if let s = value as? String, let d = Decimal(string: s) { return d }
        case .booleanAttributeType:
            if let v = value as? Bool { return v }
            if let n = NumericValue(value) { return n.int64 != 0 }
        case .stringAttributeType:
            if let v = value as? String { return v }
            if let v = value as? NSString { return String(describing: v) }
        case .dateAttributeType:
            if let v = value as? Date { return v }
            if let v = value as? NSDate { return Date(timeIntervalSinceReferenceDate: v.timeIntervalSinceReferenceDate) }
        case .binaryDataAttributeType:
            if let v = value as? Data { return v }
            if let v = value as? [UInt8] { return Data(v) }
        case .UUIDAttributeType:
            if let v = value as? UUID { return v }
            if let v = value as? NSUUID { return UUID(uuidString: v.uuidString) }
            if let s = value as? String, let v = UUID(uuidString: s) { return v }
        case .URIAttributeType:
            if let v = value as? URL { return v }
            if let v = value as? NSURL, let u = URL(string: v.absoluteString) { return u }
        case .compositeAttributeType:
            if let composite = attribute as? NSCompositeAttributeDescription, let dictionary = CompositeValues.dictionary(value) {
                return CompositeValues.normalize(dictionary, composite: composite)
            }
        case .transformableAttributeType, .undefinedAttributeType, .objectIDAttributeType:
            return value
        }
        return value
    }

    /// Whether a value has exactly the Swift type an attribute type stores (no conversion needed).
    static func hasExactType(_ value: Any, for type: NSAttributeType) -> Bool {
        guard let exact = exactType(type) else { return false }
        return Swift.type(of: value) == exact
    }

    /// The one Swift type values of an attribute type have (nil where several are allowed).
    private static func exactType(_ type: NSAttributeType) -> Any.Type? {
        switch type {
        case .integer16AttributeType: return Int16.self
        case .integer32AttributeType: return Int32.self
        case .integer64AttributeType: return Int64.self
        case .doubleAttributeType: return Double.self
        case .floatAttributeType: return Float.self
        case .booleanAttributeType: return Bool.self
        case .stringAttributeType: return String.self
        case .dateAttributeType: return Date.self
        case .UUIDAttributeType: return UUID.self
        case .binaryDataAttributeType: return Data.self
        case .compositeAttributeType: return [String: Any].self
        default: return nil
        }
    }

    /// Whether a (normalized) value has the Swift type its attribute stores.
    static func hasExpectedType(_ value: Any, for attribute: NSAttributeDescription) -> Bool {
        let type = attribute.attributeType
        // The exact type first: a metadata comparison, where `is` is a dynamic cast.
        if hasExactType(value, for: type) { return true }
        switch type {
        case .integer16AttributeType: return value is Int16
        case .integer32AttributeType: return value is Int32
        case .integer64AttributeType: return value is Int64
        case .doubleAttributeType: return value is Double
        case .floatAttributeType: return value is Float
        case .decimalAttributeType: return value is Decimal
        case .booleanAttributeType: return value is Bool
        case .stringAttributeType: return value is String
        case .dateAttributeType: return value is Date
        case .binaryDataAttributeType: return value is Data
        case .UUIDAttributeType: return value is UUID
        case .URIAttributeType: return value is URL
        case .compositeAttributeType: return value is [String: Any]
        case .transformableAttributeType, .undefinedAttributeType, .objectIDAttributeType: return true
        }
    }
}

/// Composite values: `[String: Any]` dictionaries keyed by element name, nested for nested composites.
enum CompositeValues {
    static func dictionary(_ value: Any) -> [String: Any]? {
        if let d = value as? [String: Any] { return d }
        if let d = value as? [String: Any?] { return d.compactMapValues { $0 } }
        if let d = value as? NSDictionary {
            var result: [String: Any] = [:]
            for (k, v) in d { if let k = k as? String { result[k] = v } }
            return result
        }
        return nil
    }

    static func normalize(_ dictionary: [String: Any], composite: NSCompositeAttributeDescription) -> [String: Any] {
        // Usually every element already has its attribute's type: keep the dictionary as it is.
        let elements = composite.elements
        if dictionary.allSatisfy({ key, value in
            guard let element = elements.first(where: { $0.name == key }),
                  !(element is NSCompositeAttributeDescription) else { return false }
            return AttributeValues.hasExactType(value, for: element.attributeType)
        }) {
            return dictionary
        }
        var result: [String: Any] = [:]
        for (key, value) in dictionary {
            if let element = composite.elements.first(where: { $0.name == key }) {
                result[key] = AttributeValues.normalize(value, for: element)
            } else {
                result[key] = value // unknown element: kept, reported by validation
            }
        }
        return result
    }

    static func set(_ value: Any?, at path: [String], in dictionary: inout [String: Any], composite: NSCompositeAttributeDescription) {
        guard let head = path.first else { return }
        if path.count == 1 {
            dictionary[head] = value
            return
        }
        guard let nested = composite.elements.first(where: { $0.name == head }) as? NSCompositeAttributeDescription else { return }
        var inner = (dictionary[head] as? [String: Any]) ?? [:]
        set(value, at: Array(path.dropFirst()), in: &inner, composite: nested)
        dictionary[head] = inner
    }
}

/// Turns the many shapes a to-many value can come in into an array of objects.
enum RelationshipValues {
    static func objects(from value: Any?) -> [NSManagedObject] {
        switch value {
        case nil: return []
        case let set as NSSet: return set.allObjects.compactMap { $0 as? NSManagedObject }
        case let ordered as NSOrderedSet: return ordered.array.compactMap { $0 as? NSManagedObject }
        case let array as [NSManagedObject]: return array
        case let array as [Any]: return array.compactMap { $0 as? NSManagedObject }
        case let set as Set<AnyHashable>: return set.compactMap { $0.base as? NSManagedObject }
        case let collection as any Collection:
            return collection.compactMap { ($0 as? NSManagedObject) ?? (($0 as? AnyHashable)?.base as? NSManagedObject) }
        default: return []
        }
    }
}

/// A mutable view of a to-many relationship (what `mutableSetValue(forKey:)` returns).
public final class ManagedMutableSet {
    private let owner: NSManagedObject
    private let key: String

    init(owner: NSManagedObject, key: String) {
        self.owner = owner
        self.key = key
    }

    private var current: [NSManagedObject] { RelationshipValues.objects(from: owner.value(forKey: key)) }

    /// The number of objects.
    public var count: Int { current.count }
    /// The objects.
    public var allObjects: [Any] { current }
    /// Whether the relationship contains an object.
    public func contains(_ object: Any) -> Bool { current.contains { $0 === (object as AnyObject) } }
    /// Adds an object.
    public func add(_ object: Any) { addObjects(from: [object]) }
    /// Adds several objects.
    public func addObjects(from objects: [Any]) {
        var list = current
        for case let object as NSManagedObject in objects where !list.contains(where: { $0 === object }) { list.append(object) }
        owner.setValue(list, forKey: key)
    }
    /// Removes an object.
    public func remove(_ object: Any) {
        owner.setValue(current.filter { $0 !== (object as AnyObject) }, forKey: key)
    }
    /// Removes every object.
    public func removeAllObjects() { owner.setValue([NSManagedObject](), forKey: key) }

    // MARK: Ordered relationships (NSMutableOrderedSet's positional operations)

    /// The objects in order.
    public var array: [Any] { current }
    /// The object at a position.
    public func object(at index: Int) -> Any { current[index] }
    /// The position of an object, or `NSNotFound`.
    public func index(of object: Any) -> Int { current.firstIndex { $0 === (object as AnyObject) } ?? NSNotFound }
    /// Inserts an object at a position (an object already present moves there).
    public func insert(_ object: Any, at index: Int) {
        guard let object = object as? NSManagedObject else { return }
        var list = current.filter { $0 !== object }
        list.insert(object, at: Swift.min(index, list.count))
        owner.setValue(list, forKey: key)
    }
    /// Removes the object at a position.
    public func removeObject(at index: Int) {
        var list = current
        list.remove(at: index)
        owner.setValue(list, forKey: key)
    }
    /// Replaces the object at a position.
    public func replaceObject(at index: Int, with object: Any) {
        guard let object = object as? NSManagedObject else { return }
        var list = current
        list[index] = object
        // An object appears once: a copy elsewhere is dropped.
        list = list.enumerated().filter { $0.offset == index || $0.element !== object }.map(\.element)
        owner.setValue(list, forKey: key)
    }
    /// Moves the objects at `indexes` so that they start at `index`, keeping their order.
    public func moveObjects(at indexes: IndexSet, to index: Int) {
        let list = current
        let moving = indexes.map { list[$0] }
        var rest = list.enumerated().filter { !indexes.contains($0.offset) }.map(\.element)
        rest.insert(contentsOf: moving, at: Swift.min(index, rest.count))
        owner.setValue(rest, forKey: key)
    }
}

/// Whether a value is `NSNull`, without the bridging a cast (`is NSNull`) attempts on Swift values.
@inline(__always) func isNull(_ value: Any) -> Bool {
    type(of: value) == NSNull.self
}
