import Foundation

/// How an object's values are ordered, mirroring Apple's `NSSortDescriptor`.
/// Linux has no `Selector`, so Apple's selector-based comparisons are named by `Comparison`.
open class NSSortDescriptor: NSObject, @unchecked Sendable {
    /// The comparison a descriptor uses; the SQL store maps these to COLLATE clauses.
    public enum Comparison: Sendable, Equatable {
        /// `compare:` — numbers by value, strings by code point (SQL `BINARY`).
        case compare
        /// `caseInsensitiveCompare:` (SQL `NOCASE`).
        case caseInsensitiveCompare
        /// `localizedCompare:`.
        case localizedCompare
        /// `localizedCaseInsensitiveCompare:`.
        case localizedCaseInsensitiveCompare
        /// `localizedStandardCompare:` (Finder-like: case-insensitive, numbers by value).
        case localizedStandardCompare
        /// A Swift comparator block; cannot be translated to SQL.
        case comparator

        /// Apple's selector name for the comparison (nil for `.comparator`).
        public var selectorName: String? {
            switch self {
            case .compare: return "compare:"
            case .caseInsensitiveCompare: return "caseInsensitiveCompare:"
            case .localizedCompare: return "localizedCompare:"
            case .localizedCaseInsensitiveCompare: return "localizedCaseInsensitiveCompare:"
            case .localizedStandardCompare: return "localizedStandardCompare:"
            case .comparator: return nil
            }
        }
        /// The comparison named by an Apple selector string such as `"localizedStandardCompare:"`.
        public init?(selectorName: String) {
            switch selectorName {
            case "compare:": self = .compare
            case "caseInsensitiveCompare:": self = .caseInsensitiveCompare
            case "localizedCompare:": self = .localizedCompare
            case "localizedCaseInsensitiveCompare:": self = .localizedCaseInsensitiveCompare
            case "localizedStandardCompare:": self = .localizedStandardCompare
            default: return nil
            }
        }
    }

    /// The key path compared (nil compares the objects themselves).
    public let key: String?
    /// Whether the order is ascending.
    public let ascending: Bool
    /// Which comparison is used.
    public let comparison: Comparison
    /// The comparator block, when `comparison == .comparator`.
    public let comparator: Comparator?

    init(key: String?, ascending: Bool, comparison: Comparison, comparator: Comparator?) {
        self.key = key
        self.ascending = ascending
        self.comparison = comparison
        self.comparator = comparator
        super.init()
    }

    /// Sorts by `key` with `compare:`.
    public convenience init(key: String?, ascending: Bool) {
        self.init(key: key, ascending: ascending, comparison: .compare, comparator: nil)
    }
    /// Sorts by `key` with the comparison named by Apple's selector string (e.g. `"localizedStandardCompare:"`).
    /// Traps on an unknown selector name, as Apple raises when the selector is not understood.
    public convenience init(key: String?, ascending: Bool, selector: String) {
        guard let c = Comparison(selectorName: selector) else {
            fatalError("NSSortDescriptor: unsupported selector '\(selector)'")
        }
        self.init(key: key, ascending: ascending, comparison: c, comparator: nil)
    }
    /// Sorts by `key` with `comparison` (Orchard spelling of the selector form).
    public convenience init(key: String?, ascending: Bool, comparison: Comparison) {
        self.init(key: key, ascending: ascending, comparison: comparison, comparator: nil)
    }
    /// Sorts by `key` with a comparator block.
    public convenience init(key: String?, ascending: Bool, comparator cmptr: @escaping Comparator) {
        self.init(key: key, ascending: ascending, comparison: .comparator, comparator: cmptr)
    }
    /// Sorts by the property named by a Swift key path (`\Aircraft.tailNumber` → key "tailNumber";
    /// a leading underscore on each component is dropped).
    public convenience init<Root, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool) {
        self.init(key: NSSortDescriptor.keyName(keyPath), ascending: ascending)
    }
    /// Sorts by a Swift key path with a comparator block.
    public convenience init<Root, Value>(
        keyPath: KeyPath<Root, Value>, ascending: Bool, comparator cmptr: @escaping Comparator
    ) {
        self.init(key: NSSortDescriptor.keyName(keyPath), ascending: ascending, comparator: cmptr)
    }

    /// The KVC key recovered from a Swift key path's description (`\Root.a.b` → `a.b`).
    public static func keyName<Root, Value>(_ keyPath: KeyPath<Root, Value>) -> String {
        var text = String(describing: keyPath)
        if text.hasPrefix("\\") { text.removeFirst() }
        let root = String(describing: Root.self)
        if text.hasPrefix(root + ".") {
            text.removeFirst(root.count + 1)
        } else if let dot = text.firstIndex(of: ".") {
            text = String(text[text.index(after: dot)...])
        }
        return text.split(separator: ".").map { c -> String in
            var c = String(c)
            if c.hasSuffix("?") || c.hasSuffix("!") { c.removeLast() }
            return c.hasPrefix("_") ? String(c.dropFirst()) : c
        }.joined(separator: ".")
    }

    /// The same descriptor with the opposite direction.
    open var reversedSortDescriptor: NSSortDescriptor {
        NSSortDescriptor(key: key, ascending: !ascending, comparison: comparison, comparator: comparator)
    }

    /// Compares two objects' values at `key` (nil sorts before any value, as Apple's does).
    open func compare(_ object1: Any, to object2: Any) -> ComparisonResult {
        let a: Any? = key == nil ? object1 : KeyValueCoding.value(of: object1, keyPath: key!)
        let b: Any? = key == nil ? object2 : KeyValueCoding.value(of: object2, keyPath: key!)
        let r = compareValues(PredicateValues.unwrap(a), PredicateValues.unwrap(b))
        guard !ascending else { return r }
        switch r {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    func compareValues(_ a: Any?, _ b: Any?) -> ComparisonResult {
        switch (a, b) {
        case (nil, nil): return .orderedSame
        case (nil, _): return .orderedAscending
        case (_, nil): return .orderedDescending
        default: break
        }
        if let comparator, let a, let b { return comparator(a, b) }
        if let x = PredicateValues.string(a), let y = PredicateValues.string(b) {
            switch comparison {
            case .compare, .comparator: return PredicateValues.compare(x, y) ?? .orderedSame
            case .caseInsensitiveCompare: return x.compare(y, options: .caseInsensitive)
            case .localizedCompare: return x.compare(y, options: [], range: nil, locale: Locale.current)
            case .localizedCaseInsensitiveCompare:
                return x.compare(y, options: .caseInsensitive, range: nil, locale: Locale.current)
            case .localizedStandardCompare:
                return x.compare(
                    y, options: [.caseInsensitive, .numeric, .diacriticInsensitive], range: nil, locale: Locale.current)
            }
        }
        return PredicateValues.compare(a, b) ?? .orderedSame
    }

    /// Descriptors are equal when key, direction and comparison match (comparator blocks are never equal).
    open override func isEqual(_ object: Any?) -> Bool {
        guard let o = object as? NSSortDescriptor else { return false }
        return o.key == key && o.ascending == ascending && o.comparison == comparison && comparison != .comparator
    }
    /// A hash consistent with `isEqual(_:)`.
    open override var hash: Int { (key ?? "").hashValue ^ (ascending ? 1 : 0) }
    /// A readable description like Apple's: `(key, ascending, compare:)`.
    open override var description: String {
        "(\(key ?? "self"), \(ascending ? "ascending" : "descending"), \(comparison.selectorName ?? "comparator"))"
    }
}

extension Array {
    /// The array sorted by `sortDescriptors` (first descriptor is primary; the sort is stable).
    public func sortedArray(using sortDescriptors: [NSSortDescriptor]) -> [Element] {
        guard !sortDescriptors.isEmpty else { return self }
        return enumerated().sorted { x, y in
            for d in sortDescriptors {
                switch d.compare(x.element, to: y.element) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return x.offset < y.offset
        }.map(\.element)
    }
    /// Sorts the array in place by `sortDescriptors`.
    public mutating func sort(using sortDescriptors: [NSSortDescriptor]) { self = sortedArray(using: sortDescriptors) }
}
