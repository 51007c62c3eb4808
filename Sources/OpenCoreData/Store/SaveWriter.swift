import Foundation
import GRDB
import GRDBSQLite

/// Writes one save's changes to one store inside a single SQLite transaction.
final class SaveWriter {
    let store: NSPersistentStore
    let schema: StoreSchema
    unowned let context: NSManagedObjectContext
    let policy: NSMergePolicyType
    private var assigned: [NSManagedObject] = []
    private var conflicts: [NSMergeConflict] = []

    init(store: NSPersistentStore, context: NSManagedObjectContext, policy: NSMergePolicyType) {
        self.store = store
        self.schema = store.schema
        self.context = context
        self.policy = policy
    }

    func write(_ batch: SaveBatch) throws -> SaveOutcome {
        var outcome = SaveOutcome(store: store, inserted: batch.inserted)
        try store.writer.write { db in
            outcome.lastKeys = try assignKeys(batch.inserted, db: db)
            // An inserted row's version is 1 (see finishSave): no entry per object.
            for object in batch.inserted { try insert(object, db: db) }
            for object in batch.updated {
                if let version = try update(object, db: db) { outcome.versions[ObjectIdentifier(object)] = version }
            }
            for object in batch.deleted { try delete(object, db: db) }
            for object in batch.inserted + batch.updated { try writeToMany(object, db: db) }
            if store.metadataNeedsWriting { try store.writeMetadata(in: db) }
            if !conflicts.isEmpty {
                let names = conflicts.map {
                    "\($0.sourceObject.entity.name ?? "?") \($0.sourceObject.objectID.uriRepresentation().absoluteString)"
                }
                throw coreDataError(
                    NSManagedObjectMergeError,
                    "Could not merge changes: \(conflicts.count) object(s) changed in the store since they were read (\(names.joined(separator: ", "))). Nothing was saved.",
                    [NSPersistentStoreSaveConflictsErrorKey: conflicts])
            }
        }
        store.metadataNeedsWriting = false
        return outcome
    }

    /// Gives inserted objects primary keys from Z_PRIMARYKEY; returns the last key per table.
    func assignKeys(_ objects: [NSManagedObject], db: Database) throws -> [(NSEntityDescription, Int64)] {
        var byRoot: [ObjectIdentifier: (NSEntityDescription, [NSManagedObject])] = [:]
        for object in objects where object.data.primaryKey == 0 {
            let root = object.entity.rootEntity
            byRoot[ObjectIdentifier(root), default: (root, [])].1.append(object)
        }
        var last: [(NSEntityDescription, Int64)] = []
        for (root, list) in byRoot.values {
            var key = try store.allocatePrimaryKeys(root: root, count: list.count, db: db)
            for object in list {
                object.data.primaryKey = key
                assigned.append(object)
                key += 1
            }
            last.append((root, key - 1))
        }
        return last
    }

    /// Puts the keys of a failed save back to "not saved".
    func undoKeyAssignments() {
        for object in assigned where object.data.isNew { object.data.primaryKey = 0 }
        assigned.removeAll()
    }

    private func insert(_ object: NSManagedObject, db: Database) throws {
        let codec = store.codec(for: object.entity)
        let values = object.data.values ?? []
        let statement = try db.cachedStatement(sql: codec.insertSQL)
        let handle = statement.sqliteStatement
        sqlite3_bind_int64(handle, 1, object.data.primaryKey)
        sqlite3_bind_int64(handle, 2, Int64(codec.mapping.number))
        sqlite3_bind_int64(handle, 3, 1)
        // SQLite parameters are numbered from 4, after Z_PK, Z_ENT and Z_OPT.
        let columns = codec.insertColumns
        do {
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
            let isEntity = column.kind == .relationshipEntity
            if let object = raw as? NSManagedObject {
                if object.isDeleted && object.managedObjectContext == nil { return .null }
                if isEntity { return schema.mapping(for: object.entity).number.databaseValue }
                let key = object.primaryKeyIfKnown
                return key == 0 ? .null : key.databaseValue
            }
            if let reference = raw as? RowReference {
                if isEntity { return schema.mapping(for: reference.entity).number.databaseValue }
                return reference.primaryKey.databaseValue
            }
            return .null
        }
    }

    /// Writes an updated object's changed columns if its row version is unchanged; returns the new version.
    private func update(_ object: NSManagedObject, db: Database) throws -> Int64? {
        let data = object.data
        let codec = store.codec(for: object.entity)
        let table = codec.mapping.table.name
        var changedColumns = codec.insertColumns.filter { data.changedSlots.contains($0.slot) }
        let version = data.version
        var values = data.values ?? []
        // Optimistic locking: read the row's current version.
        let stored = try Int64.fetchOne(
            db, sql: "SELECT Z_OPT FROM \(table) WHERE Z_PK = ?", arguments: [data.primaryKey])
        guard let storedVersion = stored else {
            conflicts.append(
                NSMergeConflict(
                    source: object, objectSnapshot: object.committedValues(forKeys: nil), persistedSnapshot: nil,
                    oldVersion: Int(version), newVersion: 0))
            return nil
        }
        if storedVersion != version {
            switch policy {
            case .errorMergePolicyType:
                conflicts.append(
                    NSMergeConflict(
                        source: object, objectSnapshot: object.committedValues(forKeys: nil),
                        persistedSnapshot: try persistedSnapshot(object, db: db),
                        oldVersion: Int(version), newVersion: Int(storedVersion)))
                return nil
            case .overwriteMergePolicyType:
                changedColumns = codec.insertColumns
            case .mergeByPropertyObjectTrumpMergePolicyType, .mergeByPropertyStoreTrumpMergePolicyType,
                .rollbackMergePolicyType:
                guard
                    let row = try Row.fetchOne(
                        db,
                        sql: "SELECT \(store.selectColumns(codec.mapping.table)) FROM \(table) t0 WHERE t0.Z_PK = ?",
                        arguments: [data.primaryKey])
                else { return nil }
                let fresh = codec.decode(row, schema: schema)
                let committed = data.committed ?? values
                for (slot, property) in object.entity.layout.properties.enumerated()
                where !(property is NSRelationshipDescription && (property as! NSRelationshipDescription).isToMany) {
                    let storeChanged = !Equality.same(fresh[slot], committed[slot])
                    let mine = data.changedSlots.contains(slot)
                    switch policy {
                    case .rollbackMergePolicyType:
                        values[slot] = fresh[slot]
                    case .mergeByPropertyStoreTrumpMergePolicyType:
                        if storeChanged || !mine { values[slot] = fresh[slot] }
                    default:
                        if !mine { values[slot] = fresh[slot] }
                    }
                }
                data.values = values
                data.committed = fresh
                if policy == .rollbackMergePolicyType {
                    data.changedSlots.removeAll()
                    return storedVersion
                }
                changedColumns = codec.insertColumns
            }
        }
        let newVersion = storedVersion + 1
        guard !changedColumns.isEmpty else {
            try db.execute(
                sql: "UPDATE \(table) SET Z_OPT = ? WHERE Z_PK = ?", arguments: [newVersion, data.primaryKey])
            return newVersion
        }
        let assignments = changedColumns.map { "\($0.name) = ?" }.joined(separator: ", ")
        var arguments = changedColumns.map { encode($0, values: values) }
        arguments.append(newVersion.databaseValue)
        arguments.append(data.primaryKey.databaseValue)
        let statement = try db.cachedStatement(sql: "UPDATE \(table) SET \(assignments), Z_OPT = ? WHERE Z_PK = ?")
        statement.setUncheckedArguments(StatementArguments(arguments))
        try statement.execute()
        return newVersion
    }

    private func persistedSnapshot(_ object: NSManagedObject, db: Database) throws -> [String: Any]? {
        let codec = store.codec(for: object.entity)
        guard
            let row = try Row.fetchOne(
                db,
                sql:
                    "SELECT \(store.selectColumns(codec.mapping.table)) FROM \(codec.mapping.table.name) t0 WHERE t0.Z_PK = ?",
                arguments: [object.data.primaryKey])
        else { return nil }
        let values = codec.decode(row, schema: schema)
        var snapshot: [String: Any] = [:]
        for (slot, property) in object.entity.layout.properties.enumerated() where property is NSAttributeDescription {
            snapshot[property.name] = values[slot] ?? NSNull()
        }
        return snapshot
    }

    private func delete(_ object: NSManagedObject, db: Database) throws {
        let data = object.data
        let codec = store.codec(for: object.entity)
        let table = codec.mapping.table.name
        if policy == .errorMergePolicyType {
            let stored = try Int64.fetchOne(
                db, sql: "SELECT Z_OPT FROM \(table) WHERE Z_PK = ?", arguments: [data.primaryKey])
            if let stored, stored != data.version {
                conflicts.append(
                    NSMergeConflict(
                        source: object, objectSnapshot: object.committedValues(forKeys: nil),
                        persistedSnapshot: try persistedSnapshot(object, db: db),
                        oldVersion: Int(data.version), newVersion: Int(stored)))
                return
            }
        }
        try db.execute(sql: "DELETE FROM \(table) WHERE Z_PK = ?", arguments: [data.primaryKey])
        for slot in codec.mapping.slots {
            if case .toManyByJoin(let join, let isSource, _) = slot {
                try db.execute(
                    sql: "DELETE FROM \(join.name) WHERE \(isSource ? join.sourceColumn : join.destinationColumn) = ?",
                    arguments: [data.primaryKey])
            }
        }
    }

    /// Join-table rows and ordering columns of changed to-many relationships.
    private func writeToMany(_ object: NSManagedObject, db: Database) throws {
        let toManySlots = object.entity.layout.toManySlots
        if toManySlots.isEmpty { return }
        let data = object.data
        guard let values = data.values else { return }
        let mapping = schema.mapping(for: object.entity)
        for slot in toManySlots where object.isInserted || data.changedSlots.contains(slot) {
            let slotMapping = mapping.slots[slot]
            guard let current = values[slot] as? RelationshipObjects else { continue }
            let relationship = object.entity.layout.properties[slot] as! NSRelationshipDescription
            switch slotMapping {
            case .toManyByInverse(let table, _, let orderColumn, _):
                guard let orderColumn else { continue }
                for (index, member) in current.objects.enumerated() where !member.isDeleted {
                    try db.execute(
                        sql: "UPDATE \(table) SET \(orderColumn) = ? WHERE Z_PK = ?",
                        arguments: [index + 1, member.primaryKeyIfKnown])
                }
            case .toManyByJoin(let join, let isSource, _):
                guard isSource || relationship.inverseRelationship == nil else { continue }
                let (mine, theirs) =
                    isSource ? (join.sourceColumn, join.destinationColumn) : (join.destinationColumn, join.sourceColumn)
                let previous = (data.committed?[slot] as? RelationshipObjects)?.objects ?? []
                if join.orderColumn != nil && isSource {
                    try db.execute(sql: "DELETE FROM \(join.name) WHERE \(mine) = ?", arguments: [data.primaryKey])
                    for (index, member) in current.objects.enumerated() where !member.isDeleted {
                        try db.execute(
                            sql:
                                "INSERT OR REPLACE INTO \(join.name) (\(mine), \(theirs), \(join.orderColumn!)) VALUES (?, ?, ?)",
                            arguments: [data.primaryKey, member.primaryKeyIfKnown, index + 1])
                    }
                    continue
                }
                let previousIDs = Set(previous.map(ObjectIdentifier.init))
                for member in previous where !current.contains(member) {
                    try db.execute(
                        sql: "DELETE FROM \(join.name) WHERE \(mine) = ? AND \(theirs) = ?",
                        arguments: [data.primaryKey, member.primaryKeyIfKnown])
                }
                for member in current.objects where !previousIDs.contains(ObjectIdentifier(member)) && !member.isDeleted
                {
                    try db.execute(
                        sql: "INSERT OR IGNORE INTO \(join.name) (\(mine), \(theirs)) VALUES (?, ?)",
                        arguments: [data.primaryKey, member.primaryKeyIfKnown])
                }
            default:
                continue
            }
        }
    }
}

/// Value equality across the types attribute values come in.
enum Equality {
    static func same(_ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case (let x as NSManagedObject, let y as NSManagedObject): return x === y
        case (let x as RowReference, let y as RowReference):
            return x.primaryKey == y.primaryKey && x.entity.rootEntity === y.entity.rootEntity
        case (let x as NSManagedObject, let y as RowReference), (let y as RowReference, let x as NSManagedObject):
            return x.primaryKeyIfKnown == y.primaryKey && x.entity.rootEntity === y.entity.rootEntity
        case (let x as RelationshipObjects, let y as RelationshipObjects):
            return x.objects.map(ObjectIdentifier.init) == y.objects.map(ObjectIdentifier.init)
        case (let x as [String: Any], let y as [String: Any]):
            return x.count == y.count && x.allSatisfy { same($0.value, y[$0.key]) }
        case (let x as AnyHashable, let y as AnyHashable): return x == y
        default: return String(describing: a!) == String(describing: b!)
        }
    }
}
