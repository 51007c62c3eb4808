import Foundation

/// Read-only key-value coding, the way predicates and sort descriptors read values from objects.
/// `NSManagedObject` conforms; dictionaries and `NSDictionary` are read directly by the evaluator.
public protocol KeyValueCodingReadable {
    /// The value for one key (no dots), or nil.
    func value(forKey key: String) -> Any?
}

extension KeyValueCodingReadable {
    /// Walks a dotted key path like KVC: maps over collections, applies `@count`, `@sum`, `@avg`, `@min`, `@max`,
    /// `@distinctUnionOfObjects` and `@unionOfObjects`.
    public func value(forKeyPath keyPath: String) -> Any? { KeyValueCoding.value(of: self, keyPath: keyPath) }
}

/// KVC reading for any value: dictionaries, `NSDictionary`, `KeyValueCodingReadable`, collections and (as a fallback) reflection.
public enum KeyValueCoding {
    /// The value of `key` on `object`; over a collection, the collection of each element's value.
    public static func value(of object: Any?, key: String) -> Any? {
        guard let object else { return nil }
        switch object {
        case let r as KeyValueCodingReadable: return r.value(forKey: key)
        case let d as [String: Any]: return d[key]
        case let d as NSDictionary: return d.object(forKey: key)
        default: break
        }
        if let elements = PredicateValues.collection(object) {
            return elements.map { value(of: $0, key: key) ?? NSNull() }
        }
        if key == "self" || key == "SELF" { return object }
        let m = Mirror(reflecting: object)
        for child in m.children where child.label == key || child.label == "_" + key {
            return PredicateValues.unwrap(child.value)
        }
        return nil
    }

    /// The value of a dotted `keyPath` on `object`, with KVC collection operators.
    public static func value(of object: Any?, keyPath: String) -> Any? {
        if !keyPath.contains(".") && !keyPath.hasPrefix("@") { return value(of: object, key: keyPath) }
        var current: Any? = object
        var parts = keyPath.split(separator: ".")[...]
        while let part = parts.popFirst() {
            if part.hasPrefix("@") {
                let rest = parts.joined(separator: ".")
                parts = []
                let elements = PredicateValues.collection(current) ?? []
                let values: [Any] = rest.isEmpty ? elements : elements.compactMap { value(of: $0, keyPath: rest) }.filter { !($0 is NSNull) }
                switch part {
                case "@count": return rest.isEmpty ? elements.count : values.count
                case "@sum": return values.reduce(0.0) { $0 + (PredicateValues.double($1) ?? 0) }
                case "@avg": return values.isEmpty ? nil : values.reduce(0.0) { $0 + (PredicateValues.double($1) ?? 0) } / Double(values.count)
                case "@min": return values.min { PredicateValues.compare($0, $1) == .orderedAscending }
                case "@max": return values.max { PredicateValues.compare($0, $1) == .orderedAscending }
                case "@unionOfObjects": return values
                case "@distinctUnionOfObjects":
                    var out: [Any] = []
                    for v in values where !out.contains(where: { PredicateValues.equal($0, v) }) { out.append(v) }
                    return out
                default: return nil
                }
            }
            current = value(of: current, key: String(part))
            if current == nil { return nil }
        }
        return current
    }
}
