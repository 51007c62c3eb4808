import Foundation

/// Turns one save's changes to one store into row writes (`RowWriter`) inside a single SQLite transaction:
/// keys for inserted objects, optimistic locking with the context's merge policy, to-many links.
final class SaveWriter {
    let store: NSPersistentStore
    let schema: StoreSchema
    let policy: NSMergePolicyType
    private var assigned: [NSManagedObject] = []
    private var conflicts: [NSMergeConflict] = []

    init(store: NSPersistentStore, policy: NSMergePolicyType) {
        self.store = store
        self.schema = store.schema
        self.policy = policy
    }

    func write(_ batch: SaveBatch) throws -> SaveOutcome {
        var outcome = SaveOutcome(store: store, inserted: batch.inserted)
        try store.core.write { rows in
            outcome.lastKeys = try assignKeys(batch.inserted, rows: rows)
            // An inserted row's version is 1 (see finishSave): no entry per object.
            for object in batch.inserted { try insert(object, rows: rows) }
            for object in batch.updated {
                if let version = try update(object, rows: rows) { outcome.versions[ObjectIdentifier(object)] = version }
            }
            for object in batch.deleted { try delete(object, rows: rows) }
            for object in batch.inserted + batch.updated { try writeToMany(object, rows: rows) }
            if store.metadataNeedsWriting { try rows.writeMetadata(store.metadata) }
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
    func assignKeys(_ objects: [NSManagedObject], rows: RowWriter) throws -> [(NSEntityDescription, Int64)] {
        var byRoot: [ObjectIdentifier: (NSEntityDescription, [NSManagedObject])] = [:]
        for object in objects where object.data.primaryKey == 0 {
            let root = object.entity.rootEntity
            byRoot[ObjectIdentifier(root), default: (root, [])].1.append(object)
        }
        var last: [(NSEntityDescription, Int64)] = []
        for (root, list) in byRoot.values {
            var key = try rows.allocatePrimaryKeys(root: root, count: list.count)
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

    private func insert(_ object: NSManagedObject, rows: RowWriter) throws {
        try rows.insert(
            store.core.codec(for: object.entity), primaryKey: object.data.primaryKey, values: object.data.values ?? [])
    }

    /// Writes an updated object's changed columns if its row version is unchanged; returns the new version.
    private func update(_ object: NSManagedObject, rows: RowWriter) throws -> Int64? {
        let data = object.data
        let codec = store.core.codec(for: object.entity)
        var changedColumns = codec.insertColumns.filter { data.changedSlots.contains($0.slot) }
        let version = data.version
        var values = data.values ?? []
        // Optimistic locking: read the row's current version.
        guard let storedVersion = try rows.storedVersion(codec, primaryKey: data.primaryKey) else {
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
                        persistedSnapshot: try persistedSnapshot(object, codec: codec, rows: rows),
                        oldVersion: Int(version), newVersion: Int(storedVersion)))
                return nil
            case .overwriteMergePolicyType:
                changedColumns = codec.insertColumns
            case .mergeByPropertyObjectTrumpMergePolicyType, .mergeByPropertyStoreTrumpMergePolicyType,
                .rollbackMergePolicyType:
                guard let fresh = try rows.row(codec, primaryKey: data.primaryKey) else { return nil }
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
        try rows.update(
            codec, primaryKey: data.primaryKey, columns: changedColumns, values: values, version: newVersion)
        return newVersion
    }

    /// The attribute values the store holds for an object's row now, by name (a merge conflict's snapshot).
    private func persistedSnapshot(
        _ object: NSManagedObject, codec: RowCodec, rows: RowWriter
    ) throws
        -> [String: Any]?
    {
        guard let values = try rows.row(codec, primaryKey: object.data.primaryKey) else { return nil }
        var snapshot: [String: Any] = [:]
        for (slot, property) in object.entity.layout.properties.enumerated() where property is NSAttributeDescription {
            snapshot[property.name] = values[slot] ?? NSNull()
        }
        return snapshot
    }

    private func delete(_ object: NSManagedObject, rows: RowWriter) throws {
        let data = object.data
        let codec = store.core.codec(for: object.entity)
        if policy == .errorMergePolicyType {
            if let stored = try rows.storedVersion(codec, primaryKey: data.primaryKey), stored != data.version {
                conflicts.append(
                    NSMergeConflict(
                        source: object, objectSnapshot: object.committedValues(forKeys: nil),
                        persistedSnapshot: try persistedSnapshot(object, codec: codec, rows: rows),
                        oldVersion: Int(data.version), newVersion: Int(stored)))
                return
            }
        }
        try rows.delete(codec, primaryKey: data.primaryKey)
    }

    /// Join-table rows and ordering columns of changed to-many relationships.
    private func writeToMany(_ object: NSManagedObject, rows: RowWriter) throws {
        let toManySlots = object.entity.layout.toManySlots
        if toManySlots.isEmpty { return }
        let data = object.data
        guard let values = data.values else { return }
        let mapping = schema.mapping(for: object.entity)
        for slot in toManySlots where object.isInserted || data.changedSlots.contains(slot) {
            guard let current = values[slot] as? RelationshipObjects else { continue }
            let relationship = object.entity.layout.properties[slot] as! NSRelationshipDescription
            let members = current.objects.filter { !$0.isDeleted }.map(\.primaryKeyIfKnown)
            switch mapping.slots[slot] {
            case .toManyByInverse(let table, _, let orderColumn, _):
                guard let orderColumn else { continue }
                try rows.setOrder(table: table, orderColumn: orderColumn, members: members)
            case .toManyByJoin(let join, let isSource, _):
                guard isSource || relationship.inverseRelationship == nil else { continue }
                let (mine, theirs) =
                    isSource ? (join.sourceColumn, join.destinationColumn) : (join.destinationColumn, join.sourceColumn)
                if join.orderColumn != nil && isSource {
                    try rows.replaceOrderedJoinRows(
                        join, ownerColumn: mine, memberColumn: theirs, owner: data.primaryKey, members: members)
                    continue
                }
                let previous = (data.committed?[slot] as? RelationshipObjects)?.objects ?? []
                let previousIDs = Set(previous.map(ObjectIdentifier.init))
                try rows.removeJoinRows(
                    join, ownerColumn: mine, memberColumn: theirs, owner: data.primaryKey,
                    members: previous.filter { !current.contains($0) }.map(\.primaryKeyIfKnown))
                try rows.addJoinRows(
                    join, ownerColumn: mine, memberColumn: theirs, owner: data.primaryKey,
                    members: current.objects.filter { !previousIDs.contains(ObjectIdentifier($0)) && !$0.isDeleted }
                        .map(\.primaryKeyIfKnown))
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
