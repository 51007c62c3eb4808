import Foundation

extension Notification.Name {
    /// Posted after a context saved; userInfo has `NSInsertedObjectsKey`, `NSUpdatedObjectsKey`,
    /// `NSDeletedObjectsKey` (sets of objects) and the matching object-ID sets.
    public static let NSManagedObjectContextDidSave = Notification.Name("NSManagedObjectContextDidSaveNotification")
    /// Posted before a context saves.
    public static let NSManagedObjectContextWillSave = Notification.Name("NSManagedObjectContextWillSaveNotification")
    /// Posted when objects of a context changed.
    public static let NSManagedObjectContextObjectsDidChange = Notification.Name("NSManagedObjectContextObjectsDidChangeNotification")
}

extension NSManagedObjectContext {
    /// Posted after a context saved, with object-ID sets (Apple's newer name).
    public static let didSaveObjectsNotification = Notification.Name("NSManagedObjectContextDidSaveObjectsNotification")
    /// Posted after another context's save was merged into this one.
    public static let didMergeChangesObjectIDsNotification = Notification.Name("NSManagedObjectContextDidMergeChangesObjectIDsNotification")
}

/// userInfo key: the inserted objects.
public let NSInsertedObjectsKey = "inserted"
/// userInfo key: the updated objects.
public let NSUpdatedObjectsKey = "updated"
/// userInfo key: the deleted objects.
public let NSDeletedObjectsKey = "deleted"
/// userInfo key: the refreshed objects.
public let NSRefreshedObjectsKey = "refreshed"
/// userInfo key: the invalidated objects.
public let NSInvalidatedObjectsKey = "invalidated"
/// userInfo key: the IDs of inserted objects.
public let NSInsertedObjectIDsKey = "inserted_objectIDs"
/// userInfo key: the IDs of updated objects.
public let NSUpdatedObjectIDsKey = "updated_objectIDs"
/// userInfo key: the IDs of deleted objects.
public let NSDeletedObjectIDsKey = "deleted_objectIDs"

/// What a save changed, by object ID (safe to hand to other contexts).
struct SavedChanges: @unchecked Sendable {
    var inserted: [NSManagedObjectID] = []
    var updated: [NSManagedObjectID] = []
    var deleted: [NSManagedObjectID] = []
}

extension NSManagedObjectContext {
    /// Merges the changes of another context's save (its `NSManagedObjectContextDidSave` notification):
    /// updated objects registered here are refreshed (keeping this context's own unsaved changes),
    /// deleted ones are removed from the context.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        var changes = SavedChanges()
        let info = notification.userInfo ?? [:]
        func ids(_ objectsKey: String, _ idsKey: String) -> [NSManagedObjectID] {
            if let ids = info[idsKey] as? Set<NSManagedObjectID> { return Array(ids) }
            if let objects = info[objectsKey] as? Set<NSManagedObject> { return objects.map(\.objectID) }
            return []
        }
        changes.inserted = ids(NSInsertedObjectsKey, NSInsertedObjectIDsKey)
        changes.updated = ids(NSUpdatedObjectsKey, NSUpdatedObjectIDsKey)
        changes.deleted = ids(NSDeletedObjectsKey, NSDeletedObjectIDsKey)
        applyMerge(changes)
    }

    /// Merges a save made through the same coordinator, on this context's queue.
    func mergeSaved(_ changes: SavedChanges) {
        perform { [self] in applyMerge(changes) }
    }

    func applyMerge(_ changes: SavedChanges) {
        stateLock.lock(); defer { stateLock.unlock() }
        for id in changes.updated {
            guard let object = registeredObject(for: id) else { continue }
            refresh(object, mergeChanges: true)
        }
        for id in changes.deleted {
            guard let object = registeredObject(for: id) else { continue }
            object.dropValues()
            if updatedMembers.remove(ObjectIdentifier(object)) != nil { updatedList.removeAll { $0 === object } }
            deletedList.removeAll { $0 === object }
            registry.unregister(object, root: object.payload.layout.rootID, primaryKey: id.primaryKey)
            object.flags.remove(.registered)
        }
        NotificationCenter.default.post(name: NSManagedObjectContext.didMergeChangesObjectIDsNotification, object: self, userInfo: [
            NSInsertedObjectIDsKey: Set(changes.inserted), NSUpdatedObjectIDsKey: Set(changes.updated), NSDeletedObjectIDsKey: Set(changes.deleted),
        ])
    }
}
