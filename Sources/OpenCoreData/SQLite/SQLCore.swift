import Foundation
import GRDB

/// The SQLite layer's handle on one store's database (Apple's own store calls its counterpart NSSQLCore):
/// the connection pool, the tables the model maps to (`StoreSchema`), each entity's `RowCodec`, and the
/// primary-key counters.
///
/// It takes plain row writes (`RowWriter`) and returns rows (`SQLCore+Fetch.swift`). It knows the model's
/// descriptions and predicates, never the objects, contexts or stores above it: a to-one relationship's
/// target or a predicate's object constant reaches it as a `StoredRow`.
///
/// Sendable: `writer` is GRDB's thread-safe pool (or queue), `schema` never changes, and the mutable tables
/// are guarded by `lock`.
final class SQLCore: @unchecked Sendable {
    /// Where the database lives.
    enum Location {
        /// An SQLite file (WAL mode, a pool of readers).
        case file(URL)
        /// An SQLite database in memory, gone when closed.
        case memory
    }

    /// The database (a `DatabasePool` for a file, a `DatabaseQueue` in memory).
    let writer: any DatabaseWriter
    /// The tables, columns and entity numbers the model maps to.
    let schema: StoreSchema

    // Guards `codecs` and `primaryKeyMax` (contexts on several queues save and fetch through one core).
    private let lock = NSLock()
    private var codecs: [ObjectIdentifier: RowCodec] = [:]
    private var primaryKeyMax: [Int: Int64] = [:]

    /// Opens (creating the file if needed) the database at `location`, with `pragmas` set on every connection.
    init(location: Location, schema: StoreSchema, readOnly: Bool, pragmas: [String: String]) throws {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.label = "OpenCoreData"
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
        switch location {
        case .memory:
            writer = try DatabaseQueue(configuration: configuration)
        case .file(let url):
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            do {
                writer = try DatabasePool(path: url.path, configuration: configuration)
            } catch {
                throw coreDataError(NSPersistentStoreOpenError, "Cannot open SQLite store at \(url.path): \(error)")
            }
        }
        self.schema = schema
    }

    /// The names of the database's tables (SQLite's own excepted).
    func tableNames() throws -> [String] {
        try writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        }
    }

    /// Whether the database has Core Data's metadata table.
    func hasMetadataTable() throws -> Bool {
        try writer.read { db in try db.tableExists("Z_METADATA") }
    }

    // MARK: Schema

    /// Creates every table, index and `Z_PRIMARYKEY` row of the schema, and `Z_METADATA` holding `metadata`
    /// (its `NSStoreUUID` in `Z_UUID`), in one transaction.
    func createSchema(metadata: [String: Any]) throws {
        let schema = self.schema
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
            try db.execute(
                sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                arguments: [metadata[NSStoreUUIDKey] as? String, try MetadataCoding.encode(metadata)])
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

    // MARK: Metadata

    /// The metadata in `Z_METADATA`; a table with no row is a damaged store.
    func readMetadata() throws -> [String: Any] {
        try writer.read { db in
            guard let metadata = try StoreMetadataFile.read(db) else {
                throw coreDataError(NSFileReadCorruptFileError, "The store's Z_METADATA table has no row.")
            }
            return metadata
        }
    }

    /// Writes `metadata` into `Z_METADATA`: in `db`'s transaction when given, else in a transaction of its own.
    func writeMetadata(_ metadata: [String: Any], in db: Database? = nil) throws {
        if let db {
            try StoreMetadataFile.write(metadata, db)
        } else {
            try writer.write { try StoreMetadataFile.write(metadata, $0) }
        }
    }

    // MARK: Primary keys

    /// Reads each table's largest primary key, below which no key is handed out again.
    func loadPrimaryKeyCounters() throws {
        let schema = self.schema
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

    /// Reserves `count` primary keys for the table of `root`, recording them in Z_PRIMARYKEY; returns the first.
    func allocatePrimaryKeys(root: NSEntityDescription, count: Int, db: Database) throws -> Int64 {
        let number = schema.mapping(for: root).number
        let stored =
            try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [number]) ?? 0
        let first = lock.withLock { max(primaryKeyMax[number] ?? 0, stored) } + 1
        let last = first + Int64(count) - 1
        try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [last, number])
        return first
    }

    /// Records keys up to `last` of `root`'s table as used, once the transaction that took them committed.
    func commitPrimaryKeys(root: NSEntityDescription, upTo last: Int64) {
        let number = schema.mapping(for: root).number
        lock.withLock { primaryKeyMax[number] = max(primaryKeyMax[number] ?? 0, last) }
    }

    // MARK: Codecs

    /// The codec of an entity's rows (made once per entity).
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

    // MARK: Transactions

    /// Runs `body` in one write transaction: everything it writes commits together or not at all.
    func write<T>(_ body: (RowWriter) throws -> T) throws -> T {
        try writer.write { db in try body(RowWriter(core: self, db: db)) }
    }

    /// Closes the database's connections (a store removed from its coordinator).
    func close() throws {
        if let pool = writer as? DatabasePool { try pool.close() }
        if let queue = writer as? DatabaseQueue { try queue.close() }
    }
}
