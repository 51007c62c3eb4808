import Foundation
import GRDB

/// Reads and writes a store file's metadata plist (`Z_METADATA`) on a connection the caller holds: the
/// store's own, a migration's, or one opened only for the metadata.
enum StoreMetadataFile {
    static func read(_ db: Database) throws -> [String: Any]? {
        guard try db.tableExists("Z_METADATA"),
              let data = try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1") else { return nil }
        return try MetadataCoding.decode(data)
    }

    static func write(_ metadata: [String: Any], _ db: Database) throws {
        try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1", arguments: [try MetadataCoding.encode(metadata)])
    }

    /// The checksum of the model the store was written with (from the hashes when the key is absent).
    static func checksum(_ metadata: [String: Any]) -> String? {
        if let checksum = metadata[NSStoreModelVersionChecksumKey] as? String { return checksum }
        guard let hashes = metadata[NSStoreModelVersionHashesKey] as? [String: Data] else { return nil }
        return ModelHashing.checksum(ofEntityHashes: hashes)
    }

    /// Metadata stamped with a model: its entity hashes, digest, checksum and version identifiers.
    static func stamped(_ metadata: [String: Any], with model: NSManagedObjectModel) -> [String: Any] {
        metadata.merging(model.storeMetadataKeys) { _, new in new }
    }
}
