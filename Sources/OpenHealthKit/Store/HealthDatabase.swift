import OpenCoreData

/// One connection to the health store's SQLite file through OpenCoreData: a persistent container
/// with the code-built model and one private context; every operation runs in `perform`, serialized.
final class HealthDatabase: @unchecked Sendable {
    let url: URL
    let container: NSPersistentContainer
    let context: NSManagedObjectContext

    init(url: URL) throws {
        self.url = url.standardizedFileURL
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        container = NSPersistentContainer(name: url.deletingPathExtension().lastPathComponent,
                                          managedObjectModel: HealthStoreModel.make())
        do {
            _ = try container.persistentStoreCoordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                                                            at: url, options: nil)
        } catch {
            throw HKError(.errorDatabaseInaccessible, "cannot open the health store at \(url.path): \(error)")
        }
        context = container.newBackgroundContext()
    }

    /// Runs a block on the context; the context forgets its objects afterwards, so the next read sees
    /// what other connections wrote.
    func perform<T>(_ body: (NSManagedObjectContext) throws -> T) throws -> T {
        try context.performAndWait {
            defer { context.reset() }
            do {
                return try body(context)
            } catch let error as HKError {
                context.rollback()
                throw error
            } catch {
                context.rollback()
                throw HKError(.errorDatabaseInaccessible, "health store operation failed: \(error)")
            }
        }
    }

    /// Fetches objects of an entity.
    func fetch(_ entity: String, _ predicate: NSPredicate?, sort: [NSSortDescriptor] = [], limit: Int = 0,
               in context: NSManagedObjectContext) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.predicate = predicate
        request.sortDescriptors = sort
        request.fetchLimit = limit
        return try context.fetch(request)
    }

    /// The store's change counter: the highest sequence number of any record (0 when empty).
    func changeCounter(in context: NSManagedObjectContext) throws -> Int64 {
        var highest: Int64 = 0
        for entity in [HealthStoreModel.doseEvent, HealthStoreModel.categorySample, HealthStoreModel.deletedObject, HealthStoreModel.medication] {
            if let object = try fetch(entity, nil, sort: [HKQuery.sort("seq", ascending: false)], limit: 1, in: context).first {
                highest = max(highest, int64(object, "seq"))
            }
        }
        return highest
    }

    /// The change counter, read on its own.
    func changeCounter() throws -> Int64 { try perform { try changeCounter(in: $0) } }

    /// Saves and tells in-process observers of this file that it changed.
    func save(_ context: NSManagedObjectContext) throws {
        guard context.hasChanges else { return }
        try context.save()
        ChangeHub.shared.signal(url)
    }

    func insert(_ entity: String, _ values: [String: Any?], in context: NSManagedObjectContext) {
        let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
        for (key, value) in values { object.setValue(value, forKey: key) }
    }
}

func int64(_ object: NSManagedObject, _ key: String) -> Int64 {
    switch object.value(forKey: key) {
    case let v as Int64: return v
    case let v as Int16: return Int64(v)
    case let v as Int32: return Int64(v)
    case let v as Int: return Int64(v)
    case let v as NSNumber: return v.int64Value
    default: return 0
    }
}

func bool(_ object: NSManagedObject, _ key: String) -> Bool {
    switch object.value(forKey: key) {
    case let v as Bool: return v
    case let v as NSNumber: return v.boolValue
    default: return false
    }
}

func double(_ object: NSManagedObject, _ key: String) -> Double? {
    switch object.value(forKey: key) {
    case let v as Double: return v
    case let v as NSNumber: return v.doubleValue
    default: return nil
    }
}

/// In-process change notification: waiters on a store file are resumed when a connection saves to it.
final class ChangeHub: @unchecked Sendable {
    static let shared = ChangeHub()
    private let lock = NSLock()
    private var waiters: [URL: [UUID: CheckedContinuation<Void, Never>]] = [:]

    func signal(_ url: URL) {
        let resumed = lock.withLock { waiters.removeValue(forKey: url) ?? [:] }
        for continuation in resumed.values { continuation.resume() }
    }

    /// Waits until the file changes in this process or the timeout passes (other processes are
    /// noticed by polling the change counter after the timeout).
    func wait(_ url: URL, timeout: Duration) async {
        let id = UUID()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.withLock { waiters[url, default: [:]][id] = continuation }
            Task {
                try? await Task.sleep(for: timeout)
                let pending = self.lock.withLock { self.waiters[url]?.removeValue(forKey: id) }
                pending?.resume()
            }
        }
    }
}
