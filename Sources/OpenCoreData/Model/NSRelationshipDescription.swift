import Foundation

/// A relationship from one entity to another: to-one, to-many, or ordered to-many.
open class NSRelationshipDescription: NSPropertyDescription, @unchecked Sendable {
    /// The entity at the other end.
    open unowned var destinationEntity: NSEntityDescription?
    /// The relationship that points back; Core Data keeps both sides consistent.
    open weak var inverseRelationship: NSRelationshipDescription?
    /// What deleting the source object does to the destination objects.
    open var deleteRule: NSDeleteRule = .nullifyDeleteRule
    /// The fewest destination objects allowed (0: no minimum).
    open var minCount: Int = 0
    /// The most destination objects allowed (0: no maximum). A to-one relationship has 1.
    open var maxCount: Int = 1
    /// Whether a to-many relationship keeps its objects in order (an `NSOrderedSet`).
    open var isOrdered: Bool = false

    /// Whether the relationship holds many objects (`maxCount` is not 1).
    open var isToMany: Bool { maxCount != 1 }

    /// Creates an empty to-one relationship.
    public required init() { super.init() }

    /// Creates a relationship; `toMany` sets `maxCount` to 0 (unbounded).
    public convenience init(name: String, destination: NSEntityDescription?, toMany: Bool = false,
                            deleteRule: NSDeleteRule = .nullifyDeleteRule, ordered: Bool = false, optional: Bool = true) {
        self.init()
        self.name = name
        self.destinationEntity = destination
        self.maxCount = toMany ? 0 : 1
        self.deleteRule = deleteRule
        self.isOrdered = ordered
        self.isOptional = optional
    }


    override func copyProperty() -> NSPropertyDescription {
        let copy = type(of: self).init()
        copyCommon(to: copy)
        copy.deleteRule = deleteRule
        copy.minCount = minCount
        copy.maxCount = maxCount
        copy.isOrdered = isOrdered
        // destination and inverse are re-linked by the model copy.
        return copy
    }
}

/// An index over one or more properties of an entity.
open class NSFetchIndexDescription: NSObject, @unchecked Sendable {
    /// The index's name.
    open var name: String
    /// The indexed properties, in order.
    open var elements: [NSFetchIndexElementDescription]
    /// An optional partial-index predicate.
    open var partialIndexPredicate: NSPredicate?
    /// The entity the index belongs to.
    open internal(set) unowned var entity: NSEntityDescription?

    /// Creates an index.
    public init(name: String, elements: [NSFetchIndexElementDescription]?) {
        self.name = name
        self.elements = elements ?? []
        super.init()
    }
}

/// One column of an index.
open class NSFetchIndexElementDescription: NSObject, @unchecked Sendable {
    /// The kinds of index element.
    public enum CollationType: UInt, Sendable {
        /// An ordinary B-tree index.
        case binary = 0
        /// An R-tree index (stored as binary here).
        case rTree = 1
    }
    /// The indexed property. For a composite element, a key path such as `colorScheme.primary`
    /// is given through `keyPath` instead.
    open private(set) var property: NSPropertyDescription?
    /// The key path of the indexed value, e.g. "colorScheme.primary".
    open private(set) var propertyName: String
    /// Whether the index is in ascending order.
    open var isAscending: Bool = true
    /// The index's collation.
    open var collationType: CollationType = .binary

    /// Creates an element for a property.
    public init(property: NSPropertyDescription, collationType: CollationType) {
        self.property = property
        self.propertyName = property.name
        self.collationType = collationType
        super.init()
    }

    /// Creates an element for a key path (composite elements such as "colorScheme.primary").
    public init(keyPath: String, collationType: CollationType = .binary) {
        self.property = nil
        self.propertyName = keyPath
        self.collationType = collationType
        super.init()
    }
}
