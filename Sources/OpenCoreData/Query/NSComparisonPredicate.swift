import Foundation

/// A predicate comparing two expressions with an operator, mirroring Apple's `NSComparisonPredicate`.
open class NSComparisonPredicate: NSPredicate, @unchecked Sendable {
    /// Comparison operators, with Apple's case names and raw values.
    public enum Operator: UInt, Sendable {
        /// `<`
        case lessThan = 0
        /// `<=`
        case lessThanOrEqualTo = 1
        /// `>`
        case greaterThan = 2
        /// `>=`
        case greaterThanOrEqualTo = 3
        /// `==`
        case equalTo = 4
        /// `!=`
        case notEqualTo = 5
        /// `MATCHES` (regular expression, whole string)
        case matches = 6
        /// `LIKE` (`?` and `*` wildcards)
        case like = 7
        /// `BEGINSWITH`
        case beginsWith = 8
        /// `ENDSWITH`
        case endsWith = 9
        /// `IN`
        case `in` = 10
        /// A custom selector (not supported on Linux; evaluates to false).
        case customSelector = 11
        /// `CONTAINS`
        case contains = 99
        /// `BETWEEN`
        case between = 100
    }
    /// How the left expression is applied: directly, or to ANY/ALL of a collection's elements.
    public enum Modifier: UInt, Sendable {
        /// Compare the left value itself.
        case direct = 0
        /// `ALL`: every element must match.
        case all = 1
        /// `ANY` / `SOME`: at least one element must match.
        case any = 2
    }
    /// String comparison options (`[c]`, `[d]`, `[n]`).
    public struct Options: OptionSet, Sendable {
        /// The raw bits.
        public let rawValue: UInt
        /// Creates options from raw bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// `[c]`
        public static let caseInsensitive = Options(rawValue: 1)
        /// `[d]`
        public static let diacriticInsensitive = Options(rawValue: 2)
        /// `[n]` (strings are compared as given; Orchard applies no extra normalization)
        public static let normalized = Options(rawValue: 4)
    }

    /// The left-hand expression.
    public let leftExpression: NSExpression
    /// The right-hand expression.
    public let rightExpression: NSExpression
    /// The operator.
    public let predicateOperatorType: Operator
    /// The ANY/ALL modifier.
    public let comparisonPredicateModifier: Modifier
    /// The string options.
    public let options: Options

    /// Creates a comparison predicate.
    public init(
        leftExpression lhs: NSExpression, rightExpression rhs: NSExpression,
        modifier: Modifier, type: Operator, options: Options = []
    ) {
        leftExpression = lhs
        rightExpression = rhs
        comparisonPredicateModifier = modifier
        predicateOperatorType = type
        self.options = options
        super.init(kind: .node)
    }

    /// The canonical format string.
    open override var predicateFormat: String { PredicateFormatter.format(self) }
}

/// A predicate combining subpredicates with AND, OR or NOT, mirroring Apple's `NSCompoundPredicate`.
open class NSCompoundPredicate: NSPredicate, @unchecked Sendable {
    /// The logical connective.
    public enum LogicalType: UInt, Sendable {
        /// NOT (one subpredicate)
        case not = 0
        /// AND
        case and = 1
        /// OR
        case or = 2
    }
    /// The connective.
    public let compoundPredicateType: LogicalType
    /// The subpredicates, as `[NSPredicate]` (Apple types this `[Any]`).
    public let subpredicates: [NSPredicate]

    /// Creates a compound predicate. An empty AND is true, an empty OR is false.
    public init(type: LogicalType, subpredicates: [NSPredicate]) {
        compoundPredicateType = type
        self.subpredicates = subpredicates
        super.init(kind: .node)
    }
    /// All subpredicates must hold.
    public convenience init(andPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .and, subpredicates: subpredicates)
    }
    /// At least one subpredicate must hold.
    public convenience init(orPredicateWithSubpredicates subpredicates: [NSPredicate]) {
        self.init(type: .or, subpredicates: subpredicates)
    }
    /// The negation of `predicate`.
    public convenience init(notPredicateWithSubpredicate predicate: NSPredicate) {
        self.init(type: .not, subpredicates: [predicate])
    }

    /// The canonical format string.
    open override var predicateFormat: String { PredicateFormatter.format(self) }
}
