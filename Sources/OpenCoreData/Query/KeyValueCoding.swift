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

/// KVC reading for any value: dictionaries, `NSDictionary`, `KeyValueCodingReadable`, collections, the properties of
/// strings, numbers, dates, UUIDs, URLs and data that Foundation's objects answer to (`length`, `description`,
/// `uppercaseString`, `intValue` …), and (as a fallback) reflection.
public enum KeyValueCoding {
    /// The value of `key` on `object`; over a collection, the collection of each element's value.
    public static func value(of object: Any?, key: String) -> Any? {
        lookup(object, key: key).value
    }

    /// The value of a dotted `keyPath` on `object`, with KVC collection operators.
    public static func value(of object: Any?, keyPath: String) -> Any? {
        // The non-throwing form reads an unknown collection operator as nil, as it reads an unknown key; predicates
        // use the checked form, which reports both.
        walk(object, keyPath: keyPath, { object, key in lookup(object, key: key).value }, unknownOperator: { _ in nil })
    }

    /// As ``value(of:key:)``, but a key that a string, number, date, UUID, URL or data value does not have is an
    /// error (Apple raises "not key value coding-compliant"), not nil: a predicate through such a key must not
    /// silently match nothing.
    static func checkedValue(of object: Any?, key: String) throws -> Any? {
        let found = lookup(object, key: key)
        if found.unknownKey, let object {
            throw NSPredicateEvaluationError.invalidOperand(
                "[\(Swift.type(of: object)) valueForUndefinedKey:]: this class is not key value coding-compliant "
                    + "for the key \(key)")
        }
        return found.value
    }

    /// As ``value(of:keyPath:)`` with ``checkedValue(of:key:)`` for each key.
    static func checkedValue(of object: Any?, keyPath: String) throws -> Any? {
        try walk(
            object, keyPath: keyPath, { object, key in try checkedValue(of: object, key: key) },
            unknownOperator: { part in
                throw NSPredicateEvaluationError.invalidOperand("unknown collection operator \(part)")
            })
    }

    /// The value of one key, and whether the object is a value whose keys are known and lacks this one.
    private static func lookup(_ object: Any?, key: String) -> (value: Any?, unknownKey: Bool) {
        guard let object else { return (nil, false) }
        switch object {
        case let r as KeyValueCodingReadable: return (r.value(forKey: key), false)
        case let d as [String: Any]: return (d[key], false)
        case let d as NSDictionary: return (d.object(forKey: key), false)
        default: break
        }
        if key == "self" || key == "SELF" { return (object, false) }
        if let scalar = scalarProperty(of: object, key: key) { return scalar }
        if let elements = PredicateValues.collection(object) {
            return (elements.map { lookup($0, key: key).value ?? NSNull() }, false)
        }
        let m = Mirror(reflecting: object)
        for child in m.children where child.label == key || child.label == "_" + key {
            return (PredicateValues.unwrap(child.value), false)
        }
        return (nil, false)
    }

    /// The properties Foundation's value classes answer to; nil when `object` is not such a value.
    private static func scalarProperty(of object: Any, key: String) -> (value: Any?, unknownKey: Bool)? {
        if let s = PredicateValues.string(object) {
            switch key {
            case "length": return (s.utf16.count, false)
            case "description": return (s, false)
            case "uppercaseString": return (s.uppercased(), false)
            case "lowercaseString": return (s.lowercased(), false)
            case "capitalizedString": return (s.capitalized, false)
            case "intValue", "integerValue", "longLongValue":
                // As NSString reads them: the leading number, 0 when there is none (never a trap on "1e400").
                let t = s.trimmingCharacters(in: .whitespaces)
                return (Int(t) ?? Double(t).flatMap { Int(exactly: $0.rounded(.towardZero)) } ?? 0, false)
            case "doubleValue", "floatValue": return (Double(s.trimmingCharacters(in: .whitespaces)) ?? 0, false)
            case "boolValue":
                let t = s.trimmingCharacters(in: .whitespaces).lowercased()
                return (t.hasPrefix("y") || t.hasPrefix("t") || (Int(t).map { $0 != 0 } ?? false), false)
            default: return (nil, true)
            }
        }
        if let date = object as? Date {
            switch key {
            case "timeIntervalSinceReferenceDate": return (date.timeIntervalSinceReferenceDate, false)
            case "timeIntervalSince1970": return (date.timeIntervalSince1970, false)
            case "description": return ("\(date)", false)
            default: return (nil, true)
            }
        }
        if let uuid = object as? UUID {
            switch key {
            case "UUIDString", "uuidString", "description": return (uuid.uuidString, false)
            default: return (nil, true)
            }
        }
        if let url = object as? URL {
            switch key {
            case "absoluteString", "description": return (url.absoluteString, false)
            case "path": return (url.path, false)
            case "lastPathComponent": return (url.lastPathComponent, false)
            case "pathExtension": return (url.pathExtension, false)
            case "host": return (url.host, false)
            case "scheme": return (url.scheme, false)
            default: return (nil, true)
            }
        }
        if let data = object as? Data {
            switch key {
            case "length": return (data.count, false)
            case "description": return ("\(data)", false)
            default: return (nil, true)
            }
        }
        if object is Bool || PredicateFormatter.numberObject(object) != nil || PredicateValues.double(object) != nil {
            guard let d = PredicateValues.double(object) else { return nil }
            switch key {
            case "intValue", "integerValue", "longLongValue": return (Int(exactly: d.rounded(.towardZero)) ?? 0, false)
            case "doubleValue", "floatValue": return (d, false)
            case "boolValue": return (d != 0, false)
            case "stringValue", "description": return (PredicateFormatter.constant(object), false)
            default: return (nil, true)
            }
        }
        return nil
    }

    /// Walks a dotted key path, applying `@count`, `@sum`, `@avg`, `@min`, `@max`, `@unionOfObjects`,
    /// `@distinctUnionOfObjects`, `@unionOfArrays`, `@distinctUnionOfArrays` and `@distinctUnionOfSets`.
    private static func walk(
        _ object: Any?, keyPath: String, _ lookup: (Any?, String) throws -> Any?,
        unknownOperator: (Substring) throws -> Any?
    ) rethrows -> Any? {
        if !keyPath.contains(".") && !keyPath.hasPrefix("@") { return try lookup(object, keyPath) }
        var current: Any? = object
        var parts = keyPath.split(separator: ".")[...]
        while let part = parts.popFirst() {
            if part.hasPrefix("@") {
                let rest = parts.joined(separator: ".")
                parts = []
                let elements = PredicateValues.collection(current) ?? []
                let values: [Any] =
                    rest.isEmpty
                    ? elements
                    : try elements.compactMap { try walk($0, keyPath: rest, lookup, unknownOperator: unknownOperator) }
                        .filter { !($0 is NSNull) }
                func distinct(_ items: [Any]) -> [Any] {
                    var out: [Any] = []
                    for v in items where !out.contains(where: { PredicateValues.equal($0, v) }) { out.append(v) }
                    return out
                }
                switch part {
                case "@count": return rest.isEmpty ? elements.count : values.count
                case "@sum": return values.reduce(0.0) { $0 + (PredicateValues.double($1) ?? 0) }
                case "@avg":
                    return values.isEmpty
                        ? nil : values.reduce(0.0) { $0 + (PredicateValues.double($1) ?? 0) } / Double(values.count)
                case "@min": return values.min { PredicateValues.compare($0, $1) == .orderedAscending }
                case "@max": return values.max { PredicateValues.compare($0, $1) == .orderedAscending }
                case "@unionOfObjects": return values
                case "@distinctUnionOfObjects": return distinct(values)
                case "@unionOfArrays": return values.flatMap { PredicateValues.collection($0) ?? [$0] }
                case "@distinctUnionOfArrays", "@distinctUnionOfSets":
                    return distinct(values.flatMap { PredicateValues.collection($0) ?? [$0] })
                default:
                    return try unknownOperator(part)
                }
            }
            current = try lookup(current, String(part))
            if current == nil { return nil }
        }
        return current
    }
}
