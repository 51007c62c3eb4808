import Foundation
import OpenCoreData
import Testing

@Suite("Model")
struct ModelTests {
    @Test func versionHashesAreStableAndOrderIndependent() throws {
        let a = Fixtures.flightLogModel()
        let b = Fixtures.flightLogModel()
        b.entities = b.entities.reversed()
        for entity in b.entities { entity.properties = entity.properties.reversed() }
        #expect(a.versionChecksum == b.versionChecksum)
        #expect(Data(base64Encoded: a.versionChecksum)?.count == 32)
        #expect(a.entityVersionHashesByName == b.entityVersionHashesByName)
        let c = Fixtures.flightLogModel()
        (c.entitiesByName["Aircraft"]!.attributesByName["aircraftType"]!).isOptional = false
        #expect(c.versionChecksum != a.versionChecksum)
        #expect(c.entitiesByName["LogEntry"]!.versionHash == a.entitiesByName["LogEntry"]!.versionHash)
    }

    @Test func invalidCompositeElementIsRefused() throws {
        let model = Fixtures.flightLogModel()
        let bad = NSAttributeDescription(name: "id", type: .objectIDAttributeType)
        (model.entitiesByName["Aircraft"]!.attributesByName["colorScheme"] as! NSCompositeAttributeDescription).elements.append(bad)
        #expect {
            try model.validate()
        } throws: { error in
            (error as NSError).localizedDescription.contains("Unsupported attribute type for composite.")
                && (error as NSError).localizedDescription.contains("colorScheme.id")
        }
        #expect(throws: NSError.self) { _ = try Fixtures.container(model: model) }
    }

    @Test func nestedCompositesToAnyDepth() throws {
        let entity = NSEntityDescription(name: "Thing")
        let inner = NSCompositeAttributeDescription(name: "inner", elements: [NSAttributeDescription(name: "depth", type: .integer64AttributeType)])
        let middle = NSCompositeAttributeDescription(name: "middle", elements: [inner, NSAttributeDescription(name: "label", type: .stringAttributeType)])
        let outer = NSCompositeAttributeDescription(name: "outer", elements: [middle])
        entity.properties = [outer]
        let model = Fixtures.model([entity])
        let container = try Fixtures.container(model: model)
        let context = container.viewContext
        let thing = NSEntityDescription.insertNewObject(forEntityName: "Thing", into: context)
        thing.setValue(["middle": ["label": "m", "inner": ["depth": 3]]], forKey: "outer")
        try context.save()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Thing")
        request.predicate = NSPredicate(format: "outer.middle.inner.depth == 3")
        let found = try container.newBackgroundContext().fetch(request)
        #expect(found.count == 1)
        #expect(found.first?.value(forKeyPath: "outer.middle.label") as? String == "m")
    }

    @Test func loadsXcodeModelFiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = root.appendingPathComponent("Examples/AircraftLog/FlightLog.xcdatamodeld")
        let model = try NSManagedObjectModel.load(contentsOf: url)
        let aircraft = try #require(model.entitiesByName["Aircraft"])
        let scheme = try #require(aircraft.attributesByName["colorScheme"] as? NSCompositeAttributeDescription)
        #expect(scheme.elements.map(\.name) == ["primary", "secondary", "tertiary"])
        #expect(aircraft.relationshipsByName["logEntries"]?.inverseRelationship?.name == "aircraft")
        #expect(aircraft.relationshipsByName["logEntries"]?.deleteRule == .cascadeDeleteRule)
        #expect(aircraft.indexes.first?.elements.first?.propertyName == "colorScheme.primary")
        #expect(model.versionIdentifiers.contains("FlightLog"))
        #expect(NSManagedObjectModel(contentsOf: root.appendingPathComponent("nope.xcdatamodeld")) == nil)
        #expect(throws: NSError.self) { _ = try NSManagedObjectModel.load(contentsOf: root.appendingPathComponent("Package.swift")) }
    }

    @Test func inheritanceAndAbstractEntities() throws {
        let vehicle = NSEntityDescription(name: "Vehicle", properties: [NSAttributeDescription(name: "name", type: .stringAttributeType)], abstract: true)
        let plane = NSEntityDescription(name: "Plane", properties: [NSAttributeDescription(name: "wings", type: .integer16AttributeType)])
        let boat = NSEntityDescription(name: "Boat", properties: [NSAttributeDescription(name: "hulls", type: .integer16AttributeType)])
        vehicle.subentities = [plane, boat]
        let model = Fixtures.model([vehicle, plane, boat])
        let container = try Fixtures.container(model: model)
        let context = container.viewContext
        let p = NSEntityDescription.insertNewObject(forEntityName: "Plane", into: context)
        p.setValue("Spirit", forKey: "name")
        p.setValue(2, forKey: "wings")
        let b = NSEntityDescription.insertNewObject(forEntityName: "Boat", into: context)
        b.setValue("Nautilus", forKey: "name")
        try context.save()
        let all = NSFetchRequest<NSManagedObject>(entityName: "Vehicle")
        all.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        #expect(try container.newBackgroundContext().fetch(all).map { $0.entity.name ?? "" } == ["Boat", "Plane"])
        all.includesSubentities = false
        #expect(try container.newBackgroundContext().fetch(all).isEmpty)
        #expect(p.value(forKey: "wings") as? Int16 == 2)
    }
}
