import Testing
@testable import OpenHealthKit

/// Anchored queries beyond one predicate: several predicates paged together, and the long-running
/// sequence working through a backlog in batches before it follows new changes.
@Suite struct AnchoredQueryTests {
    func seeded() async throws -> (StoreFixture, HKHealthStore, HKMedicationConcept) {
        let f = try StoreFixture()
        let tylenol = f.concept("313782")
        try await f.editor.addMedication(tylenol)
        let app = try f.app()
        try await app.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)
        try await app.requestAuthorization(toShare: [HKCategoryType(.headache)], read: [HKCategoryType(.headache)])
        return (f, app, tylenol)
    }

    @Test func severalPredicatesPageTogetherOnceEachWithinTheLimit() async throws {
        let (f, app, tylenol) = try await seeded()
        var doses: [HKMedicationDoseEvent] = []
        var symptoms: [HKCategorySample] = []
        for i in 0..<30 {
            let at = date(2026, 5, 1).addingTimeInterval(Double(i) * 3600)
            doses.append(try f.editor.logDose(.init(medication: tylenol.identifier, status: i % 2 == 0 ? .taken : .skipped, date: at,
                                                    scheduledDate: at, scheduledQuantity: 1)))
            if i % 3 == 0 {
                let sample = HKCategorySample(type: HKCategoryType(.headache), value: HKCategoryValueSeverity.mild.rawValue, start: at, end: at)
                try await app.save(sample)
                symptoms.append(sample)
            }
        }
        let doseType = HKObjectType.medicationDoseEventType()
        // The first two predicates overlap (every taken dose matches both).
        let predicates: [HKSamplePredicate<HKSample>] = [
            .sample(type: doseType, predicate: HKQuery.predicateForMedicationDoseEvent(status: .taken)),
            .sample(type: doseType, predicate: nil),
            .sample(type: HKCategoryType(.headache), predicate: nil),
        ]
        var anchor: HKQueryAnchor? = nil
        var seen: [UUID] = []
        var pages = 0
        while true {
            let page = try await HKAnchoredObjectQueryDescriptor(predicates: predicates, anchor: anchor, limit: 7).result(for: app)
            #expect(page.addedSamples.count + page.deletedObjects.count <= 7)
            anchor = page.newAnchor
            if page.addedSamples.isEmpty && page.deletedObjects.isEmpty { break }
            seen += page.addedSamples.map(\.uuid)
            pages += 1
        }
        #expect(seen.count == doses.count + symptoms.count)
        #expect(seen == (doses.map(\.uuid) + symptoms.map(\.uuid)).sorted { a, b in
            // Expected order: the order things were saved in (sequence order).
            let order = zip(doses, 0...).map { ($0.uuid, $1 * 2) } + zip(symptoms, 0...).map { ($0.uuid, $1 * 6 + 1) }
            let rank = Dictionary(uniqueKeysWithValues: order)
            return rank[a]! < rank[b]!
        })
        #expect(pages == 6)
        // Deletions of both types come through the same anchor.
        try f.editor.deleteDose(doses[3])
        try await app.delete(symptoms[2])
        let later = try await HKAnchoredObjectQueryDescriptor(predicates: predicates, anchor: anchor, limit: 7).result(for: app)
        #expect(later.deletedObjects.map(\.uuid) == [doses[3].uuid, symptoms[2].uuid])
        #expect(later.addedSamples.isEmpty)
    }

    @Test func resultsWorkThroughABacklogInBatchesThenFollow() async throws {
        let (f, app, tylenol) = try await seeded()
        let backlog = try f.editor.logDoses((0..<35).map { .init(medication: tylenol.identifier, status: .taken, date: date(2026, 5, 1).addingTimeInterval(Double($0) * 60)) })
        var iterator = HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: nil, limit: 10).results(for: app).makeAsyncIterator()
        var received: [UUID] = []
        for expected in [10, 10, 10, 5] {
            let batch = try #require(try await iterator.next())
            #expect(batch.addedSamples.count == expected)
            received += batch.addedSamples.map(\.uuid)
        }
        #expect(received == backlog.map(\.uuid))
        let fresh = try f.editor.logDose(.init(medication: tylenol.identifier, status: .taken, date: Date()))
        let next = try #require(try await iterator.next())
        #expect(next.addedSamples.map(\.uuid) == [fresh.uuid])
        // An edit arrives as a deletion and an addition in one element.
        let edited = try f.editor.editDose(fresh, doseQuantity: .some(2))
        let edit = try #require(try await iterator.next())
        #expect(edit.deletedObjects.map(\.uuid) == [fresh.uuid])
        #expect(edit.addedSamples.map(\.uuid) == [edited.uuid])
        #expect(edit.addedSamples.first?.doseQuantity == 2)
    }

    @Test func deletionsAndAdditionsPageInSequenceOrder() async throws {
        let (f, app, tylenol) = try await seeded()
        func log(_ n: Int, from start: Int) throws -> [HKMedicationDoseEvent] {
            try f.editor.logDoses((start..<start + n).map { .init(medication: tylenol.identifier, status: .taken, date: date(2026, 5, 1).addingTimeInterval(Double($0) * 60)) })
        }
        let first = try log(30, from: 0)
        let anchor = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: nil).result(for: app).newAnchor
        // Changes after the anchor: 20 deletions, 5 additions, 5 more deletions (one an addition of this batch).
        var expected: [String] = []
        for event in first.prefix(20) { try f.editor.deleteDose(event); expected.append("-\(event.uuid)") }
        let second = try log(5, from: 100)
        // second[0] is deleted again below: what no longer exists is reported deleted, never added.
        expected += second.dropFirst().map { "+\($0.uuid)" }
        for event in first[20..<24] + [second[0]] { try f.editor.deleteDose(event); expected.append("-\(event.uuid)") }
        for limit in [1, 3, 7, 100] {
            var cursor: HKQueryAnchor? = anchor
            var seen: [String] = []
            while true {
                let page = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: cursor, limit: limit).result(for: app)
                #expect(page.addedSamples.count + page.deletedObjects.count <= limit)
                if page.addedSamples.isEmpty && page.deletedObjects.isEmpty { break }
                // Within a page additions and deletions are separate lists; across pages the order holds.
                seen += page.deletedObjects.map { "-\($0.uuid)" } + page.addedSamples.map { "+\($0.uuid)" }
                cursor = page.newAnchor
            }
            #expect(Set(seen) == Set(expected), "limit \(limit)")
            #expect(seen.count == expected.count, "limit \(limit)")
            if limit == 1 { #expect(seen == expected) }
        }
    }
}
