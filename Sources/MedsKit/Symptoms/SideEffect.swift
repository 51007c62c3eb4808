import Foundation
import OpenHealthKit

/// A symptom the person has logged against a medication: that medication's side effects as this person has noted
/// them, shown in the medication's window (where the HealthKit talk's sample shows the side effects it knows for the
/// medication) and logged again from there with the emoji scale.
///
/// The sample app lists side effects from a table of RxNorm codes it bundles. That table is not in the talk, and
/// Meds does not make medical claims of its own: the list here is what the person logged, with how often and how it
/// was the last time.
public struct SideEffect: Identifiable, Hashable, Sendable {
    /// The symptom's identifier.
    public var id: String { type.rawValue }
    /// The symptom.
    public let type: HKCategoryTypeIdentifier
    /// How many times it was logged as present (any severity but "not present").
    public let timesPresent: Int
    /// The latest log of it against the medication ("not present" when it went away).
    public let latest: SymptomEntry

    /// The symptom's name.
    public var name: String { SymptomScale.name(of: type) }

    /// The side effects of `medicationID` in `entries`: one per symptom logged against it, the latest first.
    public static func list(_ entries: [SymptomEntry], medicationID: String) -> [SideEffect] {
        var byType: [HKCategoryTypeIdentifier: (present: Int, latest: SymptomEntry)] = [:]
        for entry in entries where entry.medicationID == medicationID {
            let present = entry.severity == .notPresent ? 0 : 1
            if let known = byType[entry.type] {
                let latest = entry.date >= known.latest.date ? entry : known.latest
                byType[entry.type] = (known.present + present, latest)
            } else {
                byType[entry.type] = (present, entry)
            }
        }
        return byType.map { SideEffect(type: $0.key, timesPresent: $0.value.present, latest: $0.value.latest) }
            .sorted { ($0.latest.date, $1.name) > ($1.latest.date, $0.name) }
    }
}
