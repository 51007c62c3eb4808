import OpenCoreData

/// The domain a health concept identifier belongs to.
public struct HKHealthConceptDomain: RawRepresentable, Hashable, Sendable, Codable {
    /// The domain's string.
    public let rawValue: String
    /// Creates a domain.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Medications.
    public static let medication = HKHealthConceptDomain(rawValue: "medication")
}

/// A stable identifier of a health concept, the same on every device and over time.
public final class HKHealthConceptIdentifier: NSObject, Codable, @unchecked Sendable {
    /// The concept's domain.
    public let domain: HKHealthConceptDomain
    /// The identifier within the domain.
    public let identifier: String

    /// Creates an identifier (OpenHealthKit's medication concepts use `rxnorm:<code>` identifiers).
    public init(domain: HKHealthConceptDomain, identifier: String) {
        self.domain = domain
        self.identifier = identifier
        super.init()
    }

    /// Identifiers are equal when domain and identifier are.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKHealthConceptIdentifier else { return false }
        return other.domain == domain && other.identifier == identifier
    }
    /// A hash of domain and identifier.
    public override var hash: Int { identifier.hashValue ^ domain.hashValue }
    /// The identifier.
    public override var description: String { identifier }
}

/// A code in a clinical coding system, such as an RxNorm code. A class, as Apple declares it; two codings are
/// equal when their system, version and code are.
public final class HKClinicalCoding: NSObject, Codable, @unchecked Sendable {
    /// The coding system's URL (RxNorm: `http://www.nlm.nih.gov/research/umls/rxnorm`).
    public let system: String
    /// The system's version, if given.
    public let version: String?
    /// The code.
    public let code: String
    /// Creates a coding.
    public init(system: String, version: String?, code: String) {
        self.system = system
        self.version = version
        self.code = code
        super.init()
    }
    /// RxNorm's FHIR system URL.
    public static let rxNormSystem = "http://www.nlm.nih.gov/research/umls/rxnorm"

    /// Codings are equal when their system, version and code are.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKClinicalCoding else { return false }
        return other.system == system && other.version == version && other.code == code
    }
    /// A hash of the system, version and code.
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(system)
        hasher.combine(version)
        hasher.combine(code)
        return hasher.finalize()
    }
    /// The coding as `system|code` (with `@version` when given).
    public override var description: String { "\(system)\(version.map { "@" + $0 } ?? "")|\(code)" }
}

/// The physical form of a medication: a string-backed value, as Apple declares it (a struct with a constant per
/// form, so a form a newer store names is kept rather than lost).
public struct HKMedicationGeneralForm: RawRepresentable, Hashable, Sendable, Codable {
    /// The form's name, as stored.
    public let rawValue: String
    /// A form by name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A form by name.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Capsule.
    public static let capsule = HKMedicationGeneralForm(rawValue: "capsule")
    /// Cream.
    public static let cream = HKMedicationGeneralForm(rawValue: "cream")
    /// Device.
    public static let device = HKMedicationGeneralForm(rawValue: "device")
    /// Drops.
    public static let drops = HKMedicationGeneralForm(rawValue: "drops")
    /// Foam.
    public static let foam = HKMedicationGeneralForm(rawValue: "foam")
    /// Gel.
    public static let gel = HKMedicationGeneralForm(rawValue: "gel")
    /// Inhaler.
    public static let inhaler = HKMedicationGeneralForm(rawValue: "inhaler")
    /// Injection.
    public static let injection = HKMedicationGeneralForm(rawValue: "injection")
    /// Liquid.
    public static let liquid = HKMedicationGeneralForm(rawValue: "liquid")
    /// Lotion.
    public static let lotion = HKMedicationGeneralForm(rawValue: "lotion")
    /// Ointment.
    public static let ointment = HKMedicationGeneralForm(rawValue: "ointment")
    /// Patch.
    public static let patch = HKMedicationGeneralForm(rawValue: "patch")
    /// Powder.
    public static let powder = HKMedicationGeneralForm(rawValue: "powder")
    /// Spray.
    public static let spray = HKMedicationGeneralForm(rawValue: "spray")
    /// Suppository.
    public static let suppository = HKMedicationGeneralForm(rawValue: "suppository")
    /// Tablet.
    public static let tablet = HKMedicationGeneralForm(rawValue: "tablet")
    /// Topical.
    public static let topical = HKMedicationGeneralForm(rawValue: "topical")
    /// Unknown.
    public static let unknown = HKMedicationGeneralForm(rawValue: "unknown")

    /// The 18 forms HealthKit names, in its order.
    static let known: [HKMedicationGeneralForm] = [
        .capsule, .cream, .device, .drops, .foam, .gel, .inhaler, .injection, .liquid, .lotion, .ointment, .patch,
        .powder, .spray, .suppository, .tablet, .topical, .unknown,
    ]
    /// Whether this is one of the forms HealthKit names.
    var isKnown: Bool { Self.known.contains(self) }
}

/// A medication as a concept (not a prescription): identifier, name, form and clinical codes.
public final class HKMedicationConcept: NSObject, @unchecked Sendable {
    /// The concept's stable identifier.
    public let identifier: HKHealthConceptIdentifier
    /// The medication's name.
    public let displayText: String
    /// The physical form.
    public let generalForm: HKMedicationGeneralForm
    /// Clinical codes for the medication, such as its RxNorm code.
    public let relatedCodings: Set<HKClinicalCoding>

    /// Creates a concept.
    public init(
        identifier: HKHealthConceptIdentifier, displayText: String,
        generalForm: HKMedicationGeneralForm, relatedCodings: Set<HKClinicalCoding>
    ) {
        self.identifier = identifier
        self.displayText = displayText
        self.generalForm = generalForm
        self.relatedCodings = relatedCodings
        super.init()
    }

    /// Concepts are equal when their identifiers are.
    public override func isEqual(_ object: Any?) -> Bool { (object as? HKMedicationConcept)?.identifier == identifier }
    /// A hash of the identifier.
    public override var hash: Int { identifier.hash }
}

/// A medication the person added in the Health app, with their customizations.
public final class HKUserAnnotatedMedication: NSObject, @unchecked Sendable {
    /// The person's name for the medication, if any.
    public let nickname: String?
    /// Whether the person stopped taking it (it moved to the medication history).
    public let isArchived: Bool
    /// Whether reminders are set for it.
    public let hasSchedule: Bool
    /// The medication.
    public let medication: HKMedicationConcept

    init(nickname: String?, isArchived: Bool, hasSchedule: Bool, medication: HKMedicationConcept) {
        self.nickname = nickname
        self.isArchived = isArchived
        self.hasSchedule = hasSchedule
        self.medication = medication
        super.init()
    }

    /// The name to show: the nickname when non-empty, else the concept's display text.
    public var displayName: String {
        if let nickname, !nickname.trimmingCharacters(in: .whitespaces).isEmpty { return nickname }
        return medication.displayText
    }
}
