import Foundation
import GRDB
import OpenCoreData
import Testing

/// Every way a store or a fault can fail says so, names what failed, and changes nothing it shouldn't.
@Suite("No silent failures")
struct NoSilentFailureTests {
    /// A model with one entity whose attributes have defaults, so a made-up object would show them.
    private func counterModel() -> NSManagedObjectModel {
        let counter = NSEntityDescription(name: "Counter")
        counter.properties = [
            NSAttributeDescription(name: "name", type: .stringAttributeType, defaultValue: "unnamed"),
            NSAttributeDescription(
                name: "count", type: .integer64AttributeType, optional: false, defaultValue: Int64(7)),
        ]
        return Fixtures.model([counter])
    }

    private func savedCounter(at url: URL) throws -> (NSPersistentContainer, NSManagedObjectID) {
        let container = try Fixtures.container(model: counterModel(), url: url)
        let counter = NSEntityDescription.insertNewObject(forEntityName: "Counter", into: container.viewContext)
        counter.setValue("steps", forKey: "name")
        counter.setValue(Int64(42), forKey: "count")
        try container.viewContext.save()
        return (container, counter.objectID)
    }

    @Test func aFaultWhoseRowIsGoneIsDeletedWithNilValuesNotDefaults() throws {
        let url = Fixtures.temporaryStoreURL()
        let (writer, id) = try savedCounter(at: url)
        let reader = try Fixtures.container(model: counterModel(), url: url).viewContext
        let fault = reader.object(with: id)
        #expect(fault.isFault)
        writer.viewContext.delete(try writer.viewContext.existingObject(with: id))
        try writer.viewContext.save()
        #expect(fault.value(forKey: "name") == nil)
        #expect(fault.value(forKey: "count") == nil)
        #expect(fault.isDeleted)
        #expect(reader.shouldDeleteInaccessibleFaults)
    }

    @Test func withoutShouldDeleteInaccessibleFaultsAGoneRowStopsTheProcessNamingTheObject() async throws {
        let url = Fixtures.temporaryStoreURL()
        let error = await #expect(throws: NSError.self) { try await runProbe("strict-fault", url) }
        let message = error.map { "\($0.userInfo[NSLocalizedDescriptionKey] ?? "")" } ?? ""
        #expect(message.contains("CoreData could not fulfill a fault for 'x-coredata://"))
        #expect(message.contains("its row is gone"))
    }

    @Test func aRowWithAnUnknownEntityNumberIsReportedNotSkipped() throws {
        let url = Fixtures.temporaryStoreURL()
        let (_, id) = try savedCounter(at: url)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: "UPDATE ZCOUNTER SET Z_ENT = 99") }
        try queue.close()
        let context = try Fixtures.container(model: counterModel(), url: url).viewContext
        let error = #expect(throws: NSError.self) { try context.existingObject(with: id) }
        let message = error?.localizedDescription ?? ""
        #expect(message.contains("Row Z_PK=1 of ZCOUNTER has Z_ENT 99"))
    }

    @Test func metadataSetOnAStoreIsWrittenWithTheNextSave() throws {
        let url = Fixtures.temporaryStoreURL()
        let (container, _) = try savedCounter(at: url)
        let coordinator = container.persistentStoreCoordinator
        let store = try #require(coordinator.persistentStores.first)
        var metadata = coordinator.metadata(for: store)
        metadata["com.example.lastSync"] = "2026-11-25"
        coordinator.setMetadata(metadata, for: store)
        func onDisk() throws -> String? {
            try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)[
                "com.example.lastSync"]
                as? String
        }
        #expect(try onDisk() == nil)
        let counter = try container.viewContext.existingObject(
            with: try #require(
                try container.viewContext.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter")).first?.objectID)
        )
        counter.setValue(Int64(43), forKey: "count")
        try container.viewContext.save()
        #expect(try onDisk() == "2026-11-25")
    }

    @Test func aSQLiteFileThatIsNoCoreDataStoreIsRefusedAndLeftAlone() throws {
        let url = Fixtures.temporaryStoreURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)") }
        try queue.close()
        let error = #expect(throws: NSError.self) { try Fixtures.container(model: counterModel(), url: url) }
        #expect(error?.code == NSFileReadCorruptFileError)
        #expect(error?.localizedDescription.contains("not a Core Data store") == true)
        let tables = try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(tables == ["notes"])
    }

    @Test func aPragmaOptionThatIsNoPragmaNameIsAnError() throws {
        let container = NSPersistentContainer(name: "Counter", managedObjectModel: counterModel())
        let description = NSPersistentStoreDescription(url: Fixtures.temporaryStoreURL())
        description.setOption(["journal_mode; DROP TABLE x": "WAL"] as NSDictionary, forKey: NSSQLitePragmasOption)
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        let message = loadError.map { ($0 as NSError).localizedDescription } ?? ""
        #expect(message.contains("is not a pragma name"))
    }

    @Test func aStoreWithNoModelVersionIsAnErrorNamingTheFile() throws {
        let url = Fixtures.temporaryStoreURL()
        _ = try savedCounter(at: url)
        var metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        metadata[NSStoreModelVersionHashesKey] = nil
        metadata[NSStoreModelVersionChecksumKey] = nil
        try NSPersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: NSSQLiteStoreType, at: url)
        let error = #expect(throws: NSError.self) { try Fixtures.container(model: counterModel(), url: url) }
        #expect(error?.code == NSPersistentStoreIncompatibleVersionHashError)
        #expect(error?.localizedDescription.contains(url.path) == true)
    }

    @Test func appleCoreDatasOwnModelCacheIsLeftAsItIs() throws {
        let url = Fixtures.temporaryStoreURL()
        _ = try savedCounter(at: url)
        // Apple's shape: one Z_CONTENT column holding DEFLATE'd archive bytes (here, bytes Orchard can't read).
        let apple = Data([0x63, 0x60, 0x00, 0x02, 0x00, 0xFF])
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: "DROP TABLE Z_MODELCACHE")
            try db.execute(sql: "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
            try db.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [apple])
        }
        try queue.close()
        let context = try Fixtures.container(model: counterModel(), url: url).viewContext
        #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Counter")) == 1)
        let kept = try DatabaseQueue(path: url.path).read { db in
            try Data.fetchAll(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE")
        }
        #expect(kept == [apple])
    }

    @Test func aStoreWrittenWithOrchardsEarlierHashesOpensAndTakesApplesFormat() throws {
        let url = Fixtures.temporaryStoreURL()
        _ = try savedCounter(at: url)
        // What a store from before Apple's hash format looks like: another checksum, recorded both in the
        // metadata and beside the cached model.
        let old = "orchard-model-hash-v1-checksum"
        var metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        metadata[NSStoreModelVersionChecksumKey] = old
        metadata[NSStoreModelVersionHashesKey] = ["Counter": Data(repeating: 1, count: 32)]
        try NSPersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: NSSQLiteStoreType, at: url)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: "UPDATE Z_MODELCACHE SET Z_CHECKSUM = ?", arguments: [old]) }
        try queue.close()
        let container = try Fixtures.container(model: counterModel(), url: url)
        let counters = try container.viewContext.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter"))
        #expect(counters.map { $0.value(forKey: "count") as? Int64 } == [42])
        let now = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(now[NSStoreModelVersionChecksumKey] as? String == counterModel().versionChecksum)
    }

    @Test func aCompositeWithNoElementsIsAccepted() throws {
        let thing = NSEntityDescription(name: "Thing")
        thing.properties = [NSCompositeAttributeDescription(name: "extra", elements: [])]
        let container = try Fixtures.container(model: Fixtures.model([thing]), url: Fixtures.temporaryStoreURL())
        let object = NSEntityDescription.insertNewObject(forEntityName: "Thing", into: container.viewContext)
        object.setValue([String: Any](), forKey: "extra")
        try container.viewContext.save()
        #expect(try container.viewContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "Thing")) == 1)
    }

    @Test func errorCodesAreApples() {
        #expect(NSPersistentStoreOpenError == 134080)
        #expect(NSSQLiteError == 134180)
        #expect(NSInferredMappingModelError == 134190)
        #expect(NSMigrationMissingSourceModelError == 134130)
        #expect(NSStagedMigrationFrameworkVersionMismatchError == 134504)
        #expect(NSStagedMigrationBackwardMigrationError == 134505)
        #expect(NSValidationInvalidURIError == 1690)
    }
}

/// Found while adding the predicate grammar (issue 27): two more places that used to fail in silence.
@Suite struct MoreSilentFailureTests {
    /// A MATCHES pattern that is not a regular expression fails the SQL fetch naming it (it used to match
    /// nothing), as evaluating the same predicate in memory does.
    @Test func anInvalidPatternFailsTheFetch() throws {
        let container = try Fixtures.container()
        let context = container.viewContext
        let aircraft = Aircraft(context: context)
        aircraft.tailNumber = "N1"
        try context.save()
        let request = Aircraft.fetchRequest()
        request.predicate = NSPredicate(format: "tailNumber MATCHES %@", "N(")
        let error = #expect(throws: (any Error).self) { try context.fetch(request) }
        #expect("\(String(describing: error))".contains("invalid pattern 'N('"))
        #expect(throws: NSPredicateEvaluationError.self) {
            try NSPredicate.parse(format: "tailNumber MATCHES 'N('").evaluateThrowing(with: ["tailNumber": "N1"])
        }
    }

    /// setPrimitiveValue(_:forKey:) with a key the entity lacks stops the process, as Apple's raise does (it used
    /// to drop the value).
    @Test func aPrimitiveValueForAnUnknownKeyStops() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try Fixtures.container(inMemory: true)
            let entity = try #require(container.managedObjectModel.entitiesByName["Aircraft"])
            let aircraft = NSManagedObject(entity: entity, insertInto: container.viewContext)
            aircraft.setPrimitiveValue("x", forKey: "nosuchkey")
        }.map { result in
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("not key value coding-compliant for the key \"nosuchkey\""))
        }
    }
}
