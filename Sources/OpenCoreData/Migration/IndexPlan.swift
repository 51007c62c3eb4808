import Foundation
import GRDB

/// The indexes a store at a model should have, named and shaped as `NSPersistentStore` creates them,
/// and the reconciliation of a migrated database with that list.
struct IndexPlan {
    struct Index: Equatable {
        let name: String
        let table: String
        let columns: [String]
        let unique: Bool

        var sql: String {
            "CREATE \(unique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(name) ON \(table) (\(columns.joined(separator: ", ")))"
        }
        /// Column names without ordering words, as `PRAGMA index_info` reports them.
        var bareColumns: [String] { columns.map { String($0.split(separator: " ").first ?? "") } }
    }

    private(set) var indexes: [Index] = []

    init(schema: StoreSchema) throws {
        for table in schema.tables {
            if table.root.subentities.count > 0 {
                indexes.append(Index(name: "\(table.name)_Z_ENT_INDEX", table: table.name, columns: ["Z_ENT"], unique: false))
            }
            for fk in table.foreignKeyColumns.sorted() {
                indexes.append(Index(name: "\(table.name)_\(fk)_INDEX", table: table.name, columns: [fk], unique: false))
            }
        }
        for join in schema.joinTables {
            indexes.append(Index(name: "\(join.name)_\(join.destinationColumn)_INDEX", table: join.name, columns: [join.destinationColumn], unique: false))
        }
        for entity in schema.entities {
            let table = schema.mapping(for: entity).table.name
            let entityName = StoreSchema.columnName(entity.name ?? "")
            for property in entity.properties where property.isIndexed {
                if let columns = Self.columns(forKeyPath: property.name, in: entity, schema: schema) {
                    indexes.append(Index(name: "Z\(entityName)_\(StoreSchema.columnName(property.name))_INDEX", table: table, columns: columns, unique: false))
                }
            }
            for index in entity.indexes {
                var parts: [String] = []
                for element in index.elements {
                    guard let columns = Self.columns(forKeyPath: element.propertyName, in: entity, schema: schema) else {
                        throw coreDataError(NSCoreDataError, "Index \(index.name) of \(entity.name ?? "?") names \(element.propertyName), which is not a stored attribute.")
                    }
                    parts += columns.map { $0 + (element.isAscending ? "" : " DESC") }
                }
                indexes.append(Index(name: "Z\(entityName)_\(StoreSchema.columnName(index.name))", table: table, columns: parts, unique: false))
            }
            for (n, constraint) in entity.uniquenessConstraints.enumerated() {
                var columns: [String] = []
                for case let keyPath as String in constraint {
                    guard let c = Self.columns(forKeyPath: keyPath, in: entity, schema: schema) else {
                        throw coreDataError(NSCoreDataError, "Uniqueness constraint of \(entity.name ?? "?") names \(keyPath), which is not a stored attribute.")
                    }
                    columns += c
                }
                guard !columns.isEmpty else { continue }
                indexes.append(Index(name: "Z\(entityName)_UNIQUE_\(n)", table: table, columns: columns, unique: true))
            }
        }
    }

    static func columns(forKeyPath keyPath: String, in entity: NSEntityDescription, schema: StoreSchema) -> [String]? {
        let mapping = schema.mapping(for: entity)
        let parts = keyPath.split(separator: ".").map(String.init)
        guard let slot = entity.layout.slotByName[parts[0]] else { return nil }
        switch mapping.slots[slot] {
        case .attribute(let column, _): return parts.count == 1 ? [column] : nil
        case .composite(let columns):
            let rest = Array(parts.dropFirst())
            let matching = columns.filter { rest.isEmpty || Array($0.path.prefix(rest.count)) == rest }
            return matching.isEmpty ? nil : matching.map(\.name)
        case .toOne(let column, _, _): return parts.count == 1 ? [column] : nil
        default: return nil
        }
    }

    /// Existing indexes (name → table, columns, unique), SQLite's automatic ones left out.
    static func existing(_ db: Database) throws -> [String: (table: String, columns: [String], unique: Bool)] {
        var result: [String: (String, [String], Bool)] = [:]
        let rows = try Row.fetchAll(db, sql: "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex%'")
        for row in rows {
            let name: String = row["name"]
            let sql: String = row["sql"] ?? ""
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [name])
            result[name] = (row["tbl_name"], columns, sql.uppercased().hasPrefix("CREATE UNIQUE"))
        }
        return result
    }

    /// Drops the indexes on `tables` that read any of `columns`.
    static func dropIndexes(on table: String, reading columns: Set<String>, _ db: Database) throws {
        for (name, info) in try existing(db) where info.table == table && !columns.isDisjoint(with: info.columns) {
            try db.execute(sql: "DROP INDEX \(name)")
        }
    }

    /// Drops indexes the plan does not want; returns the statements creating the missing ones, unique
    /// indexes first (those are created at once by the caller, never deferred).
    func reconcile(_ db: Database) throws -> (unique: [String], other: [String]) {
        let existing = try Self.existing(db)
        let wanted = Dictionary(indexes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for (name, info) in existing {
            if let want = wanted[name], want.table == info.table, want.bareColumns == info.columns, want.unique == info.unique { continue }
            try db.execute(sql: "DROP INDEX \(name)")
        }
        var unique: [String] = []
        var other: [String] = []
        for index in indexes {
            if let have = existing[index.name], have.table == index.table, have.columns == index.bareColumns, have.unique == index.unique { continue }
            if index.unique { unique.append(index.sql) } else { other.append(index.sql) }
        }
        return (unique, other)
    }
}
