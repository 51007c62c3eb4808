import Foundation

/// An expression in a predicate: a constant, `SELF`, a `$variable`, a key path, a function,
/// an aggregate `{a, b}` or a `SUBQUERY`, mirroring Apple's `NSExpression`.
open class NSExpression: NSObject, @unchecked Sendable {
    /// The kinds of expression, with Apple's case names.
    public enum ExpressionType: UInt, Sendable {
        /// A constant value.
        case constantValue = 0
        /// The object being evaluated (`SELF`).
        case evaluatedObject = 1
        /// A substitution variable (`$name`).
        case variable = 2
        /// A key path applied to `operand`.
        case keyPath = 3
        /// A function applied to `arguments`.
        case function = 4
        /// A subquery over `collection`.
        case subquery = 13
        /// An aggregate (array literal) of expressions.
        case aggregate = 14
    }

    /// The kind of this expression.
    public let expressionType: ExpressionType
    /// The constant for `.constantValue` (nil for `nil`/`NULL`); for `.aggregate`, an array of the element expressions.
    public let constantValue: Any?
    /// The key path for `.keyPath` (dotted, may contain `@count`, `@sum` … operators).
    public let keyPath: String
    /// The variable name (without `$`) for `.variable`, and the iteration variable for `.subquery`.
    public let variable: String
    /// The function name for `.function` (`sum:`, `count:`, `average:`, `min:`, `max:`, `uppercase:`, `lowercase:`, `abs:`, `now`).
    public let function: String
    /// The arguments of a `.function` expression.
    public let arguments: [NSExpression]?
    /// The expression a `.keyPath` is applied to (`SELF` unless the path starts at a variable or subquery).
    public let operand: NSExpression?
    /// The collection expression of a `.subquery`; for `.aggregate`, the `[NSExpression]` elements.
    public let collection: Any?
    /// The predicate of a `.subquery`.
    public let predicate: NSPredicate?

    init(type: ExpressionType, constant: Any? = nil, keyPath: String = "", variable: String = "",
         function: String = "", arguments: [NSExpression]? = nil, operand: NSExpression? = nil,
         collection: Any? = nil, predicate: NSPredicate? = nil) {
        self.expressionType = type
        self.constantValue = constant
        self.keyPath = keyPath
        self.variable = variable
        self.function = function
        self.arguments = arguments
        self.operand = operand
        self.collection = collection
        self.predicate = predicate
        super.init()
    }

    /// An expression that always evaluates to `value` (`nil` and `NSNull` both mean nil).
    public convenience init(forConstantValue value: Any?) {
        self.init(type: .constantValue, constant: value is NSNull ? nil : value)
    }
    /// An expression for the evaluated object (`SELF`).
    public class func expressionForEvaluatedObject() -> NSExpression { NSExpression(type: .evaluatedObject) }
    /// An expression for a substitution variable named `name` (without `$`).
    public convenience init(forVariable name: String) { self.init(type: .variable, variable: name) }
    /// An expression that reads `keyPath` from the evaluated object.
    public convenience init(forKeyPath keyPath: String) {
        self.init(type: .keyPath, keyPath: keyPath, operand: NSExpression(type: .evaluatedObject))
    }
    /// An expression that reads `keyPath` from the value of `operand` (Orchard helper; Apple builds a `valueForKeyPath:` function).
    public convenience init(forKeyPath keyPath: String, of operand: NSExpression) {
        self.init(type: .keyPath, keyPath: keyPath, operand: operand)
    }
    /// An aggregate expression holding `subexpressions` (`{a, b}` in the format syntax).
    public convenience init(forAggregate subexpressions: [NSExpression]) {
        self.init(type: .aggregate, constant: subexpressions, collection: subexpressions)
    }
    /// A function expression: `name` is one of `sum:`, `count:`, `average:`, `min:`, `max:`, `uppercase:`, `lowercase:`, `abs:`, `now`.
    public convenience init(forFunction name: String, arguments: [NSExpression]) {
        self.init(type: .function, function: name, arguments: arguments)
    }
    /// A subquery: the elements of `collection` (bound to `$variable`) for which `predicate` holds.
    public convenience init(forSubquery collection: NSExpression, usingIteratorVariable variable: String, predicate: NSPredicate) {
        self.init(type: .subquery, variable: variable, collection: collection, predicate: predicate)
    }

    /// The elements of an `.aggregate` expression.
    var aggregateElements: [NSExpression] { (collection as? [NSExpression]) ?? [] }

    /// Evaluates the expression against `object`; `context` holds substitution variables. Traps on a missing variable.
    public func expressionValue(with object: Any?, context: NSMutableDictionary?) -> Any? {
        var vars: [String: Any] = [:]
        if let context { for (k, v) in context { if let k = k as? String { vars[k] = v } } }
        do { return try PredicateEvaluator(variables: vars).value(of: self, object: object) }
        catch { fatalError("\(error)") }
    }

    /// The format-string spelling of this expression.
    open override var description: String { PredicateFormatter.format(self) }
    /// Two expressions are equal when their format spellings are.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSExpression else { return false }
        return description == other.description
    }
    /// A hash consistent with `isEqual(_:)`.
    open override var hash: Int { description.hashValue }
}
