import Foundation
import GRDB

extension NSManagedObjectContext {
    /// Writes all changes to the stores in one transaction per store: everything or nothing.
    ///
    /// Validation runs first (errors name entity and property, with Core Data's codes). Updated and
    /// deleted rows are written only if their row version (Z_OPT) is the one they were read at;
    /// otherwise `mergePolicy` decides (the default fails with `NSManagedObjectMergeError`).
    /// A failed save writes nothing and leaves the context's changes in place.
    public func save() throws {
        stateLock.lock()
        defer { stateLock.unlock() }
        processPendingChanges()
        let inserted = insertedList
        var updated = updatedList.filter { $0.isUpdated }
        let deleted = deletedList
        guard !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty else { return }
        guard let coordinator = persistentStoreCoordinator, !coordinator.persistentStores.isEmpty else {
            throw coreDataError(NSPersistentStoreSaveError, "This context has no persistent store to save to.")
        }
        NotificationCenter.default.post(name: .NSManagedObjectContextWillSave, object: self)
        for object in inserted + updated + deleted { object.willSave() }
        // Derived attributes are computed from the values willSave left; owners they change are saved too.
        let owners = try computeDerivedAttributes(inserted: inserted, updated: updated, deleted: deleted)
        for owner in owners {
            owner.willSave()
            updated.append(owner)
        }

        var errors: [NSError] = []
        for object in inserted { do { try object.validateForInsert() } catch let e as NSError { errors.append(e) } }
        for object in updated { do { try object.validateForUpdate() } catch let e as NSError { errors.append(e) } }
        for object in deleted { do { try object.validateForDelete() } catch let e as NSError { errors.append(e) } }
        try Validation.throwCollected(
            errors.flatMap { ($0.userInfo[NSDetailedErrorsKey] as? [NSError]) ?? [$0] }, object: nil)

        var byStore: [ObjectIdentifier: (NSPersistentStore, SaveBatch)] = [:]
        func batch(for object: NSManagedObject) throws -> NSPersistentStore {
            guard let store = coordinator.store(for: object.entity) else {
                throw coreDataError(NSPersistentStoreSaveError, "No store holds entity \(object.entity.name ?? "?").")
            }
            if byStore[ObjectIdentifier(store)] == nil { byStore[ObjectIdentifier(store)] = (store, SaveBatch()) }
            return store
        }
        for object in inserted {
            let s = try batch(for: object)
            byStore[ObjectIdentifier(s)]!.1.inserted.append(object)
        }
        for object in updated {
            let s = try batch(for: object)
            byStore[ObjectIdentifier(s)]!.1.updated.append(object)
        }
        for object in deleted {
            let s = try batch(for: object)
            byStore[ObjectIdentifier(s)]!.1.deleted.append(object)
        }

        let policy = (mergePolicy as? NSMergePolicy)?.mergeType ?? .errorMergePolicyType
        var outcomes: [SaveOutcome] = []
        for (store, batch) in byStore.values {
            guard !store.isReadOnly else {
                throw coreDataError(
                    NSPersistentStoreSaveError, "The store at \(store.url?.path ?? "memory") is read-only.")
            }
            let writer = SaveWriter(store: store, policy: policy)
            do {
                outcomes.append(try writer.write(batch))
            } catch let error as DatabaseError {
                writer.undoKeyAssignments()
                throw StoreErrors.translate(error, store: store)
            } catch {
                writer.undoKeyAssignments()
                throw error
            }
        }
        finishSave(inserted: inserted, updated: updated, deleted: deleted, outcomes: outcomes)
    }

    private func finishSave(
        inserted: [NSManagedObject], updated: [NSManagedObject], deleted: [NSManagedObject], outcomes: [SaveOutcome]
    ) {
        var changes = SavedChanges()
        for outcome in outcomes {
            for (root, last) in outcome.lastKeys { outcome.store.core.commitPrimaryKeys(root: root, upTo: last) }
        }
        let versions = outcomes.reduce(into: [ObjectIdentifier: Int64]()) { $0.merge($1.versions) { $1 } }
        // Each store's inserted objects get their permanent IDs from that store (no lookup per object).
        for outcome in outcomes {
            for object in outcome.inserted {
                let data = object.data
                data.temporaryID = nil
                data.isNew = false
                data.committed = nil
                data.changedSlots.removeAll()
                data.version = 1
                object.flags.remove(.inserted)
                register(object, primaryKey: data.primaryKey)
                changes.inserted.append(
                    NSManagedObjectID(entity: object.entity, store: outcome.store, primaryKey: data.primaryKey))
            }
        }
        for object in updated {
            let data = object.data
            data.committed = nil
            data.changedSlots.removeAll()
            if let version = versions[ObjectIdentifier(object)] { data.version = version }
            changes.updated.append(object.objectID)
        }
        for object in deleted {
            changes.deleted.append(object.objectID)
            registry.unregister(object, root: object.payload.layout.rootID, primaryKey: object.primaryKeyIfKnown)
            object.flags.remove([.deleted, .registered])
            object.managedObjectContext = nil
        }
        insertedList.removeAll()
        updatedList.removeAll()
        updatedMembers.removeAll()
        deletedList.removeAll()
        for object in inserted + updated { object.didSave() }
        let idSets: [String: Any] = [
            NSInsertedObjectIDsKey: Set(changes.inserted), NSUpdatedObjectIDsKey: Set(changes.updated),
            NSDeletedObjectIDsKey: Set(changes.deleted),
        ]
        NotificationCenter.default.post(
            name: .NSManagedObjectContextDidSave, object: self,
            userInfo: idSets.merging([
                NSInsertedObjectsKey: Set(inserted), NSUpdatedObjectsKey: Set(updated),
                NSDeletedObjectsKey: Set(deleted),
            ]) { $1 })
        NotificationCenter.default.post(
            name: NSManagedObjectContext.didSaveObjectsNotification, object: self, userInfo: idSets)
        persistentStoreCoordinator?.contextDidSave(self, changes: changes)
    }

    /// Gives objects permanent primary keys in their own transaction.
    func assignPermanentIDs(_ objects: [NSManagedObject]) throws {
        guard let coordinator = persistentStoreCoordinator else { return }
        var byStore: [ObjectIdentifier: (NSPersistentStore, [NSManagedObject])] = [:]
        for object in objects {
            guard let store = coordinator.store(for: object.entity) else { continue }
            byStore[ObjectIdentifier(store), default: (store, [])].1.append(object)
        }
        for (store, list) in byStore.values {
            let writer = SaveWriter(store: store, policy: .errorMergePolicyType)
            let last = try store.core.write { rows in try writer.assignKeys(list, rows: rows) }
            for (root, key) in last { store.core.commitPrimaryKeys(root: root, upTo: key) }
            for object in list {
                object.data.temporaryID = nil
                object.data.isNew = false
                register(object, primaryKey: object.data.primaryKey)
            }
        }
    }
}

/// The changes of one save that go to one store.
struct SaveBatch {
    var inserted: [NSManagedObject] = []
    var updated: [NSManagedObject] = []
    var deleted: [NSManagedObject] = []
}

/// What a store's part of a save produced.
struct SaveOutcome {
    let store: NSPersistentStore
    /// The objects this store's part inserted (their row version is 1).
    let inserted: [NSManagedObject]
    var lastKeys: [(NSEntityDescription, Int64)] = []
    var versions: [ObjectIdentifier: Int64] = [:]
}

/// Maps SQLite errors of a save to Core Data's.
enum StoreErrors {
    static func translate(_ error: DatabaseError, store: NSPersistentStore) -> NSError {
        if error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
            || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
        {
            return coreDataError(
                NSManagedObjectConstraintMergeError,
                "A uniqueness constraint was violated: \(error.message ?? "") (store \(store.url?.lastPathComponent ?? "memory")). Nothing was saved."
            )
        }
        return coreDataError(
            NSPersistentStoreSaveError, "The save failed and nothing was written: \(error.message ?? "\(error)").",
            [NSUnderlyingErrorKey: error])
    }
}
