import OpenCoreData

/// Identifiers of category types; here HealthKit's symptom types.
public struct HKCategoryTypeIdentifier: RawRepresentable, Hashable, Sendable, Codable {
    /// The identifier string, e.g. `HKCategoryTypeIdentifierHeadache`.
    public let rawValue: String
    /// Creates an identifier from its string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates an identifier from its string.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    private static func id(_ name: String) -> HKCategoryTypeIdentifier { .init("HKCategoryTypeIdentifier" + name) }

    /// Abdominal cramps.
    public static let abdominalCramps = id("AbdominalCramps")
    /// Acne.
    public static let acne = id("Acne")
    /// Appetite changes.
    public static let appetiteChanges = id("AppetiteChanges")
    /// Bladder incontinence.
    public static let bladderIncontinence = id("BladderIncontinence")
    /// Bloating.
    public static let bloating = id("Bloating")
    /// Breast pain.
    public static let breastPain = id("BreastPain")
    /// Chest tightness or pain.
    public static let chestTightnessOrPain = id("ChestTightnessOrPain")
    /// Chills.
    public static let chills = id("Chills")
    /// Constipation.
    public static let constipation = id("Constipation")
    /// Coughing.
    public static let coughing = id("Coughing")
    /// Diarrhea.
    public static let diarrhea = id("Diarrhea")
    /// Dizziness.
    public static let dizziness = id("Dizziness")
    /// Dry skin.
    public static let drySkin = id("DrySkin")
    /// Fainting.
    public static let fainting = id("Fainting")
    /// Fatigue.
    public static let fatigue = id("Fatigue")
    /// Fever.
    public static let fever = id("Fever")
    /// Generalized body ache.
    public static let generalizedBodyAche = id("GeneralizedBodyAche")
    /// Hair loss.
    public static let hairLoss = id("HairLoss")
    /// Headache.
    public static let headache = id("Headache")
    /// Heartburn.
    public static let heartburn = id("Heartburn")
    /// Hot flashes.
    public static let hotFlashes = id("HotFlashes")
    /// Loss of smell.
    public static let lossOfSmell = id("LossOfSmell")
    /// Loss of taste.
    public static let lossOfTaste = id("LossOfTaste")
    /// Lower back pain.
    public static let lowerBackPain = id("LowerBackPain")
    /// Memory lapse.
    public static let memoryLapse = id("MemoryLapse")
    /// Mood changes.
    public static let moodChanges = id("MoodChanges")
    /// Nausea.
    public static let nausea = id("Nausea")
    /// Night sweats.
    public static let nightSweats = id("NightSweats")
    /// Pelvic pain.
    public static let pelvicPain = id("PelvicPain")
    /// Rapid, pounding or fluttering heartbeat.
    public static let rapidPoundingOrFlutteringHeartbeat = id("RapidPoundingOrFlutteringHeartbeat")
    /// Runny nose.
    public static let runnyNose = id("RunnyNose")
    /// Shortness of breath.
    public static let shortnessOfBreath = id("ShortnessOfBreath")
    /// Sinus congestion.
    public static let sinusCongestion = id("SinusCongestion")
    /// Skipped heartbeat.
    public static let skippedHeartbeat = id("SkippedHeartbeat")
    /// Sleep changes.
    public static let sleepChanges = id("SleepChanges")
    /// Sore throat.
    public static let soreThroat = id("SoreThroat")
    /// Vaginal dryness.
    public static let vaginalDryness = id("VaginalDryness")
    /// Vomiting.
    public static let vomiting = id("Vomiting")
    /// Wheezing.
    public static let wheezing = id("Wheezing")

    /// Every symptom identifier HealthKit defines.
    public static let allSymptoms: [HKCategoryTypeIdentifier] = [
        .abdominalCramps, .acne, .appetiteChanges, .bladderIncontinence, .bloating, .breastPain,
        .chestTightnessOrPain, .chills, .constipation, .coughing, .diarrhea, .dizziness, .drySkin,
        .fainting, .fatigue, .fever, .generalizedBodyAche, .hairLoss, .headache, .heartburn, .hotFlashes,
        .lossOfSmell, .lossOfTaste, .lowerBackPain, .memoryLapse, .moodChanges, .nausea, .nightSweats,
        .pelvicPain, .rapidPoundingOrFlutteringHeartbeat, .runnyNose, .shortnessOfBreath, .sinusCongestion,
        .skippedHeartbeat, .sleepChanges, .soreThroat, .vaginalDryness, .vomiting, .wheezing,
    ]
}

/// The severity of a symptom sample's value.
public enum HKCategoryValueSeverity: Int, Sendable, Codable, CaseIterable {
    /// Present, severity not given.
    case unspecified = 0
    /// Not present.
    case notPresent = 1
    /// Mild.
    case mild = 2
    /// Moderate.
    case moderate = 3
    /// Severe.
    case severe = 4
}
