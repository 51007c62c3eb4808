import Foundation
import GRDB

/// Metadata key (an Orchard addition) listing the pending deferred tasks: SQL statements run in order,
/// each in its own transaction that also removes it from the list.
public let OrchardDeferredLightweightMigrationTasksKey = "OrchardDeferredLightweightMigrationTasks"

/// Pending cleanup of deferred lightweight migrations.
enum DeferredMigration {
    static func tasks(in metadata: [String: Any]) -> [String] {
        metadata[OrchardDeferredLightweightMigrationTasksKey] as? [String] ?? []
    }

    /// Metadata with `tasks` added to the pending ones (and the deferred key set while any remain).
    static func adding(_ tasks: [String], to metadata: [String: Any]) -> [String: Any] {
        var result = metadata
        let all = self.tasks(in: metadata) + tasks
        if all.isEmpty {
            result[OrchardDeferredLightweightMigrationTasksKey] = nil
            result[NSPersistentStoreDeferredLightweightMigrationOptionKey] = nil
        } else {
            result[OrchardDeferredLightweightMigrationTasksKey] = all
            result[NSPersistentStoreDeferredLightweightMigrationOptionKey] = true
        }
        return result
    }

    /// Runs the first pending task in one transaction; returns the metadata after it, or nil if none was pending.
    static func runNext(in writer: any DatabaseWriter) throws -> [String: Any]? {
        try writer.write { db -> [String: Any]? in
            guard var metadata = try StoreMetadataFile.read(db) else { return nil }
            var pending = tasks(in: metadata)
            guard !pending.isEmpty else { return nil }
            let task = pending.removeFirst()
            try db.execute(sql: task)
            metadata[OrchardDeferredLightweightMigrationTasksKey] = nil
            metadata = adding(pending, to: metadata)
            try StoreMetadataFile.write(metadata, db)
            return metadata
        }
    }

    /// Runs every pending task, each in its own transaction.
    static func finishAll(in writer: any DatabaseWriter) throws -> [String: Any]? {
        var last: [String: Any]?
        while let metadata = try runNext(in: writer) { last = metadata }
        return last
    }
}

extension NSPersistentStoreCoordinator {
    /// Does all pending deferred lightweight migration work of the coordinator's SQLite stores.
    /// Each task is its own transaction, so an interrupted run resumes with the next call (or in a
    /// later process). When none remains, the store metadata no longer holds
    /// `NSPersistentStoreDeferredLightweightMigrationOptionKey`.
    public func finishDeferredLightweightMigration() throws {
        for store in persistentStores {
            guard let writer = store.writer, !store.isReadOnly else { continue }
            if let metadata = try DeferredMigration.finishAll(in: writer) { store.replaceMetadata(metadata) }
        }
    }

    /// Does one pending deferred lightweight migration task (in the first store that has one).
    public func finishDeferredLightweightMigrationTask() throws {
        for store in persistentStores {
            guard let writer = store.writer, !store.isReadOnly else { continue }
            if let metadata = try DeferredMigration.runNext(in: writer) {
                store.replaceMetadata(metadata)
                return
            }
        }
    }
}
