import Foundation
import OpenHealthKit

/// A side effect of a medication, shown in the medication's window: one the HealthKit talk's sample lists for the
/// medication's RxNorm code (``known(rxcui:)``), one the person has logged against the medication, or both.
///
/// The sample's table covers only the codes its author researched; for every other medication the list is what
/// the person noted, with how often and how it was the last time. Meds adds no medical claims of its own.
public struct SideEffect: Identifiable, Hashable, Sendable {
    /// The symptom's identifier.
    public var id: String { type.rawValue }
    /// The symptom.
    public let type: HKCategoryTypeIdentifier
    /// Whether the sample's table lists it for the medication.
    public let isKnown: Bool
    /// How many times it was logged as present (any severity but "not present").
    public let timesPresent: Int
    /// The latest log of it against the medication ("not present" when it went away); nil if never logged.
    public let latest: SymptomEntry?

    /// The symptom's name.
    public var name: String { SymptomScale.name(of: type) }

    /// The side effects Apple's sample "Logging symptoms associated with a medication" lists by RxNorm code, in its
    /// order (its `SideEffects` table, as Orchard's `MedicationsSample` example keeps it too). Piroxicam (105929) is
    /// in the sample's table with none.
    static let knownByRxNormCode: [String: [HKCategoryTypeIdentifier]] = [
        "198439": [.nausea, .headache, .dizziness],  // acetaminophen 500 MG oral capsule
        "1012918": [.constipation, .nausea, .dizziness],  // carbinoxamine
        "1665229": [.headache, .diarrhea, .nausea, .generalizedBodyAche],  // ciprofloxacin injection
        "105929": [],  // piroxicam
    ]

    /// The side effects the sample lists for a medication's RxNorm code (none for a code it does not list).
    public static func known(rxcui: String?) -> [HKCategoryTypeIdentifier] {
        rxcui.flatMap { knownByRxNormCode[$0] } ?? []
    }

    /// The side effects of `medicationID`: each symptom logged against it in `entries`, the latest first, then each
    /// of `known` never logged against it, in the order given.
    public static func list(
        _ entries: [SymptomEntry], medicationID: String, known: [HKCategoryTypeIdentifier] = []
    ) -> [SideEffect] {
        var byType: [HKCategoryTypeIdentifier: (present: Int, latest: SymptomEntry)] = [:]
        for entry in entries where entry.medicationID == medicationID {
            let present = entry.severity == .notPresent ? 0 : 1
            if let logged = byType[entry.type] {
                let latest = entry.date >= logged.latest.date ? entry : logged.latest
                byType[entry.type] = (logged.present + present, latest)
            } else {
                byType[entry.type] = (present, entry)
            }
        }
        let logged = byType.sorted {
            ($0.value.latest.date, SymptomScale.name(of: $1.key)) > (
                $1.value.latest.date, SymptomScale.name(of: $0.key)
            )
        }
        .map {
            SideEffect(
                type: $0.key, isKnown: known.contains($0.key), timesPresent: $0.value.present, latest: $0.value.latest)
        }
        let neverLogged = known.filter { byType[$0] == nil }.map {
            SideEffect(type: $0, isKnown: true, timesPresent: 0, latest: nil)
        }
        return logged + neverLogged
    }
}
