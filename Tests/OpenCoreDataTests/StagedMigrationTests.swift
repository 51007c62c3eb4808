import Foundation
import OpenCoreData
import Testing
@testable import AircraftMigration

/// Staged migration: the seed's scenario, the errors, handler access, resumption, model references.
@Suite("Staged migration")
struct StagedMigrationTests {
    static func v(_ n: Int) -> NSManagedObjectModel {
        switch n {
        case 1: return v1ModelReference.resolvedModel
        case 2: return v2ModelReference.resolvedModel
        default: return v3ModelReference.resolvedModel
        }
    }

    static func load(_ url: URL, model: NSManagedObjectModel, stages: [NSMigrationStage], deferred: Bool = false) throws -> MF.Opened {
        var options: [AnyHashable: Any] = [NSPersistentStoreStagedMigrationManagerOptionKey: NSStagedMigrationManager(stages)]
        if deferred { options[NSPersistentStoreDeferredLightweightMigrationOptionKey] = true }
        return try MF.Opened(model, url, options: options)
    }

    @Test func seedScenarioKeepsEveryByteLinked() throws {
        let url = MF.url()
        let expected = try FlightDataScenario.makeV1Store(at: url, count: 120)
        guard let container = try loadMigratedContainer(path: url.path, myModel: Self.v(3), deferred: true) else {
            Issue.record("no container"); return
        }
        let coordinator = container.persistentStoreCoordinator
        let store = coordinator.persistentStores[0]
        #expect(coordinator.metadata(for: store)[NSPersistentStoreDeferredLightweightMigrationOptionKey] as? Bool == true)
        #expect(try MF.columns(url, "ZAIRCRAFT").contains("ZFLIGHTDATA"))
        let found = try FlightDataScenario.flightData(in: container)
        #expect(FlightDataScenario.problems(expected: expected, found: found, aircraftCount: 120) == [])
        try finishDeferred(coordinator: coordinator, store: store)
        #expect(coordinator.metadata(for: store)[NSPersistentStoreDeferredLightweightMigrationOptionKey] == nil)
        #expect(try !MF.columns(url, "ZAIRCRAFT").contains("ZFLIGHTDATA"))
        #expect(try MF.metadata(url)[NSStoreModelVersionChecksumKey] as? String == v3ModelChecksum)
        #expect(try MF.sql(url) { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        // The migrated store works as an ordinary V3 store.
        #expect(FlightDataScenario.problems(expected: expected, found: try FlightDataScenario.flightData(in: container), aircraftCount: 120) == [])
    }

    @Test func checksumsInTheExampleMatchTheModels() {
        #expect(Self.v(1).versionChecksum == v1ModelChecksum)
        #expect(Self.v(2).versionChecksum == v2ModelChecksum)
        #expect(Self.v(3).versionChecksum == v3ModelChecksum)
    }

    @Test func allFourReferenceInitializersResolveAndCheckTheirChecksum() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/AircraftMigration/Models/modelV2.xcdatamodel")
        let byModel = NSManagedObjectModelReference(model: Self.v(2), versionChecksum: v2ModelChecksum)
        let byFile = NSManagedObjectModelReference(fileURL: file, versionChecksum: v2ModelChecksum)
        let byName = NSManagedObjectModelReference(name: "modelV2", in: nil, versionChecksum: v2ModelChecksum)
        let byHashes = NSManagedObjectModelReference(entityVersionHashes: Self.v(2).entityVersionHashesByName, in: .main, versionChecksum: v2ModelChecksum)
        for reference in [byModel, byFile, byName, byHashes] {
            #expect(reference.resolvedModel.versionChecksum == v2ModelChecksum)
            #expect(reference.versionChecksum == v2ModelChecksum)
        }
        // A wrong checksum is reported when the migration uses the reference.
        let url = MF.url()
        _ = try FlightDataScenario.makeV1Store(at: url, count: 3)
        let wrong = NSCustomMigrationStage(migratingFrom: NSManagedObjectModelReference(model: Self.v(2), versionChecksum: v1ModelChecksum), to: v3ModelReference)
        let error = #expect(throws: NSError.self) {
            try Self.load(url, model: Self.v(3), stages: [NSLightweightMigrationStage([v1ModelChecksum]), wrong])
        }
        #expect(error?.localizedDescription.contains("does not match") == true)
        #expect(try MF.metadata(url)[NSStoreModelVersionChecksumKey] as? String == v1ModelChecksum)
    }

    @Test func duplicateChecksumsAreRejected() throws {
        let url = MF.url()
        _ = try FlightDataScenario.makeV1Store(at: url, count: 3)
        let error = #expect(throws: NSError.self) {
            try Self.load(url, model: Self.v(2), stages: [NSLightweightMigrationStage([v1ModelChecksum, v2ModelChecksum]), NSLightweightMigrationStage([v1ModelChecksum])])
        }
        #expect(error?.localizedDescription.contains("Duplicate version checksums across stages detected.") == true)
    }

    @Test func backwardMigrationIsRefused() throws {
        let url = MF.url()
        try MF.create(Self.v(3), at: url) { _ in }
        let error = #expect(throws: NSError.self) { try Self.load(url, model: Self.v(2), stages: makeMigrationStages()) }
        #expect(error?.code == NSStagedMigrationBackwardMigrationError)
        #expect(error?.localizedDescription.contains("A store file cannot be migrated backwards with staged migration.") == true)
    }

    @Test func unknownStoreVersionIsAnError() throws {
        let url = MF.url()
        try MF.create(LightweightMigrationTests.planes(), at: url) { _ in }
        let error = #expect(throws: NSError.self) { try Self.load(url, model: Self.v(3), stages: makeMigrationStages()) }
        #expect(error?.code == NSPersistentStoreIncompatibleVersionHashError)
        #expect(error?.localizedDescription.contains("is not one of the staged migration manager's versions") == true)
    }

    @Test func lightweightStagesThatCannotBeInferredAreAMissingMappingModel() throws {
        let url = MF.url()
        _ = try FlightDataScenario.makeV1Store(at: url, count: 3)
        let v2 = MF.model([MF.entity("Aircraft", [MF.attr("tailNumber", .integer64AttributeType)])])
        let error = #expect(throws: NSError.self) { try Self.load(url, model: v2, stages: [NSLightweightMigrationStage([v1ModelChecksum])]) }
        #expect(error?.code == NSMigrationMissingMappingModelError)
        #expect(error?.localizedDescription.contains("Aircraft.tailNumber changes type") == true)
    }

    @Test func handlersSeeTheStoreAtSourceThenDestinationModel() throws {
        let url = MF.url()
        _ = try FlightDataScenario.makeV1Store(at: url, count: 5)
        let stage = NSCustomMigrationStage(migratingFrom: v2ModelReference, to: v3ModelReference)
        let log = Log()
        stage.willMigrateHandler = { manager, current in
            let container = try #require(manager.container)
            log.add("will \(container.managedObjectModel.versionChecksum == v2ModelChecksum) \(current === stage)")
            let context = container.newBackgroundContext()
            let count = try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Aircraft")) }
            log.add("aircraft \(count)")
        }
        stage.didMigrateHandler = { manager, _ in
            let container = try #require(manager.container)
            log.add("did \(container.managedObjectModel.versionChecksum == v3ModelChecksum)")
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let plane = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Aircraft"))[0]
                let data = NSEntityDescription.insertNewObject(forEntityName: "FlightData", into: context)
                data.setValue(Data([1, 2, 3]), forKey: "data")
                data.setValue(plane, forKey: "aircraft")
                try context.save()
            }
        }
        let lightweight = NSLightweightMigrationStage([v1ModelChecksum])
        lightweight.label = "V1 to V2"
        let manager = NSStagedMigrationManager([lightweight, stage])
        let opened = try MF.Opened(Self.v(3), url, options: [NSPersistentStoreStagedMigrationManagerOptionKey: manager])
        #expect(log.lines == ["will true true", "aircraft 5", "did true"])
        #expect(manager.container == nil)
        #expect(manager.progress.completedUnitCount == 2)
        #expect(try opened.fetch("FlightData").count == 1)
        try opened.close()
    }

    @Test func failureInsideAHandlerResumesOnTheNextLoad() throws {
        let url = MF.url()
        let expected = try FlightDataScenario.makeV1Store(at: url, count: 40)
        let stages = makeMigrationStages()
        let custom = stages[1] as! NSCustomMigrationStage
        let real = custom.willMigrateHandler!
        custom.willMigrateHandler = { _, _ in throw NSError(domain: "test", code: 7, userInfo: [NSLocalizedDescriptionKey: "handler failed"]) }
        let error = #expect(throws: NSError.self) { try Self.load(url, model: Self.v(3), stages: stages) }
        #expect(error?.code == 7)
        // The lightweight stage finished; the store waits at V2.
        #expect(try MF.metadata(url)[NSStoreModelVersionChecksumKey] as? String == v2ModelChecksum)
        custom.willMigrateHandler = real
        let opened = try Self.load(url, model: Self.v(3), stages: stages)
        try opened.close()
        guard let container = NSPersistentContainer(path: url.path, managedObjectModel: Self.v(3)) else { return }
        container.loadPersistentStores { _, error in #expect(error == nil) }
        #expect(FlightDataScenario.problems(expected: expected, found: try FlightDataScenario.flightData(in: container), aircraftCount: 40) == [])
    }

    @Test func failureInsideADidMigrateHandlerRunsItAgainOnTheNextLoad() throws {
        let url = MF.url()
        let expected = try FlightDataScenario.makeV1Store(at: url, count: 30)
        let stages = makeMigrationStages()
        let custom = stages[1] as! NSCustomMigrationStage
        let attempts = Log()
        custom.didMigrateHandler = { manager, _ in
            let container = try #require(manager.container)
            attempts.add("did")
            let context = container.newBackgroundContext()
            let linked = try context.performAndWait {
                try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "FlightData"))
            }
            attempts.add("flight data \(linked)")
            if attempts.lines.count == 2 { throw NSError(domain: "test", code: 8, userInfo: [NSLocalizedDescriptionKey: "didMigrate failed"]) }
        }
        let error = #expect(throws: NSError.self) { try Self.load(url, model: Self.v(3), stages: stages) }
        #expect(error?.code == 8)
        // The schema change committed: the store is at V3, with the handler still owed.
        #expect(try MF.metadata(url)[NSStoreModelVersionChecksumKey] as? String == v3ModelChecksum)
        let opened = try Self.load(url, model: Self.v(3), stages: stages)
        try opened.close()
        #expect(attempts.lines == ["did", "flight data \(expected.count)", "did", "flight data \(expected.count)"])
        // Once it succeeded, another load runs nothing.
        let again = try Self.load(url, model: Self.v(3), stages: stages)
        try again.close()
        #expect(attempts.lines.count == 4)
        guard let container = NSPersistentContainer(path: url.path, managedObjectModel: Self.v(3)) else { return }
        container.loadPersistentStores { _, error in #expect(error == nil) }
        #expect(FlightDataScenario.problems(expected: expected, found: try FlightDataScenario.flightData(in: container), aircraftCount: 30) == [])
    }

    @Test func renamesChainAcrossStagedVersions() throws {
        // V1 tailNumber → V2 registration → V3 callSign: each version names only the one before it.
        let v1 = MF.model([MF.entity("Aircraft", [MF.attr("tailNumber"), MF.attr("seats", .integer16AttributeType)])])
        let v2 = MF.model([MF.entity("Aircraft", [MF.attr("registration", rid: "tailNumber"), MF.attr("seats", .integer16AttributeType)])])
        let v3 = MF.model([MF.entity("Plane", [MF.attr("callSign", rid: "registration"), MF.attr("capacity", .integer16AttributeType, rid: "seats")], rid: "Aircraft")])
        let url = MF.url()
        try MF.create(v1, at: url) { s in
            _ = s.insert("Aircraft", ["tailNumber": "N1", "seats": Int16(4)])
            _ = s.insert("Aircraft", ["tailNumber": "N2", "seats": Int16(2)])
        }
        let stages: [NSMigrationStage] = [
            NSLightweightMigrationStage([v1.versionChecksum]),
            NSCustomMigrationStage(migratingFrom: NSManagedObjectModelReference(model: v2, versionChecksum: v2.versionChecksum),
                                   to: NSManagedObjectModelReference(model: v3, versionChecksum: v3.versionChecksum)),
        ]
        let s = try Self.load(url, model: v3, stages: stages)
        let planes = try s.fetch("Plane", sortedBy: "callSign")
        #expect(s.context.performAndWait { planes.map { $0.value(forKey: "callSign") as? String } } == ["N1", "N2"])
        #expect(s.context.performAndWait { planes.map { $0.value(forKey: "capacity") as? Int16 } } == [4, 2])
        try s.close()
    }

    @Test func progressReportsEachStageWithItsLabel() throws {
        let url = MF.url()
        _ = try FlightDataScenario.makeV1Store(at: url, count: 10)
        let seen = Counter()
        let manager = NSStagedMigrationManager(makeMigrationStages())
        let options: [AnyHashable: Any] = [NSPersistentStoreStagedMigrationManagerOptionKey: manager,
                                           OrchardMigrationProgressHandlerOptionKey: { @Sendable (p: MigrationProgress) in seen.add(p) }]
        let opened = try MF.Opened(Self.v(3), url, options: options)
        try opened.close()
        let all = seen.all
        #expect(all.first?.stepsCompleted == 0)
        #expect(all.allSatisfy { $0.stepCount == 2 })
        #expect(all.map(\.stepsCompleted) == all.map(\.stepsCompleted).sorted())
        #expect(all.last?.stepsCompleted == 2)
        #expect(all.contains { $0.label == "V1 to V2: Add flightData attribute" })
        #expect(all.contains { $0.label == "V2 to V3: Denormalize model with FlightData entity" })
        #expect(manager.progress.totalUnitCount == 2)
        #expect(manager.progress.completedUnitCount == 2)
        #expect(manager.progress.fractionCompleted == 1)
    }

    @Test func deferredCleanupFinishesInALaterProcessOneTaskAtATime() throws {
        let url = try LightweightMigrationTests.planeStore()
        let v2 = MF.model([MF.entity("Aircraft", [MF.attr("tailNumber")]), MF.entity("Hangar", [MF.attr("name")])])
        var options = MF.automatic
        options[NSPersistentStoreDeferredLightweightMigrationOptionKey] = true
        let s = try MF.Opened(v2, url, options: options)
        #expect(s.coordinator.metadata(for: s.store)[NSPersistentStoreDeferredLightweightMigrationOptionKey] as? Bool == true)
        #expect(try MF.columns(url, "ZAIRCRAFT").contains("ZSEATS"))
        _ = s.insert("Aircraft", ["tailNumber": "N9"])
        try s.save()
        try s.close()
        // Later: a new coordinator (as a new process would) finishes the work.
        let later = try MF.Opened(v2, url, options: [:])
        #expect(later.coordinator.metadata(for: later.store)[NSPersistentStoreDeferredLightweightMigrationOptionKey] as? Bool == true)
        try later.coordinator.finishDeferredLightweightMigrationTask()
        try later.coordinator.finishDeferredLightweightMigration()
        #expect(later.coordinator.metadata(for: later.store)[NSPersistentStoreDeferredLightweightMigrationOptionKey] == nil)
        #expect(try MF.metadata(url)[NSPersistentStoreDeferredLightweightMigrationOptionKey] == nil)
        #expect(try !MF.columns(url, "ZAIRCRAFT").contains("ZSEATS"))
        #expect(try later.fetch("Aircraft").count == 4)
        try later.close()
        #expect(try MF.sql(url) { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
    }
}

final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func add(_ line: String) { lock.withLock { storage.append(line) } }
    var lines: [String] { lock.withLock { storage } }
}
