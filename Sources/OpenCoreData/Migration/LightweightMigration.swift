import Foundation
import GRDB

/// One lightweight migration: inference, SQL and the new metadata and model cache, in one transaction.
enum LightweightMigration {
    /// The inference for `chain` (source first), or an error listing every change that cannot be inferred.
    static func infer(_ chain: [NSManagedObjectModel], code: Int) throws -> MigrationInference {
        let inference = MigrationInference(chain: chain)
        guard inference.faults.isEmpty else {
            let message = code == NSMigrationMissingMappingModelError
                ? "Missing mapping model: lightweight migration cannot infer a mapping from \(chain.first!.versionChecksum) to \(chain.last!.versionChecksum)"
                : "The model used to open the store is incompatible with the one used to create the store, and lightweight migration cannot infer a mapping"
            throw coreDataError(code, message + ": " + inference.faults.joined(separator: " "),
                                ["faults": inference.faults, "sourceModelChecksum": chain.first!.versionChecksum,
                                 "destinationModelChecksum": chain.last!.versionChecksum])
        }
        return inference
    }

    /// Migrates the store in `writer` along `chain` in one transaction that also records the new
    /// checksum, hashes, model cache and deferred tasks. `adjust` edits the new metadata (staged
    /// migration records its pending handler there).
    static func migrate(_ writer: any DatabaseWriter, chain: [NSManagedObjectModel], deferCleanup: Bool,
                        code: Int = NSPersistentStoreIncompatibleVersionHashError,
                        reporter: MigrationProgressReporter, sourceChecksum: String? = nil,
                        adjust: ([String: Any]) -> [String: Any] = { $0 }) throws {
        let inference = try infer(chain, code: code)
        let destinationModel = chain.last!
        try destinationModel.validate()
        let source = StoreSchema(model: chain.first!)
        let destination = StoreSchema(model: destinationModel)
        try writer.write { db in
            guard let metadata = try StoreMetadataFile.read(db) else {
                throw coreDataError(NSFileReadCorruptFileError, "The store has no metadata to migrate.")
            }
            guard StoreMetadataFile.checksum(metadata) == sourceChecksum ?? chain.first!.versionChecksum else {
                throw coreDataError(NSMigrationError, "The store is not at the migration's source model (\(chain.first!.versionChecksum)).")
            }
            var migrator = SchemaMigrator(inference: inference, source: source, destination: destination,
                                          deferCleanup: deferCleanup, rowsCopied: { reporter.copied($0) })
            try migrator.run(db)
            var updated = StoreMetadataFile.stamped(metadata, with: destinationModel)
            updated = DeferredMigration.adding(migrator.deferred, to: updated)
            try StoreMetadataFile.write(adjust(updated), db)
            try StoreModelCache.write(destinationModel, db)
        }
    }
}
