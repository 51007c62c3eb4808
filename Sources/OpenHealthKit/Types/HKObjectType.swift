import OpenCoreData

/// The kind of a HealthKit object: the base of sample types and the medication object type.
public class HKObjectType: NSObject, @unchecked Sendable {
    /// The type's identifier (for example `HKCategoryTypeIdentifierHeadache`).
    public let identifier: String

    /// Creates a type with its identifier.
    init(identifier: String) {
        self.identifier = identifier
        super.init()
    }

    /// Whether objects of this type are authorized one by one
    /// (`requestPerObjectReadAuthorization(for:predicate:)`), not by type.
    public func requiresPerObjectAuthorization() -> Bool {
        identifier == HKObjectType.userAnnotatedMedicationIdentifier
    }

    static let userAnnotatedMedicationIdentifier = HKDataTypeIdentifierUserAnnotatedMedicationConcept

    /// The type of the medications a person added to the Health app (authorized per object).
    public static func userAnnotatedMedicationType() -> HKUserAnnotatedMedicationType { sharedMedicationType }
    private static let sharedMedicationType = HKUserAnnotatedMedicationType(identifier: userAnnotatedMedicationIdentifier)

    /// The type of medication dose events.
    public static func medicationDoseEventType() -> HKMedicationDoseEventType { sharedDoseEventType }
    private static let sharedDoseEventType = HKMedicationDoseEventType(identifier: HKSampleType.medicationDoseEventIdentifier)

    /// The category type of an identifier.
    public static func categoryType(forIdentifier identifier: HKCategoryTypeIdentifier) -> HKCategoryType? {
        HKCategoryType(identifier)
    }

    /// Types are equal when their identifiers are.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKObjectType)?.identifier == identifier
    }

    /// A hash of the identifier.
    public override var hash: Int { identifier.hashValue }

    /// The identifier.
    public override var description: String { identifier }
}

/// The type of samples: objects with a start and end date.
public class HKSampleType: HKObjectType, @unchecked Sendable {
    static let medicationDoseEventIdentifier = HKMedicationDoseEventTypeIdentifierMedicationDoseEvent
}

/// The identifier of the medication dose event type.
public let HKMedicationDoseEventTypeIdentifierMedicationDoseEvent = "HKMedicationDoseEventTypeIdentifierMedicationDoseEvent"

/// The identifier of the user-annotated medication type.
public let HKDataTypeIdentifierUserAnnotatedMedicationConcept = "HKDataTypeIdentifierUserAnnotatedMedicationConcept"

/// The type of medications a person tracks in the Health app: the set of authorizable
/// `HKUserAnnotatedMedication`s (read access is granted medication by medication).
public final class HKUserAnnotatedMedicationType: HKObjectType, @unchecked Sendable {}

/// The type of `HKMedicationDoseEvent` samples.
public final class HKMedicationDoseEventType: HKSampleType, @unchecked Sendable {}

/// The type of category samples, such as symptoms.
public final class HKCategoryType: HKSampleType, @unchecked Sendable {
    /// Creates the category type of an identifier.
    public init(_ identifier: HKCategoryTypeIdentifier) {
        super.init(identifier: identifier.rawValue)
    }
}

extension HKObjectType {
    /// The category type of an identifier (the form used in Swift: `.categoryType(.headache)`).
    public static func categoryType(_ identifier: HKCategoryTypeIdentifier) -> HKCategoryType {
        HKCategoryType(identifier)
    }
}
