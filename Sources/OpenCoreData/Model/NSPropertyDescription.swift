import Foundation

/// A property of an entity: an attribute or a relationship.
open class NSPropertyDescription: NSObject, @unchecked Sendable {
    /// The property's name, as used with `value(forKey:)`.
    open var name: String = "" { didSet { entity?.invalidateLayout() } }
    /// Whether the property may be nil when saved. Defaults to true, as in Core Data.
    open var isOptional: Bool = true
    /// Whether the property is kept in memory only and never stored.
    open var isTransient: Bool = false
    /// Whether the property cannot be changed through key-value coding.
    open var isReadOnly: Bool = false
    /// Whether the store keeps an index on this property.
    open var isIndexed: Bool = false
    /// A string that changes the version hash without changing the schema.
    open var versionHashModifier: String?
    /// The name this property had in an earlier model version, for lightweight migration.
    open var renamingIdentifier: String?
    /// Free-form information about the property.
    open var userInfo: [AnyHashable: Any]?
    /// Predicates a value must satisfy to be valid, with their warnings.
    open private(set) var validationPredicates: [NSPredicate] = []
    /// The warnings that go with `validationPredicates`.
    open private(set) var validationWarnings: [Any] = []
    /// The entity the property belongs to.
    open internal(set) unowned var entity: NSEntityDescription!

    /// Creates a property with no name.
    public required override init() { super.init() }

    /// Sets predicates each value must satisfy, with the message reported when one fails.
    open func setValidationPredicates(_ predicates: [NSPredicate]?, withValidationWarnings warnings: [String]?) {
        validationPredicates = predicates ?? []
        validationWarnings = warnings ?? []
    }

    /// The property's version hash: see `ModelHashing` for what it covers.
    open var versionHash: Data { ModelHashing.hash(of: self) }


    /// A copy of the property detached from its entity.
    func copyProperty() -> NSPropertyDescription {
        let copy = type(of: self).init()
        copyCommon(to: copy)
        return copy
    }

    func copyCommon(to copy: NSPropertyDescription) {
        copy.name = name
        copy.isOptional = isOptional
        copy.isTransient = isTransient
        copy.isReadOnly = isReadOnly
        copy.isIndexed = isIndexed
        copy.versionHashModifier = versionHashModifier
        copy.renamingIdentifier = renamingIdentifier
        copy.userInfo = userInfo
        copy.validationPredicates = validationPredicates
        copy.validationWarnings = validationWarnings
    }
}
