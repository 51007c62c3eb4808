import Foundation

/// A protocol whose only purpose is to let `NSPredicate(format:)` return the parsed subclass
/// (`NSComparisonPredicate`, `NSCompoundPredicate`), as Apple's factory initializer does.
public protocol PredicateFormatInitializable {}

/// A logical condition on an object, mirroring Apple's `NSPredicate`.
/// `NSPredicate(format:)` returns an `NSComparisonPredicate` or `NSCompoundPredicate` like Apple's.
open class NSPredicate: NSObject, @unchecked Sendable, PredicateFormatInitializable {
    enum Kind {
        case value(Bool)
        case block(@Sendable (Any?, [String: Any]?) -> Bool)
        case node
    }
    let kind: Kind

    init(kind: Kind) {
        self.kind = kind
        super.init()
    }

    /// A predicate that always evaluates to `value` (`TRUEPREDICATE` / `FALSEPREDICATE`).
    public init(value: Bool) {
        self.kind = .value(value)
        super.init()
    }

    /// A predicate evaluated by `block(object, bindings)`. It cannot be translated to SQL.
    public init(block: @escaping @Sendable (Any?, [String: Any]?) -> Bool) {
        self.kind = .block(block)
        super.init()
    }

    /// Parses `format` (Apple's predicate format syntax) with `args`, throwing `NSPredicateFormatError` on bad input.
    public static func parse(format: String, _ args: CVarArg...) throws -> NSPredicate {
        try PredicateParser.parse(format: format, arguments: args.map { $0 as Any })
    }
    /// Parses `format` with an argument array, throwing `NSPredicateFormatError` on bad input.
    public static func parse(format: String, argumentArray: [Any]?) throws -> NSPredicate {
        try PredicateParser.parse(format: format, arguments: argumentArray ?? [])
    }

    /// The format string of the predicate, in Apple's canonical spelling (parses back to an equal predicate).
    open var predicateFormat: String {
        switch kind {
        case .value(let v): return v ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .block: return "BLOCKPREDICATE"
        case .node: return ""
        }
    }
    /// The format string.
    open override var description: String { predicateFormat }

    /// Returns a copy with `$variables` replaced by `variables`' values. Traps on a missing variable (Apple raises).
    open func withSubstitutionVariables(_ variables: [String: Any]) -> Self {
        do { return try substituting(variables) } catch { fatalError("\(error)") }
    }
    /// Returns a copy with `$variables` replaced by `variables`' values, throwing `NSPredicateEvaluationError.missingVariable`.
    open func substituting(_ variables: [String: Any]) throws -> Self {
        // swiftlint:disable:next force_cast
        try PredicateSubstitution(variables: variables).substitute(self) as! Self
    }

    /// Whether `object` satisfies the predicate. Traps on a missing variable or an unusable operand (Apple raises).
    open func evaluate(with object: Any?) -> Bool { evaluate(with: object, substitutionVariables: nil) }
    /// Whether `object` satisfies the predicate with `bindings` for `$variables`.
    open func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        do { return try evaluateThrowing(with: object, substitutionVariables: bindings) } catch {
            fatalError("NSPredicate evaluation failed: \(error)")
        }
    }
    /// Orchard's throwing form of `evaluate(with:substitutionVariables:)`.
    public func evaluateThrowing(with object: Any?, substitutionVariables bindings: [String: Any]? = nil) throws -> Bool
    {
        try PredicateEvaluator(variables: bindings ?? [:]).evaluate(self, object: object)
    }

    /// Enables evaluation of a predicate that came from an archive (no-op: Orchard predicates are always evaluable).
    open func allowEvaluation() {}

    /// Predicates are equal when their canonical formats are.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSPredicate else { return false }
        return predicateFormat == other.predicateFormat
    }
    /// A hash consistent with `isEqual(_:)`.
    open override var hash: Int { predicateFormat.hashValue }
}

extension PredicateFormatInitializable where Self: NSPredicate {
    /// Parses `format` with `args` (Apple's format syntax). Like Apple's, which raises, it traps on a
    /// malformed string with a message naming the position; use `NSPredicate.parse(format:_:)` to catch.
    public init(format: String, _ args: CVarArg...) {
        self.init(format: format, argumentArray: args.map { $0 as Any })
    }
    /// Parses `format` with an argument array; traps on a malformed string (see `init(format:_:)`).
    public init(format: String, argumentArray: [Any]?) {
        let parsed: NSPredicate
        do { parsed = try PredicateParser.parse(format: format, arguments: argumentArray ?? []) } catch {
            fatalError("\(error)")
        }
        guard let typed = parsed as? Self else {
            fatalError(
                "Unable to parse the format string \"\(format)\": it yields \(type(of: parsed)), not \(Self.self)")
        }
        self = typed
    }
    /// Orchard's throwing parser entry point: parses `format` with `args`, throwing `NSPredicateFormatError`.
    public init(validatingFormat format: String, _ args: CVarArg...) throws {
        let parsed = try PredicateParser.parse(format: format, arguments: args.map { $0 as Any })
        guard let typed = parsed as? Self else {
            throw NSPredicateFormatError(
                message: "the format yields \(type(of: parsed)), not \(Self.self)", format: format, offset: 0)
        }
        self = typed
    }
}
