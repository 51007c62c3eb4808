import OpenHealthKit

/// The five emoji of the sample's picker, from no symptom to an extreme one.
enum SymptomIntensity: Int, CaseIterable, Sendable {
    case none, mild, moderate, severe, extreme

    /// The emoji shown for the intensity.
    var emoji: String {
        switch self {
        case .none: "😀"
        case .mild: "🙂"
        case .moderate: "😐"
        case .severe: "😣"
        case .extreme: "😫"
        }
    }

    /// The severity to store. Apple's sample stored the picker's raw value, which files "mild" as
    /// `notPresent` (1); map each intensity explicitly instead. HealthKit has no level above
    /// `severe`, so "extreme" is stored as severe.
    var severity: HKCategoryValueSeverity {
        switch self {
        case .none: .notPresent
        case .mild: .mild
        case .moderate: .moderate
        case .severe, .extreme: .severe
        }
    }
}
