import OpenHealthKit

/// A symptom a medication may cause: a name and its HealthKit category type.
public struct SymptomModel: Hashable, Sendable, Identifiable {
    /// The symptom's name.
    public let name: String
    /// The category type identifier.
    public let categoryID: HKCategoryTypeIdentifier
    /// The identifier (the category type's).
    public var id: String { categoryID.rawValue }

    /// Creates a symptom.
    public init(name: String, categoryID: HKCategoryTypeIdentifier) {
        self.name = name
        self.categoryID = categoryID
    }

    /// The symptom's category type.
    public var categoryType: HKCategoryType { HKCategoryType(categoryID) }
}

/// Known side effects by RxNorm code: the sample app's own table, as Apple keeps it in its sample "Logging symptoms
/// associated with a medication" rather than in HealthKit. Only codings in RxNorm's system are looked up. (Meds keeps
/// the same table as data in `SideEffect.knownByRxNormCode`: this example stays on OpenHealthKit alone, as the
/// sample is on HealthKit alone.)
public enum SideEffects {
    /// RxNorm's coding system URL.
    public static let rxNormSystem = HKClinicalCoding.rxNormSystem

    static let nausea = SymptomModel(name: "Nausea", categoryID: .nausea)
    static let headache = SymptomModel(name: "Headache", categoryID: .headache)
    static let dizziness = SymptomModel(name: "Dizziness", categoryID: .dizziness)
    static let constipation = SymptomModel(name: "Constipation", categoryID: .constipation)
    static let diarrhea = SymptomModel(name: "Diarrhea", categoryID: .diarrhea)
    static let bodyAche = SymptomModel(name: "Generalized Body Ache", categoryID: .generalizedBodyAche)

    /// RxNorm code → side effects (the sample's table).
    public static let symptomsByRxNormCode: [String: [SymptomModel]] = [
        "198439": [nausea, headache, dizziness],  // acetaminophen 500 MG oral capsule
        "1012918": [constipation, nausea, dizziness],  // carbinoxamine
        "1665229": [headache, diarrhea, nausea, bodyAche],  // ciprofloxacin injection
        "105929": [],  // piroxicam: none listed
    ]

    /// The side effects of a medication, from its RxNorm codings, without duplicates.
    public static func symptoms(for medication: HKMedicationConcept) -> [SymptomModel] {
        var seen = Set<SymptomModel>()
        return medication.relatedCodings
            .filter { $0.system == rxNormSystem }
            .sorted { $0.code < $1.code }
            .flatMap { symptomsByRxNormCode[$0.code] ?? [] }
            .filter { seen.insert($0).inserted }
    }
}
