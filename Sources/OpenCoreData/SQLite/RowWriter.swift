import Foundation
import GRDB
import GRDBSQLite

/// Plain row writes inside one write transaction (`SQLCore.write`): insert, update and delete rows by primary
/// key, with values by slot as an entity's `RowCodec` lays them out, and the join-table and order-column rows
/// of to-many relationships. What to write, and what a conflict means, is decided above it (`SaveWriter`).
struct RowWriter {
    let core: SQLCore
    let db: Database

    private var schema: StoreSchema { core.schema }

    /// Reserves `count` primary keys for the table of `root`; returns the first.
    func allocatePrimaryKeys(root: NSEntityDescription, count: Int) throws -> Int64 {
        try core.allocatePrimaryKeys(root: root, count: count, db: db)
    }

    /// Writes the store's metadata in this transaction.
    func writeMetadata(_ metadata: [String: Any]) throws {
        try core.writeMetadata(metadata, in: db)
    }

    // MARK: Rows

    /// Inserts a row of `codec`'s entity with version 1. `values` are by slot; a to-one relationship's
    /// value is a `StoredRow` (an unsaved or gone target is NULL).
    func insert(_ codec: RowCodec, primaryKey: Int64, values: SlotValues) throws {
        let statement = try db.cachedStatement(sql: codec.insertSQL)
        let handle = statement.sqliteStatement
        sqlite3_bind_int64(handle, 1, primaryKey)
        sqlite3_bind_int64(handle, 2, Int64(codec.mapping.number))
        sqlite3_bind_int64(handle, 3, 1)
        // SQLite parameters are numbered from 4, after Z_PK, Z_ENT and Z_OPT.
        let columns = codec.insertColumns
        var i = 0
        while i < columns.count {
            let parameter = Int32(i + 4)
            if columns[i].kind != .value {
                SQLiteBinding.bind(encode(columns[i], values: values), to: handle, at: parameter)
                i += 1
                continue
            }
            let slotValue = values[slot: columns[i].slot]
            let flat = columns[i].flatCompositeColumns
            if flat > 0, case .composite(let dictionary) = slotValue {
                bindElements(of: dictionary, columns: columns[i..<(i + flat)], to: handle, at: parameter)
                i += flat
                continue
            }
            if let path = columns[i].path {
                SQLiteBinding.bind(
                    RowCodec.lookup(path, in: slotValue), type: columns[i].type,
                    transformerName: columns[i].transformer, to: handle, at: parameter)
            } else {
                SQLiteBinding.bind(
                    slotValue, type: columns[i].type, transformerName: columns[i].transformer, to: handle,
                    at: parameter)
            }
            i += 1
        }
        try SQLiteBinding.step(statement, db: db)
    }

    /// Binds a flat composite's elements to their columns' parameters (`first` and on) by walking the
    /// dictionary once: a key is matched by comparing strings, not hashed. Absent elements are NULL.
    private func bindElements(
        of dictionary: [String: Any], columns: ArraySlice<InsertColumn>, to handle: SQLiteStatement, at first: Int32
    ) {
        var bound: UInt64 = 0
        let start = columns.startIndex
        for (key, value) in dictionary {
            for j in columns.indices where columns[j].path![0] == key {
                let parameter = first + Int32(j - start)
                SQLiteBinding.bind(
                    value, type: columns[j].type, transformerName: columns[j].transformer, to: handle, at: parameter)
                bound |= 1 << UInt64(j - start)
                break
            }
        }
        for j in columns.indices where bound & (1 << UInt64(j - start)) == 0 {
            sqlite3_bind_null(handle, first + Int32(j - start))
        }
    }

    /// A column's value from a row's slot values.
    private func encode(_ column: InsertColumn, values: SlotValues) -> DatabaseValue {
        let raw = values[column.slot]
        switch column.kind {
        case .value:
            if let path = column.path {
                return SQLValueCodec.encode(
                    RowCodec.lookup(path, in: values[slot: column.slot]), type: column.type,
                    transformerName: column.transformer)
            }
            return SQLValueCodec.encode(raw, type: column.type, transformerName: column.transformer)
        case .relationship, .relationshipEntity:
            guard let row = (raw as? StoredRow)?.storedRow else { return .null }
            if column.kind == .relationshipEntity { return schema.mapping(for: row.entity).number.databaseValue }
            return row.primaryKey == 0 ? .null : row.primaryKey.databaseValue
        }
    }

    /// The version (`Z_OPT`) of a row; nil when the row is gone.
    func storedVersion(_ codec: RowCodec, primaryKey: Int64) throws -> Int64? {
        try Int64.fetchOne(
            db, sql: "SELECT Z_OPT FROM \(codec.mapping.table.name) WHERE Z_PK = ?", arguments: [primaryKey])
    }

    /// A row's values as the store holds them now (by slot); nil when the row is gone.
    func row(_ codec: RowCodec, primaryKey: Int64) throws -> SlotValues? {
        let table = codec.mapping.table
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT \(core.selectColumns(table)) FROM \(table.name) t0 WHERE t0.Z_PK = ?",
                arguments: [primaryKey])
        else { return nil }
        return codec.decode(row, schema: schema)
    }

    /// Writes `columns` of a row from `values` (by slot) and sets its version; with no columns, only the version.
    func update(
        _ codec: RowCodec, primaryKey: Int64, columns: [InsertColumn], values: SlotValues, version: Int64
    ) throws {
        let table = codec.mapping.table.name
        guard !columns.isEmpty else {
            try db.execute(sql: "UPDATE \(table) SET Z_OPT = ? WHERE Z_PK = ?", arguments: [version, primaryKey])
            return
        }
        let assignments = columns.map { "\($0.name) = ?" }.joined(separator: ", ")
        var arguments = columns.map { encode($0, values: values) }
        arguments.append(version.databaseValue)
        arguments.append(primaryKey.databaseValue)
        let statement = try db.cachedStatement(sql: "UPDATE \(table) SET \(assignments), Z_OPT = ? WHERE Z_PK = ?")
        statement.setUncheckedArguments(StatementArguments(arguments))
        try statement.execute()
    }

    /// Deletes a row and the join-table rows of its many-to-many relationships.
    func delete(_ codec: RowCodec, primaryKey: Int64) throws {
        try db.execute(sql: "DELETE FROM \(codec.mapping.table.name) WHERE Z_PK = ?", arguments: [primaryKey])
        for slot in codec.mapping.slots {
            if case .toManyByJoin(let join, let isSource, _) = slot {
                try db.execute(
                    sql: "DELETE FROM \(join.name) WHERE \(isSource ? join.sourceColumn : join.destinationColumn) = ?",
                    arguments: [primaryKey])
            }
        }
    }

    // MARK: To-many relationships

    /// Writes the order of an ordered to-many kept by inverse (`Z_FOK_` column of the destination rows):
    /// `members`' rows get positions 1, 2, ...
    func setOrder(table: String, orderColumn: String, members: [Int64]) throws {
        for (index, member) in members.enumerated() {
            try db.execute(
                sql: "UPDATE \(table) SET \(orderColumn) = ? WHERE Z_PK = ?", arguments: [index + 1, member])
        }
    }

    /// Replaces an owner's rows in an ordered join table with `members`, in order.
    func replaceOrderedJoinRows(
        _ join: JoinTable, ownerColumn: String, memberColumn: String, owner: Int64, members: [Int64]
    ) throws {
        guard let orderColumn = join.orderColumn else {
            preconditionFailure("\(join.name) has no order column")
        }
        try db.execute(sql: "DELETE FROM \(join.name) WHERE \(ownerColumn) = ?", arguments: [owner])
        for (index, member) in members.enumerated() {
            try db.execute(
                sql:
                    "INSERT OR REPLACE INTO \(join.name) (\(ownerColumn), \(memberColumn), \(orderColumn)) VALUES (?, ?, ?)",
                arguments: [owner, member, index + 1])
        }
    }

    /// Removes the join-table rows linking `owner` to `members`.
    func removeJoinRows(
        _ join: JoinTable, ownerColumn: String, memberColumn: String, owner: Int64, members: [Int64]
    )
        throws
    {
        for member in members {
            try db.execute(
                sql: "DELETE FROM \(join.name) WHERE \(ownerColumn) = ? AND \(memberColumn) = ?",
                arguments: [owner, member])
        }
    }

    /// Adds join-table rows linking `owner` to `members` (a link already there stays as it is).
    func addJoinRows(
        _ join: JoinTable, ownerColumn: String, memberColumn: String, owner: Int64, members: [Int64]
    )
        throws
    {
        for member in members {
            try db.execute(
                sql: "INSERT OR IGNORE INTO \(join.name) (\(ownerColumn), \(memberColumn)) VALUES (?, ?)",
                arguments: [owner, member])
        }
    }
}
