import Foundation

/// An expression in a predicate, mirroring Apple's `NSExpression`: a constant, `SELF`, a `$variable`, a key path,
/// a function (the built-in `sum:`, `add:to:` … and `FUNCTION(receiver, "selector", …)`), a set operation
/// (`UNION`, `INTERSECT`, `MINUS`), a `SUBQUERY`, an aggregate `{a, b}`, `TERNARY(…)`, `ANYKEY` or a block.
open class NSExpression: NSObject, @unchecked Sendable {
    /// The kinds of expression, with Apple's case names and raw values.
    public enum ExpressionType: UInt, Sendable {
        /// A constant value.
        case constantValue = 0
        /// The object being evaluated (`SELF`).
        case evaluatedObject = 1
        /// A substitution variable (`$name`).
        case variable = 2
        /// A key path applied to `operand`.
        case keyPath = 3
        /// A function applied to `arguments` (the target of a `FUNCTION(…)` is `operand`).
        case function = 4
        /// `left UNION right`.
        case unionSet = 5
        /// `left INTERSECT right`.
        case intersectSet = 6
        /// `left MINUS right`.
        case minusSet = 7
        /// A subquery over `collection`.
        case subquery = 13
        /// An aggregate (array literal) of expressions.
        case aggregate = 14
        /// `ANYKEY`: any key of the evaluated object (Spotlight's; it matches nothing Core Data stores).
        case anyKey = 15
        /// A block with arguments.
        case block = 19
        /// `TERNARY(predicate, trueExpression, falseExpression)`.
        case conditional = 20
    }

    /// The kind of this expression.
    public let expressionType: ExpressionType
    /// The constant for `.constantValue` (nil for `nil`/`NULL`); for `.aggregate`, an array of the element expressions.
    public let constantValue: Any?
    /// The key path for `.keyPath` (dotted, may contain `@count`, `@sum` … operators).
    public let keyPath: String
    /// The variable name (without `$`) for `.variable`, and the iteration variable for `.subquery`.
    public let variable: String
    /// The function name for `.function`: one of Apple's built-in names (`sum:`, `add:to:`, `now` …, see
    /// ``init(forFunction:arguments:)``), or the selector of a `FUNCTION(receiver, "selector", …)`.
    public let function: String
    /// The arguments of a `.function` or `.block` expression.
    public let arguments: [NSExpression]?
    /// The expression a `.keyPath` is applied to (`SELF` unless the path starts at a variable or subquery), and the
    /// receiver of a `FUNCTION(…)`.
    public let operand: NSExpression?
    /// The collection expression of a `.subquery`; for `.aggregate`, the `[NSExpression]` elements.
    public let collection: Any?
    /// The predicate of a `.subquery` or a `.conditional`.
    public let predicate: NSPredicate?
    /// The left side of a set expression (`.unionSet`, `.intersectSet`, `.minusSet`).
    public let leftExpression: NSExpression?
    /// The right side of a set expression.
    public let rightExpression: NSExpression?
    /// What a `.conditional` gives when its predicate holds.
    public let trueExpression: NSExpression?
    /// What a `.conditional` gives when its predicate does not hold.
    public let falseExpression: NSExpression?
    /// The block of a `.block` expression: called with the evaluated object, the arguments' values and the
    /// substitution variables.
    public let expressionBlock: (@Sendable (Any?, [Any], NSMutableDictionary?) -> Any)?

    init(
        type: ExpressionType, constant: Any? = nil, keyPath: String = "", variable: String = "",
        function: String = "", arguments: [NSExpression]? = nil, operand: NSExpression? = nil,
        collection: Any? = nil, predicate: NSPredicate? = nil, left: NSExpression? = nil, right: NSExpression? = nil,
        block: (@Sendable (Any?, [Any], NSMutableDictionary?) -> Any)? = nil
    ) {
        self.expressionType = type
        self.constantValue = constant
        self.keyPath = keyPath
        self.variable = variable
        self.function = function
        self.arguments = arguments
        self.operand = operand
        self.collection = collection
        self.predicate = predicate
        self.leftExpression = left
        self.rightExpression = right
        self.trueExpression = type == .conditional ? left : nil
        self.falseExpression = type == .conditional ? right : nil
        self.expressionBlock = block
        super.init()
    }

    /// Parses an expression in Apple's format syntax (`"1 + 2"`, `"sum:(items.price)"`, `"name"`). Like Apple's,
    /// which raises, it stops the process on a malformed string with a message naming the position; use
    /// ``init(validatingFormat:argumentArray:)`` to catch the error instead.
    public convenience init(format: String, _ args: CVarArg...) {
        self.init(format: format, argumentArray: args.map { $0 as Any })
    }

    /// Parses an expression with an argument array; stops the process on a malformed string (see ``init(format:_:)``).
    public convenience init(format: String, argumentArray: [Any]) {
        do {
            try self.init(validatingFormat: format, argumentArray: argumentArray)
        } catch {
            fatalError("\(error)")
        }
    }

    /// Orchard's throwing parser entry point: parses an expression, throwing `NSPredicateFormatError` for any
    /// malformed or hostile input.
    public convenience init(validatingFormat format: String, argumentArray: [Any] = []) throws {
        let parsed = try PredicateParser.parseExpression(format: format, arguments: argumentArray)
        self.init(copying: parsed)
    }

    /// A copy of `other` (what a convenience initializer that parses needs).
    private convenience init(copying other: NSExpression) {
        self.init(
            type: other.expressionType, constant: other.constantValue, keyPath: other.keyPath,
            variable: other.variable, function: other.function, arguments: other.arguments, operand: other.operand,
            collection: other.collection, predicate: other.predicate,
            left: other.leftExpression ?? other.trueExpression, right: other.rightExpression ?? other.falseExpression,
            block: other.expressionBlock)
    }

    /// An expression that always evaluates to `value` (`nil` and `NSNull` both mean nil).
    public convenience init(forConstantValue value: Any?) {
        self.init(type: .constantValue, constant: value is NSNull ? nil : value)
    }
    /// An expression for the evaluated object (`SELF`).
    public class func expressionForEvaluatedObject() -> NSExpression { NSExpression(type: .evaluatedObject) }
    /// An expression for any key of the evaluated object (`ANYKEY`).
    public class func expressionForAnyKey() -> NSExpression { NSExpression(type: .anyKey) }
    /// An expression for a substitution variable named `name` (without `$`).
    public convenience init(forVariable name: String) { self.init(type: .variable, variable: name) }
    /// An expression that reads `keyPath` from the evaluated object.
    public convenience init(forKeyPath keyPath: String) {
        self.init(type: .keyPath, keyPath: keyPath, operand: NSExpression(type: .evaluatedObject))
    }
    /// An expression that reads `keyPath` from the value of `operand` (Orchard helper; Apple builds a
    /// `valueForKeyPath:` function).
    public convenience init(forKeyPath keyPath: String, of operand: NSExpression) {
        self.init(type: .keyPath, keyPath: keyPath, operand: operand)
    }
    /// An aggregate expression holding `subexpressions` (`{a, b}` in the format syntax).
    public convenience init(forAggregate subexpressions: [NSExpression]) {
        self.init(type: .aggregate, constant: subexpressions, collection: subexpressions)
    }
    /// A function expression with one of Apple's built-in names: `average:`, `sum:`, `count:`, `min:`, `max:`,
    /// `median:`, `mode:`, `stddev:`, `add:to:`, `from:subtract:`, `multiply:by:`, `divide:by:`, `modulus:by:`,
    /// `sqrt:`, `log:`, `ln:`, `raise:toPower:`, `exp:`, `ceiling:`, `floor:`, `abs:`, `trunc:`, `uppercase:`,
    /// `lowercase:`, `random`, `random:`, `randomn:`, `now`, `bitwiseAnd:with:`, `bitwiseOr:with:`,
    /// `bitwiseXor:with:`, `leftshift:by:`, `rightshift:by:`, `onesComplement:`, `noindex:`, `distinct:`,
    /// `castObject:toType:`, and `objectFrom:withIndex:` (what `a[i]` parses to). An unknown name is reported when
    /// the expression is evaluated or fetched.
    public convenience init(forFunction name: String, arguments: [NSExpression]) {
        self.init(type: .function, function: name, arguments: arguments)
    }
    /// `FUNCTION(target, "selector", arguments…)`: calls `selector` on the value of `target`. Linux has no
    /// Objective-C runtime; the selectors of `String`, numbers and key-value coding that have a Swift equivalent
    /// are evaluated (see `ExpressionFunctions`), any other is an error when evaluated.
    public convenience init(forFunction target: NSExpression, selectorName name: String, arguments parameters: [Any]?) {
        let expressions = (parameters ?? []).map { $0 as? NSExpression ?? NSExpression(forConstantValue: $0) }
        self.init(type: .function, function: name, arguments: expressions, operand: target)
    }
    /// A subquery: the elements of `collection` (bound to `$variable`) for which `predicate` holds.
    public convenience init(
        forSubquery collection: NSExpression, usingIteratorVariable variable: String, predicate: NSPredicate
    ) {
        self.init(type: .subquery, variable: variable, collection: collection, predicate: predicate)
    }
    /// `left UNION right`: the elements of either (the left must evaluate to a set, the right to a collection).
    public convenience init(forUnionSet left: NSExpression, with right: NSExpression) {
        self.init(type: .unionSet, left: left, right: right)
    }
    /// `left INTERSECT right`: the elements of both.
    public convenience init(forIntersectSet left: NSExpression, with right: NSExpression) {
        self.init(type: .intersectSet, left: left, right: right)
    }
    /// `left MINUS right`: the elements of the left that are not in the right.
    public convenience init(forMinusSet left: NSExpression, with right: NSExpression) {
        self.init(type: .minusSet, left: left, right: right)
    }
    /// `TERNARY(predicate, trueExpression, falseExpression)`.
    public convenience init(
        forConditional predicate: NSPredicate, trueExpression: NSExpression, falseExpression: NSExpression
    ) {
        self.init(type: .conditional, predicate: predicate, left: trueExpression, right: falseExpression)
    }
    /// An expression whose value `block(object, argumentValues, context)` computes. It cannot be fetched in SQL.
    public convenience init(
        block: @escaping @Sendable (Any?, [Any], NSMutableDictionary?) -> Any, arguments: [NSExpression]?
    ) {
        self.init(type: .block, arguments: arguments, block: block)
    }

    /// The elements of an `.aggregate` expression.
    var aggregateElements: [NSExpression] { (collection as? [NSExpression]) ?? [] }

    /// Evaluates the expression against `object`; `context` holds substitution variables. Like Apple's, which
    /// raises, it stops the process when the expression cannot be evaluated (a missing variable, an operand of the
    /// wrong kind); ``evaluate(with:context:)`` throws instead.
    public func expressionValue(with object: Any?, context: NSMutableDictionary?) -> Any? {
        do {
            return try evaluate(with: object, context: context)
        } catch {
            fatalError("\(error)")
        }
    }

    /// Orchard's throwing form of ``expressionValue(with:context:)``.
    public func evaluate(with object: Any?, context: NSMutableDictionary? = nil) throws -> Any? {
        var variables: [String: Any] = [:]
        if let context { for (key, value) in context { if let key = key as? String { variables[key] = value } } }
        return try PredicateEvaluator(variables: variables).value(of: self, object: object)
    }

    /// Enables evaluation of an expression that came from an archive (Orchard's expressions are always evaluable).
    open func allowEvaluation() {}

    /// The format-string spelling of this expression, as Apple prints it.
    open override var description: String { PredicateFormatter.format(self) }
    /// Two expressions are equal when their format spellings are.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSExpression else { return false }
        return description == other.description
    }
    /// A hash consistent with `isEqual(_:)`.
    open override var hash: Int { description.hashValue }
}
