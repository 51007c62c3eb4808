import Foundation
import Testing

@testable import OpenHealthKit

/// What a query's handler was called with, in order, with a way to wait for the next calls.
final class HandlerCalls<Call: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [Call] = []

    func record(_ call: Call) { lock.withLock { calls.append(call) } }
    var all: [Call] { lock.withLock { calls } }

    /// Waits until at least `count` calls arrived (10 s at most; then returns what there is).
    func wait(for count: Int) async -> [Call] {
        let deadline = Date().addingTimeInterval(30)  // generous: the whole suite runs beside it on two cores
        while all.count < count && Date() < deadline { try? await Task.sleep(for: .milliseconds(5)) }  // poll
        return all
    }
}

/// The class-based queries (`HKSampleQuery`, `HKAnchoredObjectQuery`, `HKObserverQuery`,
/// `HKUserAnnotatedMedicationQuery`) run by `execute(_:)` and ended by `stop(_:)`, as apps written for Apple's
/// HealthKit use them; an app sees only what it was granted through every one of them.
@Suite struct QueryClassTests {
    /// A store with two medications; the app is granted Tylenol only (ciprofloxacin is withheld) and headaches.
    func seeded() async throws -> (StoreFixture, HKHealthStore, HKMedicationConcept, HKMedicationConcept) {
        let f = try StoreFixture(withheld: ["rxnorm:1665229"])
        let tylenol = f.concept("313782")
        let cipro = f.concept("1665229")
        try await f.editor.addMedication(tylenol)
        try await f.editor.addMedication(cipro)
        let app = try f.app()
        try await app.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)
        try await app.requestAuthorization(toShare: [HKCategoryType(.headache)], read: [HKCategoryType(.headache)])
        return (f, app, tylenol, cipro)
    }

    func log(_ f: StoreFixture, _ concept: HKMedicationConcept, hour: Int) throws -> HKMedicationDoseEvent {
        try f.editor.logDose(.init(medication: concept.identifier, status: .taken, date: date(2026, 5, 1, hour)))
    }

    @Test func aSampleQuerySortsLimitsAndShowsOnlyGrantedMedications() async throws {
        let (f, app, tylenol, cipro) = try await seeded()
        let doses = try (0..<6).map { try log(f, tylenol, hour: $0) }
        _ = try log(f, cipro, hour: 7)  // withheld: never seen
        let calls = HandlerCalls<([UUID]?, String?)>()
        let query = HKSampleQuery(
            sampleType: HKObjectType.medicationDoseEventType(), predicate: nil, limit: 3,
            sortDescriptors: [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)]
        ) { _, samples, error in calls.record((samples?.map(\.uuid), error.map { "\($0)" })) }
        app.execute(query)
        let result = await calls.wait(for: 1)
        #expect(result.count == 1)
        #expect(result.first?.0 == doses.suffix(3).reversed().map(\.uuid))
        #expect(result.first?.1 == nil)
        #expect(query.objectType == HKObjectType.medicationDoseEventType())
    }

    @Test func aSampleQueryOverSeveralTypesMergesInOrderAndReportsEachSampleOnce() async throws {
        let (f, app, tylenol, _) = try await seeded()
        let first = try log(f, tylenol, hour: 1)
        let headache = HKCategorySample(
            type: HKCategoryType(.headache), value: HKCategoryValueSeverity.mild.rawValue, start: date(2026, 5, 1, 2),
            end: date(2026, 5, 1, 2))
        try await app.save(headache)
        let third = try log(f, tylenol, hour: 3)
        let doseType = HKObjectType.medicationDoseEventType()
        let calls = HandlerCalls<[UUID]>()
        let query = HKSampleQuery(
            queryDescriptors: [
                HKQueryDescriptor(sampleType: doseType, predicate: nil),
                HKQueryDescriptor(
                    sampleType: doseType, predicate: HKQuery.predicateForMedicationDoseEvent(status: .taken)),
                HKQueryDescriptor(sampleType: HKCategoryType(.headache), predicate: nil),
            ], limit: HKObjectQueryNoLimit,
            sortDescriptors: [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)]
        ) { _, samples, _ in calls.record(samples?.map(\.uuid) ?? []) }
        app.execute(query)
        #expect(await calls.wait(for: 1).first == [first.uuid, headache.uuid, third.uuid])
        #expect(query.objectType == nil)
    }

    @Test func badArgumentsComeBackThroughTheHandlerNamingWhatWasWrong() async throws {
        let (_, app, _, _) = try await seeded()
        let calls = HandlerCalls<String>()
        let badKey = HKSampleQuery(
            sampleType: HKCategoryType(.headache), predicate: nil, limit: 0,
            sortDescriptors: [NSSortDescriptor(key: "scheduledDate", ascending: true)]
        ) { _, samples, error in calls.record(samples == nil ? "\(error!)" : "results") }
        app.execute(badKey)
        let negative = HKUserAnnotatedMedicationQuery(predicate: nil, limit: -1) { _, _, done, error in
            calls.record(done ? "\(error.map { "\($0)" } ?? "done")" : "medication")
        }
        app.execute(negative)
        let messages = await calls.wait(for: 2)
        #expect(messages.contains { $0.contains("cannot sort") && $0.contains("scheduledDate") })
        #expect(messages.contains { $0.contains("limit must not be negative") })
        // A query runs once: executing it again says so.
        app.execute(badKey)
        #expect(await calls.wait(for: 3).last?.contains("already executed") == true)
    }

    @Test func theMedicationQueryReportsEachGrantedMedicationThenDone() async throws {
        let (_, app, tylenol, _) = try await seeded()
        let calls = HandlerCalls<(String?, Bool)>()
        let query = HKUserAnnotatedMedicationQuery(
            predicate: HKQuery.predicateForUserAnnotatedMedications(isArchived: false), limit: 0
        ) {
            _, medication, done, error in
            calls.record((medication?.medication.identifier.identifier, done && error == nil))
        }
        app.execute(query)
        let result = await calls.wait(for: 2)
        #expect(result.map(\.0) == [tylenol.identifier.identifier, nil])
        #expect(result.map(\.1) == [false, true])
    }

    @Test func anAnchoredQueryFollowsChangesUntilStopped() async throws {
        let (f, app, tylenol, cipro) = try await seeded()
        let before = try log(f, tylenol, hour: 1)
        typealias Call = (kind: String, added: [UUID], deleted: [UUID], anchor: HKQueryAnchor?)
        let calls = HandlerCalls<Call>()
        let query = HKAnchoredObjectQuery(
            type: HKObjectType.medicationDoseEventType(), predicate: nil, anchor: nil, limit: HKObjectQueryNoLimit
        ) { _, added, deleted, anchor, _ in
            calls.record(("results", added?.map(\.uuid) ?? [], deleted?.map(\.uuid) ?? [], anchor))
        }
        query.updateHandler = { _, added, deleted, anchor, _ in
            calls.record(("update", added?.map(\.uuid) ?? [], deleted?.map(\.uuid) ?? [], anchor))
        }
        app.execute(query)
        let first = await calls.wait(for: 1)
        #expect(first.first?.kind == "results" && first.first?.added == [before.uuid])
        _ = try log(f, cipro, hour: 2)  // withheld: wakes no one
        let added = try log(f, tylenol, hour: 3)
        var seen = await calls.wait(for: 2)
        #expect(seen.count == 2 && seen[1].kind == "update" && seen[1].added == [added.uuid])
        try f.editor.deleteDose(added)
        seen = await calls.wait(for: 3)
        #expect(seen.count == 3 && seen[2].deleted == [added.uuid] && seen[2].added.isEmpty)
        // Anchors move forward, and the last one resumes a later query where this one stopped.
        let anchors = seen.compactMap(\.anchor?.sequence)
        #expect(anchors == anchors.sorted() && Set(anchors).count == 3)
        app.stop(query)
        _ = try log(f, tylenol, hour: 4)
        try await Task.sleep(for: .milliseconds(400))
        #expect(calls.all.count == 3)
    }

    @Test func anAnchoredQueryWithoutAnUpdateHandlerEndsAfterItsResults() async throws {
        let (f, app, tylenol, _) = try await seeded()
        let dose = try log(f, tylenol, hour: 1)
        let calls = HandlerCalls<[UUID]>()
        let query = HKAnchoredObjectQuery(
            type: HKObjectType.medicationDoseEventType(), predicate: nil, anchor: nil, limit: 0
        ) { _, added, _, _, _ in calls.record(added?.map(\.uuid) ?? []) }
        app.execute(query)
        #expect(await calls.wait(for: 1) == [[dose.uuid]])
        _ = try log(f, tylenol, hour: 2)
        try await Task.sleep(for: .milliseconds(300))
        #expect(calls.all.count == 1)
    }

    @Test func anObserverQueryIsPacedByItsCompletionHandlerAndBlindToWithheldData() async throws {
        let (f, app, tylenol, cipro) = try await seeded()
        let completions = HandlerCalls<HKObserverQueryCompletionHandler>()
        let query = HKObserverQuery(sampleType: HKObjectType.medicationDoseEventType(), predicate: nil) {
            _, completion, error in
            if error == nil { completions.record(completion) }
        }
        app.execute(query)
        // Once when it starts.
        var calls = await completions.wait(for: 1)
        #expect(calls.count == 1)
        // Until the app says it is done, three new doses wait as one update.
        for hour in 1...3 { _ = try log(f, tylenol, hour: hour) }
        try await Task.sleep(for: .milliseconds(300))
        #expect(completions.all.count == 1)
        calls[0]()
        calls = await completions.wait(for: 2)
        #expect(calls.count == 2)
        calls[1]()
        // A dose of a medication the app may not read wakes nothing.
        _ = try log(f, cipro, hour: 5)
        try await Task.sleep(for: .milliseconds(400))
        #expect(completions.all.count == 2)
        // A deletion of a granted one does.
        let dose = try log(f, tylenol, hour: 6)
        calls = await completions.wait(for: 3)
        calls[2]()
        try f.editor.deleteDose(dose)
        calls = await completions.wait(for: 4)
        #expect(calls.count == 4)
        app.stop(query)
        calls[3]()
        _ = try log(f, tylenol, hour: 7)
        try await Task.sleep(for: .milliseconds(300))
        #expect(completions.all.count == 4)
    }

    @Test func completionHandlerFormsOfAuthorizationReportSuccessOrTheError() async throws {
        let (_, app, _, _) = try await seeded()
        let calls = HandlerCalls<(Bool, String?)>()
        app.requestAuthorization(toShare: [HKCategoryType(.nausea)], read: nil) { ok, error in
            calls.record((ok, error.map { "\($0)" }))
        }
        #expect(await calls.wait(for: 1).first?.0 == true)
        #expect(app.authorizationStatus(for: HKCategoryType(.nausea)) == .sharingAuthorized)
        app.requestAuthorization(toShare: nil, read: [HKObjectType.userAnnotatedMedicationType()]) { ok, error in
            calls.record((ok, error.map { "\($0)" }))
        }
        let second = await calls.wait(for: 2)
        #expect(second.count == 2 && second[1].0 == false)
        #expect(second.last?.1?.contains("per-object") == true)
        app.requestPerObjectReadAuthorization(for: HKCategoryType(.nausea), predicate: nil) { ok, error in
            calls.record((ok, error.map { "\($0)" }))
        }
        let third = await calls.wait(for: 3)
        #expect(third.count == 3 && third[2].0 == false)
    }
}
