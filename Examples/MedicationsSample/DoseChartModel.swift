import Foundation
import OpenHealthKit

/// The chart's data: taken doses per day for one medication, fed by an anchored query that also
/// reports deletions (a dose edited in the Health app arrives as a deletion plus an addition).
final class DoseChartModel: @unchecked Sendable {
    let healthStore: HKHealthStore
    let calendar: Calendar
    private let lock = NSLock()
    private var dayOfDose: [UUID: Date] = [:]
    private(set) var anchor: HKQueryAnchor?

    init(healthStore: HKHealthStore, calendar: Calendar = .current) {
        self.healthStore = healthStore
        self.calendar = calendar
    }

    /// Doses per day, by start of day.
    var dosesPerDay: [Date: Int] {
        lock.withLock { dayOfDose.values.reduce(into: [:]) { $0[$1, default: 0] += 1 } }
    }

    func descriptor(for medication: HKMedicationConcept, from start: Date, to end: Date) -> HKAnchoredObjectQueryDescriptor<HKMedicationDoseEvent> {
        let datePredicate = HKQuery.predicateForSamples(withStart: start, end: end, options: .strictStartDate)
        let medicationPredicate = HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifier: medication.identifier)
        let takenPredicate = HKQuery.predicateForMedicationDoseEvent(status: .taken)
        let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [datePredicate, medicationPredicate, takenPredicate])
        return HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent(predicate)], anchor: anchor)
    }

    /// Applies one result: deletions first, then additions.
    func handleResult(_ result: HKAnchoredObjectQueryDescriptor<HKMedicationDoseEvent>.Result) {
        lock.withLock {
            for deleted in result.deletedObjects { dayOfDose[deleted.uuid] = nil }
            for dose in result.addedSamples { dayOfDose[dose.uuid] = calendar.startOfDay(for: dose.startDate) }
            anchor = result.newAnchor
        }
    }

    /// Reads what is new once (the chart's refresh).
    func refresh(for medication: HKMedicationConcept, from start: Date, to end: Date) async throws {
        handleResult(try await descriptor(for: medication, from: start, to: end).result(for: healthStore))
    }

    /// Follows changes until cancelled, calling `onUpdate` after each result.
    func follow(_ medication: HKMedicationConcept, from start: Date, to end: Date,
                onUpdate: @Sendable ([Date: Int]) -> Void) async throws {
        let updateQueue = descriptor(for: medication, from: start, to: end).results(for: healthStore)
        for try await results in updateQueue {
            handleResult(results)
            onUpdate(dosesPerDay)
        }
    }
}
