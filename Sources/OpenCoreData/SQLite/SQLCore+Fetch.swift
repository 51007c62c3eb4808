import Foundation
import GRDB

/// A fetch request's fields, independent of its result type.
struct FetchSpec {
    var entity: NSEntityDescription
    var predicate: NSPredicate?
    var sortDescriptors: [NSSortDescriptor]
    var fetchLimit: Int
    var fetchOffset: Int
    var includesSubentities: Bool
    var distinct: Bool = false
}

/// The primary keys (and entities) of a fetch's rows; entities take no memory while all rows are of
/// the fetched entity, which is the common case for a million-row result.
struct FetchedKeys {
    private(set) var primaryKeys = PrimaryKeyList()
    private let entity: NSEntityDescription
    /// Entities by row, once a row of another entity (a subentity) appears.
    private var entities: [NSEntityDescription]?

    init(entity: NSEntityDescription) { self.entity = entity }

    var count: Int { primaryKeys.count }

    mutating func append(_ primaryKey: Int64, entity rowEntity: NSEntityDescription) {
        if rowEntity !== entity, entities == nil {
            entities = Array(repeating: entity, count: primaryKeys.count)
        }
        primaryKeys.append(primaryKey)
        entities?.append(rowEntity)
    }

    func entity(at index: Int) -> NSEntityDescription { entities?[index] ?? entity }
}

/// A row read from the store.
struct FetchedRow {
    let primaryKey: Int64
    let entity: NSEntityDescription
    let version: Int64
    let values: SlotValues
}

/// The row a fetch is on: its key, entity and version, with its values decoded only when asked for
/// (a row whose object the context already has is not decoded). Valid only during `fetchRows`' call.
struct RowSource {
    let primaryKey: Int64
    let version: Int64
    fileprivate let columns: StatementColumns
    fileprivate let codec: RowCodec
    fileprivate let schema: StoreSchema

    /// The row's entity.
    var entity: NSEntityDescription { codec.mapping.entity }
    /// The registry key of the row's entity hierarchy (its root entity's identity).
    var rootID: ObjectIdentifier { codec.rootID }

    /// The row's values.
    var values: SlotValues { codec.decode(columns, schema: schema) }

    /// How row blocks hold rows of the row's entity (`decode(into:)` initializes `stride` slots).
    var blockLayout: RowCodec.BlockLayout { codec.blockLayout }

    /// Decodes the row into uninitialized memory for one row of a row block.
    func decode(into slots: RowSlots) {
        codec.decodeRow(columns, schema: schema, into: slots)
    }
}

extension SQLCore {
    /// The entity numbers (Z_ENT) a fetch's rows may have: its entity's, and its subentities' when it includes them.
    func entityNumbers(_ spec: FetchSpec, mapping: EntityMapping) -> [Int] {
        spec.includesSubentities ? mapping.descendantNumbers : [mapping.number]
    }

    /// The FROM ... WHERE ... ORDER BY ... LIMIT tail of a fetch, with its arguments.
    func fetchTail(_ spec: FetchSpec, order: Bool = true) throws -> (String, [DatabaseValue]) {
        let mapping = schema.mapping(for: spec.entity)
        var translator = PredicateSQL(schema: schema)
        var conditions: [String] = []
        let root = schema.mapping(for: spec.entity.rootEntity)
        let numbers = entityNumbers(spec, mapping: mapping)
        if numbers.count != root.descendantNumbers.count {
            conditions.append(
                numbers.count == 1
                    ? "t0.Z_ENT = \(numbers[0])" : "t0.Z_ENT IN (\(numbers.map(String.init).joined(separator: ", ")))")
        }
        do {
            if let predicate = spec.predicate {
                conditions.append(try translator.translate(predicate, entity: spec.entity))
            }
            var sql = "FROM \(mapping.table.name) t0"
            let orderTerms = order ? try translator.orderBy(spec.sortDescriptors, entity: spec.entity) : []
            if !translator.joins.isEmpty { sql += " " + translator.joins.joined(separator: " ") }
            if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
            if !orderTerms.isEmpty { sql += " ORDER BY " + orderTerms.joined(separator: ", ") }
            if spec.fetchLimit > 0 || spec.fetchOffset > 0 {
                sql += " LIMIT \(spec.fetchLimit > 0 ? spec.fetchLimit : -1)"
                if spec.fetchOffset > 0 { sql += " OFFSET \(spec.fetchOffset)" }
            }
            return (sql, translator.arguments)
        } catch let error as PredicateSQL.TranslationError {
            throw coreDataError(NSCoreDataError, "Cannot fetch \(spec.entity.name ?? "?"): \(error.description).")
        }
    }

    /// Fetches full rows, handing each to `body` as it is read (no array of rows in between).
    func fetchRows(_ spec: FetchSpec, _ body: (RowSource) -> Void) throws {
        let (tail, arguments) = try fetchTail(spec)
        let mapping = schema.mapping(for: spec.entity)
        let sql = "SELECT \(selectColumns(mapping.table)) \(tail)"
        // Rows of one possible entity need not have their Z_ENT read.
        let numbers = entityNumbers(spec, mapping: mapping)
        let onlyNumber = numbers.count == 1 ? numbers[0] : nil
        SQLDebug.log(sql, arguments)
        try run { db in
            let statement = try db.cachedStatement(sql: sql)
            statement.setUncheckedArguments(StatementArguments(arguments))
            var lastNumber = -1
            var lastCodec: RowCodec? = nil
            try forEachRow(statement, db: db) { row in
                let number = onlyNumber ?? Int(row.int64(1) ?? 0)
                if number != lastNumber {
                    let mapping = try rowMapping(number, table: mapping.table.name, primaryKey: row.int64(0))
                    lastCodec = codec(for: mapping.entity)
                    lastNumber = number
                }
                body(
                    RowSource(
                        primaryKey: row.int64(0) ?? 0, version: row.int64(2) ?? 0,
                        columns: row, codec: lastCodec!, schema: schema))
            }
        }
    }

    /// Fetches primary keys and entities only (object IDs, batch shells).
    func fetchKeys(_ spec: FetchSpec) throws -> FetchedKeys {
        let (tail, arguments) = try fetchTail(spec)
        let sql = "SELECT t0.Z_PK, t0.Z_ENT \(tail)"
        SQLDebug.log(sql, arguments)
        return try run { db in
            var keys = FetchedKeys(entity: spec.entity)
            let statement = try db.cachedStatement(sql: sql)
            statement.setUncheckedArguments(StatementArguments(arguments))
            var lastNumber = -1
            var lastEntity = spec.entity
            try forEachRow(statement, db: db) { row in
                let number = Int(row.int64(1) ?? 0)
                if number != lastNumber {
                    let mapping = try rowMapping(
                        number, table: schema.mapping(for: spec.entity).table.name, primaryKey: row.int64(0))
                    lastNumber = number
                    lastEntity = mapping.entity
                }
                keys.append(row.int64(0) ?? 0, entity: lastEntity)
            }
            return keys
        }
    }

    /// Counts matching rows.
    func count(_ spec: FetchSpec) throws -> Int {
        var unlimited = spec
        unlimited.fetchLimit = 0
        unlimited.fetchOffset = 0
        let (tail, arguments) = try fetchTail(unlimited, order: false)
        let sql = "SELECT COUNT(*) \(tail)"
        SQLDebug.log(sql, arguments)
        var total = try run { db in try Int.fetchOne(db, sql: sql, arguments: StatementArguments(arguments)) ?? 0 }
        total = max(0, total - spec.fetchOffset)
        if spec.fetchLimit > 0 { total = min(total, spec.fetchLimit) }
        return total
    }

    /// Fetches dictionaries of selected properties (or aggregate expressions); a to-one relationship's value
    /// is what `objectID` makes of its destination row.
    func fetchDictionaries(
        _ spec: FetchSpec, properties: [Any]?, groupBy: [Any]?, objectID: @escaping (RowReference) -> Any
    ) throws -> [NSDictionary] {
        let entity = spec.entity
        var translator = PredicateSQL(schema: schema)
        var selections:
            [(name: String, sql: String, decode: (Row, Int) -> Any?, width: Int, composite: [CompositeColumn]?)] = []
        let requested: [Any] =
            properties ?? entity.layout.properties.filter { $0 is NSAttributeDescription && !$0.isTransient }
        for item in requested {
            if let description = item as? NSExpressionDescription {
                guard let expression = description.expression else { continue }
                let operand = try translator.operand(expression, entity: entity, alias: "t0")
                let sql: String
                switch operand {
                // Written here, in the SELECT list: an expression's bound values go in at this point of the text.
                case .column, .sql, .toOne, .primaryKey: sql = try translator.sql(operand, typeHint: nil)
                default: throw coreDataError(NSCoreDataError, "Expression \(description.name) cannot be fetched.")
                }
                let type = description.expressionResultType
                selections.append(
                    (
                        description.name, sql,
                        { row, i in
                            SQLValueCodec.decode(
                                row, i, type: type == .undefinedAttributeType ? .doubleAttributeType : type)
                        }, 1, nil
                    ))
                continue
            }
            let name = (item as? NSPropertyDescription)?.name ?? (item as? String) ?? "\(item)"
            let operand = try translator.operand(
                keyPath: name.split(separator: ".").map(String.init), entity: entity, alias: "t0")
            switch operand {
            case .column(let column, let type):
                selections.append(
                    (
                        name, column, { row, i in SQLValueCodec.decode(row, i, type: type ?? .stringAttributeType) }, 1,
                        nil
                    ))
            case .toOne(let column, let destination):
                selections.append(
                    (
                        name, column,
                        { row, i in
                            guard let pk = row[i] as Int64? else { return nil }
                            return objectID(RowReference(entity: destination, primaryKey: pk))
                        }, 1, nil
                    ))
            case .compositeColumns(let columns):
                let flattened = columns.map {
                    CompositeColumn(
                        path: $0.path, name: $0.column,
                        attribute: NSAttributeDescription(name: $0.path.last ?? "", type: $0.type))
                }
                selections.append(
                    (name, columns.map(\.column).joined(separator: ", "), { _, _ in nil }, columns.count, flattened))
            default:
                throw coreDataError(
                    NSCoreDataError,
                    "Property \(name) of \(entity.name ?? "?") cannot be fetched as a dictionary value.")
            }
        }
        let (tail, tailArguments) = try fetchTail(spec)
        var sqlTail = tail
        if let groupBy, !groupBy.isEmpty {
            let names = groupBy.map { ($0 as? NSPropertyDescription)?.name ?? "\($0)" }
            let columns = try names.map { name -> String in
                guard
                    case .column(let column, _) = try translator.operand(
                        keyPath: name.split(separator: ".").map(String.init), entity: entity, alias: "t0")
                else {
                    throw coreDataError(NSCoreDataError, "Cannot group by \(name).")
                }
                return column
            }
            if let range = sqlTail.range(of: " ORDER BY ") ?? sqlTail.range(of: " LIMIT ") {
                sqlTail.insert(contentsOf: " GROUP BY \(columns.joined(separator: ", "))", at: range.lowerBound)
            } else {
                sqlTail += " GROUP BY \(columns.joined(separator: ", "))"
            }
        }
        let sql =
            "SELECT \(spec.distinct ? "DISTINCT " : "")\(selections.map(\.sql).joined(separator: ", ")) \(sqlTail)"
        let arguments = translator.arguments + tailArguments
        return try run { db in
            var result: [NSDictionary] = []
            SQLDebug.log(sql, arguments)
            let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
            while let row = try rows.next() {
                let dictionary = NSMutableDictionary()
                var index = 0
                for selection in selections {
                    if let composite = selection.composite {
                        var value: [String: Any] = [:]
                        for (offset, column) in composite.enumerated() {
                            if let v = SQLValueCodec.decode(row, index + offset, type: column.attribute.attributeType) {
                                RowCodec.assign(v, at: column.path[...], in: &value)
                            }
                        }
                        if !value.isEmpty { dictionary[selection.name] = value }
                    } else if let value = selection.decode(row, index) {
                        dictionary[selection.name] = value
                    }
                    index += selection.width
                }
                result.append(dictionary)
            }
            return result
        }
    }

    /// Full rows for primary keys of one entity hierarchy, in chunks.
    func loadRows(entity: NSEntityDescription, primaryKeys: [Int64]) throws -> [FetchedRow] {
        guard !primaryKeys.isEmpty else { return [] }
        let table = schema.mapping(for: entity).table
        return try run { db in
            var rows: [FetchedRow] = []
            var start = 0
            while start < primaryKeys.count {
                let chunk = primaryKeys[start..<min(start + 500, primaryKeys.count)]
                start += 500
                let sql =
                    "SELECT \(selectColumns(table)) FROM \(table.name) t0 WHERE t0.Z_PK IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))"
                SQLDebug.log(sql, chunk.map(\.databaseValue))
                let statement = try db.cachedStatement(sql: sql)
                statement.setUncheckedArguments(StatementArguments(chunk.map(\.databaseValue)))
                try forEachRow(statement, db: db) { row in
                    let mapping = try rowMapping(Int(row.int64(1) ?? 0), table: table.name, primaryKey: row.int64(0))
                    let codec = self.codec(for: mapping.entity)
                    rows.append(
                        FetchedRow(
                            primaryKey: row.int64(0) ?? 0, entity: mapping.entity, version: row.int64(2) ?? 0,
                            values: codec.decode(row, schema: schema)))
                }
            }
            return rows
        }
    }

    /// The rows related to `ownerKeys` through a to-many slot, as (owner key, related row reference), in order.
    func relatedKeys(entity: NSEntityDescription, slot: Int, ownerKeys: [Int64]) throws -> [(Int64, RowReference)] {
        let mapping = schema.mapping(for: entity)
        guard !ownerKeys.isEmpty else { return [] }
        let list = Array(repeating: "?", count: ownerKeys.count).joined(separator: ",")
        let sql: String
        let relatedTable: String
        switch mapping.slots[slot] {
        case .toManyByInverse(let table, let column, let orderColumn, _):
            relatedTable = table
            sql =
                "SELECT \(column), Z_PK, Z_ENT FROM \(table) WHERE \(column) IN (\(list)) ORDER BY \(orderColumn.map { "\($0), " } ?? "")Z_PK"
        case .toManyByJoin(let join, let isSource, let destination):
            let (mine, theirs) =
                isSource ? (join.sourceColumn, join.destinationColumn) : (join.destinationColumn, join.sourceColumn)
            let order = isSource ? join.orderColumn : join.inverseOrderColumn
            let table = schema.mapping(for: destination).table.name
            relatedTable = table
            sql =
                "SELECT j.\(mine), d.Z_PK, d.Z_ENT FROM \(join.name) j JOIN \(table) d ON d.Z_PK = j.\(theirs) WHERE j.\(mine) IN (\(list)) ORDER BY \(order.map { "j.\($0), " } ?? "")d.Z_PK"
        default:
            return []
        }
        return try run { db in
            var result: [(Int64, RowReference)] = []
            SQLDebug.log(sql, ownerKeys.map(\.databaseValue))
            let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(ownerKeys.map(\.databaseValue)))
            while let row = try rows.next() {
                guard let owner = row[0] as Int64? else { continue }  // A join row with no owner relates nothing.
                let m = try rowMapping(Int(row[2] as Int64? ?? 0), table: relatedTable, primaryKey: row[1])
                result.append((owner, RowReference(entity: m.entity, primaryKey: row[1])))
            }
            return result
        }
    }

    /// The mapping of a row's entity number; a number that is no entity of the model is a damaged row,
    /// reported by name rather than skipped.
    func rowMapping(_ number: Int, table: @autoclosure () -> String, primaryKey: Int64?) throws -> EntityMapping {
        if let mapping = schema.mapping(forNumber: number) { return mapping }
        throw coreDataError(
            NSCoreDataError,
            "Row Z_PK=\(primaryKey.map(String.init) ?? "NULL") of \(table()) has Z_ENT \(number), which is no entity of the "
                + "model (the store is damaged, or was written with a model that has more entities).")
    }

    /// Reads inside a transaction of the store's own (SQLite errors become Core Data errors).
    func run<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            // Safe because every read of a fetch runs in this one call (no isolation is assumed across calls),
            // and reentrancy is what a fetch inside a fetch's block needs.
            return try writer.unsafeReentrantRead { db in try body(db) }
        } catch let error as DatabaseError {
            throw coreDataError(
                NSCoreDataError, "The store could not be read: \(error.message ?? "\(error)")",
                [NSUnderlyingErrorKey: error])
        }
    }
}
