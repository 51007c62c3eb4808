import Foundation
import OpenCoreData

/// The seed's flight-log model: Aircraft with the colorScheme composite, LogEntry, Pilot.
final class Aircraft: NSManagedObject {
    @Managed var aircraftCategory: String?
    @Managed var aircraftClass: String?
    @Managed var aircraftType: String?
    @Managed var colorScheme: [String: Any]?
    @Managed var photo: Data?
    @Managed var tailNumber: String?
    @Managed var logEntries: NSSet?
}

extension Aircraft {
    @nonobjc public class func fetchRequest() -> NSFetchRequest<Aircraft> {
        return NSFetchRequest<Aircraft>(entityName: "Aircraft")
    }
}

final class LogEntry: NSManagedObject {
    @Managed var date: Date?
    @Managed var hours: Double
    @Managed var landings: Int16
    @Managed var aircraft: Aircraft?
    @Managed var pilots: NSSet?
}

final class Pilot: NSManagedObject {
    @Managed var name: String?
    @Managed var logEntries: NSSet?
}

enum Fixtures {
    static func flightLogModel() -> NSManagedObjectModel {
        let aircraft = NSEntityDescription(name: "Aircraft")
        aircraft.managedObjectClassName = NSStringFromClass(Aircraft.self)
        let colorScheme = NSCompositeAttributeDescription(name: "colorScheme", elements: [
            NSAttributeDescription(name: "primary", type: .stringAttributeType),
            NSAttributeDescription(name: "secondary", type: .stringAttributeType),
            NSAttributeDescription(name: "tertiary", type: .stringAttributeType),
        ])
        let logEntry = NSEntityDescription(name: "LogEntry")
        logEntry.managedObjectClassName = NSStringFromClass(LogEntry.self)
        let pilot = NSEntityDescription(name: "Pilot")
        pilot.managedObjectClassName = NSStringFromClass(Pilot.self)

        let logEntries = NSRelationshipDescription(name: "logEntries", destination: logEntry, toMany: true, deleteRule: .cascadeDeleteRule)
        let entryAircraft = NSRelationshipDescription(name: "aircraft", destination: aircraft)
        logEntries.inverseRelationship = entryAircraft
        entryAircraft.inverseRelationship = logEntries
        let entryPilots = NSRelationshipDescription(name: "pilots", destination: pilot, toMany: true)
        let pilotEntries = NSRelationshipDescription(name: "logEntries", destination: logEntry, toMany: true)
        entryPilots.inverseRelationship = pilotEntries
        pilotEntries.inverseRelationship = entryPilots

        aircraft.properties = [
            NSAttributeDescription(name: "aircraftCategory", type: .stringAttributeType),
            NSAttributeDescription(name: "aircraftClass", type: .stringAttributeType),
            NSAttributeDescription(name: "aircraftType", type: .stringAttributeType),
            colorScheme,
            NSAttributeDescription(name: "photo", type: .binaryDataAttributeType),
            NSAttributeDescription(name: "tailNumber", type: .stringAttributeType, optional: false),
            logEntries,
        ]
        aircraft.indexes = [NSFetchIndexDescription(name: "byPrimaryColor", elements: [NSFetchIndexElementDescription(keyPath: "colorScheme.primary")])]
        logEntry.properties = [
            NSAttributeDescription(name: "date", type: .dateAttributeType),
            NSAttributeDescription(name: "hours", type: .doubleAttributeType, optional: false, defaultValue: 0.0),
            NSAttributeDescription(name: "landings", type: .integer16AttributeType, optional: false, defaultValue: Int16(0)),
            entryAircraft,
            entryPilots,
        ]
        pilot.properties = [NSAttributeDescription(name: "name", type: .stringAttributeType), pilotEntries]
        return model([aircraft, logEntry, pilot])
    }

    static func temporaryStoreURL(_ name: String = "store") -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("orchard-tests-\(UUID().uuidString)")
            .appendingPathComponent("\(name).sqlite")
    }

    /// A model of `entities`.
    static func model(_ entities: [NSEntityDescription]) -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        model.entities = entities
        return model
    }

    static func container(model: NSManagedObjectModel = flightLogModel(), url: URL? = nil, inMemory: Bool = false) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "FlightLog", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url ?? temporaryStoreURL())
        if inMemory { description.type = NSInMemoryStoreType }
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }
}
