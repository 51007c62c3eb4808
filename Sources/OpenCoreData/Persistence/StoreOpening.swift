import Foundation
import GRDB

/// Opens a store for a coordinator: migrates the file first when its model changed (`MigrationDriver`),
/// and records the model in the store (`StoreModelCache`) for later migrations.
enum StoreOpening {
    static func open(
        _ store: NSPersistentStore, coordinator: NSPersistentStoreCoordinator, options: [AnyHashable: Any]
    ) throws {
        let model = coordinator.managedObjectModel
        let entities = model.entities(forConfigurationName: store.configurationName)
        guard entities != nil else {
            throw coreDataError(
                NSPersistentStoreInvalidTypeError, "The model has no configuration named \(store.configurationName).")
        }
        try MigrationDriver.prepare(store, model: model, options: options)
        try store.open(model: model)
        try StoreModelCache.record(model, in: store)
    }
}

/// Reading and writing a store file's metadata without adding the store to a coordinator.
enum StoreFile {
    /// A read-only connection to the store file at `url` (which must exist); the caller closes it.
    static func readOnlyQueue(at url: URL) throws -> DatabaseQueue {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw coreDataError(NSFileReadNoSuchFileError, "No store file at \(url.path).")
        }
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }

    static func readMetadata(at url: URL) throws -> [String: Any] {
        let queue = try readOnlyQueue(at: url)
        defer { try? queue.close() }
        return try queue.read { db in
            guard let metadata = try StoreMetadataFile.read(db) else {
                throw coreDataError(
                    NSFileReadCorruptFileError, "\(url.path) is not a Core Data SQLite store (no Z_METADATA).")
            }
            return metadata
        }
    }

    static func writeMetadata(_ metadata: [String: Any], at url: URL) throws {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.write { db in
            guard try db.tableExists("Z_METADATA") else {
                throw coreDataError(
                    NSFileReadCorruptFileError, "\(url.path) is not a Core Data SQLite store (no Z_METADATA).")
            }
            try StoreMetadataFile.write(metadata, db)
        }
    }
}
