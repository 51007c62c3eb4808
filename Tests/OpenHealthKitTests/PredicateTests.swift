import Testing
@testable import OpenHealthKit

/// Every predicate factory of the facts sheet, one by one and combined, against a small store.
@Suite struct PredicateTests {
    let cipro = "1665229", tylenol = "313782", amox = "313820"

    /// Doses: cipro taken (scheduled 08:00) on May 1-3, tylenol as needed on May 2, amox skipped (scheduled) on May 3.
    func seeded() async throws -> (StoreFixture, HKHealthStore) {
        let f = try StoreFixture()
        for code in [cipro, tylenol, amox] { try await f.editor.addMedication(f.concept(code)) }
        let app = try f.app()
        try await app.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)
        for day in 1...3 {
            try f.editor.logDose(.init(medication: f.concept(cipro).identifier, status: .taken, date: date(2026, 5, day, 8, 30),
                                       scheduledDate: date(2026, 5, day, 8), scheduledQuantity: 1))
        }
        try f.editor.logDose(.init(medication: f.concept(tylenol).identifier, status: .taken, date: date(2026, 5, 2, 14)))
        try f.editor.logDose(.init(medication: f.concept(amox).identifier, status: .skipped, date: date(2026, 5, 3, 21),
                                   scheduledDate: date(2026, 5, 3, 20), scheduledQuantity: 2))
        return (f, app)
    }

    func count(_ app: HKHealthStore, _ predicate: NSPredicate?) async throws -> Int {
        try await HKSampleQueryDescriptor(predicates: [.medicationDoseEvent(predicate)], sortDescriptors: []).result(for: app).count
    }

    @Test func statusPredicates() async throws {
        let (_, app) = try await seeded()
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(status: .taken)) == 4)
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(status: .skipped)) == 1)
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(status: .snoozed)) == 0)
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(statuses: [.taken, .skipped])) == 5)
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(statuses: [.notInteracted, .notLogged])) == 0)
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(statuses: [])) == 0)
    }

    @Test func scheduledDatePredicates() async throws {
        let (_, app) = try await seeded()
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(scheduledDate: date(2026, 5, 2, 8))) == 1)
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(scheduledDate: date(2026, 5, 2, 9))) == 0)
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(scheduledDates: [date(2026, 5, 1, 8), date(2026, 5, 3, 20)])) == 2)
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(scheduledDates: [])) == 0)
        // [start, end): May 3 08:00 is in, 20:00 is the end and out.
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(scheduledStart: date(2026, 5, 2, 0), end: date(2026, 5, 3, 20))) == 2)
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(scheduledStart: date(2026, 5, 3, 0), end: nil)) == 2)
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(scheduledStart: nil, end: date(2026, 5, 2, 0))) == 1)
        // Both sides open: every scheduled dose, never the as-needed one.
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(scheduledStart: nil, end: nil)) == 4)
    }

    @Test func medicationPredicates() async throws {
        let (f, app) = try await seeded()
        let c = f.concept(cipro).identifier, t = f.concept(tylenol).identifier, a = f.concept(amox).identifier
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifier: c)) == 3)
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifier: .init(domain: .medication, identifier: "rxnorm:1"))) == 0)
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifiers: [t, a])) == 2)
        #expect(try await count(app, HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifiers: [])) == 0)
    }

    @Test func sampleDatePredicates() async throws {
        let (_, app) = try await seeded()
        // Overlapping by default; doses are instants, so an instant on the end is out, on the start in.
        #expect(try await count(app, HKQuery.predicateForSamples(withStart: date(2026, 5, 2, 0), end: date(2026, 5, 3, 0))) == 2)
        #expect(try await count(app, HKQuery.predicateForSamples(withStart: date(2026, 5, 2, 14), end: date(2026, 5, 3, 8, 30))) == 1)
        #expect(try await count(app, HKQuery.predicateForSamples(withStart: date(2026, 5, 2, 14), end: nil, options: .strictStartDate)) == 3)
        #expect(try await count(app, HKQuery.predicateForSamples(withStart: nil, end: date(2026, 5, 2, 14), options: .strictEndDate)) == 2)
        #expect(try await count(app, HKQuery.predicateForSamples(withStart: date(2026, 5, 1, 0), end: date(2026, 5, 3, 21), options: [.strictStartDate, .strictEndDate])) == 4)
        #expect(try await count(app, HKQuery.predicateForSamples(withStart: nil, end: nil)) == 5)
    }

    @Test func objectAndCompoundPredicates() async throws {
        let (f, app) = try await seeded()
        let all = try await HKSampleQueryDescriptor(predicates: [.medicationDoseEvent()], sortDescriptors: [SortDescriptor(\.startDate)]).result(for: app)
        #expect(try await count(app, HKQuery.predicateForObjects(with: [all[0].uuid, all[4].uuid])) == 2)
        #expect(try await count(app, HKQuery.predicateForObjects(with: [UUID()])) == 0)
        let c = f.concept(cipro).identifier
        let and = NSCompoundPredicate(andPredicateWithSubpredicates: [
            HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifier: c),
            HKQuery.predicateForSamples(withStart: date(2026, 5, 2, 0), end: nil, options: .strictStartDate),
        ])
        #expect(try await count(app, and) == 2)
        let or = NSCompoundPredicate(orPredicateWithSubpredicates: [
            HKQuery.predicateForMedicationDoseEvent(status: .skipped),
            HKQuery.predicateForMedicationDoseEvent(scheduledStart: nil, end: date(2026, 5, 2, 0)),
        ])
        #expect(try await count(app, or) == 2)
        let not = NSCompoundPredicate(notPredicateWithSubpredicate: HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifier: c))
        #expect(try await count(app, not) == 2)
        // Compound predicates work for anchored queries too.
        let anchored = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent(and)], anchor: nil).result(for: app)
        #expect(anchored.addedSamples.map(\.startDate) == [date(2026, 5, 2, 8, 30), date(2026, 5, 3, 8, 30)])
    }

    @Test func userAnnotatedMedicationPredicates() async throws {
        let (f, app) = try await seeded()
        try f.editor.updateMedication(f.concept(amox).identifier, isArchived: true)
        try f.editor.updateMedication(f.concept(cipro).identifier,
                                      schedule: .some(try MedicationSchedule(frequency: .weekdays(Set(1...7)), times: [.init(hour: 8)])))
        func ids(_ predicate: NSPredicate?) async throws -> Set<String> {
            Set(try await HKUserAnnotatedMedicationQueryDescriptor(predicate: predicate).result(for: app).map(\.medication.identifier.identifier))
        }
        #expect(try await ids(HKQuery.predicateForUserAnnotatedMedications(isArchived: true)) == ["rxnorm:\(amox)"])
        #expect(try await ids(HKQuery.predicateForUserAnnotatedMedications(isArchived: false)) == ["rxnorm:\(cipro)", "rxnorm:\(tylenol)"])
        #expect(try await ids(HKQuery.predicateForUserAnnotatedMedications(hasSchedule: true)) == ["rxnorm:\(cipro)"])
        #expect(try await ids(HKQuery.predicateForUserAnnotatedMedications(hasSchedule: false)) == ["rxnorm:\(tylenol)", "rxnorm:\(amox)"])
        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [HKQuery.predicateForUserAnnotatedMedications(isArchived: false),
                                                                       HKQuery.predicateForUserAnnotatedMedications(hasSchedule: false)])
        #expect(try await ids(both) == ["rxnorm:\(tylenol)"])
        await #expect(throws: HKError.self) { try await HKUserAnnotatedMedicationQueryDescriptor(limit: -1).result(for: app) }
    }

    @Test func categorySamplePredicates() async throws {
        let (_, app) = try await seeded()
        let headache = HKCategoryType(.headache)
        try await app.requestAuthorization(toShare: [headache], read: [headache])
        for (hour, severity) in [(9, HKCategoryValueSeverity.mild), (12, .severe), (15, .notPresent)] {
            try await app.save(HKCategorySample(type: headache, value: severity.rawValue, start: date(2026, 5, 4, hour), end: date(2026, 5, 4, hour)))
        }
        func values(_ predicate: NSPredicate?) async throws -> [Int] {
            try await HKSampleQueryDescriptor(predicates: [.categorySample(type: headache, predicate: predicate)],
                                              sortDescriptors: [SortDescriptor(\.startDate)]).result(for: app).map(\.value)
        }
        #expect(try await values(HKQuery.predicateForCategorySamples(with: .greaterThanOrEqualTo, value: HKCategoryValueSeverity.mild.rawValue)) == [2, 4])
        #expect(try await values(HKQuery.predicateForCategorySamples(with: .equalTo, value: HKCategoryValueSeverity.notPresent.rawValue)) == [1])
        #expect(try await values(HKQuery.predicateForSamples(withStart: date(2026, 5, 4, 10), end: nil, options: .strictStartDate)) == [4, 1])
        // Nausea was never shared with the app: nothing, no error.
        #expect(try await HKSampleQueryDescriptor(predicates: [.categorySample(type: HKCategoryType(.nausea))], sortDescriptors: []).result(for: app).isEmpty)
    }
}
