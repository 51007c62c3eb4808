import Foundation

/// Connects contexts to the stores of a model.
open class NSPersistentStoreCoordinator: NSObject, @unchecked Sendable {
    /// The model the coordinator's stores follow.
    public let managedObjectModel: NSManagedObjectModel
    /// The stores added so far.
    open var persistentStores: [NSPersistentStore] { lock.withLock { stores } }
    /// A name for debugging.
    open var name: String?

    let lock = NSRecursiveLock()
    private var stores: [NSPersistentStore] = []
    /// Contexts that merge each other's saves automatically (weak).
    private var observers: [WeakContext] = []
    private struct WeakContext { weak var context: NSManagedObjectContext? }

    /// Creates a coordinator for a model.
    public init(managedObjectModel model: NSManagedObjectModel) {
        self.managedObjectModel = model
        super.init()
        ModelRegistry.shared.register(model)
    }

    /// Opens a store and adds it. Options: `NSReadOnlyPersistentStoreOption`, `NSSQLitePragmasOption`,
    /// and the migration options (see `NSMigratePersistentStoresAutomaticallyOption`).
    @discardableResult
    open func addPersistentStore(
        ofType storeType: String, configurationName configuration: String?, at storeURL: URL?,
        options: [AnyHashable: Any]? = nil
    ) throws -> NSPersistentStore {
        if let storeURL, storeType == NSSQLiteStoreType,
            persistentStores.contains(where: { $0.url?.standardizedFileURL == storeURL.standardizedFileURL })
        {
            throw coreDataError(
                NSPersistentStoreOperationError, "The store at \(storeURL.path) is already added to this coordinator.")
        }
        let store = NSPersistentStore(
            type: storeType, coordinator: self, configurationName: configuration, url: storeURL, options: options)
        try StoreOpening.open(store, coordinator: self, options: options ?? [:])
        lock.withLock { stores.append(store) }
        return store
    }

    /// Adds a store from a description.
    open func addPersistentStore(
        with storeDescription: NSPersistentStoreDescription,
        completionHandler block: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void
    ) {
        do {
            var options = storeDescription.options
            if storeDescription.isReadOnly { options[NSReadOnlyPersistentStoreOption] = true }
            options[NSMigratePersistentStoresAutomaticallyOption] =
                options[NSMigratePersistentStoresAutomaticallyOption]
                ?? storeDescription.shouldMigrateStoreAutomatically
            options[NSInferMappingModelAutomaticallyOption] =
                options[NSInferMappingModelAutomaticallyOption] ?? storeDescription.shouldInferMappingModelAutomatically
            try addPersistentStore(
                ofType: storeDescription.type, configurationName: storeDescription.configuration,
                at: storeDescription.url, options: options)
            block(storeDescription, nil)
        } catch {
            block(storeDescription, error)
        }
    }

    /// Removes a store, closing its database.
    open func remove(_ store: NSPersistentStore) throws {
        lock.withLock { stores.removeAll { $0 === store } }
        try store.close()
    }

    /// The store with a URL.
    open func persistentStore(for url: URL) -> NSPersistentStore? {
        persistentStores.first { $0.url?.standardizedFileURL == url.standardizedFileURL }
    }

    /// The store's metadata.
    open func metadata(for store: NSPersistentStore) -> [String: Any] { store.metadata }

    /// Replaces the store's metadata (written with the next save, or at once when `store` is idle).
    open func setMetadata(_ metadata: [String: Any]?, for store: NSPersistentStore) {
        store.metadata = metadata ?? [:]
    }

    /// Reads the metadata of the store at a URL without adding it.
    open class func metadataForPersistentStore(
        ofType storeType: String, at url: URL, options: [AnyHashable: Any]? = nil
    ) throws -> [String: Any] {
        try StoreFile.readMetadata(at: url)
    }

    /// Writes metadata into the store at a URL without adding it.
    open class func setMetadata(
        _ metadata: [String: Any]?, forPersistentStoreOfType storeType: String, at url: URL,
        options: [AnyHashable: Any]? = nil
    ) throws {
        try StoreFile.writeMetadata(metadata ?? [:], at: url)
    }

    /// The object ID written as a URI by `NSManagedObjectID.uriRepresentation()`.
    open func managedObjectID(forURIRepresentation url: URL) -> NSManagedObjectID? {
        guard url.scheme == "x-coredata", let host = url.host else { return nil }
        let parts = url.path.split(separator: "/").map(String.init)
        guard parts.count == 2, parts[1].hasPrefix("p"), let pk = Int64(parts[1].dropFirst()),
            let store = persistentStores.first(where: { $0.identifier == host }),
            let entity = managedObjectModel.entitiesByName[parts[0]]
        else { return nil }
        return NSManagedObjectID(entity: entity, store: store, primaryKey: pk)
    }

    /// Destroys the store at a URL: removes its database files.
    open func destroyPersistentStore(at url: URL, ofType storeType: String, options: [AnyHashable: Any]? = nil) throws {
        if let store = persistentStore(for: url) { try remove(store) }
        for suffix in ["", "-wal", "-shm"] {
            let path = url.path + suffix
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        }
    }

    /// The store holding an entity's objects (the first store whose configuration has the entity).
    func store(for entity: NSEntityDescription) -> NSPersistentStore? {
        let stores = persistentStores
        if stores.count <= 1 { return stores.first }
        return stores.first { store in store.schema?.contains(entity) ?? false } ?? stores.first
    }

    func store(withIdentifier identifier: String?) -> NSPersistentStore? {
        persistentStores.first { $0.identifier == identifier }
    }

    // MARK: Save propagation

    func addMergeObserver(_ context: NSManagedObjectContext) {
        lock.withLock {
            observers.removeAll { $0.context == nil || $0.context === context }
            observers.append(WeakContext(context: context))
        }
    }

    func removeMergeObserver(_ context: NSManagedObjectContext) {
        lock.withLock { observers.removeAll { $0.context == nil || $0.context === context } }
    }

    func contextDidSave(_ context: NSManagedObjectContext, changes: SavedChanges) {
        let targets = lock.withLock { observers.compactMap(\.context) }.filter { $0 !== context }
        for target in targets { target.mergeSaved(changes) }
    }
}

/// Models used by coordinators, so `NSManagedObject.entity()` and `fetchRequest()` find an entity by class.
final class ModelRegistry: @unchecked Sendable {
    static let shared = ModelRegistry()
    private let lock = NSLock()
    private var models: [WeakModel] = []
    private struct WeakModel { weak var model: NSManagedObjectModel? }

    func register(_ model: NSManagedObjectModel) {
        lock.withLock {
            models.removeAll { $0.model == nil || $0.model === model }
            models.append(WeakModel(model: model))
        }
    }

    /// The registered models still in use, oldest first.
    func liveModels() -> [NSManagedObjectModel] { lock.withLock { models.compactMap(\.model) } }

    func entity(for cls: AnyClass) -> NSEntityDescription? {
        let live = liveModels()
        for model in live.reversed() {
            if let entity = EntityMatching.entity(for: cls, in: model) { return entity }
        }
        return nil
    }
}

/// Finds the entity a class stands for.
enum EntityMatching {
    static func entity(for cls: AnyClass, in model: NSManagedObjectModel) -> NSEntityDescription? {
        let qualified = NSStringFromClass(cls)
        let short = qualified.split(separator: ".").last.map(String.init) ?? qualified
        if let explicit = model.entities.first(where: { $0.managedObjectClass.map { $0 == cls } ?? false }) {
            return explicit
        }
        if let byClass = model.entities.first(where: {
            $0.managedObjectClassName == qualified || $0.managedObjectClassName == short
        }) {
            return byClass
        }
        return model.entities.first { $0.name == short }
    }
}
