import Foundation

/// Value coercion and comparison shared by predicate evaluation and sort descriptors:
/// numbers compare by value across all numeric types, strings with the predicate's options.
public enum PredicateValues {
    /// Unwraps an `Optional` hidden in an `Any`, mapping `.none` and `NSNull` to nil.
    public static func unwrap(_ v: Any?) -> Any? {
        guard let v else { return nil }
        if v is NSNull { return nil }
        let m = Mirror(reflecting: v)
        if m.displayStyle == .optional { return m.children.first.map { unwrap($0.value) } ?? nil }
        return v
    }

    /// The value as a `Double` if it is a number (any integer or floating type, `Decimal`, `Bool`, `NSNumber`).
    public static func double(_ v: Any?) -> Double? {
        switch v {
        case let x as Int: return Double(x)
        case let x as Double: return x
        case let x as Bool: return x ? 1 : 0
        case let x as Int64: return Double(x)
        case let x as Int32: return Double(x)
        case let x as Int16: return Double(x)
        case let x as Int8: return Double(x)
        case let x as UInt: return Double(x)
        case let x as UInt64: return Double(x)
        case let x as UInt32: return Double(x)
        case let x as UInt16: return Double(x)
        case let x as UInt8: return Double(x)
        case let x as Float: return Double(x)
        case let x as Decimal: return NSDecimalNumber(decimal: x).doubleValue
        case let x as NSNumber: return x.doubleValue
        default: return nil
        }
    }

    /// The value as an `Int64` if it is an integer-valued number.
    public static func int64(_ v: Any?) -> Int64? {
        switch v {
        case let x as Int: return Int64(x)
        case let x as Int64: return x
        case let x as Int32: return Int64(x)
        case let x as Int16: return Int64(x)
        case let x as Int8: return Int64(x)
        case let x as UInt: return Int64(exactly: x)
        case let x as UInt64: return Int64(exactly: x)
        case let x as UInt32: return Int64(x)
        case let x as UInt16: return Int64(x)
        case let x as UInt8: return Int64(x)
        case let x as Bool: return x ? 1 : 0
        case let x as NSNumber where !(v is Double) && !(v is Float):
            let d = x.doubleValue
            return d == d.rounded() && abs(d) < 9e18 ? Int64(d) : nil
        default: return nil
        }
    }

    /// The elements of a collection value (Array, Set, NSArray, NSSet, NSOrderedSet), or nil if not a collection.
    public static func collection(_ v: Any?) -> [Any]? {
        switch v {
        case nil: return nil
        case is String: return nil
        case let a as [Any]: return a
        case let s as Set<AnyHashable>: return s.map { $0.base }
        case let s as NSOrderedSet: return s.array
        case let s as NSSet: return s.allObjects
        case let a as NSArray: return a.map { $0 }
        default:
            if let seq = v as? any Sequence, !(v is Data) {
                if v is KeyValueCodingReadable || v is [String: Any] || v is NSDictionary { return nil }
                return seq.map { $0 as Any }
            }
            return nil
        }
    }

    static func string(_ v: Any?) -> String? {
        switch v {
        case let s as String: return s
        case let s as Substring: return String(s)
        case let s as NSString: return String(describing: s)
        default: return nil
        }
    }

    /// Applies `[c]`/`[d]` folding to `s`.
    static func fold(_ s: String, _ options: NSComparisonPredicate.Options) -> String {
        var o: String.CompareOptions = []
        if options.contains(.caseInsensitive) { o.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { o.insert(.diacriticInsensitive) }
        return o.isEmpty ? s : s.folding(options: o, locale: nil)
    }

    /// Whether two values are equal as a predicate's `==` sees them.
    public static func equal(_ a: Any?, _ b: Any?, options: NSComparisonPredicate.Options = []) -> Bool {
        let a = unwrap(a)
        let b = unwrap(b)
        if a == nil || b == nil { return a == nil && b == nil }
        if let x = string(a), let y = string(b) {
            return options.isEmpty ? x == y : fold(x, options) == fold(y, options)
        }
        if let x = int64(a), let y = int64(b) { return x == y }
        if let x = double(a), let y = double(b) { return x == y }
        if let x = a as? UUID, let y = b as? UUID { return x == y }
        if let x = a as? UUID, let y = string(b) { return x.uuidString.lowercased() == y.lowercased() }
        if let x = a as? URL, let y = b as? URL { return x == y }
        if let x = a as? URL, let y = string(b) { return x.absoluteString == y }
        if let x = a as? Date, let y = b as? Date { return x == y }
        if let x = a as? Data, let y = b as? Data { return x == y }
        if let x = a as? AnyHashable, let y = b as? AnyHashable, x == y { return true }
        if let x = a as? NSObject, let y = b as? NSObject { return x.isEqual(y) }
        if let x = a as? AnyObject, let y = b as? AnyObject { return x === y }
        return false
    }

    /// Orders two values: numbers by value, strings (with options) lexically, dates, UUIDs, URLs, Data.
    /// Returns nil when the values are not comparable (including nil).
    public static func compare(_ a: Any?, _ b: Any?, options: NSComparisonPredicate.Options = []) -> ComparisonResult? {
        let a = unwrap(a)
        let b = unwrap(b)
        guard let a, let b else { return nil }
        func order<T: Comparable>(_ x: T, _ y: T) -> ComparisonResult {
            x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        }
        if let x = string(a), let y = string(b) {
            return options.isEmpty ? order(x, y) : order(fold(x, options), fold(y, options))
        }
        if let x = int64(a), let y = int64(b) { return order(x, y) }
        if let x = double(a), let y = double(b) { return order(x, y) }
        if let x = a as? Date, let y = b as? Date { return order(x, y) }
        if let x = a as? UUID, let y = b as? UUID { return order(x.uuidString, y.uuidString) }
        if let x = a as? URL, let y = b as? URL { return order(x.absoluteString, y.absoluteString) }
        if let x = a as? Data, let y = b as? Data {
            for (p, q) in zip(x, y) where p != q { return p < q ? .orderedAscending : .orderedDescending }
            return order(x.count, y.count)
        }
        return nil
    }
}
