import Foundation

/// An attribute whose value Core Data computes when the object is saved, from `derivationExpression`, mirroring
/// Apple's `NSDerivedAttributeDescription` (Xcode's "Derived" attributes: `pages.@count`, `lowercase:(name)`,
/// `now()`, `sum:(items.price)`).
///
/// Apple's store computes the value in SQL (with triggers for aggregates over relationships). Orchard evaluates
/// the expression in memory at save time for every inserted or updated object of the entity, and for the objects
/// an inserted, updated or deleted object points to through a to-one relationship (the owner of a to-many that an
/// aggregate reads). A change deeper than that (an item of an item) is not seen until the object itself is saved.
///
/// `@unchecked Sendable` as its superclass is: a model is built, then handed to a coordinator and only read (Core Data
/// forbids changing a model in use), so its descriptions cross threads without being mutated.
open class NSDerivedAttributeDescription: NSAttributeDescription, @unchecked Sendable {
    /// The expression the value is computed from. As on Apple's platforms, a key path ending in `.@count`,
    /// `.@sum` or `.@total` is stored as the function expression it means (`pages.@count` becomes
    /// `count:(pages)`), which is what the version hash reads.
    open var derivationExpression: NSExpression? {
        didSet {
            guard let expression = derivationExpression, let normalized = Self.normalize(expression),
                normalized !== expression
            else { return }
            derivationExpression = normalized
        }
    }

    /// Creates a derived attribute with no name, type or expression.
    public required init() { super.init() }

    /// A key path ending in a collection operator, as the function expression Apple stores for it.
    static func normalize(_ expression: NSExpression) -> NSExpression? {
        guard expression.expressionType == .keyPath, expression.operand?.expressionType != .subquery else {
            return expression
        }
        var parts = expression.keyPath.split(separator: ".").map(String.init)
        guard parts.count >= 2, let last = parts.last else { return expression }
        let function: String
        switch last {
        case "@count": function = "count:"
        case "@sum", "@total": function = "sum:"
        default: return expression
        }
        parts.removeLast()
        let base =
            expression.operand.map { NSExpression(forKeyPath: parts.joined(separator: "."), of: $0) }
            ?? NSExpression(forKeyPath: parts.joined(separator: "."))
        return NSExpression(forFunction: function, arguments: [base])
    }

    override func copyProperty() -> NSPropertyDescription {
        let copy = super.copyProperty()
        (copy as? NSDerivedAttributeDescription)?.derivationExpression = derivationExpression
        return copy
    }
}
