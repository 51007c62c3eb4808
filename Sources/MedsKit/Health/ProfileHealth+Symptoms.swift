import Foundation
import OpenHealthKit

/// Symptoms: category samples in the profile's health store, one per symptom logged.
extension ProfileHealth {
    /// Logs a symptom at `date` (not in the future), against a medication of the profile if one is given.
    @discardableResult
    public func logSymptom(
        _ type: HKCategoryTypeIdentifier, severity: HKCategoryValueSeverity, at date: Date, medicationID: String?,
        now: Date
    ) async throws -> SymptomEntry {
        guard HKCategoryTypeIdentifier.allSymptoms.contains(type) else {
            throw MedsError("\(type.rawValue) is not a symptom HealthKit knows; nothing was logged.")
        }
        guard date <= now.addingTimeInterval(60) else {
            throw MedsError("A symptom cannot be logged in the future; nothing was logged.")
        }
        if let medicationID, try await !medications().contains(where: { $0.id == medicationID }) {
            throw MedsError("\(medicationID) is not one of this profile's medications; nothing was logged.")
        }
        let sample = HKCategorySample(
            type: HKCategoryType(type), value: severity.rawValue, start: date, end: date,
            metadata: medicationID.map { [SymptomEntry.medicationKey: $0] })
        try await store.save(sample)
        return SymptomEntry(id: sample.uuid, type: type, severity: severity, date: date, medicationID: medicationID)
    }

    /// The symptoms logged in [start, end), oldest first.
    public func symptoms(from start: Date, to end: Date) async throws -> [SymptomEntry] {
        let span = HKQuery.predicateForSamples(withStart: start, end: end, options: .strictStartDate)
        let samples = try await HKSampleQueryDescriptor(
            predicates: HKCategoryTypeIdentifier.allSymptoms.map {
                .categorySample(type: HKCategoryType($0), predicate: span)
            },
            sortDescriptors: [SortDescriptor(\HKCategorySample.startDate)]
        ).result(for: store)
        return samples.compactMap(SymptomEntry.init)
    }

    /// Deletes a logged symptom.
    public func deleteSymptom(_ entry: SymptomEntry) async throws {
        let samples = try await HKSampleQueryDescriptor(
            predicates: [
                .categorySample(
                    type: HKCategoryType(entry.type), predicate: HKQuery.predicateForObjects(with: [entry.id]))
            ],
            sortDescriptors: []
        ).result(for: store)
        guard let sample = samples.first else {
            throw MedsError("That symptom is no longer in the log; nothing was deleted.")
        }
        try await store.delete(sample)
    }
}
