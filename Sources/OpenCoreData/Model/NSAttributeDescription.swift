import Foundation

/// An attribute of an entity: a stored value of one of Core Data's attribute types.
open class NSAttributeDescription: NSPropertyDescription, @unchecked Sendable {
    /// The type of the attribute's values.
    open var attributeType: NSAttributeType = .undefinedAttributeType
    /// The name of the class of the attribute's values (informational on Linux).
    open var attributeValueClassName: String?
    /// The value a new object starts with.
    open var defaultValue: Any?
    /// For transformable attributes: the registered name of the `ValueTransformer` to use.
    open var valueTransformerName: String?
    /// Whether large binary data may be stored outside the database (kept inline by this store).
    open var allowsExternalBinaryDataStorage: Bool = false
    /// Whether the value is kept in the persistent history when the object is deleted.
    open var preservesValueInHistoryOnDeletion: Bool = false

    /// Creates an attribute with no name and an undefined type.
    public required init() { super.init() }

    /// Creates an attribute of the given name and type.
    public convenience init(name: String, type: NSAttributeType, optional: Bool = true, defaultValue: Any? = nil) {
        self.init()
        self.name = name
        self.attributeType = type
        self.isOptional = optional
        self.defaultValue = defaultValue
    }


    override func copyProperty() -> NSPropertyDescription {
        let copy = type(of: self).init()
        copyCommon(to: copy)
        copy.attributeType = attributeType
        copy.attributeValueClassName = attributeValueClassName
        copy.defaultValue = defaultValue
        copy.valueTransformerName = valueTransformerName
        copy.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        copy.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        return copy
    }
}

/// A composite attribute: a structured value made of element attributes, stored as a
/// `[String: Any]` dictionary in memory and flattened into one column per element in the store.
open class NSCompositeAttributeDescription: NSAttributeDescription, @unchecked Sendable {
    /// The composite's elements: attributes of any storable type, or nested composites.
    ///
    /// Apple raises "Unsupported attribute type for composite." for other elements; here the model
    /// records the problem and `NSManagedObjectModel.validate()` (run when a store is loaded) throws it.
    open var elements: [NSAttributeDescription] = []

    /// Creates a composite attribute with no elements.
    public required init() {
        super.init()
        attributeType = .compositeAttributeType
    }

    /// Creates a composite attribute with a name and elements.
    public convenience init(name: String, elements: [NSAttributeDescription], optional: Bool = true) {
        self.init()
        self.name = name
        self.elements = elements
        self.isOptional = optional
    }

    /// The problem with an element, if any, in Apple's words plus the element's path.
    func elementProblem(path: String) -> String? {
        for element in elements {
            let elementPath = "\(path).\(element.name)"
            if let nested = element as? NSCompositeAttributeDescription {
                if let problem = nested.elementProblem(path: elementPath) { return problem }
                continue
            }
            switch element.attributeType {
            case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
                return "Unsupported attribute type for composite. (\(elementPath): \(element.attributeType.xcodeName))"
            case .binaryDataAttributeType where element.allowsExternalBinaryDataStorage:
                return "Unsupported attribute type for composite. (\(elementPath): binary data with external storage)"
            default:
                if element.isTransient {
                    return "Unsupported attribute type for composite. (\(elementPath): transient element)"
                }
            }
        }
        // A composite with no elements is valid (Xcode saves one): it has no columns and reads as [:].
        return nil
    }

    override func copyProperty() -> NSPropertyDescription {
        let copy = super.copyProperty() as! NSCompositeAttributeDescription
        copy.elements = elements.map { $0.copyProperty() as! NSAttributeDescription }
        return copy
    }
}
