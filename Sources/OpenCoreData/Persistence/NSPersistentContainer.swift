import Foundation

/// Sets up the Core Data stack: model, coordinator, stores and a main-queue view context.
open class NSPersistentContainer: NSObject, @unchecked Sendable {
    /// The container's name (the store file's base name).
    open private(set) var name: String
    /// The container's model.
    open private(set) var managedObjectModel: NSManagedObjectModel
    /// The coordinator.
    open private(set) var persistentStoreCoordinator: NSPersistentStoreCoordinator
    /// Descriptions of the stores `loadPersistentStores` adds.
    open var persistentStoreDescriptions: [NSPersistentStoreDescription]
    private let lock = NSLock()
    private var _viewContext: NSManagedObjectContext?

    /// The folder store files go in by default: `$XDG_DATA_HOME` (or ~/.local/share), then the
    /// process name. Override it in a subclass to change it.
    open class func defaultDirectoryURL() -> URL {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return base.appendingPathComponent(ProcessInfo.processInfo.processName)
    }

    /// Creates a container with a model; the store is `<defaultDirectoryURL>/<name>.sqlite`.
    public init(name: String, managedObjectModel model: NSManagedObjectModel) {
        self.name = name
        self.managedObjectModel = model
        self.persistentStoreCoordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let url = Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite")
        self.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
        super.init()
    }

    /// Creates a container whose model is loaded from `<name>.xcdatamodeld` (or `.xcdatamodel`) in the
    /// main bundle's resources or the current directory. Traps, as Core Data does, when there is none.
    public convenience init(name: String) {
        guard let model = NSPersistentContainer.findModel(named: name) else {
            fatalError(
                "NSPersistentContainer: no model named \(name).xcdatamodeld found in the main bundle or the current directory."
            )
        }
        self.init(name: name, managedObjectModel: model)
    }

    /// Creates a container for the store file at a path (the form in the seed's staged-migration sample).
    public convenience init?(path: String, managedObjectModel model: NSManagedObjectModel) {
        let url = URL(fileURLWithPath: path)
        self.init(name: url.deletingPathExtension().lastPathComponent, managedObjectModel: model)
        persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
    }

    static func findModel(named name: String) -> NSManagedObjectModel? {
        let roots = [
            Bundle.main.resourceURL, Bundle.main.bundleURL,
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        ].compactMap { $0 }
        for root in roots {
            for ext in ["xcdatamodeld", "xcdatamodel"] {
                let url = root.appendingPathComponent("\(name).\(ext)")
                if let model = NSManagedObjectModel(contentsOf: url) { return model }
            }
        }
        return nil
    }

    /// Adds the described stores, calling `block` once per store with its error, if any.
    open func loadPersistentStores(
        completionHandler block: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void
    ) {
        for description in persistentStoreDescriptions {
            persistentStoreCoordinator.addPersistentStore(with: description, completionHandler: block)
        }
    }

    /// The main-queue context, merging saves from the container's other contexts automatically.
    open var viewContext: NSManagedObjectContext {
        lock.lock()
        defer { lock.unlock() }
        if let context = _viewContext { return context }
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        context.name = "viewContext"
        context.automaticallyMergesChangesFromParent = true
        _viewContext = context
        return context
    }

    /// A new private-queue context on the container's coordinator.
    open func newBackgroundContext() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        return context
    }

    /// Runs a block on a new private-queue context, in the background.
    open func performBackgroundTask(_ block: @escaping @Sendable (NSManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs a block on a new private-queue context and returns its result.
    open func performBackgroundTask<T>(_ block: @escaping (NSManagedObjectContext) throws -> T) async rethrows -> T {
        let context = newBackgroundContext()
        return try await context.perform { try block(context) }
    }
}
