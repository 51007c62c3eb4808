import Foundation

/// The type of an attribute's values, with Core Data's raw values.
public enum NSAttributeType: UInt, Sendable, CaseIterable {
    /// No type: not valid for a stored attribute.
    case undefinedAttributeType = 0
    /// A 16-bit integer (`Int16`).
    case integer16AttributeType = 100
    /// A 32-bit integer (`Int32`).
    case integer32AttributeType = 200
    /// A 64-bit integer (`Int64`).
    case integer64AttributeType = 300
    /// A decimal number (`Decimal`).
    case decimalAttributeType = 400
    /// A double-precision floating-point number (`Double`).
    case doubleAttributeType = 500
    /// A single-precision floating-point number (`Float`).
    case floatAttributeType = 600
    /// A string (`String`).
    case stringAttributeType = 700
    /// A Boolean (`Bool`).
    case booleanAttributeType = 800
    /// A date (`Date`).
    case dateAttributeType = 900
    /// Binary data (`Data`).
    case binaryDataAttributeType = 1000
    /// A UUID (`UUID`).
    case UUIDAttributeType = 1100
    /// A URI (`URL`).
    case URIAttributeType = 1200
    /// A value stored through a `ValueTransformer`.
    case transformableAttributeType = 1800
    /// An object ID: not valid for a stored attribute.
    case objectIDAttributeType = 2000
    /// A composite attribute: a dictionary of element values.
    case compositeAttributeType = 2100

    /// The name used in Xcode's model files for this type.
    var xcodeName: String {
        switch self {
        case .undefinedAttributeType: return "Undefined"
        case .integer16AttributeType: return "Integer 16"
        case .integer32AttributeType: return "Integer 32"
        case .integer64AttributeType: return "Integer 64"
        case .decimalAttributeType: return "Decimal"
        case .doubleAttributeType: return "Double"
        case .floatAttributeType: return "Float"
        case .stringAttributeType: return "String"
        case .booleanAttributeType: return "Boolean"
        case .dateAttributeType: return "Date"
        case .binaryDataAttributeType: return "Binary"
        case .UUIDAttributeType: return "UUID"
        case .URIAttributeType: return "URI"
        case .transformableAttributeType: return "Transformable"
        case .objectIDAttributeType: return "ObjectID"
        case .compositeAttributeType: return "Composite"
        }
    }

    /// Parses the attribute type name used in Xcode's `contents` files.
    init?(xcodeName: String) {
        guard let match = NSAttributeType.allCases.first(where: { $0.xcodeName == xcodeName }) else { return nil }
        self = match
    }
}

/// What happens to related objects when an object is deleted.
public enum NSDeleteRule: UInt, Sendable {
    /// Leave related objects alone, even pointing at the deleted object.
    case noActionDeleteRule = 0
    /// Remove the deleted object from related objects' inverse relationships.
    case nullifyDeleteRule = 1
    /// Delete the related objects too.
    case cascadeDeleteRule = 2
    /// Refuse to delete the object while it has related objects.
    case denyDeleteRule = 3
}
