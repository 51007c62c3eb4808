import Foundation
import OpenCoreData
import Testing

@testable import OpenHealthKit

/// Replication between two copies of a person's store: a feed read in pages applies to another copy, twice as
/// safely as once; a deletion wins whichever way round it arrives; a page with one bad change is refused whole.
@Suite struct ReplicationTests {
    func copies() async throws -> (StoreFixture, StoreFixture, HKMedicationConcept) {
        let home = try StoreFixture()
        let away = try StoreFixture()
        let tylenol = home.concept("313782")
        try await home.editor.addMedication(tylenol)
        try await away.editor.addMedication(tylenol)
        return (home, away, tylenol)
    }

    func everything(_ editor: HKHealthAppEditor) throws -> HKHealthAppEditor.ReplicatedChanges {
        try editor.replicatedChanges(after: nil, limit: 100_000)
    }

    @Test func aFeedReadInPagesAppliesOnceHoweverOftenItIsApplied() async throws {
        let (home, away, tylenol) = try await copies()
        for i in 0..<25 {
            let at = date(2026, 5, 1).addingTimeInterval(Double(i) * 3600)
            try home.editor.logDose(
                .init(medication: tylenol.identifier, status: .taken, date: at, scheduledDate: at, scheduledQuantity: 1)
            )
        }
        let sample = HKCategorySample(
            type: HKCategoryType(.headache), value: HKCategoryValueSeverity.mild.rawValue, start: date(2026, 5, 1),
            end: date(2026, 5, 1), metadata: ["medication": "rxnorm:313782"])
        try await home.editor.store.save(sample)
        let undone = try home.editor.logDose(
            .init(medication: tylenol.identifier, status: .taken, date: date(2026, 5, 3)))
        try home.editor.deleteDose(undone)

        var anchor: Int64? = nil
        var pages = 0
        while true {
            let page = try home.editor.replicatedChanges(after: anchor, limit: 7)
            #expect(page.count - page.medications.count <= 7)
            try await away.editor.applyReplicatedChanges(page)
            let again = try await away.editor.applyReplicatedChanges(page)
            #expect(again.added == 0 && again.deleted == 0)
            anchor = page.anchor
            pages += 1
            if !page.hasMore { break }
        }
        #expect(pages == 4)  // 25 doses, one symptom and one deletion (the undone dose itself is gone): 27
        let there = try everything(away.editor)
        #expect(Set(there.doses.map(\.uuid)) == Set(try everything(home.editor).doses.map(\.uuid)))
        #expect(there.doses.count == 25 && !there.doses.contains { $0.uuid == undone.uuid })
        #expect(
            there.samples.map(\.uuid) == [sample.uuid] && there.samples[0].metadata?["medication"] == "rxnorm:313782")
        #expect(there.deletions.map(\.uuid) == [undone.uuid])
        // Nothing new after the last anchor.
        #expect(try home.editor.replicatedChanges(after: anchor, limit: 7).count == 0)
    }

    @Test func whatAPageWroteIsNotSentBackToWhereItCameFrom() async throws {
        let (home, away, tylenol) = try await copies()
        for day in 1...3 {
            try home.editor.logDose(.init(medication: tylenol.identifier, status: .taken, date: date(2026, 5, day)))
        }
        let awayBefore = try everything(away.editor).anchor
        let outcome = try await away.editor.applyReplicatedChanges(try everything(home.editor))
        #expect(outcome.added == 3)
        let written = try #require(outcome.sequences)
        #expect(written.count == 3 && written.lowerBound == awayBefore + 1)
        // A dose of its own after them: the feed away sends home leaves out what came from home, not its own dose.
        let own = try away.editor.logDose(.init(medication: tylenol.identifier, status: .taken, date: date(2026, 5, 4)))
        let back = try away.editor.replicatedChanges(after: awayBefore, excluding: [written])
        #expect(back.doses.map(\.uuid) == [own.uuid])
        #expect(back.anchor == written.upperBound + 1)
        // Only what came from home: an empty page whose anchor still moves past it.
        let echoOnly = try away.editor.replicatedChanges(after: awayBefore, limit: 3, excluding: [written])
        #expect(echoOnly.count == 0 && echoOnly.anchor == written.upperBound)
        // Applying the page again writes nothing, and says so.
        #expect(try await away.editor.applyReplicatedChanges(try everything(home.editor)).sequences == nil)
    }

    @Test func aDeletionWinsWhicheverWayRoundItArrives() async throws {
        let (home, away, tylenol) = try await copies()
        let dose = try home.editor.logDose(
            .init(medication: tylenol.identifier, status: .taken, date: date(2026, 5, 1)))
        let added = try home.editor.replicatedChanges(after: nil)
        try home.editor.deleteDose(dose)
        let deleted = try home.editor.replicatedChanges(after: added.anchor)
        #expect(deleted.deletions.map(\.uuid) == [dose.uuid] && deleted.doses.isEmpty)
        // The deletion first, then the addition it deleted: the dose never appears.
        let first = try await away.editor.applyReplicatedChanges(deleted)
        #expect(first.deleted == 1)
        let second = try await away.editor.applyReplicatedChanges(added)
        #expect(second.added == 0 && second.skipped == 1)
        #expect(try everything(away.editor).doses.isEmpty)
        // And the feed of the copy reports the deletion to its own readers, with the medication it was for.
        #expect(try everything(away.editor).deletions.first?.medication == tylenol.identifier.identifier)

        // A symptom there, deleted here: deleted there too.
        let sample = HKCategorySample(
            type: HKCategoryType(.nausea), value: HKCategoryValueSeverity.mild.rawValue, start: date(2026, 5, 2),
            end: date(2026, 5, 2))
        try await home.editor.store.save(sample)
        try await away.editor.applyReplicatedChanges(try home.editor.replicatedChanges(after: deleted.anchor))
        #expect(try everything(away.editor).samples.map(\.uuid) == [sample.uuid])
        let beforeDeletion = try home.editor.replicatedChanges(after: nil).anchor
        try await home.editor.store.delete(sample)
        let outcome = try await away.editor.applyReplicatedChanges(
            try home.editor.replicatedChanges(after: beforeDeletion))
        #expect(outcome.deleted == 1)
        #expect(try everything(away.editor).samples.isEmpty)
        #expect(
            try everything(away.editor).deletions.contains {
                $0.uuid == sample.uuid && $0.sampleType == HKCategoryTypeIdentifier.nausea.rawValue
            })
    }

    @Test func aPageWithOneBadChangeIsRefusedWhole() async throws {
        let (home, away, tylenol) = try await copies()
        try home.editor.logDose(.init(medication: tylenol.identifier, status: .taken, date: date(2026, 5, 1)))
        let good = try everything(home.editor)
        func refused(_ change: (inout HKHealthAppEditor.ReplicatedChanges) -> Void, _ words: String) async {
            var page = good
            change(&page)
            await #expect {
                try await away.editor.applyReplicatedChanges(page)
            } throws: { error in
                String(describing: error).contains(words)
            }
        }
        var bad = good.doses[0]
        bad.uuid = UUID()
        bad.status = 99
        await refused({ $0.doses.append(bad) }, "unknown log status 99")
        bad.status = HKMedicationDoseEvent.LogStatus.taken.rawValue
        bad.medication = "rxnorm:000000"
        await refused({ $0.doses.append(bad) }, "no medication rxnorm:000000")
        bad.medication = tylenol.identifier.identifier
        bad.doseQuantity = -1
        await refused({ $0.doses.append(bad) }, "doseQuantity -1")
        let symptom = HKHealthAppEditor.ReplicatedSample(
            uuid: UUID(), type: HKCategoryTypeIdentifier.headache.rawValue, value: 9, start: date(2026, 5, 1),
            end: date(2026, 5, 1), metadata: nil, sourceBundle: "x")
        await refused({ $0.samples.append(symptom) }, "is not a severity")
        var notSymptom = symptom
        notSymptom.value = 1
        notSymptom.type = "HKCategoryTypeIdentifierSleepAnalysis"
        await refused({ $0.samples.append(notSymptom) }, "is not a symptom type")
        var nameless = good.medications[0]
        nameless.identifier = "rxnorm:1"
        nameless.displayText = ""
        await refused({ $0.medications.append(nameless) }, "no identifier or name")
        let nothing = try everything(away.editor)
        #expect(nothing.doses.isEmpty && nothing.samples.isEmpty && nothing.medications.count == 1)
        #expect(try await away.editor.applyReplicatedChanges(good).added == 1)
    }

    @Test func aMedicationArrivesWithItsStateAndTheLaterEditWins() async throws {
        let home = try StoreFixture()
        let away = try StoreFixture()
        let tylenol = home.concept("313782")
        let schedule = try MedicationSchedule(frequency: .weekdays(Set(1...7)), times: [try .init(hour: 8)])
        try await home.editor.addMedication(tylenol, nickname: "Tylenol", schedule: schedule)
        let outcome = try await away.editor.applyReplicatedChanges(try everything(home.editor))
        #expect(outcome.medications == 1)
        let there = try #require(try await away.editor.store.medications(matching: nil, limit: nil).first)
        #expect(there.nickname == "Tylenol" && there.medication.identifier == tylenol.identifier)
        #expect(there.medication.relatedCodings == tylenol.relatedCodings)
        #expect(try away.editor.schedule(of: tylenol.identifier) == schedule)

        // Both rename it apart; the later rename (away's) wins on both, whichever way round the pages travel.
        let homeAnchor = try everything(home.editor).anchor
        let awayAnchor = try everything(away.editor).anchor
        try home.editor.updateMedication(tylenol.identifier, nickname: "Pain relief")
        try await Task.sleep(for: .milliseconds(5))
        try away.editor.updateMedication(tylenol.identifier, nickname: "Paracetamol", isArchived: true)
        let fromHome = try home.editor.replicatedChanges(after: homeAnchor)
        let fromAway = try away.editor.replicatedChanges(after: awayAnchor)
        #expect(try await away.editor.applyReplicatedChanges(fromHome).medications == 0)
        #expect(try await home.editor.applyReplicatedChanges(fromAway).medications == 1)
        for editor in [home.editor, away.editor] {
            let medication = try #require(try await editor.store.medications(matching: nil, limit: nil).first)
            #expect(medication.nickname == "Paracetamol" && medication.isArchived)
        }

    }
}

/// A health store written before medications had `modifiedAt` opens, migrated, with its data.
@Suite struct HealthStoreUpgradeTests {
    @Test func aStoreFromBeforeModifiedAtOpensAndKeepsItsMedications() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-old-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("Health.sqlite")
        // The first release's model: the current one without `modifiedAt`.
        let old = HealthStoreModel.make()
        let medication = try #require(old.entitiesByName[HealthStoreModel.medication])
        medication.properties = medication.properties.filter { $0.name != "modifiedAt" }
        do {
            let container = NSPersistentContainer(name: "Health", managedObjectModel: old)
            _ = try container.persistentStoreCoordinator.addPersistentStore(
                ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let record = NSEntityDescription.insertNewObject(
                    forEntityName: HealthStoreModel.medication, into: context)
                for (key, value) in [
                    "medicationConceptIdentifier": "rxnorm:313782", "displayText": "Acetaminophen 325 MG Oral Tablet",
                    "generalForm": "tablet", "nickname": "Tylenol", "isArchived": false, "hasSchedule": false,
                    "createdAt": date(2026, 1, 2), "seq": Int64(1),
                ] as [String: Any] {
                    record.setValue(value, forKey: key)
                }
                // The store's change counter, as every write of the first release advanced it.
                let counter = NSEntityDescription.insertNewObject(
                    forEntityName: HealthStoreModel.changeCounter, into: context)
                counter.setValue("seq", forKey: "name")
                counter.setValue(Int64(1), forKey: "value")
                try context.save()
            }
        }
        let editor = try HKHealthAppEditor(storeURL: url)
        let medications = try await editor.store.medications(matching: nil, limit: nil)
        #expect(medications.map(\.nickname) == ["Tylenol"])
        // Never changed since it was added: its creation counts as its last change.
        let page = try editor.replicatedChanges(after: nil)
        #expect(page.medications.first?.modifiedAt == date(2026, 1, 2))
        try editor.updateMedication(
            HKHealthConceptIdentifier(domain: .medication, identifier: "rxnorm:313782"), nickname: "Paracetamol")
        #expect(
            try editor.replicatedChanges(after: page.anchor).medications.first?.modifiedAt ?? .distantPast
                > date(2026, 1, 2))
    }
}
