// The seed's staged-migration code (WWDC23 "What's new in Core Data", samples 16:00, 16:19, 16:54,
// 17:41, 21:01 and 21:17), with `import OpenCoreData` instead of `import CoreData`. The samples as
// published do not compile anywhere; these are the only edits, each marked `// seed fix:`:
// - 16:00: the missing commas after `modelName: "modelV…"`.
// - 16:54: the unterminated "FlightData and the typographic quotes around “data”; the handler used an
//   undefined `viewContext` where it means its own `context`; fetching with
//   NSFetchRequest<NSFetchRequestResult> gives [NSFetchRequestResult], cast to [NSManagedObject].
// - 17:41: `let storeDescription` (a class reference that is never reassigned).
// - 21:17: `try` for the throwing finishDeferredLightweightMigration(), and `as? Bool` to compare Any.
import OpenCoreData

// 16:00 - Creating managed object model references for staged migration.
// The checksums are in Apple's format (what Xcode shows for these models): print them with
// `swift run coredata-tool checksum Examples/AircraftMigration/Models/modelV1.xcdatamodel`.
let v1ModelChecksum = "V8MBl/qKHuBIxA1E2Krb7qdv410gCJjS7OLaA1uCR0Y="
let v1ModelReference = NSManagedObjectModelReference(
    modelName: "modelV1", // seed fix: comma
    in: NSBundle.mainBundle,
    versionChecksum: v1ModelChecksum
)

let v2ModelChecksum = "YVC0FKA2pLcBMC6RcUaca/Eh0+dwOf9HTC4nl655O64="
let v2ModelReference = NSManagedObjectModelReference(
    modelName: "modelV2", // seed fix: comma
    in: NSBundle.mainBundle,
    versionChecksum: v2ModelChecksum
)

let v3ModelChecksum = "WjHUY0LpqS+L8ixIfe9Aze7EnDpDKMg95Y7EVEra/OE="
let v3ModelReference = NSManagedObjectModelReference(
    modelName: "modelV3", // seed fix: comma
    in: NSBundle.mainBundle,
    versionChecksum: v3ModelChecksum
)

/// The seed's stages: V1 → V2 lightweight (adds FlightData and flightParameters), then V2 → V3 custom
/// (moves every aircraft's flightData into a FlightData object, then drops the attribute).
func makeMigrationStages() -> [NSMigrationStage] {
    // 16:19 - Creating migration stages for staged migration
    let lightweightStage = NSLightweightMigrationStage([v1ModelChecksum])
    lightweightStage.label = "V1 to V2: Add flightData attribute"

    let customStage = NSCustomMigrationStage(
        migratingFrom: v2ModelReference,
        to: v3ModelReference
    )

    customStage.label = "V2 to V3: Denormalize model with FlightData entity"

    // 16:54 - willMigrationHandler and didMigrationHandler of NSCustomMigrationStage
    customStage.willMigrateHandler = { migrationManager, currentStage in
        guard let container = migrationManager.container else {
            return
        }

        let context = container.newBackgroundContext()
        try context.performAndWait {
            let fetchRequest = NSFetchRequest<NSFetchRequestResult>(entityName: "Aircraft")
            fetchRequest.predicate = NSPredicate(format: "flightData != nil")

            do {
               var fetchedResults: [NSManagedObject]
               fetchedResults = try context.fetch(fetchRequest) as! [NSManagedObject] // seed fix: context, cast

               for airplane in fetchedResults {
                    let fdEntity = NSEntityDescription.insertNewObject(
                        forEntityName: "FlightData", // seed fix: closing quote
                        into: context
                    )

                    let flightData = airplane.value(forKey: "flightData")
                    fdEntity.setValue(flightData, forKey: "data") // seed fix: straight quotes
                    fdEntity.setValue(airplane, forKey: "aircraft")
                    airplane.setValue(nil, forKey: "flightData")
                }
                try context.save()
            } catch {
                // Handle any errors that may occur
                throw error // (added: a failed copy stops the migration; the next load retries it)
            }
        }
    }
    return [lightweightStage, customStage]
}

/// Loads the store at `path` with the V3 model, migrating it through the stages.
/// `deferred` adds the 21:01 option, so dropping V2's flightData column waits for `finishDeferred`.
func loadMigratedContainer(path: String, myModel: NSManagedObjectModel, deferred: Bool,
                           progress: (@Sendable (MigrationProgress) -> Void)? = nil) throws -> NSPersistentContainer? {
    // 17:41 - Loading the persistent stores with an NSStagedMigrationManager
    let migrationStages = makeMigrationStages()
    let migrationManager = NSStagedMigrationManager(migrationStages)

    let persistentContainer = NSPersistentContainer(
        path: path,
        managedObjectModel: myModel
    )

    let storeDescription = persistentContainer?.persistentStoreDescriptions.first // seed fix: let (never mutated)

    storeDescription?.setOption(
        migrationManager,
        forKey: NSPersistentStoreStagedMigrationManagerOptionKey
    )
    // (added) 21:01's option, and Orchard's progress handler.
    if deferred { storeDescription?.setOption(true as NSNumber, forKey: NSPersistentStoreDeferredLightweightMigrationOptionKey) }
    if let progress { storeDescription?.setOption(progress, forKey: OrchardMigrationProgressHandlerOptionKey) }

    var loadError: (any Error)? // (added) to report the error
    persistentContainer?.loadPersistentStores { storeDescription, error in
        if let error = error {
            // Handle any errors that may occur
            loadError = error
        }
    }
    if let loadError { throw loadError }
    return persistentContainer
}

/// 21:17 - Executing deferred migrations.
func finishDeferred(coordinator: NSPersistentStoreCoordinator, store: NSPersistentStore) throws {
    // After using BGProcessingTask to run migration work
    let metadata = coordinator.metadata(for: store)
    if (metadata[NSPersistentStoreDeferredLightweightMigrationOptionKey] as? Bool == true) { // seed fix: as? Bool
        try coordinator.finishDeferredLightweightMigration() // seed fix: try
    }
}
