import Foundation
import OpenCoreData
import Testing

/// One test per lightweight-migration inference rule, plus the errors.
@Suite("Lightweight migration")
struct LightweightMigrationTests {
    static func planes() -> NSManagedObjectModel {
        MF.model([MF.entity("Aircraft", [MF.attr("tailNumber"), MF.attr("seats", .integer16AttributeType)])])
    }

    /// A V1 store with three aircraft, one with no seat count.
    static func planeStore() throws -> URL {
        let url = MF.url()
        try MF.create(planes(), at: url) { s in
            _ = s.insert("Aircraft", ["tailNumber": "N1", "seats": Int16(4)])
            _ = s.insert("Aircraft", ["tailNumber": "N2", "seats": Int16(2)])
            _ = s.insert("Aircraft", ["tailNumber": "N3"])
        }
        return url
    }

    @Test func addAttributeWithDefaultAndRemoveAttribute() throws {
        let url = try Self.planeStore()
        let v2 = MF.model([MF.entity("Aircraft", [MF.attr("tailNumber"), MF.attr("numPassengers", .integer32AttributeType, optional: false, default: Int32(1))])])
        let s = try MF.Opened(v2, url, options: MF.automatic)
        let rows = try s.fetch("Aircraft", sortedBy: "tailNumber")
        #expect(rows.map { $0.value(forKey: "tailNumber") as? String } == ["N1", "N2", "N3"])
        #expect(rows.map { $0.value(forKey: "numPassengers") as? Int32 } == [1, 1, 1])
        #expect(try !MF.columns(url, "ZAIRCRAFT").contains("ZSEATS"))
        #expect(try MF.metadata(url)[NSStoreModelVersionChecksumKey] as? String == v2.versionChecksum)
        _ = s.insert("Aircraft", ["tailNumber": "N4"])
        try s.save()
        #expect(try s.fetch("Aircraft").count == 4)
        try s.close()
    }

    @Test func renameThroughRenamingIdentifierChainsAcrossVersions() throws {
        let url = try Self.planeStore()
        // V2 renamed seats → capacity, V3 renamed it again → passengerSeats; both keep the original
        // name as their renaming identifier, so a V1 store goes straight to V3.
        let v3 = MF.model([MF.entity("Plane", [MF.attr("registration", rid: "tailNumber"),
                                               MF.attr("passengerSeats", .integer16AttributeType, rid: "seats")], rid: "Aircraft")])
        let s = try MF.Opened(v3, url, options: MF.automatic)
        let rows = try s.fetch("Plane", sortedBy: "registration")
        #expect(rows.map { $0.value(forKey: "registration") as? String } == ["N1", "N2", "N3"])
        #expect(rows.map { $0.value(forKey: "passengerSeats") as? Int16 } == [4, 2, nil])
        try s.close()
    }

    @Test func optionalToNonOptionalWithDefaultFillsNils() throws {
        let url = try Self.planeStore()
        let v2 = MF.model([MF.entity("Aircraft", [MF.attr("tailNumber", optional: false),
                                                  MF.attr("seats", .integer16AttributeType, optional: false, default: Int16(1))])])
        let s = try MF.Opened(v2, url, options: MF.automatic)
        #expect(try s.fetch("Aircraft", sortedBy: "tailNumber").map { $0.value(forKey: "seats") as? Int16 } == [4, 2, 1])
        try s.close()
        // And back to optional.
        let s2 = try MF.Opened(Self.planes(), url, options: MF.automatic)
        #expect(try s2.fetch("Aircraft").count == 3)
        try s2.close()
    }

    @Test func optionalToNonOptionalWithoutDefaultFailsOnNilsAndLeavesStore() throws {
        let url = try Self.planeStore()
        let v2 = MF.model([MF.entity("Aircraft", [MF.attr("tailNumber"), MF.attr("seats", .integer16AttributeType, optional: false)])])
        let error = #expect(throws: NSError.self) { try MF.Opened(v2, url, options: MF.automatic) }
        #expect(error?.code == NSValidationMissingMandatoryPropertyError)
        #expect(error?.localizedDescription.contains("Aircraft.seats") == true)
        let s = try MF.Opened(Self.planes(), url, options: [:])
        #expect(try s.fetch("Aircraft").count == 3)
        try s.close()
    }

    @Test func nonInferableChangeNamesTheFaultAndLeavesStoreUntouched() throws {
        let url = try Self.planeStore()
        let v2 = MF.model([MF.entity("Aircraft", [MF.attr("tailNumber", .integer64AttributeType), MF.attr("seats", .integer16AttributeType)])])
        #expect((try? NSMappingModel.inferredMappingModel(forSourceModel: Self.planes(), destinationModel: v2)) == nil)
        let before = try MF.dump(url)
        let error = #expect(throws: NSError.self) { try MF.Opened(v2, url, options: MF.automatic) }
        #expect(error?.code == NSPersistentStoreIncompatibleVersionHashError)
        #expect(error?.localizedDescription.contains("Aircraft.tailNumber changes type from String to Integer 64") == true)
        #expect(try MF.dump(url) == before)
        let s = try MF.Opened(Self.planes(), url, options: [:])
        #expect(try s.fetch("Aircraft").count == 3)
        try s.close()
    }

    @Test func changedModelWithoutOptionsIsAnError() throws {
        let url = try Self.planeStore()
        let v2 = MF.model([MF.entity("Aircraft", [MF.attr("tailNumber"), MF.attr("seats", .integer16AttributeType), MF.attr("color")])])
        let error = #expect(throws: NSError.self) { try MF.Opened(v2, url, options: [:]) }
        #expect(error?.code == NSPersistentStoreIncompatibleVersionHashError)
        #expect(error?.localizedDescription.contains("add Aircraft.color") == true)
        #expect(try MF.metadata(url)[NSStoreModelVersionChecksumKey] as? String == Self.planes().versionChecksum)
    }

    @Test func nonOptionalToOptionalAcceptsNils() throws {
        let url = MF.url()
        let v1 = MF.model([MF.entity("Aircraft", [MF.attr("tailNumber", optional: false), MF.attr("model", optional: false)])])
        try MF.create(v1, at: url) { s in _ = s.insert("Aircraft", ["tailNumber": "N1", "model": "C172"]) }
        let v2 = MF.model([MF.entity("Aircraft", [MF.attr("tailNumber", optional: false), MF.attr("model")])])
        let s = try MF.Opened(v2, url, options: MF.automatic)
        #expect(try s.fetch("Aircraft").first?.value(forKey: "model") as? String == "C172")
        _ = s.insert("Aircraft", ["tailNumber": "N2"])
        try s.save()
        #expect(try s.fetch("Aircraft", "model == nil").count == 1)
        try s.close()
        #expect(try MF.metadata(url)[NSStoreModelVersionChecksumKey] as? String == v2.versionChecksum)
    }

    @Test func migrateWithoutInferenceOptionIsAnErrorAndLeavesStore() throws {
        let url = try Self.planeStore()
        let before = try MF.dump(url)
        let v2 = MF.model([MF.entity("Aircraft", [MF.attr("tailNumber"), MF.attr("seats", .integer16AttributeType), MF.attr("color")])])
        let error = #expect(throws: NSError.self) {
            try MF.Opened(v2, url, options: [NSMigratePersistentStoresAutomaticallyOption: true])
        }
        #expect(error?.code == NSMigrationMissingMappingModelError)
        #expect(error?.localizedDescription.contains("NSInferMappingModelAutomaticallyOption") == true)
        #expect(try MF.dump(url) == before)
    }

    @Test func incompatibleChangeNamesEveryEntityAndProperty() throws {
        let url = try Self.logStore()
        let before = try MF.dump(url)
        // Two faults in two entities: LogEntry.hours changes type, Pilot.name becomes a relationship.
        let entry = MF.entity("LogEntry", [MF.attr("hours", .stringAttributeType)])
        let pilot = MF.entity("Pilot", [])
        MF.link(entry, NSRelationshipDescription(name: "pilot", destination: nil, toMany: false),
                pilot, NSRelationshipDescription(name: "entries", destination: nil, toMany: true))
        let other = MF.entity("Badge", [])
        MF.link(pilot, NSRelationshipDescription(name: "name", destination: nil, toMany: false),
                other, NSRelationshipDescription(name: "owner", destination: nil, toMany: false))
        let v2 = MF.model([entry, pilot, other])
        #expect((try? NSMappingModel.inferredMappingModel(forSourceModel: Self.logModel(), destinationModel: v2)) == nil)
        let error = #expect(throws: NSError.self) { try MF.Opened(v2, url, options: MF.automatic) }
        #expect(error?.code == NSPersistentStoreIncompatibleVersionHashError)
        let message = error?.localizedDescription ?? ""
        #expect(message.contains("LogEntry.hours changes type from Double to String"))
        #expect(message.contains("Pilot.name changes between an attribute and a relationship"))
        #expect((error?.userInfo["faults"] as? [String])?.count == 2)
        #expect(try MF.dump(url) == before)
        #expect(try MF.metadata(url)[NSStoreModelVersionChecksumKey] as? String == Self.logModel().versionChecksum)
    }

    @Test func inferredMappingModelDescribesTheChanges() throws {
        let v2 = MF.model([MF.entity("Aircraft", [MF.attr("registration", rid: "tailNumber")])])
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: Self.planes(), destinationModel: v2)
        #expect(mapping.entityMappings.count == 1)
        #expect(mapping.entityMappings[0].attributeMappings?.first?.valueExpression?.keyPath == "tailNumber")
        #expect(mapping.changeDescriptions.contains("rename Aircraft.tailNumber to Aircraft.registration"))
        #expect(mapping.changeDescriptions.contains("remove Aircraft.seats"))
    }

    // MARK: Relationships and entities

    static func logModel(toMany: Bool = false, ordered: Bool = false, pilotName: String = "Pilot", relationshipName: String = "pilot") -> NSManagedObjectModel {
        let entry = MF.entity("LogEntry", [MF.attr("hours", .doubleAttributeType)])
        let pilot = MF.entity(pilotName, [MF.attr("name")], rid: pilotName == "Pilot" ? nil : "Pilot")
        let forward = NSRelationshipDescription(name: relationshipName, destination: nil, toMany: toMany, ordered: ordered)
        if relationshipName != "pilot" { forward.renamingIdentifier = "pilot" }
        MF.link(entry, forward, pilot, NSRelationshipDescription(name: "entries", destination: nil, toMany: true))
        return MF.model([entry, pilot])
    }

    static func logStore() throws -> URL {
        let url = MF.url()
        try MF.create(logModel(), at: url) { s in
            let ann = s.insert("Pilot", ["name": "Ann"])
            let bob = s.insert("Pilot", ["name": "Bob"])
            for (hours, pilot) in [(1.0, ann), (2.0, ann), (3.0, bob), (4.0, nil)] {
                let entry = s.insert("LogEntry", ["hours": hours])
                if let pilot { s.context.performAndWait { entry.setValue(pilot, forKey: "pilot") } }
            }
        }
        return url
    }

    func pilots(_ s: MF.Opened, entity: String = "LogEntry", key: String = "pilot", pilotKey: String = "name") throws -> [String] {
        try s.context.performAndWait {
            try s.fetch(entity, sortedBy: "hours").map { entry in
                let value = entry.value(forKey: key)
                if let one = value as? NSManagedObject { return one.value(forKey: pilotKey) as? String ?? "?" }
                if let set = value as? NSSet { return set.allObjects.compactMap { ($0 as? NSManagedObject)?.value(forKey: pilotKey) as? String }.sorted().joined(separator: "+") }
                if let set = value as? NSOrderedSet { return set.array.compactMap { ($0 as? NSManagedObject)?.value(forKey: pilotKey) as? String }.joined(separator: "+") }
                return "-"
            }
        }
    }

    @Test func renameEntityAndRelationshipKeepsLinks() throws {
        let url = try Self.logStore()
        let s = try MF.Opened(Self.logModel(pilotName: "Aviator", relationshipName: "captain"), url, options: MF.automatic)
        #expect(try pilots(s, key: "captain") == ["Ann", "Ann", "Bob", "-"])
        let ann = try s.fetch("Aviator", "name == 'Ann'")
        #expect(ann.first?.mutableSetValue(forKey: "entries").count == 2)
        try s.close()
    }

    @Test func toOneBecomesToManyAndOrderedAndBack() throws {
        let url = try Self.logStore()
        let s = try MF.Opened(Self.logModel(toMany: true), url, options: MF.automatic)
        #expect(try pilots(s) == ["Ann", "Ann", "Bob", ""])
        try s.close()
        let s2 = try MF.Opened(Self.logModel(toMany: true, ordered: true), url, options: MF.automatic)
        #expect(try pilots(s2) == ["Ann", "Ann", "Bob", ""])
        try s2.close()
        let s3 = try MF.Opened(Self.logModel(toMany: true), url, options: MF.automatic)
        #expect(try pilots(s3) == ["Ann", "Ann", "Bob", ""])
        try s3.close()
    }

    @Test func addRelationshipBetweenExistingAndNewEntities() throws {
        let url = try Self.planeStore()
        let aircraft = MF.entity("Aircraft", [MF.attr("tailNumber"), MF.attr("seats", .integer16AttributeType)])
        let hangar = MF.entity("Hangar", [MF.attr("name")])
        MF.link(aircraft, NSRelationshipDescription(name: "hangar", destination: nil, toMany: false),
                hangar, NSRelationshipDescription(name: "aircraft", destination: nil, toMany: true))
        let s = try MF.Opened(MF.model([aircraft, hangar]), url, options: MF.automatic)
        let planes = try s.fetch("Aircraft", sortedBy: "tailNumber")
        #expect(planes.count == 3)
        #expect(s.context.performAndWait { planes.allSatisfy { $0.value(forKey: "hangar") == nil } })
        let h = s.insert("Hangar", ["name": "H1"])
        s.context.performAndWait { for plane in planes.prefix(2) { plane.setValue(h, forKey: "hangar") } }
        try s.save()
        #expect(try s.fetch("Aircraft", "hangar.name == 'H1'").count == 2)
        #expect(s.context.performAndWait { h.mutableSetValue(forKey: "aircraft").count } == 2)
        try s.close()
    }

    @Test func removeRelationshipKeepsBothEntities() throws {
        let url = try Self.logStore()
        let v2 = MF.model([MF.entity("LogEntry", [MF.attr("hours", .doubleAttributeType)]), MF.entity("Pilot", [MF.attr("name")])])
        let s = try MF.Opened(v2, url, options: MF.automatic)
        #expect(try s.fetch("LogEntry", sortedBy: "hours").map { $0.value(forKey: "hours") as? Double } == [1, 2, 3, 4])
        #expect(try s.fetch("Pilot", sortedBy: "name").map { $0.value(forKey: "name") as? String } == ["Ann", "Bob"])
        try s.close()
        #expect(try !MF.columns(url, "ZLOGENTRY").contains("ZPILOT"))
    }

    @Test func toManyToToOneIsNotInferable() throws {
        let url = MF.url()
        try MF.create(Self.logModel(toMany: true), at: url) { _ in }
        let error = #expect(throws: NSError.self) { try MF.Opened(Self.logModel(), url, options: MF.automatic) }
        #expect(error?.localizedDescription.contains("LogEntry.pilot changes from to-many to to-one") == true)
    }

    @Test func addAndRemoveEntitiesAndRelationships() throws {
        let url = try Self.logStore()
        // Remove Pilot (and the relationship), add Airport.
        let v2 = MF.model([MF.entity("LogEntry", [MF.attr("hours", .doubleAttributeType)]), MF.entity("Airport", [MF.attr("code")])])
        let s = try MF.Opened(v2, url, options: MF.automatic)
        #expect(try s.fetch("LogEntry").count == 4)
        _ = s.insert("Airport", ["code": "KSFO"])
        try s.save()
        #expect(try s.fetch("Airport").count == 1)
        try s.close()
        #expect(try MF.sql(url) { try $0.tableExists("ZPILOT") } == false)
    }

    // MARK: Hierarchies

    @Test func addParentEntityAndMovePropertyUp() throws {
        let url = try Self.planeStore()
        let vehicle = MF.entity("Vehicle", [MF.attr("tailNumber")], abstract: true)
        let aircraft = MF.entity("Aircraft", [MF.attr("seats", .integer16AttributeType)])
        let boat = MF.entity("Boat", [MF.attr("hull")])
        vehicle.subentities = [aircraft, boat]
        let v2 = MF.model([vehicle, aircraft, boat])
        let s = try MF.Opened(v2, url, options: MF.automatic)
        #expect(try s.fetch("Aircraft", sortedBy: "tailNumber").map { $0.value(forKey: "seats") as? Int16 } == [4, 2, nil])
        _ = s.insert("Boat", ["tailNumber": "B1", "hull": "steel"])
        try s.save()
        #expect(try s.fetch("Vehicle").count == 4)
        #expect(try s.fetch("Boat").count == 1)
        try s.close()
        // Removing the parent again splits the hierarchy: each child gets its own table.
        let a2 = MF.entity("Aircraft", [MF.attr("tailNumber"), MF.attr("seats", .integer16AttributeType)])
        let b2 = MF.entity("Boat", [MF.attr("tailNumber"), MF.attr("hull")])
        let s2 = try MF.Opened(MF.model([a2, b2]), url, options: MF.automatic)
        #expect(try s2.fetch("Aircraft", sortedBy: "tailNumber").map { $0.value(forKey: "tailNumber") as? String } == ["N1", "N2", "N3"])
        #expect(try s2.fetch("Boat").first?.value(forKey: "hull") as? String == "steel")
        try s2.close()
    }

    @Test func addChildEntityKeepsParentRows() throws {
        let url = try Self.planeStore()
        let aircraft = MF.entity("Aircraft", [MF.attr("tailNumber"), MF.attr("seats", .integer16AttributeType)])
        let glider = MF.entity("Glider", [MF.attr("wingspan", .doubleAttributeType)])
        aircraft.subentities = [glider]
        let s = try MF.Opened(MF.model([aircraft, glider]), url, options: MF.automatic)
        #expect(try s.fetch("Aircraft", sortedBy: "tailNumber").map { $0.value(forKey: "tailNumber") as? String } == ["N1", "N2", "N3"])
        _ = s.insert("Glider", ["tailNumber": "G1", "wingspan": 15.0])
        try s.save()
        #expect(try s.fetch("Aircraft").count == 4)
        let gliders = try s.fetch("Glider")
        #expect(gliders.count == 1)
        #expect(s.context.performAndWait { gliders.first?.value(forKey: "wingspan") as? Double } == 15.0)
        try s.close()
    }

    @Test func movePropertyDownToAChildEntity() throws {
        let url = MF.url()
        let vehicle = MF.entity("Vehicle", [MF.attr("name"), MF.attr("seats", .integer16AttributeType)])
        let aircraft = MF.entity("Aircraft", [MF.attr("tailNumber")])
        vehicle.subentities = [aircraft]
        try MF.create(MF.model([vehicle, aircraft]), at: url) { s in
            _ = s.insert("Aircraft", ["name": "Skyhawk", "tailNumber": "N1", "seats": Int16(4)])
            _ = s.insert("Vehicle", ["name": "Cart", "seats": Int16(2)])
        }
        let vehicle2 = MF.entity("Vehicle", [MF.attr("name")])
        let aircraft2 = MF.entity("Aircraft", [MF.attr("tailNumber"), MF.attr("seats", .integer16AttributeType)])
        vehicle2.subentities = [aircraft2]
        let s = try MF.Opened(MF.model([vehicle2, aircraft2]), url, options: MF.automatic)
        let planes = try s.fetch("Aircraft")
        #expect(s.context.performAndWait { planes.map { $0.value(forKey: "seats") as? Int16 } } == [4])
        #expect(s.context.performAndWait { planes.map { $0.value(forKey: "name") as? String } } == ["Skyhawk"])
        #expect(try s.fetch("Vehicle").count == 2)
        try s.close()
    }

    @Test func mergingTwoHierarchiesIsNotInferable() throws {
        let url = MF.url()
        try MF.create(MF.model([MF.entity("Car", [MF.attr("name")]), MF.entity("Boat", [MF.attr("name")])]), at: url) { _ in }
        let vehicle = MF.entity("Vehicle", [MF.attr("name")])
        let car = MF.entity("Car", [])
        let boat = MF.entity("Boat", [])
        vehicle.subentities = [car, boat]
        let error = #expect(throws: NSError.self) { try MF.Opened(MF.model([vehicle, car, boat]), url, options: MF.automatic) }
        #expect(error?.localizedDescription.contains("cannot merge") == true)
    }

    // MARK: Composites and indexes

    @Test func compositeElementsAddRemoveRename() throws {
        let url = MF.url()
        let v1 = MF.model([MF.entity("Aircraft", [MF.attr("tailNumber"), NSCompositeAttributeDescription(name: "colorScheme", elements: [
            MF.attr("primary"), MF.attr("secondary"), MF.attr("tertiary")])])])
        try MF.create(v1, at: url) { s in
            _ = s.insert("Aircraft", ["tailNumber": "N1", "colorScheme": ["primary": "red", "secondary": "white", "tertiary": "blue"]])
        }
        let v2 = MF.model([MF.entity("Aircraft", [MF.attr("tailNumber"), NSCompositeAttributeDescription(name: "colorScheme", elements: [
            MF.attr("main", rid: "primary"), MF.attr("secondary"), MF.attr("trim", default: "none")])])])
        let s = try MF.Opened(v2, url, options: MF.automatic)
        let scheme = try s.fetch("Aircraft").first?.value(forKey: "colorScheme") as? [String: Any]
        #expect(scheme?["main"] as? String == "red")
        #expect(scheme?["secondary"] as? String == "white")
        #expect(scheme?["trim"] as? String == "none")
        #expect(scheme?["tertiary"] == nil)
        #expect(try s.fetch("Aircraft", "colorScheme.main == 'red'").count == 1)
        try s.close()
    }

    @Test func addedIndexIsCreated() throws {
        let url = try Self.planeStore()
        let v2 = MF.model([MF.entity("Aircraft", [MF.attr("tailNumber", indexed: true), MF.attr("seats", .integer16AttributeType)])])
        v2.entities[0].versionHashModifier = "indexed"
        let s = try MF.Opened(v2, url, options: MF.automatic)
        try s.close()
        let indexes = try MF.sql(url) { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ZAIRCRAFT'") }
        #expect(indexes.contains("ZAIRCRAFT_TAILNUMBER_INDEX"))
    }

    @Test func progressReportsRowsCopied() throws {
        let url = try Self.logStore()
        let seen = Counter()
        var options = MF.automatic
        options[OrchardMigrationProgressHandlerOptionKey] = { @Sendable (p: MigrationProgress) in seen.add(p) }
        let s = try MF.Opened(Self.logModel(toMany: true), url, options: options)
        try s.close()
        #expect(seen.last?.stepsCompleted == 1)
        #expect((seen.last?.rowsCopied ?? 0) > 0)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [MigrationProgress] = []
    func add(_ p: MigrationProgress) { lock.withLock { values.append(p) } }
    var last: MigrationProgress? { lock.withLock { values.last } }
    var all: [MigrationProgress] { lock.withLock { values } }
}
