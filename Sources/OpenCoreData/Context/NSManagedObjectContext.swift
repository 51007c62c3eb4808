import Foundation

/// A scratchpad of managed objects: changes are tracked here and written to the store by `save()`.
///
/// Concurrency on Linux: every context has its own serial queue (also for `.mainQueueConcurrencyType`,
/// since a Linux process need not run the main queue). `perform` enqueues a block on it,
/// `performAndWait` and the async `perform` run the block with the context's lock held, so blocks never
/// overlap. As with Apple's Core Data, objects belong to their context: use them inside its blocks.
open class NSManagedObjectContext: NSObject, @unchecked Sendable {
    /// How a context runs its blocks.
    public enum ConcurrencyType: UInt, Sendable {
        /// Deprecated: confined to the creating thread (treated as private-queue here).
        case confinementConcurrencyType = 0
        /// Blocks run on the context's own queue.
        case privateQueueConcurrencyType = 1
        /// The context serves the UI (its blocks also run on its own queue on Linux).
        case mainQueueConcurrencyType = 2
    }

    /// When an async `perform` block runs.
    public enum ScheduledTaskType: Int, Sendable {
        /// Now, if possible.
        case immediate = 0
        /// After the blocks already enqueued.
        case enqueued = 1
    }

    /// How the context runs its blocks.
    public let concurrencyType: ConcurrencyType
    /// The coordinator the context reads and saves through.
    open var persistentStoreCoordinator: NSPersistentStoreCoordinator? {
        didSet { updateMergeObservation() }
    }
    /// A name for debugging.
    open var name: String?
    /// Whether saves of other contexts on the same coordinator are merged into this one automatically.
    open var automaticallyMergesChangesFromParent: Bool = false {
        didSet { updateMergeObservation() }
    }
    /// How conflicts found by optimistic locking are resolved when saving (`NSMergePolicy.error` by default).
    open var mergePolicy: Any = NSMergePolicy.error
    /// How long fetched values are considered fresh (kept for API parity).
    open var stalenessInterval: TimeInterval = -1
    /// Whether faults whose rows are gone are deleted instead of raising (true by default).
    open var shouldDeleteInaccessibleFaults: Bool = true
    /// Free-form information.
    open var userInfo = NSMutableDictionary()
    /// Name of the transaction author (kept for API parity).
    open var transactionAuthor: String?

    let stateLock = NSRecursiveLock()
    private let queue: DispatchQueue
    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    /// Used under `stateLock` only (the registry holds that lock, for freed objects that remove themselves).
    let registry: ObjectRegistry
    /// The groups of batched fetch results; their members are registered objects too (see `BatchGroup`).
    /// Used under `stateLock` only (a fetch reads it per row).
    // Safe because every access holds `stateLock`, so no two can overlap (no run-time check needed).
    @exclusivity(unchecked) var batchGroups: [WeakBatchGroup] = []
    var insertedList: [NSManagedObject] = []
    var updatedList: [NSManagedObject] = []
    var deletedList: [NSManagedObject] = []
    var updatedMembers = Set<ObjectIdentifier>()

    /// Creates a context; give it a coordinator before use.
    public init(concurrencyType type: ConcurrencyType) {
        concurrencyType = type
        registry = ObjectRegistry(lock: stateLock)
        queue = DispatchQueue(label: "OpenCoreData.context")
        super.init()
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    }

    deinit {
        persistentStoreCoordinator?.removeMergeObserver(self)
    }

    // MARK: Running blocks

    /// The contexts whose blocks are running, innermost last, by thread (each held while its block runs).
    private static let currentStack = Locked<[ObjectIdentifier: [NSManagedObjectContext]]>([:])

    /// The context whose block is running on this thread, if any.
    static var current: NSManagedObjectContext? {
        let thread = ObjectIdentifier(Thread.current)
        return currentStack.withLock { $0[thread]?.last }
    }

    private func withCurrent<T>(_ body: () throws -> T) rethrows -> T {
        let thread = ObjectIdentifier(Thread.current)
        Self.currentStack.withLock { $0[thread, default: []].append(self) }
        defer {
            Self.currentStack.withLock { stacks in
                stacks[thread]?.removeLast()
                if stacks[thread]?.isEmpty == true { stacks[thread] = nil }
            }
        }
        return try body()
    }

    /// Runs a block on the context's queue, asynchronously.
    open func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            stateLock.lock()
            defer { stateLock.unlock() }
            withCurrent(block)
        }
    }

    /// Runs a block with the context to itself and waits for it; may be nested.
    open func performAndWait(_ block: () -> Void) {
        stateLock.lock()
        defer { stateLock.unlock() }
        withCurrent(block)
    }

    /// Runs a throwing block with the context to itself and returns its result; may be nested.
    open func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        stateLock.lock()
        defer { stateLock.unlock() }
        return try withCurrent(block)
    }

    /// Runs a block after the blocks already enqueued with `perform`, and returns its result.
    /// (`.immediate` and `.enqueued` both wait for the blocks enqueued before.)
    open func perform<T>(
        schedule: ScheduledTaskType = .immediate, _ block: @escaping () throws -> T
    ) async rethrows -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
        return try stateLock.withLock { try withCurrent(block) }
    }

    // MARK: Object registry

    func register(_ object: NSManagedObject, primaryKey: Int64) {
        stateLock.withLock { registerHoldingLock(object, root: object.payload.layout.rootID, primaryKey: primaryKey) }
    }

    /// `register` for a caller that holds `stateLock` and knows the row's root entity (a fetch, per row).
    func registerHoldingLock(_ object: NSManagedObject, root: ObjectIdentifier, primaryKey: Int64) {
        registry.insert(object, root: root, primaryKey: primaryKey)
        object.flags.insert(.registered)
    }

    func registeredObject(entity: NSEntityDescription, primaryKey: Int64) -> NSManagedObject? {
        stateLock.withLock { registeredObjectHoldingLock(entity: entity, primaryKey: primaryKey) }
    }

    /// `registeredObject` for a caller that holds `stateLock` (a fetch, per row).
    func registeredObjectHoldingLock(entity: NSEntityDescription, primaryKey: Int64) -> NSManagedObject? {
        if let object = registry[entity.layout.rootID, primaryKey] { return object }
        return batchGroups.isEmpty ? nil : batchMember(entity: entity, primaryKey: primaryKey)
    }

    /// The object for a related row: the registered one, or a new fault.
    func object(for reference: RowReference) -> NSManagedObject {
        stateLock.lock()
        defer { stateLock.unlock() }
        if let existing = registeredObject(entity: reference.entity, primaryKey: reference.primaryKey) {
            return existing
        }
        let object = ObjectConstruction.make(
            entity: reference.entity, cls: reference.entity.resolvedClass(), context: self,
            payload: ObjectData(primaryKey: reference.primaryKey, entity: reference.entity))
        register(object, primaryKey: reference.primaryKey)
        return object
    }

    /// Every object registered with the context.
    open var registeredObjects: Set<NSManagedObject> {
        stateLock.withLock { Set(registry.objects).union(batchMembers).union(insertedList) }
    }

    /// The object for an ID: the registered one, or a fault (which raises on access if the row is gone).
    open func object(with objectID: NSManagedObjectID) -> NSManagedObject {
        if let registered = registeredObject(for: objectID) { return registered }
        return object(for: RowReference(entity: objectID.entity, primaryKey: objectID.primaryKey))
    }

    /// The object for an ID if the context has it registered.
    open func registeredObject(for objectID: NSManagedObjectID) -> NSManagedObject? {
        stateLock.lock()
        defer { stateLock.unlock() }
        if objectID.isTemporaryID { return insertedList.first { $0.objectID == objectID } }
        return registeredObject(entity: objectID.entity, primaryKey: objectID.primaryKey)
    }

    /// The object for an ID, loaded from the store; throws when no such object exists.
    open func existingObject(with objectID: NSManagedObjectID) throws -> NSManagedObject {
        stateLock.lock()
        defer { stateLock.unlock() }
        if let registered = registeredObject(for: objectID) {
            if registered.isFault { fulfillFault(for: registered) }
            if !registered.isFault || registered.isInserted { return registered }
        }
        guard !objectID.isTemporaryID, let store = persistentStoreCoordinator?.store(for: objectID.entity),
            let row = try store.core.loadRows(entity: objectID.entity, primaryKeys: [objectID.primaryKey]).first
        else {
            throw coreDataError(
                NSManagedObjectReferentialIntegrityError,
                "No object with ID \(objectID.uriRepresentation().absoluteString) exists in the store.")
        }
        return materialize(row, store: store)
    }

    /// The entity for a class, in the coordinator's model.
    func entityForClass(_ cls: NSManagedObject.Type) -> NSEntityDescription? {
        guard let model = persistentStoreCoordinator?.managedObjectModel else { return nil }
        return model.entity(forClass: cls)
    }

    // MARK: Changes

    /// Inserts an object: it is saved with the next `save()`.
    open func insert(_ object: NSManagedObject) {
        if let other = object.managedObjectContext, other !== self {
            // As Core Data raises: the object stays where it is, registered and tracked by one context.
            preconditionFailure(
                "An NSManagedObject may only be in (or observed by) a single NSManagedObjectContext: this \(object.entity.name ?? "object") belongs to another context"
            )
        }
        stateLock.lock()
        defer { stateLock.unlock() }
        if object.managedObjectContext === self && (object.isInserted || !object.objectID.isTemporaryID) {
            if object.isDeleted { undelete(object) }
            return
        }
        object.managedObjectContext = self
        object.flags.insert(.inserted)
        insertedList.append(object)
        if !object.flags.contains(.awakened) {
            object.flags.insert(.awakened)
            object.awakeFromInsert()
        }
    }

    private func undelete(_ object: NSManagedObject) {
        object.flags.remove(.deleted)
        deletedList.removeAll { $0 === object }
    }

    /// Deletes an object, applying its relationships' delete rules (cascade, nullify, deny at save).
    open func delete(_ object: NSManagedObject) {
        stateLock.lock()
        defer { stateLock.unlock() }
        guard object.managedObjectContext === self, !object.isDeleted else { return }
        object.prepareForDeletion()
        object.fireFaultIfNeeded()
        if object.isInserted {
            insertedList.removeAll { $0 === object }
            object.flags.remove(.inserted)
            object.flags.insert(.deleted)
            applyDeleteRules(object)
            object.flags.remove(.deleted)
            object.managedObjectContext = nil
            return
        }
        object.flags.insert(.deleted)
        if updatedMembers.remove(ObjectIdentifier(object)) != nil { updatedList.removeAll { $0 === object } }
        deletedList.append(object)
        applyDeleteRules(object)
    }

    private func applyDeleteRules(_ object: NSManagedObject) {
        for case let relationship as NSRelationshipDescription in object.entity.layout.properties {
            let related =
                RelationshipValues.objects(from: object.value(forKey: relationship.name))
                + [object.value(forKey: relationship.name) as? NSManagedObject].compactMap { $0 }.filter { _ in
                    !relationship.isToMany
                }
            switch relationship.deleteRule {
            case .cascadeDeleteRule:
                for target in related where !target.isDeleted { delete(target) }
                if let inverse = relationship.inverseRelationship {
                    for target in related { target.removeInverse(object, relationship: inverse) }
                }
            case .nullifyDeleteRule:
                if let inverse = relationship.inverseRelationship {
                    for target in related where !target.isDeleted {
                        target.removeInverse(object, relationship: inverse)
                    }
                }
            case .denyDeleteRule, .noActionDeleteRule:
                continue
            }
        }
    }

    /// Called by objects when a value changed.
    /// Records a change to an object that is neither inserted nor deleted (those are tracked already;
    /// `markChanged` checks before it reads the weak context).
    func objectDidChange(_ object: NSManagedObject) {
        stateLock.lock()
        defer { stateLock.unlock() }
        if updatedMembers.insert(ObjectIdentifier(object)).inserted { updatedList.append(object) }
    }

    /// Objects inserted and not yet saved.
    open var insertedObjects: Set<NSManagedObject> { stateLock.withLock { Set(insertedList) } }
    /// Objects changed and not yet saved.
    open var updatedObjects: Set<NSManagedObject> { stateLock.withLock { Set(updatedList.filter { $0.isUpdated }) } }
    /// Objects deleted and not yet saved.
    open var deletedObjects: Set<NSManagedObject> { stateLock.withLock { Set(deletedList) } }
    /// Whether the context has unsaved changes.
    open var hasChanges: Bool {
        stateLock.withLock { !insertedList.isEmpty || !deletedList.isEmpty || updatedList.contains { $0.isUpdated } }
    }

    /// Processes pending changes (delete rules are applied as deletions happen, so nothing is pending).
    open func processPendingChanges() {}

    /// Discards all unsaved changes.
    open func rollback() {
        stateLock.lock()
        defer { stateLock.unlock() }
        for object in insertedList {
            object.flags.remove(.inserted)
            object.managedObjectContext = nil
        }
        for object in deletedList { object.flags.remove(.deleted) }
        let touched = updatedList + deletedList
        insertedList.removeAll()
        deletedList.removeAll()
        updatedList.removeAll()
        updatedMembers.removeAll()
        for object in touched { revert(object) }
    }

    /// Puts an object's values back to what was last read or saved.
    func revert(_ object: NSManagedObject) {
        guard let data = object.payload as? ObjectData else { return }
        if let committed = data.committed {
            data.values = committed
            data.committed = nil
        }
        data.changedSlots.removeAll()
    }

    /// Forgets every object: registered objects become unusable faults.
    open func reset() {
        // Hold every object strongly while their values are dropped: dropping one object's values can
        // release another registered object, whose deinit would otherwise leave a dangling registry entry
        // behind in the loop. They are released after the lock, once the registry is empty.
        var retained: [NSManagedObject] = []
        stateLock.lock()
        defer {
            stateLock.unlock()
            retained.removeAll()
        }
        retained = registry.objects + batchMembers
        for object in insertedList {
            object.flags.remove(.inserted)
            object.managedObjectContext = nil
        }
        for object in retained {
            object.flags.remove([.registered, .deleted])
            object.dropValues()
        }
        registry.removeAll()
        batchGroups.removeAll()
        insertedList.removeAll()
        updatedList.removeAll()
        updatedMembers.removeAll()
        deletedList.removeAll()
    }

    /// Turns an object back into a fault (dropping unsaved changes unless `flag` is true, in which case
    /// store values are reloaded and the object's own changes re-applied on top).
    open func refresh(_ object: NSManagedObject, mergeChanges flag: Bool) {
        stateLock.lock()
        defer { stateLock.unlock() }
        guard object.managedObjectContext === self, !object.isInserted, object.payload.kind != .batch else { return }
        // Only an object of its own can have changes (a fetched row that is still shared has none).
        if flag, let data = object.payload as? ObjectData, !data.changedSlots.isEmpty, let values = data.values {
            let changed = data.changedSlots
            object.willTurnIntoFault()
            data.values = nil
            data.committed = nil
            fulfillFault(for: object)
            guard let fresh = data.values else { return }
            data.committed = fresh
            var merged = fresh
            for slot in changed { merged[slot] = values[slot] }
            data.values = merged
            data.changedSlots = changed
            return
        }
        object.willTurnIntoFault()
        object.dropValues()
        if updatedMembers.remove(ObjectIdentifier(object)) != nil { updatedList.removeAll { $0 === object } }
        object.didTurnIntoFault()
    }

    /// Refreshes every registered object.
    open func refreshAllObjects() {
        stateLock.lock()
        defer { stateLock.unlock() }
        // Strong references first: refreshing one object can release another (see reset()).
        let objects = stateLock.withLock { registry.objects + batchMembers.filter { $0.payload is ObjectData } }
        for object in objects { refresh(object, mergeChanges: true) }
    }

    /// Gives inserted objects permanent IDs now (they get them on save anyway).
    open func obtainPermanentIDs(for objects: [NSManagedObject]) throws {
        stateLock.lock()
        defer { stateLock.unlock() }
        let pending = objects.filter { $0.objectID.isTemporaryID && $0.managedObjectContext === self }
        guard !pending.isEmpty else { return }
        try assignPermanentIDs(pending)
    }

    private func updateMergeObservation() {
        guard let coordinator = persistentStoreCoordinator else { return }
        if automaticallyMergesChangesFromParent {
            coordinator.addMergeObserver(self)
        } else {
            coordinator.removeMergeObserver(self)
        }
    }

    /// A description with the context's name.
    open override var description: String { "<NSManagedObjectContext \(name ?? "")>" }
}
