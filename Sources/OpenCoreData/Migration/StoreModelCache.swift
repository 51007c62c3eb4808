import Foundation
import GRDB

/// The model a store was last written with, kept in the store itself (`Z_MODELCACHE`, as Core Data
/// does), so that lightweight migration finds its source model even when the app no longer has it.
/// Orchard writes the model as JSON (`ModelArchive`) next to its version checksum.
///
/// Apple's Core Data keeps its own cache in a table of the same name, `Z_MODELCACHE(Z_CONTENT)`: the model
/// as raw DEFLATE of an `NSKeyedArchiver` archive, with no checksum column. Orchard cannot decode that
/// archive yet (docs/CORE-DATA-FORMATS.md), so a store whose cache is Apple's reads as having none, and
/// Orchard leaves Apple's cache as it is rather than replace it with a format Apple's Core Data can't read.
enum StoreModelCache {
    /// Whether the store's `Z_MODELCACHE` is Orchard's (it has the `Z_CHECKSUM` column).
    static func isOrchards(_ db: Database) throws -> Bool {
        guard try db.tableExists("Z_MODELCACHE") else { return false }
        return try db.columns(in: "Z_MODELCACHE").contains { $0.name.uppercased() == "Z_CHECKSUM" }
    }

    static func read(_ db: Database) throws -> NSManagedObjectModel? {
        guard try isOrchards(db),
            let data = try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1")
        else { return nil }
        return try ModelArchive.decode(data)
    }

    static func storedChecksum(_ db: Database) throws -> String? {
        guard try isOrchards(db) else { return nil }
        return try String.fetchOne(db, sql: "SELECT Z_CHECKSUM FROM Z_MODELCACHE LIMIT 1")
    }

    /// Records `model` as the store's (after a migration to it). An Apple model cache is emptied instead: it
    /// describes the model before the migration, and Apple's Core Data must not take it for the store's.
    static func write(_ model: NSManagedObjectModel, _ db: Database) throws {
        if try db.tableExists("Z_MODELCACHE"), try !isOrchards(db) {
            try db.execute(sql: "DELETE FROM Z_MODELCACHE")
            return
        }
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS Z_MODELCACHE (Z_CHECKSUM VARCHAR, Z_CONTENT BLOB)")
        try db.execute(sql: "DELETE FROM Z_MODELCACHE")
        try db.execute(
            sql: "INSERT INTO Z_MODELCACHE (Z_CHECKSUM, Z_CONTENT) VALUES (?, ?)",
            arguments: [model.versionChecksum, try ModelArchive.encode(model)])
    }

    /// Records the model of a store that just opened, unless it is already recorded.
    /// A store opened by its schema is left alone: its hashes are not this model's, and a cache recorded
    /// under this model's checksum would not name the store's version.
    static func record(_ model: NSManagedObjectModel, in store: NSPersistentStore) throws {
        guard !store.isReadOnly, !store.openedBySchema, let writer = store.writer else { return }
        let checksum = model.versionChecksum
        try writer.write { db in
            // Apple's cache stays Apple's (see above).
            if try db.tableExists("Z_MODELCACHE"), try !isOrchards(db) { return }
            if try storedChecksum(db) != checksum { try write(model, db) }
        }
    }
}

extension NSPersistentStoreCoordinator {
    /// The model the SQLite store at `url` was last written with, as the store itself recorded it
    /// (an Orchard addition, for tools that open a store without the app's model).
    public class func cachedModel(forPersistentStoreAt url: URL) throws -> NSManagedObjectModel {
        let queue = try StoreFile.readOnlyQueue(at: url)
        defer { try? queue.close() }
        guard let model = try queue.read(StoreModelCache.read) else {
            throw coreDataError(
                NSMigrationMissingSourceModelError,
                "The store at \(url.path) has no model cache (Z_MODELCACHE); pass the model instead.")
        }
        return model
    }
}
