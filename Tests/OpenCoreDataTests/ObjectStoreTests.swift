import Foundation
import OpenCoreData
import Testing

@Suite("Object store")
struct ObjectStoreTests {
    @Test func insertSaveFetchRoundTrip() throws {
        let url = Fixtures.temporaryStoreURL()
        do {
            let container = try Fixtures.container(url: url)
            let context = container.viewContext
            try context.performAndWait {
                let aircraft = Aircraft(context: context)
                aircraft.tailNumber = "N12345"
                aircraft.aircraftType = "C172"
                aircraft.colorScheme = ["primary": "red", "secondary": "white", "tertiary": "blue"]
                aircraft.photo = Data([1, 2, 3])
                #expect(aircraft.isInserted)
                #expect(aircraft.objectID.isTemporaryID)
                #expect(context.hasChanges)
                try context.save()
                #expect(!aircraft.objectID.isTemporaryID)
                #expect(!context.hasChanges)
            }
        }
        // A new container (new coordinator, new connections) reads back exactly what was saved.
        let reopened = try Fixtures.container(url: url)
        let results = try reopened.viewContext.fetch(Aircraft.fetchRequest())
        #expect(results.count == 1)
        let aircraft = try #require(results.first)
        #expect(aircraft.tailNumber == "N12345")
        #expect(aircraft.aircraftType == "C172")
        #expect(aircraft.aircraftClass == nil)
        #expect(aircraft.photo == Data([1, 2, 3]))
        let scheme = try #require(aircraft.colorScheme)
        #expect(scheme["primary"] as? String == "red")
        #expect(scheme["secondary"] as? String == "white")
        #expect(scheme["tertiary"] as? String == "blue")
        #expect(aircraft.objectID.uriRepresentation().absoluteString.hasPrefix("x-coredata://"))
        #expect(aircraft.objectID.uriRepresentation().absoluteString.hasSuffix("/Aircraft/p1"))
    }

    @Test func valueForKeyAndKeyPaths() throws {
        let container = try Fixtures.container(inMemory: true)
        let context = container.viewContext
        let aircraft = NSEntityDescription.insertNewObject(forEntityName: "Aircraft", into: context)
        #expect(aircraft is Aircraft)
        aircraft.setValue("N1", forKey: "tailNumber")
        aircraft.setValue(["primary": "gold"], forKey: "colorScheme")
        aircraft.setValue("black", forKeyPath: "colorScheme.secondary")
        #expect(aircraft.value(forKey: "tailNumber") as? String == "N1")
        #expect(aircraft.value(forKeyPath: "colorScheme.primary") as? String == "gold")
        #expect(aircraft.value(forKeyPath: "colorScheme.secondary") as? String == "black")
        let changed = aircraft.changedValues()
        #expect(changed.keys.contains("colorScheme"))
    }

    @Test func relationshipsKeepInverseConsistent() throws {
        let url = Fixtures.temporaryStoreURL()
        let container = try Fixtures.container(url: url)
        let context = container.viewContext
        let aircraft = Aircraft(context: context)
        aircraft.tailNumber = "N2"
        let entry = LogEntry(context: context)
        entry.hours = 1.5
        entry.aircraft = aircraft
        #expect((aircraft.logEntries as? Set<AnyHashable>)?.count == 1 || aircraft.logEntries?.count == 1)
        let pilot = Pilot(context: context)
        pilot.name = "Amelia"
        pilot.mutableSetValue(forKey: "logEntries").add(entry)
        #expect(entry.pilots?.count == 1)
        try context.save()

        let other = try Fixtures.container(url: url).viewContext
        let fetched = try other.fetch(Aircraft.fetchRequest())
        let entries = try #require(fetched.first?.logEntries)
        #expect(entries.count == 1)
        let fetchedEntry = try #require(entries.anyObject() as? LogEntry)
        #expect(fetchedEntry.hours == 1.5)
        #expect(fetchedEntry.aircraft === fetched.first)
        #expect((fetchedEntry.pilots?.anyObject() as? Pilot)?.name == "Amelia")

        // Moving the entry to another aircraft updates both old and new sides.
        let second = Aircraft(context: other)
        second.tailNumber = "N3"
        fetchedEntry.aircraft = second
        #expect(fetched.first?.logEntries?.count == 0)
        #expect(second.logEntries?.count == 1)
    }

    @Test func deleteRulesCascadeAndNullify() throws {
        let container = try Fixtures.container()
        let context = container.viewContext
        let aircraft = Aircraft(context: context)
        aircraft.tailNumber = "N4"
        let pilot = Pilot(context: context)
        for _ in 0..<3 {
            let entry = LogEntry(context: context)
            entry.aircraft = aircraft
            pilot.mutableSetValue(forKey: "logEntries").add(entry)
        }
        try context.save()
        context.delete(aircraft)
        #expect(aircraft.isDeleted)
        #expect(context.deletedObjects.count == 4) // cascade to the three entries
        #expect(pilot.logEntries?.count == 0) // nullified on the pilot's side
        try context.save()
        #expect(try context.count(for: NSFetchRequest<LogEntry>(entityName: "LogEntry")) == 0)
        #expect(try context.count(for: NSFetchRequest<Pilot>(entityName: "Pilot")) == 1)
    }

    @Test func validationNamesEntityAndProperty() throws {
        let container = try Fixtures.container(inMemory: true)
        let context = container.viewContext
        _ = Aircraft(context: context) // tailNumber is required
        #expect {
            try context.save()
        } throws: { error in
            let error = error as NSError
            return error.code == NSValidationMissingMandatoryPropertyError
                && error.localizedDescription.contains("Aircraft.tailNumber")
                && error.userInfo[NSValidationKeyErrorKey] as? String == "tailNumber"
        }
        #expect(context.hasChanges) // a failed save keeps the changes
    }

    @Test func compositeElementTypeIsValidated() throws {
        let container = try Fixtures.container(inMemory: true)
        let context = container.viewContext
        let aircraft = Aircraft(context: context)
        aircraft.tailNumber = "N5"
        aircraft.colorScheme = ["primary": 42, "bogus": "x"]
        #expect(throws: NSError.self) { try context.save() }
    }

    @Test func rollbackAndRefresh() throws {
        let container = try Fixtures.container(inMemory: true)
        let context = container.viewContext
        let aircraft = Aircraft(context: context)
        aircraft.tailNumber = "N6"
        try context.save()
        aircraft.tailNumber = "changed"
        #expect(aircraft.isUpdated)
        #expect(aircraft.changedValues()["tailNumber"] as? String == "changed")
        #expect(aircraft.committedValues(forKeys: ["tailNumber"])["tailNumber"] as? String == "N6")
        context.rollback()
        #expect(aircraft.tailNumber == "N6")
        #expect(!context.hasChanges)
        context.refresh(aircraft, mergeChanges: false)
        #expect(aircraft.isFault)
        #expect(aircraft.tailNumber == "N6") // fires the fault
        #expect(!aircraft.isFault)
    }

    @Test func existingObjectAndURIRoundTrip() throws {
        let container = try Fixtures.container()
        let context = container.viewContext
        let aircraft = Aircraft(context: context)
        aircraft.tailNumber = "N7"
        try context.save()
        let uri = aircraft.objectID.uriRepresentation()
        let id = try #require(container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uri))
        #expect(id == aircraft.objectID)
        let background = container.newBackgroundContext()
        try background.performAndWait {
            let copy = try background.existingObject(with: id) as? Aircraft
            #expect(copy?.tailNumber == "N7")
            #expect(copy !== aircraft)
        }
        let missing = NSManagedObjectID.self
        _ = missing
        context.delete(aircraft)
        try context.save()
        #expect(throws: NSError.self) { try background.performAndWait { try background.existingObject(with: id) } }
    }

    @Test func failedSaveHalfWayLeavesStoreUnchanged() throws {
        let model = Fixtures.flightLogModel()
        model.entitiesByName["Aircraft"]!.uniquenessConstraints = [["tailNumber"]]
        let url = Fixtures.temporaryStoreURL()
        let container = try Fixtures.container(model: model, url: url)
        let context = container.viewContext
        let first = Aircraft(context: context)
        first.tailNumber = "DUP"
        try context.save()
        // One good insert, then one that violates the constraint: nothing of the save may land.
        let good = Aircraft(context: context)
        good.tailNumber = "GOOD"
        let bad = Aircraft(context: context)
        bad.tailNumber = "DUP"
        #expect {
            try context.save()
        } throws: { ($0 as NSError).code == NSManagedObjectConstraintMergeError }
        #expect(good.objectID.isTemporaryID)
        let reader = try Fixtures.container(model: Fixtures.flightLogModel().withConstraint(), url: url).viewContext
        let tails = try reader.fetch(Aircraft.fetchRequest()).compactMap(\.tailNumber)
        #expect(tails == ["DUP"])
        // Fix the problem and save again: the same objects now save.
        bad.tailNumber = "OTHER"
        try context.save()
        #expect(try reader.count(for: Aircraft.fetchRequest()) == 3)
    }

    @Test func optimisticLockingConflictAndMergePolicies() throws {
        let url = Fixtures.temporaryStoreURL()
        let container = try Fixtures.container(url: url)
        let a = container.newBackgroundContext()
        let b = container.newBackgroundContext()
        let id: NSManagedObjectID = try a.performAndWait {
            let aircraft = Aircraft(context: a)
            aircraft.tailNumber = "N8"
            aircraft.aircraftType = "C152"
            try a.save()
            return aircraft.objectID
        }
        let inA = try a.performAndWait { try a.existingObject(with: id) as! Aircraft }
        let inB = try b.performAndWait { try b.existingObject(with: id) as! Aircraft }
        try b.performAndWait {
            inB.aircraftType = "PA28"
            try b.save()
        }
        a.performAndWait { inA.aircraftClass = "ASEL" }
        #expect {
            try a.performAndWait { try a.save() }
        } throws: { error in
            let error = error as NSError
            return error.code == NSManagedObjectMergeError && (error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])?.count == 1
        }
        a.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
        try a.performAndWait { try a.save() }
        let check = try Fixtures.container(url: url).viewContext.fetch(Aircraft.fetchRequest()).first
        #expect(check?.aircraftType == "PA28")   // the other context's change is kept
        #expect(check?.aircraftClass == "ASEL")  // and so is ours
    }

    @Test func didSaveNotificationMergesIntoOtherContexts() async throws {
        let container = try Fixtures.container()
        let view = container.viewContext
        let aircraft = Aircraft(context: view)
        aircraft.tailNumber = "N9"
        try view.save()
        let background = container.newBackgroundContext()
        try await background.perform {
            let copy = try background.existingObject(with: aircraft.objectID) as! Aircraft
            copy.aircraftType = "DA40"
            try background.save()
        }
        // viewContext merges automatically (automaticallyMergesChangesFromParent): wait for its queue.
        await view.perform {}
        #expect(aircraft.aircraftType == "DA40")
    }

    @Test func inMemoryStoreAndMetadata() throws {
        let container = try Fixtures.container(inMemory: true)
        let coordinator = container.persistentStoreCoordinator
        let store = try #require(coordinator.persistentStores.first)
        #expect(store.type == NSInMemoryStoreType)
        var metadata = coordinator.metadata(for: store)
        #expect(metadata[NSStoreModelVersionHashesKey] is [String: Data])
        metadata["custom"] = "value"
        coordinator.setMetadata(metadata, for: store)
        #expect(coordinator.metadata(for: store)["custom"] as? String == "value")
    }

    @Test func sqliteFileFollowsCoreDataLayout() throws {
        let url = Fixtures.temporaryStoreURL()
        let container = try Fixtures.container(url: url)
        let aircraft = Aircraft(context: container.viewContext)
        aircraft.tailNumber = "N10"
        aircraft.colorScheme = ["primary": "green"]
        try container.viewContext.save()
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        #expect(metadata[NSStoreModelVersionChecksumKey] as? String == container.managedObjectModel.versionChecksum)
    }
}

extension NSManagedObjectModel {
    func withConstraint() -> NSManagedObjectModel {
        entitiesByName["Aircraft"]!.uniquenessConstraints = [["tailNumber"]]
        return self
    }
}
