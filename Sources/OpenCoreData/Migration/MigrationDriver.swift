import Foundation
import GRDB

/// Decides, when a store file opens, whether and how it migrates: staged (a manager in the options),
/// lightweight (the automatic-migration and inference options), or not at all (a changed model is then
/// `NSPersistentStoreIncompatibleVersionHashError`, never a silent rewrite).
enum MigrationDriver {
    static func prepare(_ store: NSPersistentStore, model: NSManagedObjectModel, options: [AnyHashable: Any]) throws {
        guard store.type == NSSQLiteStoreType, !store.isReadOnly, let url = store.url,
            FileManager.default.fileExists(atPath: url.path)
        else { return }
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: url.path, configuration: configuration)
        } catch {
            throw coreDataError(
                NSPersistentStoreOpenError,
                "Cannot open the store file at \(url.path) to check its model version: \(error)",
                [NSUnderlyingErrorKey: error, NSFilePathErrorKey: url.path])
        }
        // Closing a connection that only read cannot lose anything; a failure to close is not the caller's error.
        defer { try? queue.close() }
        // A file with no Core Data metadata has nothing to migrate; opening it decides whether it is new or foreign.
        guard let metadata = try queue.read(StoreMetadataFile.read) else { return }
        let deferCleanup = (options[NSPersistentStoreDeferredLightweightMigrationOptionKey] as? Bool) ?? false
        if let manager = options[NSPersistentStoreStagedMigrationManagerOptionKey] as? NSStagedMigrationManager {
            let reporter = MigrationProgressReporter(options: options, progress: manager.progress)
            try StagedMigration(
                manager: manager, writer: queue, url: url, finalModel: model,
                deferCleanup: deferCleanup, reporter: reporter
            ).run()
            ModelRegistry.shared.register(model)
            return
        }
        guard let stored = StoreMetadataFile.checksum(metadata) else {
            throw coreDataError(
                NSPersistentStoreIncompatibleVersionHashError,
                "The store at \(url.path) has no model version in its metadata (no \(NSStoreModelVersionHashesKey) or "
                    + "\(NSStoreModelVersionChecksumKey)), so it can't be checked against the model or migrated.",
                [NSFilePathErrorKey: url.path])
        }
        guard !SourceModelSearch.hashesMatch(model, metadata: metadata), stored != model.versionChecksum else { return }
        let migrate = (options[NSMigratePersistentStoresAutomaticallyOption] as? Bool) ?? false
        let infer = (options[NSInferMappingModelAutomaticallyOption] as? Bool) ?? false
        // The cached model is a candidate source when it is recorded under the store's checksum, by our
        // hashes or by the checksum written beside it (a store from before Orchard took Apple's hash format).
        let (cachedModel, cachedChecksum, layout) = try queue.read { db in
            (try StoreModelCache.read(db), try StoreModelCache.storedChecksum(db), try StoreLayout.read(db))
        }
        // Made only when the model cache doesn't name the store's version (it loads every model it can find).
        lazy var search = SourceModelSearch(metadata: metadata, layout: layout, destination: model, cached: cachedModel)
        let match: SourceModelSearch.Match?
        if let cachedModel, cachedChecksum == stored {
            match = .hashes(cachedModel)
        } else if let byHashes = search.byHashes() {
            match = .hashes(byHashes.model)
        } else if search.layoutMatches(model) {
            // The store is at the app's model by its schema; its hashes are ones Orchard doesn't reproduce
            // (docs/CORE-DATA-FORMATS.md). It opens as it is, its metadata kept (NSPersistentStore.open).
            return
        } else {
            match = search.byLayout().map { .layout($0.model) }
        }
        guard migrate else {
            var detail = ""
            if let source = match?.model {
                let inference = MigrationInference(chain: [source, model])
                detail = " Changes: " + (inference.changes + inference.faults).joined(separator: "; ") + "."
            } else {
                detail = " " + search.noMatchReport(destination: model)
            }
            throw coreDataError(
                NSPersistentStoreIncompatibleVersionHashError,
                "The model used to open the store at \(url.path) is incompatible with the one used to create it, and "
                    + "automatic migration is off (NSMigratePersistentStoresAutomaticallyOption)." + detail,
                [NSFilePathErrorKey: url.path])
        }
        guard let source = match?.model else {
            throw coreDataError(
                NSMigrationMissingSourceModelError,
                "Can't find the model the store at \(url.path) was written with (checksum \(stored)). "
                    + search.noMatchReport(destination: model),
                [NSFilePathErrorKey: url.path])
        }
        guard infer else {
            throw coreDataError(
                NSMigrationMissingMappingModelError,
                "Can't find mapping model for migration: NSInferMappingModelAutomaticallyOption is off and Orchard has no custom mapping models."
            )
        }
        _ = try LightweightMigration.infer([source, model], code: NSPersistentStoreIncompatibleVersionHashError)
        if !DeferredMigration.tasks(in: metadata).isEmpty { _ = try DeferredMigration.finishAll(in: queue) }
        let reporter = MigrationProgressReporter(options: options, progress: nil)
        reporter.begin(steps: 1)
        try LightweightMigration.migrate(
            queue, chain: [source, model], deferCleanup: deferCleanup, reporter: reporter, sourceChecksum: stored)
        reporter.finishedStep()
    }
}
