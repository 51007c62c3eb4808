import Foundation
import OpenHealthKit

/// The sample app's queries, as in Apple's "Logging symptoms associated with a medication":
/// authorized medications, today's last taken dose, side effects, symptom logging.
final class MedicationsModel: @unchecked Sendable {
    let healthStore: HKHealthStore

    init(healthStore: HKHealthStore) {
        self.healthStore = healthStore
    }

    /// Asks which medications the app may read (per-object authorization).
    func requestMedicationAuthorization() async throws {
        try await healthStore.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)
    }

    /// Asks to read and share the symptom types of the side-effects table.
    func requestSymptomAuthorization() async throws {
        let symptomTypes: Set<HKSampleType> = Set(SideEffects.symptomsByRxNormCode.values.flatMap { $0 }.map(\.categoryType))
        try await healthStore.requestAuthorization(toShare: symptomTypes, read: symptomTypes)
    }

    /// The medications the person shared with the app, current and archived.
    func fetchMedications() async throws -> [HKUserAnnotatedMedication] {
        let queryDescriptor = HKUserAnnotatedMedicationQueryDescriptor()
        return try await queryDescriptor.result(for: healthStore)
    }

    /// The last dose of a medication taken today, if any.
    func mostRecentDose(for medicationConcept: HKMedicationConcept, now: Date = Date(),
                        calendar: Calendar = .current) async throws -> HKMedicationDoseEvent? {
        let startOfDay = calendar.startOfDay(for: now)
        let endOfDay = calendar.date(byAdding: .day, value: 1, to: startOfDay)
        let todayPredicate = HKQuery.predicateForSamples(withStart: startOfDay, end: endOfDay, options: .strictStartDate)
        let medicationPredicate = HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifier: medicationConcept.identifier)
        let takenPredicate = HKQuery.predicateForMedicationDoseEvent(status: .taken)
        let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [todayPredicate, medicationPredicate, takenPredicate])
        let queryDescriptor = HKSampleQueryDescriptor(predicates: [.medicationDoseEvent(predicate)],
                                                      sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)],
                                                      limit: 1)
        let results = try await queryDescriptor.result(for: healthStore)
        return results.first
    }

    /// The side effects to offer for a medication.
    func sideEffects(for medication: HKUserAnnotatedMedication) -> [SymptomModel] {
        SideEffects.symptoms(for: medication.medication)
    }

    /// Saves a symptom with its intensity as the matching severity.
    @discardableResult
    func logSymptom(_ symptom: SymptomModel, intensity: SymptomIntensity, at date: Date = Date()) async throws -> HKCategorySample {
        let sample = HKCategorySample(type: symptom.categoryType, value: intensity.severity.rawValue, start: date, end: date)
        try await healthStore.save(sample)
        return sample
    }
}
