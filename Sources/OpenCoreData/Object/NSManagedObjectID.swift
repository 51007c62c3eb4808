import Foundation

/// A stable identifier of a managed object: its entity, its store and its primary key.
///
/// Objects not yet saved have a temporary ID; saving gives them a permanent one. The URI form is
/// `x-coredata://<store UUID>/<Entity>/p<primary key>` (temporary: `x-coredata:///<Entity>/t<UUID>`).
open class NSManagedObjectID: NSObject, NSCopying, @unchecked Sendable {
    /// The entity of the object.
    public let entity: NSEntityDescription
    /// The store the object lives in (nil for a temporary ID).
    open private(set) weak var persistentStore: NSPersistentStore?
    let storeIdentifier: String?
    let primaryKey: Int64
    let temporaryIdentifier: UUID?
    /// Computed once: IDs go into sets and dictionary keys by the thousand (save notifications).
    private let hashCode: Int

    init(entity: NSEntityDescription, store: NSPersistentStore, primaryKey: Int64) {
        self.entity = entity
        self.persistentStore = store
        self.storeIdentifier = store.identifier
        self.primaryKey = primaryKey
        self.temporaryIdentifier = nil
        // Equal IDs have equal keys and roots; the store's identifier (a long string) is left out of
        // the hash, which only makes IDs of one row in two stores collide.
        var hasher = Hasher()
        hasher.combine(primaryKey)
        hasher.combine(entity.layout.rootID)
        self.hashCode = hasher.finalize()
        super.init()
    }

    init(temporaryFor entity: NSEntityDescription) {
        self.entity = entity
        self.persistentStore = nil
        self.storeIdentifier = nil
        self.primaryKey = 0
        let identifier = UUID()
        self.temporaryIdentifier = identifier
        self.hashCode = identifier.hashValue
        super.init()
    }

    /// Whether the ID is temporary (the object has not been saved yet).
    open var isTemporaryID: Bool { temporaryIdentifier != nil }

    /// The ID as a URI that `NSPersistentStoreCoordinator.managedObjectID(forURIRepresentation:)` reads back.
    open func uriRepresentation() -> URL {
        if let temporaryIdentifier {
            return URL(string: "x-coredata:///\(entity.name ?? "")/t\(temporaryIdentifier.uuidString)")!
        }
        return URL(string: "x-coredata://\(storeIdentifier ?? "")/\(entity.name ?? "")/p\(primaryKey)")!
    }

    /// A copy (IDs are immutable, so itself).
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// IDs are equal when they name the same row of the same entity hierarchy in the same store.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSManagedObjectID else { return false }
        if other === self { return true }
        if let t = temporaryIdentifier { return t == other.temporaryIdentifier }
        return other.temporaryIdentifier == nil && primaryKey == other.primaryKey
            && storeIdentifier == other.storeIdentifier && entity.rootEntity === other.entity.rootEntity
    }

    /// A hash consistent with `isEqual(_:)`.
    open override var hash: Int { hashCode }

    /// The URI form.
    open override var description: String { "<\(uriRepresentation().absoluteString)>" }
}

extension NSManagedObjectID: StoredRow {
    /// The row the ID names.
    var storedRow: RowReference? { RowReference(entity: entity, primaryKey: primaryKey) }
}
