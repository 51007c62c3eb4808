import Foundation
import GRDB

/// Carries out an inferred lightweight migration with SQL, inside the caller's transaction.
///
/// A destination table whose rows stay where they are is changed in place (`ALTER TABLE` renames, added
/// and dropped columns, `UPDATE`s for entity numbers and defaults). Any other table is rebuilt: a new
/// table is filled by `INSERT … SELECT` from the old one, which is then dropped. With `deferCleanup`,
/// dropping old columns and tables and creating non-unique indexes become deferred tasks (SQL
/// statements the caller records in the metadata) instead.
struct SchemaMigrator {
    /// A destination column's value for the rows of one entity.
    enum Value: Equatable {
        case null
        case column(String)
        case remap(String, [Int: Int])
        case literal(String)
        case coalesce(String, String)
        case sql(String)

        var sourceColumn: String? {
            switch self {
            case .column(let c), .remap(let c, _), .coalesce(let c, _): return c
            default: return nil
            }
        }
        var isInPlace: Bool { if case .sql = self { return false } else { return true } }
    }

    let inference: MigrationInference
    let source: StoreSchema
    let destination: StoreSchema
    let deferCleanup: Bool
    let rowsCopied: (Int) -> Void

    /// Deferred SQL statements, in order.
    private(set) var deferred: [String] = []
    /// Destination non-optional attributes to check for NULLs: (entity, attribute, table, column, entity numbers).
    private var mandatoryChecks: [(String, String, String, String, [Int])] = []
    /// Source entity number → destination entity number.
    private var numberMap: [Int: Int] = [:]

    init(inference: MigrationInference, source: StoreSchema, destination: StoreSchema, deferCleanup: Bool, rowsCopied: @escaping (Int) -> Void) {
        self.inference = inference
        self.source = source
        self.destination = destination
        self.deferCleanup = deferCleanup
        self.rowsCopied = rowsCopied
        for entity in destination.entities {
            guard let origin = inference.entitySource[entity.name ?? ""] else { continue }
            numberMap[source.mapping(for: origin).number] = destination.mapping(for: entity).number
        }
    }

    // MARK: Values

    private func sourceSlot(_ property: NSPropertyDescription?, of entity: NSEntityDescription?) -> SlotMapping? {
        guard let property, let entity, let slot = entity.layout.slotByName[property.name] else { return nil }
        return source.mapping(for: entity).slots[slot]
    }

    static func literal(_ value: Any?, type: NSAttributeType, transformer: String? = nil) -> String? {
        guard let value, !(value is NSNull) else { return nil }
        switch SQLValueCodec.encode(value, type: type, transformerName: transformer).storage {
        case .null: return nil
        case .int64(let i): return String(i)
        case .double(let d): return d.isFinite ? "\(d)" : nil
        case .string(let s): return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data): return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    private func caseSQL(_ expression: String, _ map: [Int: Int]) -> String {
        guard !map.isEmpty else { return "NULL" }
        return "CASE \(expression) " + map.keys.sorted().map { "WHEN \($0) THEN \(map[$0]!)" }.joined(separator: " ") + " END"
    }

    private func list(_ numbers: [Int]) -> String { numbers.isEmpty ? "NULL" : numbers.map(String.init).joined(separator: ", ") }

    /// `SELECT s, d, o` pairs of a source relationship (source row, destination row, order).
    func pairs(_ relationship: NSRelationshipDescription, of entity: NSEntityDescription) -> String? {
        switch sourceSlot(relationship, of: entity) {
        case .toOne(let column, _, _):
            let m = source.mapping(for: entity)
            return "SELECT Z_PK AS s, \(column) AS d, NULL AS o FROM \(m.table.name) WHERE \(column) IS NOT NULL AND Z_ENT IN (\(list(m.descendantNumbers)))"
        case .toManyByInverse(let table, let column, let order, let destinationEntity):
            return "SELECT \(column) AS s, Z_PK AS d, \(order ?? "NULL") AS o FROM \(table) WHERE \(column) IS NOT NULL AND Z_ENT IN (\(list(source.mapping(for: destinationEntity).descendantNumbers)))"
        case .toManyByJoin(let join, let isSource, _):
            return isSource
                ? "SELECT \(join.sourceColumn) AS s, \(join.destinationColumn) AS d, \(join.orderColumn ?? "NULL") AS o FROM \(join.name)"
                : "SELECT \(join.destinationColumn) AS s, \(join.sourceColumn) AS d, \(join.inverseOrderColumn ?? "NULL") AS o FROM \(join.name)"
        default:
            return nil
        }
    }

    /// Pairs for a destination relationship (owner row → destination row), from its source or its inverse's.
    func pairs(for relationship: NSRelationshipDescription, of entity: NSEntityDescription) -> String? {
        let name = entity.name ?? ""
        if let from = inference.propertySource[name]?[relationship.name] as? NSRelationshipDescription,
           let origin = inference.entitySource[name], let sql = pairs(from, of: origin) {
            return sql
        }
        if let inverse = relationship.inverseRelationship, let owner = inverse.entity, let ownerName = owner.name,
           let from = inference.propertySource[ownerName]?[inverse.name] as? NSRelationshipDescription,
           let origin = inference.entitySource[ownerName], let sql = pairs(from, of: origin) {
            return "SELECT d AS s, s AS d, o FROM (\(sql))"
        }
        return nil
    }

    /// Per table: column → destination entity number → value, for every destination table.
    mutating func values() -> [String: [String: [Int: Value]]] {
        var result: [String: [String: [Int: Value]]] = [:]
        func set(_ table: String, _ column: String, _ number: Int, _ value: Value) { result[table, default: [:]][column, default: [:]][number] = value }
        for entity in destination.entities {
            let name = entity.name ?? ""
            guard let origin = inference.entitySource[name] else { continue }
            let mapping = destination.mapping(for: entity)
            let table = mapping.table.name
            let sources = inference.propertySource[name] ?? [:]
            for (slot, slotMapping) in mapping.slots.enumerated() {
                let property = entity.layout.properties[slot]
                let from = sources[property.name]
                switch slotMapping {
                case .attribute(let column, let attribute):
                    let literal = Self.literal(attribute.defaultValue, type: attribute.attributeType, transformer: attribute.valueTransformerName)
                    var value: Value = literal.map { .literal($0) } ?? .null
                    if case .attribute(let sourceColumn, _) = sourceSlot(from, of: origin) {
                        value = .column(sourceColumn)
                        if !attribute.isOptional, from!.isOptional, let literal { value = .coalesce(sourceColumn, literal) }
                    }
                    let needsCheck = !attribute.isOptional && (from == nil || from!.isOptional) && literal == nil
                    if needsCheck { mandatoryChecks.append((name, attribute.name, table, column, mapping.descendantNumbers)) }
                    set(table, column, mapping.number, value)
                case .composite(let columns):
                    var sourceColumns: [[String]: String] = [:]
                    if case .composite(let sc) = sourceSlot(from, of: origin) { for c in sc { sourceColumns[c.path] = c.name } }
                    for column in columns {
                        var value: Value = Self.literal(column.attribute.defaultValue, type: column.attribute.attributeType).map { .literal($0) } ?? .null
                        if let composite = from as? NSCompositeAttributeDescription, let path = Self.tracePath(column.path, in: property as! NSCompositeAttributeDescription, from: composite),
                           let sourceColumn = sourceColumns[path] {
                            value = .column(sourceColumn)
                        }
                        set(table, column.name, mapping.number, value)
                    }
                case .toOne(let column, let entityColumn, let destinationEntity):
                    let relationship = property as! NSRelationshipDescription
                    if case .toOne(let sourceColumn, let sourceEntityColumn, let sourceDestination) = sourceSlot(from, of: origin) {
                        set(table, column, mapping.number, .column(sourceColumn))
                        if let entityColumn {
                            if let sourceEntityColumn {
                                set(table, entityColumn, mapping.number, .remap(sourceEntityColumn, numberMap))
                            } else {
                                let n = numberMap[source.mapping(for: sourceDestination).number].map(String.init) ?? "NULL"
                                set(table, entityColumn, mapping.number, .sql("CASE WHEN src.\(sourceColumn) IS NULL THEN NULL ELSE \(n) END"))
                            }
                        }
                    } else if let pairs = pairs(for: relationship, of: entity) {
                        let pk = "(SELECT p.d FROM (\(pairs)) p WHERE p.s = src.Z_PK LIMIT 1)"
                        set(table, column, mapping.number, .sql(pk))
                        if let entityColumn, let origin = inference.entitySource[destinationEntity.name ?? ""] {
                            let t = source.mapping(for: origin).table.name
                            set(table, entityColumn, mapping.number, .sql("(SELECT \(caseSQL("t.Z_ENT", numberMap)) FROM \(t) t WHERE t.Z_PK = \(pk))"))
                        }
                    } else {
                        set(table, column, mapping.number, .null)
                        if let entityColumn { set(table, entityColumn, mapping.number, .null) }
                    }
                case .toManyByInverse(let otherTable, _, let orderColumn?, let destinationEntity):
                    var value: Value = .sql("src.Z_PK")
                    if case .toManyByInverse(_, _, let sourceOrder?, _) = sourceSlot(from, of: origin) { value = .column(sourceOrder) }
                    for target in destinationEntity.selfAndDescendants where inference.entitySource[target.name ?? ""] != nil {
                        set(otherTable, orderColumn, destination.mapping(for: target).number, value)
                    }
                default:
                    break
                }
            }
        }
        return result
    }

    /// The source element path of a destination composite element path.
    static func tracePath(_ path: [String], in composite: NSCompositeAttributeDescription, from source: NSCompositeAttributeDescription) -> [String]? {
        var destinationElements = composite.elements
        var sourceElements = source.elements
        var result: [String] = []
        for part in path {
            guard let element = destinationElements.first(where: { $0.name == part }),
                  let previous = MigrationInference.previousProperty(of: element, among: sourceElements) else { return nil }
            result.append(previous.name)
            destinationElements = (element as? NSCompositeAttributeDescription)?.elements ?? []
            sourceElements = (previous as? NSCompositeAttributeDescription)?.elements ?? []
        }
        return result
    }

    // MARK: Running

    mutating func run(_ db: Database) throws {
        let values = values()
        // Which source table feeds each destination table, and which entity numbers it contributes.
        var feeds: [String: (table: TableInfo, numbers: [Int: Int])] = [:]
        for entity in destination.entities {
            guard let origin = inference.entitySource[entity.name ?? ""] else { continue }
            let d = destination.mapping(for: entity)
            let s = source.mapping(for: origin)
            feeds[d.table.name, default: (s.table, [:])].numbers[s.number] = d.number
        }
        // A source table is changed in place for at most one destination table: the one its root goes to.
        var inPlace: [String: TableInfo] = [:]
        var claimed = Set<String>()
        let orderedTables = destination.tables.sorted { a, b in
            let ar = inference.entitySource[a.root.name ?? ""].map { $0.superentity == nil } ?? false
            let br = inference.entitySource[b.root.name ?? ""].map { $0.superentity == nil } ?? false
            return ar && !br
        }
        for table in orderedTables {
            guard let feed = feeds[table.name], !claimed.contains(feed.table.name) else { continue }
            let tableValues = values[table.name] ?? [:]
            var uniform = true
            var usedSources: [String] = []
            for (_, byEntity) in tableValues {
                let distinct = Set(byEntity.values.map { "\($0)" })
                if distinct.count > 1 || !byEntity.values.allSatisfy(\.isInPlace) { uniform = false; break }
                if let c = byEntity.values.first?.sourceColumn { usedSources.append(c) }
            }
            guard uniform, Set(usedSources).count == usedSources.count else { continue }
            inPlace[table.name] = feed.table
            claimed.insert(feed.table.name)
        }

        // 1. Rebuilt tables and join tables, filled from the untouched source tables.
        var finalNames: [(String, String)] = []
        for table in destination.tables where inPlace[table.name] == nil {
            let temp = "Z_MIG_" + table.name
            var columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
            columns += table.columns.map { "\($0.name) \(TableInfo.sqlType($0.type))" }
            try db.execute(sql: "CREATE TABLE \(temp) (\(columns.joined(separator: ", ")))")
            finalNames.append((temp, table.name))
            guard let feed = feeds[table.name] else { continue }
            let reverse = Dictionary(feed.numbers.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            var selects = ["src.Z_PK", caseSQL("src.Z_ENT", feed.numbers), "src.Z_OPT"]
            for column in table.columns {
                let byEntity = values[table.name]?[column.name] ?? [:]
                let exprs = Dictionary(byEntity.map { (reverse[$0] ?? -1, Self.sql($1)) }, uniquingKeysWith: { a, _ in a })
                if Set(exprs.values).count == 1, exprs.count == feed.numbers.count { selects.append(exprs.values.first!) }
                else if exprs.isEmpty { selects.append("NULL") }
                else { selects.append("CASE src.Z_ENT " + exprs.keys.sorted().map { "WHEN \($0) THEN \(exprs[$0]!)" }.joined(separator: " ") + " ELSE NULL END") }
            }
            let names = (["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map(\.name)).joined(separator: ", ")
            let insert = "INSERT INTO \(temp) (\(names)) SELECT \(selects.joined(separator: ", ")) FROM \(feed.table.name) src WHERE src.Z_ENT IN (\(list(feed.numbers.keys.sorted())))"
            // Copy in primary-key ranges so progress can be reported as rows are copied.
            let maxPK = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(feed.table.name)") ?? 0
            var low: Int64 = 0
            let chunk: Int64 = 50_000
            while low < maxPK {
                try db.execute(sql: insert + " AND src.Z_PK > ? AND src.Z_PK <= ?", arguments: [low, low + chunk])
                rowsCopied(db.changesCount)
                low += chunk
            }
        }
        var keptJoins = Set<String>()
        for join in destination.joinTables {
            guard let (owner, relationship) = joinOwner(join) else { continue }
            let pairs = pairs(for: relationship, of: owner)
            if let same = source.joinTables.first(where: { $0.name == join.name }), same.sourceColumn == join.sourceColumn,
               same.destinationColumn == join.destinationColumn, same.orderColumn == join.orderColumn,
               same.inverseOrderColumn == join.inverseOrderColumn,
               let from = inference.propertySource[owner.name ?? ""]?[relationship.name],
               let origin = inference.entitySource[owner.name ?? ""],
               case .toManyByJoin(let sourceJoin, true, _) = sourceSlot(from, of: origin), sourceJoin === same {
                keptJoins.insert(join.name)
                continue
            }
            let temp = "Z_MIG_" + join.name
            var columns = ["\(join.sourceColumn) INTEGER", "\(join.destinationColumn) INTEGER"]
            if let order = join.orderColumn { columns.append("\(order) INTEGER") }
            if let order = join.inverseOrderColumn { columns.append("\(order) INTEGER") }
            try db.execute(sql: "CREATE TABLE \(temp) (\(columns.joined(separator: ", ")), PRIMARY KEY (\(join.sourceColumn), \(join.destinationColumn)))")
            finalNames.append((temp, join.name))
            if let pairs {
                var names = [join.sourceColumn, join.destinationColumn]
                var selects = ["p.s", "p.d"]
                if let order = join.orderColumn { names.append(order); selects.append("COALESCE(p.o, p.d)") }
                if let order = join.inverseOrderColumn { names.append(order); selects.append("p.s") }
                try db.execute(sql: "INSERT OR IGNORE INTO \(temp) (\(names.joined(separator: ", "))) SELECT \(selects.joined(separator: ", ")) FROM (\(pairs)) p")
                rowsCopied(db.changesCount)
            }
        }

        // 2. Retire the source tables nothing keeps.
        let kept = Set(inPlace.values.map(\.name)).union(keptJoins)
        for name in source.tables.map(\.name) + source.joinTables.map(\.name) where !kept.contains(name) {
            try retire(table: name, db)
        }

        // 3. Tables changed in place.
        for (name, sourceTable) in inPlace.sorted(by: { $0.key < $1.key }) {
            try alter(sourceTable, into: destination.tables.first { $0.name == name }!, values: values[name] ?? [:],
                      numbers: feeds[name]!.numbers, db)
            if sourceTable.name != name {
                let temp = "Z_MIGTBL_" + name
                try db.execute(sql: "ALTER TABLE \(sourceTable.name) RENAME TO \(temp)")
                finalNames.append((temp, name))
            }
        }
        for (temp, name) in finalNames { try db.execute(sql: "ALTER TABLE \(temp) RENAME TO \(name)") }

        // 4. Mandatory attributes that the old rows leave nil.
        for (entity, attribute, table, column, numbers) in mandatoryChecks {
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE Z_ENT IN (\(list(numbers))) AND \(column) IS NULL") ?? 0
            if count > 0 {
                throw coreDataError(NSValidationMissingMandatoryPropertyError,
                                    "Migration failed: \(entity).\(attribute) is not optional in the destination model and has no default value, but \(count) row(s) have no value.",
                                    [NSValidationKeyErrorKey: attribute])
            }
        }

        // 5. Primary key counters: never hand out a key again.
        let oldMax = Dictionary(try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY").map { (($0[0] as Int?) ?? 0, ($0[1] as Int64?) ?? 0) },
                                uniquingKeysWith: { a, b in max(a, b) })
        try db.execute(sql: "DELETE FROM Z_PRIMARYKEY")
        for entity in destination.entities {
            let mapping = destination.mapping(for: entity)
            let superNumber = entity.superentity.map { destination.mapping(for: $0).number } ?? 0
            var zmax: Int64 = 0
            if entity.superentity == nil {
                zmax = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(mapping.table.name)") ?? 0
                if let origin = inference.entitySource[entity.name ?? ""] {
                    zmax = max(zmax, oldMax[source.mapping(for: origin.rootEntity).number] ?? 0)
                }
            }
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
                           arguments: [mapping.number, entity.name ?? "", superNumber, zmax])
        }

        // 6. Indexes.
        let (unique, other) = try IndexPlan(schema: destination).reconcile(db)
        for sql in unique { try db.execute(sql: sql) }
        if deferCleanup { deferred += other } else { for sql in other { try db.execute(sql: sql) } }
    }

    static func sql(_ value: Value) -> String {
        switch value {
        case .null: return "NULL"
        case .column(let c): return "src.\(c)"
        case .remap(let c, let map):
            guard !map.isEmpty else { return "NULL" }
            return "CASE src.\(c) " + map.keys.sorted().map { "WHEN \($0) THEN \(map[$0]!)" }.joined(separator: " ") + " END"
        case .literal(let l): return l
        case .coalesce(let c, let l): return "COALESCE(src.\(c), \(l))"
        case .sql(let s): return s
        }
    }

    /// The entity and relationship that own a destination join table (its source side).
    func joinOwner(_ join: JoinTable) -> (NSEntityDescription, NSRelationshipDescription)? {
        for entity in destination.entities {
            for (slot, mapping) in destination.mapping(for: entity).slots.enumerated() {
                if case .toManyByJoin(let j, true, _) = mapping, j === join,
                   let relationship = entity.layout.properties[slot] as? NSRelationshipDescription {
                    return (entity, relationship)
                }
            }
        }
        return nil
    }

    private mutating func retire(table name: String, _ db: Database) throws {
        guard try db.tableExists(name) else { return }
        if deferCleanup {
            let parked = "Z_DEFERRED_" + name
            try db.execute(sql: "DROP TABLE IF EXISTS \(parked)")
            // Its indexes would keep their names: drop them now (cheap), the table later.
            for (index, info) in try IndexPlan.existing(db) where info.table == name { try db.execute(sql: "DROP INDEX \(index)") }
            try db.execute(sql: "ALTER TABLE \(name) RENAME TO \(parked)")
            deferred.append("DROP TABLE IF EXISTS \(parked)")
        } else {
            try db.execute(sql: "DROP TABLE \(name)")
        }
    }

    /// Changes a table in place: drops rows of removed entities, drops, renames and adds columns,
    /// fills defaults and renumbers entities.
    private mutating func alter(_ table: TableInfo, into target: TableInfo, values: [String: [Int: Value]], numbers: [Int: Int], _ db: Database) throws {
        let name = table.name
        let existing = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [name])
        let contributing = numbers.keys.sorted()
        // Rows of source entities that do not come along (removed, or moved to another table) go.
        let all = source.entities.filter { source.mapping(for: $0).table.name == name }.map { source.mapping(for: $0).number }
        if all.contains(where: { !numbers.keys.contains($0) }) {
            try db.execute(sql: "DELETE FROM \(name) WHERE Z_ENT NOT IN (\(list(contributing)))")
        }
        var used = Set<String>()
        for (_, byEntity) in values { if let c = byEntity.values.first?.sourceColumn { used.insert(c) } }
        let targetNames = Set(target.columns.map(\.name))
        let unused = existing.filter { !["Z_PK", "Z_ENT", "Z_OPT"].contains($0) && !used.contains($0) }
        if !unused.isEmpty { try IndexPlan.dropIndexes(on: name, reading: Set(unused), db) }
        for column in unused {
            if deferCleanup {
                var current = column
                if targetNames.contains(column) {
                    current = "Z_DEFERRED_" + column
                    try db.execute(sql: "ALTER TABLE \(name) RENAME COLUMN \(column) TO \(current)")
                }
                deferred.append("ALTER TABLE \(target.name) DROP COLUMN \(current)")
            } else {
                try db.execute(sql: "ALTER TABLE \(name) DROP COLUMN \(column)")
            }
        }
        // Renames, through temporary names so that swaps work.
        var renames: [(String, String)] = []
        for (column, byEntity) in values {
            if let c = byEntity.values.first?.sourceColumn, c != column { renames.append((c, column)) }
        }
        for (i, (from, _)) in renames.enumerated() { try db.execute(sql: "ALTER TABLE \(name) RENAME COLUMN \(from) TO Z_MIGCOL_\(i)") }
        for (i, (_, to)) in renames.enumerated() { try db.execute(sql: "ALTER TABLE \(name) RENAME COLUMN Z_MIGCOL_\(i) TO \(to)") }
        // Entity numbers next: the updates below select rows by destination entity number.
        if numbers.contains(where: { $0 != $1 }) {
            try db.execute(sql: "UPDATE \(name) SET Z_ENT = \(caseSQL("Z_ENT", numbers))")
        }
        let single = numbers.count == 1 && target.root.subentities.isEmpty
        for column in target.columns {
            let byEntity = values[column.name] ?? [:]
            let value = byEntity.values.first ?? .null
            let entities = list(byEntity.keys.sorted())
            switch value {
            case .null, .literal:
                var sql = "ALTER TABLE \(name) ADD COLUMN \(column.name) \(TableInfo.sqlType(column.type))"
                if case .literal(let l) = value {
                    if single { sql += " DEFAULT \(l)"; try db.execute(sql: sql) }
                    else {
                        try db.execute(sql: sql)
                        try db.execute(sql: "UPDATE \(name) SET \(column.name) = \(l) WHERE Z_ENT IN (\(entities))")
                    }
                } else {
                    try db.execute(sql: sql)
                }
            case .coalesce(_, let l):
                try db.execute(sql: "UPDATE \(name) SET \(column.name) = \(l) WHERE \(column.name) IS NULL AND Z_ENT IN (\(entities))")
            case .remap(_, let map):
                if map.contains(where: { $0 != $1 }) {
                    try db.execute(sql: "UPDATE \(name) SET \(column.name) = \(caseSQL(column.name, map))")
                }
            default:
                break
            }
        }
    }
}
