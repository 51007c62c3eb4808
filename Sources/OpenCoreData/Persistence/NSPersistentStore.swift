import Foundation
import GRDB

/// The SQLite store type (a file in WAL mode).
public let NSSQLiteStoreType = "SQLite"
/// The in-memory store type (an SQLite database held in memory, gone when the store is removed).
public let NSInMemoryStoreType = "InMemory"
/// The binary store type: not available on Linux; stores of this type are refused with an error.
public let NSBinaryStoreType = "Binary"

/// Option: the store is read-only.
public let NSReadOnlyPersistentStoreOption = "NSReadOnlyPersistentStoreOption"
/// Option: SQLite pragmas to set when the store opens (a `[String: Any]` dictionary).
public let NSSQLitePragmasOption = "NSSQLitePragmasOption"
/// Option: migrate the store automatically when its model changed.
public let NSMigratePersistentStoresAutomaticallyOption = "NSMigratePersistentStoresAutomaticallyOption"
/// Option: infer the mapping model when migrating automatically.
public let NSInferMappingModelAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"
/// Option: postpone the cleanup work of a lightweight migration.
public let NSPersistentStoreDeferredLightweightMigrationOptionKey =
    "NSPersistentStoreDeferredLightweightMigrationOptionKey"
/// Option: the staged migration manager to migrate the store with.
public let NSPersistentStoreStagedMigrationManagerOptionKey = "NSPersistentStoreStagedMigrationManagerOptionKey"
/// Option: record persistent history (accepted; history is not recorded by this store).
public let NSPersistentHistoryTrackingKey = "NSPersistentHistoryTrackingKey"

/// A persistent store: an SQLite database laid out as Core Data lays it out (see `StoreSchema`).
open class NSPersistentStore: NSObject, @unchecked Sendable {
    /// The store's type (`NSSQLiteStoreType` or `NSInMemoryStoreType`).
    open private(set) var type: String
    /// The store's file.
    open var url: URL?
    /// The options the store was added with.
    open private(set) var options: [AnyHashable: Any]?
    /// The model configuration the store holds.
    open private(set) var configurationName: String
    /// The coordinator the store belongs to.
    open private(set) weak var persistentStoreCoordinator: NSPersistentStoreCoordinator?
    /// Whether the store refuses saves.
    open var isReadOnly: Bool
    /// The store's unique identifier (its `NSStoreUUID` metadata).
    open var identifier: String! {
        get { lock.withLock { _identifier } }
        set { lock.withLock { _identifier = newValue } }
    }

    let lock = NSRecursiveLock()
    private var _identifier: String?
    private var _metadata: [String: Any] = [:]
    /// The SQLite layer's handle on the store's database; set once while the store opens.
    private(set) var core: SQLCore!
    /// The store's database (its core's).
    var writer: (any DatabaseWriter)! { core?.writer }
    /// The tables the store's model maps to (its core's).
    var schema: StoreSchema! { core?.schema }

    /// Creates a store; the coordinator opens it with `addPersistentStore`.
    public init(
        persistentStoreCoordinator root: NSPersistentStoreCoordinator?, configurationName name: String?, at url: URL,
        options: [AnyHashable: Any]? = nil
    ) {
        self.type = NSSQLiteStoreType
        self.url = url
        self.options = options
        self.configurationName = name ?? "PF_DEFAULT_CONFIGURATION_NAME"
        self.persistentStoreCoordinator = root
        self.isReadOnly = (options?[NSReadOnlyPersistentStoreOption] as? Bool) ?? false
        super.init()
    }

    init(
        type: String, coordinator: NSPersistentStoreCoordinator, configurationName: String?, url: URL?,
        options: [AnyHashable: Any]?
    ) {
        self.type = type
        self.url = url
        self.options = options
        self.configurationName = configurationName ?? "PF_DEFAULT_CONFIGURATION_NAME"
        self.persistentStoreCoordinator = coordinator
        self.isReadOnly = (options?[NSReadOnlyPersistentStoreOption] as? Bool) ?? false
        super.init()
    }

    /// The store's metadata: model version hashes, store type and UUID, and what the app set.
    ///
    /// As in Core Data, setting it changes the store's copy at once and writes it into the file with the
    /// next save that writes to this store, in that save's transaction (a failed save leaves it to the next).
    open var metadata: [String: Any]! {
        get { lock.withLock { _metadata } }
        set {
            lock.withLock {
                _metadata = newValue ?? [:]
                _metadataNeedsWriting = true
            }
        }
    }

    private var _metadataNeedsWriting = false

    /// Whether the store was opened by its schema: its version hashes are not the model's (nor any version's
    /// Orchard knows) but its tables, columns and entity numbers are. Its metadata is then kept as it is.
    /// Set once while the store opens, before any context can see it.
    private(set) var openedBySchema = false

    /// Whether metadata set since the last save still has to be written into the file.
    var metadataNeedsWriting: Bool {
        get { lock.withLock { _metadataNeedsWriting } }
        set { lock.withLock { _metadataNeedsWriting = newValue } }
    }

    /// The store type's name for a store class (Apple's class method).
    open class var storeTypeName: String { NSSQLiteStoreType }

    // MARK: Opening

    /// Opens (creating if needed) the database and checks it against the model.
    func open(model: NSManagedObjectModel) throws {
        try model.validate()
        let location: SQLCore.Location
        switch type {
        case NSInMemoryStoreType:
            location = .memory
        case NSSQLiteStoreType:
            guard let url else { throw coreDataError(NSPersistentStoreOpenError, "An SQLite store needs a file URL.") }
            location = .file(url)
        default:
            throw coreDataError(
                NSPersistentStoreInvalidTypeError,
                "Store type \(type) is not available on Linux; use NSSQLiteStoreType or NSInMemoryStoreType.")
        }
        let pragmas = (options?[NSSQLitePragmasOption] as? [String: Any] ?? [:]).mapValues { "\($0)" }
        let core = try SQLCore(
            location: location, schema: StoreSchema(model: model), readOnly: isReadOnly, pragmas: pragmas)
        self.core = core
        if try core.hasMetadataTable() {
            let stored = try core.readMetadata()
            lock.withLock {
                _metadata = stored
                _identifier = stored[NSStoreUUIDKey] as? String
            }
            try checkCompatibility(with: model, metadata: stored)
        } else {
            guard !isReadOnly else {
                throw coreDataError(
                    NSPersistentStoreOpenError, "Read-only store at \(url?.path ?? "memory") has no Core Data schema.")
            }
            let foreign = try core.tableNames()
            guard foreign.isEmpty else {
                throw coreDataError(
                    NSFileReadCorruptFileError,
                    "\(url?.path ?? "The store") is an SQLite database but not a Core Data store: it has tables "
                        + "(\(foreign.prefix(5).joined(separator: ", "))) and no Z_METADATA. Nothing was changed.")
            }
            var metadata = model.storeMetadataKeys
            let uuid = UUID().uuidString
            metadata[NSStoreTypeKey] = NSSQLiteStoreType
            metadata[NSStoreUUIDKey] = uuid
            metadata["NSPersistenceFrameworkVersion"] = 1
            try core.createSchema(metadata: metadata)
            lock.withLock {
                _metadata = metadata
                _identifier = uuid
            }
        }
        try core.loadPrimaryKeyCounters()
    }

    /// Checks that the store was written with `model`: by its entity version hashes, or, when the store's
    /// hashes are of no model version Orchard knows (an Apple-written store with a hash Orchard doesn't
    /// reproduce), by its schema. A store opened by its schema keeps its metadata as it is.
    func checkCompatibility(with model: NSManagedObjectModel, metadata: [String: Any]) throws {
        let stored = metadata[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]
        let current = model.entityVersionHashesByName
        guard stored != current else { return }
        var problems: [String] = []
        for name in Set(stored.keys).union(current.keys).sorted() {
            switch (stored[name], current[name]) {
            case (nil, _): problems.append("entity \(name) is new in the model")
            case (_, nil): problems.append("entity \(name) is in the store but not the model")
            default:
                if stored[name] != current[name] { problems.append("entity \(name) changed") }
            }
        }
        // A store whose hashes name a version Orchard recorded is at that version, whatever its schema.
        let (knownVersion, layout) = try writer.read { db -> (Bool, StoreLayout) in
            let cached = try StoreModelCache.read(db)
            let checksum = StoreMetadataFile.checksum(metadata)
            let cachedChecksum = try StoreModelCache.storedChecksum(db)
            let recorded =
                (checksum != nil && cachedChecksum == checksum)
                || cached.map { SourceModelSearch.hashesMatch($0, metadata: metadata) } == true
            return (recorded, try StoreLayout.read(db))
        }
        let differences = layout.differences(from: StoreLayout.expected(for: schema))
        if !knownVersion, differences.isEmpty {
            openedBySchema = true
            return
        }
        let schemaNote =
            knownVersion
            ? "" : " Its schema differs too: " + differences.prefix(8).joined(separator: "; ") + "."
        throw coreDataError(
            NSPersistentStoreIncompatibleVersionHashError,
            "The model used to open the store is incompatible with the one used to create the store (\(problems.joined(separator: "; ")))."
                + schemaNote,
            ["NSStoreModelVersionHashes": stored])
    }

    /// Writes the store's metadata into the file: in `db`'s transaction when given (a save's), else at once.
    func writeMetadata(in db: Database? = nil) throws {
        guard let core, !isReadOnly else { return }
        try core.writeMetadata(lock.withLock { _metadata }, in: db)
    }

    /// Replaces the store's copy of its metadata with what a migration wrote into the file.
    func replaceMetadata(_ metadata: [String: Any]) { lock.withLock { _metadata = metadata } }

    /// Closes the store's database.
    func close() throws {
        try core?.close()
    }
}
