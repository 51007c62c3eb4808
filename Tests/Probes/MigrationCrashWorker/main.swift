// A child process for the migration crash test: it migrates a store and gets killed (SIGKILL) at
// random moments by the test. The migration is the seed's (V1 → V2 lightweight, V2 → V3 custom stage
// copying flightData into FlightData in batches, V3 dropping flightData deferred), then the deferred
// work is finished.
// Usage: MigrationCrashWorker create <store> <aircraft count> | migrate <store>
import Foundation
import OpenCoreData

enum CrashModels {
    static func aircraft(flightData: Bool, flightParameters: Bool) -> NSManagedObjectModel {
        let aircraft = NSEntityDescription(name: "Aircraft")
        var properties: [NSPropertyDescription] = [NSAttributeDescription(name: "tailNumber", type: .stringAttributeType, optional: false)]
        if flightData { properties.append(NSAttributeDescription(name: "flightData", type: .binaryDataAttributeType)) }
        aircraft.properties = properties
        var entities = [aircraft]
        if flightParameters {
            let data = NSEntityDescription(name: "FlightData")
            data.properties = [NSAttributeDescription(name: "data", type: .binaryDataAttributeType)]
            let parameters = NSRelationshipDescription(name: "flightParameters", destination: data, toMany: true, deleteRule: .cascadeDeleteRule)
            let owner = NSRelationshipDescription(name: "aircraft", destination: aircraft)
            parameters.inverseRelationship = owner
            owner.inverseRelationship = parameters
            aircraft.properties += [parameters]
            data.properties += [owner]
            entities.append(data)
        }
        let model = NSManagedObjectModel()
        model.entities = entities
        return model
    }

    static let v1 = aircraft(flightData: true, flightParameters: false)
    static let v2 = aircraft(flightData: true, flightParameters: true)
    static let v3 = aircraft(flightData: false, flightParameters: true)

    static func tail(_ i: Int) -> String { "N\(100_000 + i)" }

    /// Aircraft i's flight data (every seventh has none).
    static func data(_ i: Int) -> Data? {
        guard i % 7 != 6 else { return nil }
        var state = UInt64(i) &* 0x9E3779B97F4A7C15
        return Data((0..<(48 + i % 80)).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        })
    }

    static func stages() -> [NSMigrationStage] {
        let first = NSLightweightMigrationStage([v1.versionChecksum])
        first.label = "V1 to V2"
        let custom = NSCustomMigrationStage(migratingFrom: NSManagedObjectModelReference(model: v2, versionChecksum: v2.versionChecksum),
                                            to: NSManagedObjectModelReference(model: v3, versionChecksum: v3.versionChecksum))
        custom.label = "V2 to V3"
        custom.willMigrateHandler = { manager, _ in
            guard let container = manager.container else { return }
            let context = container.newBackgroundContext()
            try context.performAndWait {
                while true {
                    let request = NSFetchRequest<NSManagedObject>(entityName: "Aircraft")
                    request.predicate = NSPredicate(format: "flightData != nil")
                    request.fetchLimit = 2_000
                    let batch = try context.fetch(request)
                    if batch.isEmpty { break }
                    for plane in batch {
                        let data = NSEntityDescription.insertNewObject(forEntityName: "FlightData", into: context)
                        data.setValue(plane.value(forKey: "flightData"), forKey: "data")
                        data.setValue(plane, forKey: "aircraft")
                        plane.setValue(nil, forKey: "flightData")
                    }
                    try context.save()
                }
            }
        }
        return [first, custom]
    }
}

func runWorker() throws {
    let arguments = CommandLine.arguments
    guard arguments.count >= 3 else { throw CocoaError(.featureUnsupported) }
    let url = URL(fileURLWithPath: arguments[2])
    switch arguments[1] {
    case "create":
        let count = Int(arguments.count > 3 ? arguments[3] : "1000") ?? 1000
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CrashModels.v1)
        _ = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for i in 0..<count {
                let plane = NSEntityDescription.insertNewObject(forEntityName: "Aircraft", into: context)
                plane.setValue(CrashModels.tail(i), forKey: "tailNumber")
                plane.setValue(CrashModels.data(i), forKey: "flightData")
            }
            try context.save()
        }
    case "migrate":
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: CrashModels.v3)
        let options: [AnyHashable: Any] = [
            NSPersistentStoreStagedMigrationManagerOptionKey: NSStagedMigrationManager(CrashModels.stages()),
            NSPersistentStoreDeferredLightweightMigrationOptionKey: true,
        ]
        _ = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options)
        try coordinator.finishDeferredLightweightMigration()
    default:
        throw CocoaError(.featureUnsupported)
    }
}

do {
    try runWorker()
} catch {
    FileHandle.standardError.write(Data("MigrationCrashWorker: \(error.localizedDescription)\n".utf8))
    exit(1)
}
