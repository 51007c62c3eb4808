import Foundation
import GRDB

/// Reads and writes a store file's metadata plist (`Z_METADATA`) on a connection the caller holds: the
/// store's own, a migration's, or one opened only for the metadata.
enum StoreMetadataFile {
    static func read(_ db: Database) throws -> [String: Any]? {
        guard try db.tableExists("Z_METADATA"),
            let data = try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
        else { return nil }
        return try MetadataCoding.decode(data)
    }

    static func write(_ metadata: [String: Any], _ db: Database) throws {
        try db.execute(
            sql: "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1",
            arguments: [try MetadataCoding.encode(metadata)])
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

/// Metadata dictionaries stored as binary property lists (Data values for version hashes).
enum MetadataCoding {
    /// The metadata as a binary property list; a value a property list can't hold fails, naming its key
    /// (Core Data fails the save that would write it).
    static func encode(_ metadata: [String: Any]) throws -> Data {
        for key in metadata.keys.sorted()
        where !PropertyListSerialization.propertyList(metadata[key]!, isValidFor: .binary) {
            throw coreDataError(
                NSCoreDataError,
                "The store metadata's value for '\(key)' (\(type(of: metadata[key]!))) is not a property-list value "
                    + "(string, number, date, data, array or dictionary of them), so the metadata can't be written.",
                [NSValidationKeyErrorKey: key])
        }
        return try PropertyListSerialization.data(fromPropertyList: metadata, format: .binary, options: 0)
    }

    static func decode(_ data: Data) throws -> [String: Any] {
        guard let metadata = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        else {
            throw coreDataError(NSFileReadCorruptFileError, "The store's metadata is not a property-list dictionary.")
        }
        return metadata
    }
}
