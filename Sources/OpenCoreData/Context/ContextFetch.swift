import Foundation

extension NSManagedObjectContext {
    /// Runs a fetch request: predicate, sorts, limits and batching run in SQL; unsaved changes of this
    /// context are taken into account (inserted objects that match are included, deleted ones left out).
    public func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] {
        stateLock.lock()
        defer { stateLock.unlock() }
        let (store, spec) = try prepare(request)
        if T.self is NSManagedObject.Type, T.self != NSManagedObject.self {
            ManagedClassRegistry.shared.register(T.self as! NSManagedObject.Type)
        }
        switch request.resultType {
        case .countResultType:
            return [NSNumber(value: try count(for: request)) as! T]
        case .managedObjectIDResultType:
            let objects = try fetchObjects(request, store: store, spec: spec)
            return objects.map { $0.objectID as! T }
        case .dictionaryResultType:
            var dictionarySpec = spec
            dictionarySpec.distinct = request.returnsDistinctResults
            return try store.core.fetchDictionaries(
                dictionarySpec, properties: request.propertiesToFetch, groupBy: request.propertiesToGroupBy,
                objectID: { row in
                    NSManagedObjectID(entity: row.entity, store: store, primaryKey: row.primaryKey)
                }
            ).map { $0 as! T }
        default:
            if T.self is NSManagedObject.Type {
                // A batched result is built as [T] directly: a million-row result is not held twice.
                if request.fetchBatchSize > 0, request.relationshipKeyPathsForPrefetching?.isEmpty ?? true,
                    !request.includesPendingChanges || !pendingObjects(for: spec).hasAny
                {
                    var checker = ClassChecker<T>()
                    return try batchedObjects(store: store, spec: spec, batchSize: request.fetchBatchSize) {
                        try checker.cast($0)
                    }
                }
                var checker = ClassChecker<T>()
                return try checker.castAll(try fetchObjects(request, store: store, spec: spec))
            }
            return try fetchObjects(request, store: store, spec: spec).map { object in
                guard let typed = object as? T else { throw Self.wrongClass(object, T.self) }
                return typed
            }
        }
    }

    /// The error for a fetched object that is not of the request's result type.
    static func wrongClass<T>(_ object: NSManagedObject, _ type: T.Type) -> NSError {
        coreDataError(
            NSCoreDataError,
            "Fetched \(object.entity.name ?? "?") is a \(Swift.type(of: object)), not a \(T.self); set the entity's class (managedObjectClassName)."
        )
    }

    /// Counts the objects a request would return, in SQL (with this context's unsaved inserts and deletes).
    public func count<T>(for request: NSFetchRequest<T>) throws -> Int {
        stateLock.lock()
        defer { stateLock.unlock() }
        let (store, spec) = try prepare(request)
        let pending = request.includesPendingChanges ? pendingObjects(for: spec) : nil
        guard let pending, pending.hasAny else { return try store.core.count(spec) }
        return try fetchObjects(request, store: store, spec: spec).count
    }

    /// The `FROM … WHERE … ORDER BY …` part of the SQL `request` runs and the number of values it binds, made
    /// without running it: the predicate and sort descriptors translated as a fetch translates them. Not Apple API;
    /// for this package's benchmark (how much of a fetch the translation is) and tests.
    package func fetchSQLTail<T>(for request: NSFetchRequest<T>) throws -> (sql: String, argumentCount: Int) {
        stateLock.lock()
        defer { stateLock.unlock() }
        let (store, spec) = try prepare(request)
        let (sql, arguments) = try store.core.fetchTail(spec)
        return (sql, arguments.count)
    }

    private func prepare<T>(_ request: NSFetchRequest<T>) throws -> (NSPersistentStore, FetchSpec) {
        guard let coordinator = persistentStoreCoordinator else {
            throw coreDataError(NSCoreDataError, "This context has no persistent store coordinator.")
        }
        let model = coordinator.managedObjectModel
        let entity: NSEntityDescription
        if let given = request.entity,
            given.managedObjectModel === model || model.entities.contains(where: { $0 === given })
        {
            entity = given
        } else if let name = request.entityName ?? request.entity?.name, let found = model.entitiesByName[name] {
            entity = found
        } else {
            throw coreDataError(
                NSCoreDataError,
                "The fetch request's entity \(request.entityName ?? request.entity?.name ?? "(none)") is not in the model."
            )
        }
        guard let store = coordinator.store(for: entity) else {
            throw coreDataError(NSCoreDataError, "No persistent store is loaded for entity \(entity.name ?? "?").")
        }
        let spec = FetchSpec(
            entity: entity, predicate: request.predicate, sortDescriptors: request.sortDescriptors ?? [],
            fetchLimit: request.fetchLimit, fetchOffset: request.fetchOffset,
            includesSubentities: request.includesSubentities)
        return (store, spec)
    }

    struct PendingObjects {
        var inserted: [NSManagedObject]
        var deleted: Set<ObjectIdentifier>
        var updated: [NSManagedObject]
        var hasAny: Bool { !inserted.isEmpty || !deleted.isEmpty || !updated.isEmpty }
    }

    private func pendingObjects(for spec: FetchSpec) -> PendingObjects {
        func matchesEntity(_ object: NSManagedObject) -> Bool {
            spec.includesSubentities ? object.entity.isKindOf(entity: spec.entity) : object.entity === spec.entity
        }
        return PendingObjects(
            inserted: insertedList.filter(matchesEntity),
            deleted: Set(deletedList.filter(matchesEntity).map(ObjectIdentifier.init)),
            updated: updatedList.filter { matchesEntity($0) && $0.isUpdated })
    }

    private func fetchObjects<T>(
        _ request: NSFetchRequest<T>, store: NSPersistentStore, spec: FetchSpec
    ) throws -> [NSManagedObject] {
        let pending =
            request.includesPendingChanges
            ? pendingObjects(for: spec) : PendingObjects(inserted: [], deleted: [], updated: [])
        var storeSpec = spec
        if pending.hasAny, spec.fetchLimit > 0 {
            // Pending changes can add or remove results: fetch enough rows to fill the limit afterwards.
            storeSpec.fetchLimit = spec.fetchLimit + spec.fetchOffset + pending.deleted.count + pending.updated.count
            storeSpec.fetchOffset = 0
        }
        var objects: [NSManagedObject]
        if request.fetchBatchSize > 0, request.resultType == .managedObjectResultType, !pending.hasAny {
            objects = try batchedObjects(store: store, spec: storeSpec, batchSize: request.fetchBatchSize) { $0 }
        } else if request.resultType == .managedObjectIDResultType && !pending.hasAny {
            let keys = try store.core.fetchKeys(storeSpec)
            objects = (0..<keys.count).map {
                object(for: RowReference(entity: keys.entity(at: $0), primaryKey: keys.primaryKeys[$0]))
            }
        } else {
            objects = []
            var blocks = RowBlockBuilder(startedEmpty: registry.count == 0)
            try store.core.fetchRows(storeSpec) { row in objects.append(materialize(row, blocks: &blocks)) }
        }
        if let keyPaths = request.relationshipKeyPathsForPrefetching, !keyPaths.isEmpty {
            try prefetch(keyPaths, objects: objects, store: store)
        }
        guard pending.hasAny else { return objects }
        // Merge this context's unsaved changes, evaluating the predicate in memory.
        let predicate = spec.predicate
        func matches(_ object: NSManagedObject) -> Bool { predicate?.evaluate(with: object) ?? true }
        var seen = Set(objects.map(ObjectIdentifier.init))
        objects.removeAll { pending.deleted.contains(ObjectIdentifier($0)) || ($0.isUpdated && !matches($0)) }
        for object in pending.updated where !seen.contains(ObjectIdentifier(object)) && matches(object) {
            objects.append(object)
            seen.insert(ObjectIdentifier(object))
        }
        for object in pending.inserted where matches(object) { objects.append(object) }
        if !spec.sortDescriptors.isEmpty {
            objects = objects.sortedArray(using: spec.sortDescriptors)
        }
        if spec.fetchOffset > 0 { objects = Array(objects.dropFirst(spec.fetchOffset)) }
        if spec.fetchLimit > 0, objects.count > spec.fetchLimit { objects = Array(objects.prefix(spec.fetchLimit)) }
        return objects
    }

    /// The object for a row being fetched: the registered one (its unsaved changes kept; its values
    /// filled if it was a fault), or a new one whose values stay in the fetch's row blocks.
    /// The caller holds `stateLock` (fetches do).
    func materialize(_ row: RowSource, blocks: inout RowBlockBuilder) -> NSManagedObject {
        // A fetch's rows are distinct: while the registry holds only objects this fetch made, none of
        // them can be registered already (awakeFromFetch may fetch or free objects: then rows are looked up).
        let onlyOwn = blocks.startedEmpty && registry.count == blocks.registered && batchGroups.isEmpty
        if !onlyOwn,
            let existing = registry[row.rootID, row.primaryKey]
                ?? (batchGroups.isEmpty ? nil : batchMember(entity: row.entity, primaryKey: row.primaryKey))
        {
            return filledIfFault(existing, values: row.values, version: row.version)
        }
        let block = blocks.block(for: row, context: self)
        let index = block.append(row)
        let object = ObjectConstruction.make(
            entity: row.entity, cls: block.objectClass, context: self, payload: block, index: Int32(index))
        registerHoldingLock(object, root: row.rootID, primaryKey: row.primaryKey)
        blocks.registered += 1
        object.awakeFromFetch()
        return object
    }

    /// The object for a row read from the store: the registered one (its unsaved changes kept), or a new one.
    func materialize(_ row: FetchedRow, store: NSPersistentStore) -> NSManagedObject {
        if let existing = registeredObject(entity: row.entity, primaryKey: row.primaryKey) {
            return filledIfFault(existing, values: row.values, version: row.version)
        }
        let data = ObjectData(primaryKey: row.primaryKey, entity: row.entity)
        data.values = row.values
        data.version = row.version
        let object = ObjectConstruction.make(
            entity: row.entity, cls: row.entity.resolvedClass(), context: self, payload: data)
        register(object, primaryKey: row.primaryKey)
        object.awakeFromFetch()
        return object
    }

    /// A registered object met again by a fetch: a loaded one keeps its values (and unsaved changes), a
    /// fault takes the row's (decoded only then).
    private func filledIfFault(
        _ existing: NSManagedObject, values: @autoclosure () -> SlotValues, version: Int64
    ) -> NSManagedObject {
        guard !existing.hasValues else { return existing }
        let data = existing.data
        data.values = values()
        data.version = version
        existing.awakeFromFetch()
        return existing
    }

    /// Fills a fault's values from the store (the whole batch, for a batch shell).
    ///
    /// A row that is gone from the store follows `shouldDeleteInaccessibleFaults`; any other failure to read
    /// it (I/O, a corrupt row, a locked database) stops the process with the error, where Core Data raises an
    /// exception: the property getter that fired the fault cannot throw, and an object full of made-up values
    /// would be saved back as if it were real (`FaultFailure`).
    func fulfillFault(for object: NSManagedObject) {
        stateLock.lock()
        defer { stateLock.unlock() }
        guard let store = persistentStoreCoordinator?.store(for: object.entity) else { return }
        if let group = object.payload as? BatchGroup {
            loadBatch(group, containing: Int(object.batchIndex), store: store)
            return
        }
        let data = object.data
        guard data.values == nil, data.primaryKey != 0 else { return }
        let rows = FaultFailure.unlessFailing(object) {
            try store.core.loadRows(entity: object.entity, primaryKeys: [data.primaryKey])
        }
        if let row = rows.first {
            data.values = row.values
            data.version = row.version
            object.awakeFromFetch()
        } else {
            faultIsInaccessible(object)
        }
    }

    /// A fault whose row is gone: with `shouldDeleteInaccessibleFaults` (the default) it becomes a deleted
    /// object whose values are nil, 0 or false (not the model's defaults); otherwise the process stops, as
    /// Core Data raises "could not fulfill a fault".
    private func faultIsInaccessible(_ object: NSManagedObject) {
        guard shouldDeleteInaccessibleFaults else {
            FaultFailure.rowIsGone(object)
        }
        object.data.values = NSManagedObject.nullValues(for: object.entity)
        object.flags.insert(.deleted)
    }

    /// The related objects of a to-many relationship, read from the store (a failure to read stops the
    /// process, as for a fault).
    func fetchRelated(of object: NSManagedObject, relationship: NSRelationshipDescription) -> [NSManagedObject] {
        stateLock.lock()
        defer { stateLock.unlock() }
        guard !object.isInserted, let store = persistentStoreCoordinator?.store(for: object.entity),
            let slot = object.entity.layout.slotByName[relationship.name]
        else { return [] }
        let keys = FaultFailure.unlessFailing(object, relationship: relationship.name) {
            try store.core.relatedKeys(entity: object.entity, slot: slot, ownerKeys: [object.primaryKeyIfKnown])
        }
        return keys.map { self.object(for: $0.1) }
    }

    // MARK: Batches

    /// A batched result: shells for the rows (existing objects where the context has them), each passed
    /// through `transform` into the result array.
    private func batchedObjects<R>(
        store: NSPersistentStore, spec: FetchSpec, batchSize: Int,
        as transform: (NSManagedObject) throws -> R
    ) throws -> [R] {
        let keys = try store.core.fetchKeys(spec)
        let group = BatchGroup(entity: spec.entity, primaryKeys: keys.primaryKeys, batchSize: batchSize)
        group.context = self
        var objects: [R] = []
        objects.reserveCapacity(keys.count)
        var classes: [ObjectIdentifier: NSManagedObject.Type] = [:]
        for index in 0..<keys.count {
            let primaryKey = keys.primaryKeys[index]
            let entity = keys.entity(at: index)
            if let existing = registeredObject(entity: entity, primaryKey: primaryKey) {
                objects.append(try transform(existing))
                group.append(nil)
                continue
            }
            let cls = classes[ObjectIdentifier(entity)] ?? entity.resolvedClass()
            classes[ObjectIdentifier(entity)] = cls
            // A row of a subentity gets its own (fault) data: a shell's entity is its group's.
            let payload: ObjectPayload
            if entity === group.entity {
                payload = group
            } else {
                let data = ObjectData(primaryKey: primaryKey, entity: entity)
                data.batchGroup = group
                payload = data
            }
            let shell = ObjectConstruction.make(
                entity: entity, cls: cls, context: self, payload: payload, index: Int32(index))
            shell.flags.insert(.batched)
            group.append(shell)
            objects.append(try transform(shell))
        }
        batchGroups.removeAll { $0.group == nil }
        batchGroups.append(WeakBatchGroup(group: group))
        return objects
    }

    /// A live member of this context's batch groups for a row, if there is one.
    func batchMember(entity: NSEntityDescription, primaryKey: Int64) -> NSManagedObject? {
        let root = entity.layout.rootID
        for weak in batchGroups {
            guard let group = weak.group, group.layout.rootID == root,
                let object = group.member(primaryKey: primaryKey), object.managedObjectContext === self
            else { continue }
            return object
        }
        return nil
    }

    /// Every live member of this context's batch groups.
    var batchMembers: [NSManagedObject] {
        batchGroups.flatMap { $0.group?.liveMembers ?? [] }
    }

    private func loadBatch(_ group: BatchGroup, containing index: Int, store: NSPersistentStore) {
        let batch = index / group.batchSize
        let range = (batch * group.batchSize)..<min((batch + 1) * group.batchSize, group.primaryKeys.count)
        let shells = range.compactMap { group.member(at: $0) }.filter { $0.payload === group }
        guard !shells.isEmpty else { return }
        var byKey: [Int64: FetchedRow] = [:]
        let rows = FaultFailure.unlessFailing(shells[0]) {
            try store.core.loadRows(entity: group.entity, primaryKeys: shells.map(\.primaryKeyIfKnown))
        }
        for row in rows { byKey[row.primaryKey] = row }
        for shell in shells {
            let data = ObjectData(primaryKey: shell.primaryKeyIfKnown, entity: group.entity)
            data.batchGroup = group
            data.context = group.context
            if let row = byKey[data.primaryKey] {
                data.values = row.values
                data.version = row.version
            }
            shell.payload = data
            if data.values != nil { shell.awakeFromFetch() }
        }
        // Turn batches read earlier back into shells, so iterating a large result keeps memory bounded.
        for old in group.didLoad(batch: batch) {
            let oldRange = (old * group.batchSize)..<min((old + 1) * group.batchSize, group.primaryKeys.count)
            for i in oldRange {
                guard let object = group.member(at: i), let data = object.payload as? ObjectData,
                    data.changedSlots.isEmpty,
                    !object.isDeleted, data.batchGroup === group, data.entity === group.entity,
                    data.context === group.context,
                    data.primaryKey == group.primaryKeys[i]
                else { continue }
                object.payload = group
                object.batchIndex = Int32(i)
            }
        }
    }

    // MARK: Prefetching

    private func prefetch(_ keyPaths: [String], objects: [NSManagedObject], store: NSPersistentStore) throws {
        for keyPath in keyPaths {
            let name = String(keyPath.split(separator: ".").first ?? "")
            var byEntity: [ObjectIdentifier: [NSManagedObject]] = [:]
            for object in objects { byEntity[ObjectIdentifier(object.entity), default: []].append(object) }
            for group in byEntity.values {
                guard let entity = group.first?.entity, let slot = entity.layout.slotByName[name],
                    let relationship = entity.layout.properties[slot] as? NSRelationshipDescription
                else { continue }
                if relationship.isToMany {
                    let owners = group.filter { !$0.isInserted && !$0.isFault }
                    let keys = try store.core.relatedKeys(
                        entity: entity, slot: slot, ownerKeys: owners.map(\.primaryKeyIfKnown))
                    var related: [Int64: [NSManagedObject]] = [:]
                    for (owner, reference) in keys { related[owner, default: []].append(object(for: reference)) }
                    let destinations = keys.map(\.1)
                    if let destination = relationship.destinationEntity {
                        for row in try store.core.loadRows(
                            entity: destination, primaryKeys: destinations.map(\.primaryKey))
                        { _ = materialize(row, store: store) }
                    }
                    for owner in owners where !(owner.data.values![slot] is RelationshipObjects) {
                        owner.data.values![slot] = RelationshipObjects(related[owner.primaryKeyIfKnown] ?? [])
                    }
                } else {
                    let references = group.compactMap { $0.data.values?[slot] as? RowReference }
                    guard let destination = relationship.destinationEntity, !references.isEmpty else { continue }
                    var loaded: [Int64: NSManagedObject] = [:]
                    for row in try store.core.loadRows(entity: destination, primaryKeys: references.map(\.primaryKey)) {
                        loaded[row.primaryKey] = materialize(row, store: store)
                    }
                    // The owners hold the related objects, so they stay registered and loaded.
                    for owner in group {
                        guard let reference = owner.data.values?[slot] as? RowReference,
                            let target = loaded[reference.primaryKey]
                        else { continue }
                        owner.data.values![slot] = target
                        if owner.data.committed != nil { owner.data.committed![slot] = target }
                    }
                }
            }
        }
    }
}
