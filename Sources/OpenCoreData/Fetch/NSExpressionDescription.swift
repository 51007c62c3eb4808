import Foundation

/// A fetched value computed by an expression (for dictionary results), Core Data's NSExpressionDescription.
open class NSExpressionDescription: NSPropertyDescription, @unchecked Sendable {
    /// The expression to compute, e.g. `NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "price")])`.
    open var expression: NSExpression?
    /// The type of the computed value.
    open var expressionResultType: NSAttributeType = .undefinedAttributeType

    /// Creates an empty expression description.
    public required init() { super.init() }
}
