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
    private(set) var writer: (any DatabaseWriter)!
    private(set) var schema: StoreSchema!
    private var codecs: [ObjectIdentifier: RowCodec] = [:]
    private var primaryKeyMax: [Int: Int64] = [:]

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
        let schema = StoreSchema(model: model)
        self.schema = schema
        var configuration = Configuration()
        configuration.readonly = isReadOnly
        configuration.label = "OpenCoreData"
        let pragmas = (options?[NSSQLitePragmasOption] as? [String: Any] ?? [:]).mapValues { "\($0)" }
        configuration.prepareDatabase { db in
            SQLFunctions.install(in: db)
            for (name, value) in pragmas {
                guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0 == "_" }) else {
                    throw coreDataError(
                        NSPersistentStoreOpenError,
                        "NSSQLitePragmasOption: '\(name)' is not a pragma name (letters and underscores only).")
                }
                try db.execute(sql: "PRAGMA \(name) = \(value)")
            }
        }
        switch type {
        case NSInMemoryStoreType:
            writer = try DatabaseQueue(configuration: configuration)
        case NSSQLiteStoreType:
            guard let url else { throw coreDataError(NSPersistentStoreOpenError, "An SQLite store needs a file URL.") }
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            do {
                writer = try DatabasePool(path: url.path, configuration: configuration)
            } catch {
                throw coreDataError(NSPersistentStoreOpenError, "Cannot open SQLite store at \(url.path): \(error)")
            }
        default:
            throw coreDataError(
                NSPersistentStoreInvalidTypeError,
                "Store type \(type) is not available on Linux; use NSSQLiteStoreType or NSInMemoryStoreType.")
        }
        let existing = try writer.read { db in try db.tableExists("Z_METADATA") }
        if existing {
            let stored = try readMetadata()
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
            let foreign = try writer.read { db in
                try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            }
            guard foreign.isEmpty else {
                throw coreDataError(
                    NSFileReadCorruptFileError,
                    "\(url?.path ?? "The store") is an SQLite database but not a Core Data store: it has tables "
                        + "(\(foreign.prefix(5).joined(separator: ", "))) and no Z_METADATA. Nothing was changed.")
            }
            try createSchema(model: model)
        }
        try loadPrimaryKeyCounters()
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

    func createSchema(model: NSManagedObjectModel) throws {
        let schema = self.schema!
        try writer.write { db in
            for table in schema.tables {
                var columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
                columns += table.columns.map { "\($0.name) \(TableInfo.sqlType($0.type))" }
                try db.execute(sql: "CREATE TABLE \(table.name) (\(columns.joined(separator: ", ")))")
                if table.root.subentities.count > 0 {
                    try db.execute(sql: "CREATE INDEX \(table.name)_Z_ENT_INDEX ON \(table.name) (Z_ENT)")
                }
                for fk in table.foreignKeyColumns.sorted() {
                    try db.execute(sql: "CREATE INDEX \(table.name)_\(fk)_INDEX ON \(table.name) (\(fk))")
                }
            }
            for join in schema.joinTables {
                var columns = ["\(join.sourceColumn) INTEGER", "\(join.destinationColumn) INTEGER"]
                if let order = join.orderColumn { columns.append("\(order) INTEGER") }
                if let order = join.inverseOrderColumn { columns.append("\(order) INTEGER") }
                try db.execute(
                    sql:
                        "CREATE TABLE \(join.name) (\(columns.joined(separator: ", ")), PRIMARY KEY (\(join.sourceColumn), \(join.destinationColumn)))"
                )
                try db.execute(
                    sql:
                        "CREATE INDEX \(join.name)_\(join.destinationColumn)_INDEX ON \(join.name) (\(join.destinationColumn))"
                )
            }
            for entity in schema.entities {
                try self.createIndexes(for: entity, db: db)
            }
            try db.execute(
                sql:
                    "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"
            )
            for entity in schema.entities {
                let mapping = schema.mapping(for: entity)
                let superNumber = entity.superentity.map { schema.mapping(for: $0).number } ?? 0
                try db.execute(
                    sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                    arguments: [mapping.number, entity.name ?? "", superNumber])
            }
            try db.execute(
                sql: "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
            let uuid = UUID().uuidString
            var metadata = model.storeMetadataKeys
            metadata[NSStoreTypeKey] = NSSQLiteStoreType
            metadata[NSStoreUUIDKey] = uuid
            metadata["NSPersistenceFrameworkVersion"] = 1
            let plist = try PropertyListSerialization.data(fromPropertyList: metadata, format: .binary, options: 0)
            try db.execute(
                sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)", arguments: [uuid, plist])
            self.lock.withLock {
                self._metadata = metadata
                self._identifier = uuid
            }
        }
    }

    /// Creates the entity's declared indexes, indexed attributes and uniqueness constraints.
    func createIndexes(for entity: NSEntityDescription, db: Database) throws {
        let mapping = schema.mapping(for: entity)
        let table = mapping.table.name
        let entityName = StoreSchema.columnName(entity.name ?? "")
        for property in entity.properties where property.isIndexed {
            if let columns = columns(forKeyPath: property.name, in: entity) {
                try db.execute(
                    sql:
                        "CREATE INDEX IF NOT EXISTS Z\(entityName)_\(StoreSchema.columnName(property.name))_INDEX ON \(table) (\(columns.joined(separator: ", ")))"
                )
            }
        }
        for index in entity.indexes {
            var parts: [String] = []
            for element in index.elements {
                guard let columns = columns(forKeyPath: element.propertyName, in: entity) else {
                    throw coreDataError(
                        NSCoreDataError,
                        "Index \(index.name) of \(entity.name ?? "?") names \(element.propertyName), which is not a stored attribute."
                    )
                }
                parts += columns.map { $0 + (element.isAscending ? "" : " DESC") }
            }
            try db.execute(
                sql:
                    "CREATE INDEX IF NOT EXISTS Z\(entityName)_\(StoreSchema.columnName(index.name)) ON \(table) (\(parts.joined(separator: ", ")))"
            )
        }
        for (n, constraint) in entity.uniquenessConstraints.enumerated() {
            var columns: [String] = []
            for case let keyPath as String in constraint {
                guard let c = self.columns(forKeyPath: keyPath, in: entity) else {
                    throw coreDataError(
                        NSCoreDataError,
                        "Uniqueness constraint of \(entity.name ?? "?") names \(keyPath), which is not a stored attribute."
                    )
                }
                columns += c
            }
            guard !columns.isEmpty else { continue }
            try db.execute(
                sql:
                    "CREATE UNIQUE INDEX IF NOT EXISTS Z\(entityName)_UNIQUE_\(n) ON \(table) (\(columns.joined(separator: ", ")))"
            )
        }
    }

    /// The columns behind a property or composite element key path ("colorScheme.primary").
    func columns(forKeyPath keyPath: String, in entity: NSEntityDescription) -> [String]? {
        IndexPlan.columns(forKeyPath: keyPath, in: entity, schema: schema)
    }

    func readMetadata() throws -> [String: Any] {
        try writer.read { db in
            guard let metadata = try StoreMetadataFile.read(db) else {
                throw coreDataError(NSFileReadCorruptFileError, "The store's Z_METADATA table has no row.")
            }
            return metadata
        }
    }

    func writeMetadata(in db: Database? = nil) throws {
        guard let writer, !isReadOnly else { return }
        let metadata = lock.withLock { _metadata }
        if let db {
            try StoreMetadataFile.write(metadata, db)
        } else {
            try writer.write { try StoreMetadataFile.write(metadata, $0) }
        }
    }

    func replaceMetadata(_ metadata: [String: Any]) { lock.withLock { _metadata = metadata } }

    // MARK: Primary keys

    private func loadPrimaryKeyCounters() throws {
        let schema = self.schema!
        let maxima = try writer.read { db -> [Int: Int64] in
            var result: [Int: Int64] = [:]
            for table in schema.tables {
                let number = schema.mapping(for: table.root).number
                result[number] = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(table.name)") ?? 0
            }
            return result
        }
        lock.withLock { primaryKeyMax = maxima }
    }

    /// Reserves `count` primary keys for the table of `root`, recording them in Z_PRIMARYKEY.
    func allocatePrimaryKeys(root: NSEntityDescription, count: Int, db: Database) throws -> Int64 {
        let number = schema.mapping(for: root).number
        let stored =
            try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [number]) ?? 0
        let first = lock.withLock { max(primaryKeyMax[number] ?? 0, stored) } + 1
        let last = first + Int64(count) - 1
        try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [last, number])
        return first
    }

    func commitPrimaryKeys(root: NSEntityDescription, upTo last: Int64) {
        let number = schema.mapping(for: root).number
        lock.withLock { primaryKeyMax[number] = max(primaryKeyMax[number] ?? 0, last) }
    }

    func codec(for entity: NSEntityDescription) -> RowCodec {
        lock.lock()
        defer { lock.unlock() }
        if let codec = codecs[ObjectIdentifier(entity)] { return codec }
        let codec = RowCodec(mapping: schema.mapping(for: entity), schema: schema)
        codecs[ObjectIdentifier(entity)] = codec
        return codec
    }

    /// `SELECT t0.Z_PK, t0.Z_ENT, t0.Z_OPT, t0.<every column>` for a table.
    func selectColumns(_ table: TableInfo, alias: String = "t0") -> String {
        (["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map(\.name)).map { "\(alias).\($0)" }.joined(separator: ", ")
    }

    func close() {
        if let pool = writer as? DatabasePool { try? pool.close() }
        if let queue = writer as? DatabaseQueue { try? queue.close() }
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
