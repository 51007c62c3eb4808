import Testing
@testable import OpenHealthKit

@Suite struct StoreTests {
    let cipro = "1665229", tylenol = "313782", tylenol500 = "198440"

    func seeded(withheld: Set<String> = []) async throws -> (StoreFixture, HKHealthStore) {
        let f = try StoreFixture(withheld: withheld)
        for code in [cipro, tylenol, tylenol500] { try await f.editor.addMedication(f.concept(code)) }
        let app = try f.app()
        try await app.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)
        return (f, app)
    }

    func doses(_ app: HKHealthStore, _ predicate: NSPredicate?) async throws -> [HKMedicationDoseEvent] {
        try await HKSampleQueryDescriptor(predicates: [.medicationDoseEvent(predicate)],
                                          sortDescriptors: [SortDescriptor(\.startDate)]).result(for: app)
    }

    @Test func everyLogStatusAndScheduleTypeRoundTrips() async throws {
        let (f, app) = try await seeded()
        let id = f.concept(cipro).identifier
        for (i, status) in HKMedicationDoseEvent.LogStatus.allCases.enumerated() {
            try f.editor.logDose(.init(medication: id, status: status, date: date(2026, 5, 1, 8 + i), scheduledDate: date(2026, 5, 1, 8), scheduledQuantity: 2))
        }
        try f.editor.logDose(.init(medication: id, status: .taken, date: date(2026, 5, 2)))
        let all = try await doses(app, nil)
        #expect(all.map(\.logStatus) == HKMedicationDoseEvent.LogStatus.allCases + [.taken])
        #expect(all.map(\.scheduleType) == Array(repeating: .schedule, count: 6) + [.asNeeded])
        #expect(all[3].doseQuantity == 2)        // taken from a reminder: the scheduled quantity
        #expect(all[4].doseQuantity == 0)        // skipped
        #expect(all[6].doseQuantity == 1)        // as needed
        #expect(all[6].scheduledDate == nil && all[6].scheduledDoseQuantity == nil)
        #expect(all.allSatisfy { $0.unit == .count() && $0.medicationConceptIdentifier == id })
        for status in HKMedicationDoseEvent.LogStatus.allCases {
            #expect(try await doses(app, HKQuery.predicateForMedicationDoseEvent(status: status)).map(\.logStatus).contains(status))
        }
        #expect(throws: HKError.self) { try f.editor.logDose(.init(medication: id, status: .snoozed, date: Date())) }
    }

    @Test func doseEventPredicates() async throws {
        let (f, app) = try await seeded()
        let a = f.concept(cipro).identifier, b = f.concept(tylenol).identifier
        for day in 1...5 {
            try f.editor.logDose(.init(medication: day % 2 == 0 ? a : b, status: day == 3 ? .skipped : .taken,
                                       date: date(2026, 5, day, 9), scheduledDate: date(2026, 5, day, 8), scheduledQuantity: 1))
        }
        #expect(try await doses(app, HKQuery.predicateForMedicationDoseEvent(statuses: [.skipped])).count == 1)
        #expect(try await doses(app, HKQuery.predicateForMedicationDoseEvent(statuses: [.skipped, .taken])).count == 5)
        #expect(try await doses(app, HKQuery.predicateForMedicationDoseEvent(scheduledDate: date(2026, 5, 2, 8))).count == 1)
        #expect(try await doses(app, HKQuery.predicateForMedicationDoseEvent(scheduledDates: [date(2026, 5, 2, 8), date(2026, 5, 4, 8)])).count == 2)
        #expect(try await doses(app, HKQuery.predicateForMedicationDoseEvent(scheduledStart: date(2026, 5, 2, 0), end: date(2026, 5, 4, 0))).count == 2)
        #expect(try await doses(app, HKQuery.predicateForMedicationDoseEvent(scheduledStart: nil, end: date(2026, 5, 3, 0))).count == 2)
        #expect(try await doses(app, HKQuery.predicateForMedicationDoseEvent(scheduledStart: date(2026, 5, 4, 0), end: nil)).count == 2)
        #expect(try await doses(app, HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifier: a)).count == 2)
        #expect(try await doses(app, HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifiers: [a, b])).count == 5)
        #expect(try await doses(app, HKQuery.predicateForSamples(withStart: date(2026, 5, 2, 0), end: date(2026, 5, 3, 0))).count == 1)
        #expect(try await doses(app, HKQuery.predicateForSamples(withStart: date(2026, 5, 2, 0), end: nil, options: .strictStartDate)).count == 4)
        let last = try await HKSampleQueryDescriptor(predicates: [.medicationDoseEvent(nil)],
                                                     sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)], limit: 1).result(for: app)
        #expect(last.map(\.startDate) == [date(2026, 5, 5, 9)])
    }

    @Test func medicationPredicatesAndCustomizations() async throws {
        let (f, app) = try await seeded()
        try f.editor.updateMedication(f.concept(cipro).identifier, nickname: "Antibiotic", isArchived: true)
        try f.editor.updateMedication(f.concept(tylenol).identifier,
                                      schedule: .some(try MedicationSchedule(frequency: .weekdays(Set(1...7)), times: [.init(hour: 8)])))
        let archived = try await HKUserAnnotatedMedicationQueryDescriptor(predicate: HKQuery.predicateForUserAnnotatedMedications(isArchived: true)).result(for: app)
        #expect(archived.map(\.displayName) == ["Antibiotic"])
        let scheduled = try await HKUserAnnotatedMedicationQueryDescriptor(predicate: HKQuery.predicateForUserAnnotatedMedications(hasSchedule: true)).result(for: app)
        #expect(scheduled.map(\.medication.identifier) == [f.concept(tylenol).identifier])
        #expect(try await HKUserAnnotatedMedicationQueryDescriptor(limit: 2).result(for: app).count == 2)
        let all = try await HKUserAnnotatedMedicationQueryDescriptor().result(for: app)
        #expect(all.count == 3)
        #expect(all.first { $0.medication.identifier == f.concept(cipro).identifier }?.medication.relatedCodings.first?.code == cipro)
    }

    @Test func unauthorizedMedicationsAndTheirDosesAreInvisible() async throws {
        let (f, app) = try await seeded(withheld: ["rxnorm:\(cipro)"])
        try f.editor.logDose(.init(medication: f.concept(cipro).identifier, status: .taken, date: date(2026, 5, 1)))
        try f.editor.logDose(.init(medication: f.concept(tylenol).identifier, status: .taken, date: date(2026, 5, 1)))
        #expect(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: app).count == 2)
        #expect(try await doses(app, nil).map(\.medicationConceptIdentifier) == [f.concept(tylenol).identifier])
        #expect(try await doses(app, HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifier: f.concept(cipro).identifier)).isEmpty)
        let anchored = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: nil).result(for: app)
        #expect(anchored.addedSamples.count == 1)
        // An app that never asked sees nothing, and is not told why.
        let stranger = try f.app("com.example.other")
        #expect(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: stranger).isEmpty)
        #expect(try await doses(stranger, nil).isEmpty)
    }

    @Test func newMedicationAsksEveryAppThatRequestedAccess() async throws {
        let (f, app) = try await seeded()
        let other = try f.app("com.example.never-asked")
        try await f.editor.addMedication(f.concept("313820"))
        let seen = try await HKUserAnnotatedMedicationQueryDescriptor().result(for: app).map(\.medication.identifier.identifier)
        #expect(seen.contains("rxnorm:313820"))
        #expect(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: other).isEmpty)
    }

    @Test func authorizationArguments() async throws {
        let (f, app) = try await seeded()
        await #expect(throws: HKError.self) { try await app.requestAuthorization(toShare: [], read: [.userAnnotatedMedicationType()]) }
        await #expect(throws: HKError.self) { try await app.requestPerObjectReadAuthorization(for: HKCategoryType(.nausea), predicate: nil) }
        await #expect(throws: HKError.self) { try await app.requestAuthorization(toShare: [HKObjectType.medicationDoseEventType()], read: []) }
        // Saving a symptom needs share permission.
        let sample = HKCategorySample(type: HKCategoryType(.headache), value: HKCategoryValueSeverity.mild.rawValue, start: Date(), end: Date())
        await #expect(throws: HKError.self) { try await app.save(sample) }
        #expect(app.authorizationStatus(for: HKCategoryType(.headache)) == .notDetermined)
        try await app.requestAuthorization(toShare: [HKCategoryType(.headache)], read: [HKCategoryType(.headache)])
        #expect(app.authorizationStatus(for: HKCategoryType(.headache)) == .sharingAuthorized)
        try await app.save(sample)
        let read = try await HKSampleQueryDescriptor(predicates: [.categorySample(type: HKCategoryType(.headache))], sortDescriptors: []).result(for: app)
        #expect(read.map(\.value) == [HKCategoryValueSeverity.mild.rawValue])
        let bad = HKCategorySample(type: HKCategoryType(.headache), value: 9, start: Date(), end: Date())
        await #expect(throws: HKError.self) { try await app.save(bad) }
        _ = f
    }

    @Test func anchorsPageSurviveRestartAndReportDeletions() async throws {
        let (f, app) = try await seeded()
        let id = f.concept(tylenol).identifier
        let events = try f.editor.logDoses((0..<250).map { .init(medication: id, status: .taken, date: date(2026, 1, 1).addingTimeInterval(Double($0) * 3600)) })
        var anchor: HKQueryAnchor? = nil
        var seen: [UUID] = []
        while true {
            let page = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: anchor, limit: 100).result(for: app)
            anchor = page.newAnchor
            if page.addedSamples.isEmpty { break }
            #expect(page.addedSamples.count <= 100)
            seen += page.addedSamples.map(\.uuid)
        }
        #expect(seen == events.map(\.uuid))
        // Archive the anchor, "restart" (a new connection), delete and edit, continue from the archive.
        let archived = try #require(anchor).data
        try f.editor.deleteDose(events[0])
        let edited = try f.editor.undoLog(events[1])
        #expect(edited.logStatus == .notLogged && edited.doseQuantity == nil)
        let restarted = try f.app()
        let changes = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: try HKQueryAnchor(data: archived)).result(for: restarted)
        #expect(Set(changes.deletedObjects.map(\.uuid)) == [events[0].uuid, events[1].uuid])
        #expect(changes.addedSamples.map(\.uuid) == [edited.uuid])
        let again = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: changes.newAnchor).result(for: restarted)
        #expect(again.addedSamples.isEmpty && again.deletedObjects.isEmpty)
    }

    @Test func longRunningResultsYieldOnAddsAndDeletes() async throws {
        let (f, app) = try await seeded()
        let id = f.concept(tylenol).identifier
        var iterator = HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: nil).results(for: app).makeAsyncIterator()
        let initial = try await iterator.next()
        #expect(initial?.addedSamples.isEmpty == true)
        let event = try f.editor.logDose(.init(medication: id, status: .taken, date: Date()))
        let added = try await iterator.next()
        #expect(added?.addedSamples.map(\.uuid) == [event.uuid])
        try f.editor.deleteDose(event)
        let deleted = try await iterator.next()
        #expect(deleted?.deletedObjects.map(\.uuid) == [event.uuid])
    }

    @Test func deletingAMedicationRemovesItsDosesAndPermissions() async throws {
        let (f, app) = try await seeded()
        let id = f.concept(cipro).identifier
        _ = try f.editor.logDose(.init(medication: id, status: .taken, date: Date()))
        let start = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: nil).result(for: app)
        try f.editor.deleteMedication(id)
        let after = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: start.newAnchor).result(for: app)
        #expect(after.addedSamples.isEmpty)
        #expect(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: app).count == 2)
        await #expect(throws: HKError.self) { try await f.editor.addMedication(f.concept(tylenol)) } // already added
    }
}
