import Foundation
import OpenHealthKit

/// A logged symptom: which, how bad, when, and the medication the person thinks caused it (if any).
public struct SymptomEntry: Identifiable, Hashable, Sendable {
    /// The sample's UUID.
    public let id: UUID
    /// The symptom's category type.
    public let type: HKCategoryTypeIdentifier
    /// How bad it was.
    public let severity: HKCategoryValueSeverity
    /// When.
    public let date: Date
    /// The medication it was logged against (its concept identifier), if any.
    public let medicationID: String?

    /// The metadata key the medication is kept under.
    public static let medicationKey = "MedsMedicationIdentifier"

    /// Creates an entry.
    public init(
        id: UUID, type: HKCategoryTypeIdentifier, severity: HKCategoryValueSeverity, date: Date, medicationID: String?
    ) {
        self.id = id
        self.type = type
        self.severity = severity
        self.date = date
        self.medicationID = medicationID
    }

    /// The entry of a stored sample (nil for a sample that is not a symptom).
    public init?(_ sample: HKCategorySample) {
        let type = HKCategoryTypeIdentifier(sample.categoryType.identifier)
        guard HKCategoryTypeIdentifier.allSymptoms.contains(type),
            let severity = HKCategoryValueSeverity(rawValue: sample.value)
        else { return nil }
        self.init(
            id: sample.uuid, type: type, severity: severity, date: sample.startDate,
            medicationID: sample.metadata?[Self.medicationKey] as? String)
    }

    /// The symptom's name.
    public var name: String { SymptomScale.name(of: type) }
}

/// The sample's emoji scale for how a symptom felt, and symptoms' names.
public enum SymptomScale {
    /// The levels a person picks from, with their emoji and the severity stored. (The sample's fifth emoji,
    /// "extreme", has no severity of its own in HealthKit, so it is not offered: it would be stored as severe
    /// and read back as severe.)
    public static let levels: [(emoji: String, title: String, severity: HKCategoryValueSeverity)] = [
        ("😀", "Not present", .notPresent), ("🙂", "Mild", .mild), ("😐", "Moderate", .moderate),
        ("😣", "Severe", .severe),
    ]

    /// The emoji of a severity ("•" for present, severity not given).
    public static func emoji(_ severity: HKCategoryValueSeverity) -> String {
        levels.first { $0.severity == severity }?.emoji ?? "•"
    }

    /// A symptom's name from its identifier: "HKCategoryTypeIdentifierGeneralizedBodyAche" → "Generalized body ache".
    public static func name(of type: HKCategoryTypeIdentifier) -> String {
        let raw = type.rawValue.replacingOccurrences(of: "HKCategoryTypeIdentifier", with: "")
        var words: [String] = []
        for character in raw {
            if character.isUppercase || words.isEmpty {
                words.append(String(character))
            } else {
                words[words.count - 1].append(character)
            }
        }
        return words.enumerated().map { $0.offset == 0 ? $0.element : $0.element.lowercased() }.joined(separator: " ")
    }

    /// Every symptom, by name.
    public static let all: [HKCategoryTypeIdentifier] = HKCategoryTypeIdentifier.allSymptoms.sorted {
        name(of: $0) < name(of: $1)
    }
}
