import Testing

@testable import MedicationsSample
@testable import OpenHealthKit

/// Several processes on one store file: anchors archived by one process and used by another, the
/// sample app's chart following doses another process logs, and writers that race.
@Suite struct ProcessTests {
    func seeded() async throws -> (StoreFixture, HKHealthStore, HKMedicationConcept) {
        let f = try StoreFixture()
        let tylenol = f.concept("313782")
        for concept in [tylenol, f.concept("1665229")] { try await f.editor.addMedication(concept) }
        let app = try f.app()
        try await app.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)
        return (f, app, tylenol)
    }

    func parse(_ lines: [String]) -> (added: [UUID], deleted: [UUID], anchor: String?) {
        func uuids(_ prefix: String) -> [UUID] {
            lines.filter { $0.hasPrefix(prefix) }.compactMap { UUID(uuidString: String($0.dropFirst(prefix.count))) }
        }
        return (
            uuids("added "), uuids("deleted "), lines.first { $0.hasPrefix("anchor ") }.map { String($0.dropFirst(7)) }
        )
    }

    @Test func anchorArchivedInOneProcessContinuesInAnother() async throws {
        let (f, app, tylenol) = try await seeded()
        let doses = try f.editor.logDoses(
            (0..<5).map { .init(medication: tylenol.identifier, status: .taken, date: date(2026, 5, 1, 8 + $0)) })
        let first = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: nil).result(
            for: app)
        #expect(first.addedSamples.map(\.uuid) == doses.map(\.uuid))
        let archived = ChildProcess.hex(first.newAnchor.data)
        try f.editor.deleteDose(doses[0])
        let added = try f.editor.logDose(
            .init(
                medication: tylenol.identifier, status: .skipped, date: date(2026, 5, 2, 8),
                scheduledDate: date(2026, 5, 2, 8), scheduledQuantity: 1))
        // A new process (the app after a restart) continues from the archived anchor.
        let child = parse(try await ChildProcess.run(["changes", f.url.path, "com.example.app", archived]))
        #expect(child.added == [added.uuid])
        #expect(child.deleted == [doses[0].uuid])
        // Its anchor, brought back to this process, has nothing more to report.
        let childAnchor = try HKQueryAnchor(data: try HelperCommands.hexData(try #require(child.anchor)))
        let after = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: childAnchor)
            .result(for: app)
        #expect(after.addedSamples.isEmpty && after.deletedObjects.isEmpty)
        // From the beginning, a new process sees what is there now, and no deletions.
        let all = parse(try await ChildProcess.run(["changes", f.url.path, "com.example.app", "-"]))
        #expect(Set(all.added) == Set(doses.dropFirst().map(\.uuid) + [added.uuid]))
        #expect(all.deleted.isEmpty)
        // An app without access sees nothing, in any process.
        #expect(parse(try await ChildProcess.run(["changes", f.url.path, "com.example.stranger", "-"])).added.isEmpty)
    }

    @Test func chartFollowsDosesLoggedByAnotherProcess() async throws {
        let (f, app, tylenol) = try await seeded()
        let chart = DoseChartModel(healthStore: app)
        let now = Date()
        let (updates, continuation) = AsyncStream.makeStream(of: [Date: Int].self)
        let follower = Task {
            try await chart.follow(tylenol, from: now.addingTimeInterval(-86400), to: now.addingTimeInterval(86400)) {
                continuation.yield($0)
            }
        }
        defer { follower.cancel() }
        _ = try await firstElement(of: updates) { $0.isEmpty }  // the initial, empty chart
        let logged = try await ChildProcess.run(["log-dose", f.url.path, tylenol.identifier.identifier, "2"])
        #expect(logged.count == 2)
        let updated = try await firstElement(of: updates) { $0.values.reduce(0, +) == 2 }
        #expect(updated.values.reduce(0, +) == 2)
    }

    @Test func concurrentWritersNeverShareASequenceNumber() async throws {
        let (f, app, tylenol) = try await seeded()
        let children = try (0..<2).map { _ in
            try ChildProcess.start(["log-dose", f.url.path, tylenol.identifier.identifier, "60"])
        }
        var mine: [UUID] = []
        for i in 0..<60 {
            mine.append(
                try f.editor.logDose(
                    .init(
                        medication: tylenol.identifier, status: .taken,
                        date: date(2026, 5, 3).addingTimeInterval(Double(i)))
                ).uuid)
        }
        var lines: [String] = []
        for child in children { lines += try await ChildProcess.finish(child) }
        let theirs = lines.compactMap { UUID(uuidString: String($0.dropFirst("logged ".count))) }
        #expect(theirs.count == 120)
        let sequences = try f.editor.store.database.perform { context in
            try f.editor.store.database.fetch(HealthStoreModel.doseEvent, nil, in: context).map { int64($0, "seq") }
        }
        #expect(sequences.count == 180)
        #expect(Set(sequences).count == 180)
        // Paging in small batches meets every dose exactly once.
        var anchor: HKQueryAnchor? = nil
        var seen: [UUID] = []
        while true {
            let page = try await HKAnchoredObjectQueryDescriptor(
                predicates: [.medicationDoseEvent()], anchor: anchor, limit: 7
            ).result(for: app)
            if page.addedSamples.isEmpty && page.deletedObjects.isEmpty { break }
            seen += page.addedSamples.map(\.uuid)
            anchor = page.newAnchor
        }
        #expect(seen.count == 180)
        #expect(Set(seen) == Set(mine + theirs))
    }
}
