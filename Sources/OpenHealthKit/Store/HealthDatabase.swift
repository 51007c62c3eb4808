import OpenCoreData

/// One connection to the health store's SQLite file through OpenCoreData: a persistent container
/// with the code-built model and one private context; every operation runs in `perform`, serialized.
final class HealthDatabase: @unchecked Sendable {
    let url: URL
    let container: NSPersistentContainer
    let context: NSManagedObjectContext

    /// How often a write is retried when another connection allocated sequence numbers first.
    static let maxWriteAttempts = 64

    init(url: URL) throws {
        self.url = url.standardizedFileURL
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        container = NSPersistentContainer(name: url.deletingPathExtension().lastPathComponent,
                                          managedObjectModel: HealthStoreModel.make())
        do {
            // Writers in other processes hold SQLite's write lock briefly: wait for it instead of failing.
            _ = try container.persistentStoreCoordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url,
                                                                            options: [
                NSSQLitePragmasOption: ["busy_timeout": 10_000],
                // A store written by an earlier model (before `modifiedAt`) is brought up to date when it opens.
                NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
            ])
        } catch {
            throw HKError(.errorDatabaseInaccessible, "cannot open the health store at \(url.path): \(error)")
        }
        context = container.newBackgroundContext()
        try write { _, sequence in sequence.ensureMarkers() } // creates the counter rows of a new store
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
            } catch let error as NSError where Self.isWriteConflict(error) {
                context.rollback()
                throw WriteConflict(underlying: error)
            } catch {
                context.rollback()
                throw HKError(.errorDatabaseInaccessible, "health store operation failed: \(error)")
            }
        }
    }

    /// Another connection saved first: the change counter row moved on (optimistic locking), its row
    /// was created twice, or the write lock stayed busy.
    struct WriteConflict: Error { let underlying: NSError }

    static func isWriteConflict(_ error: NSError) -> Bool {
        guard error.domain == NSCocoaErrorDomain else { return false }
        if error.code == NSManagedObjectMergeError || error.code == NSManagedObjectConstraintMergeError { return true }
        return error.code == NSPersistentStoreSaveError && "\(error)".contains("database is locked")
    }

    /// A write that changes the store's history. `body` takes sequence numbers from the allocator;
    /// they come from the change counter row, which is saved in the same SQLite transaction as the
    /// rows carrying them. Writers are serialized by SQLite's write lock (GRDB begins IMMEDIATE
    /// transactions) and the counter row's optimistic lock: when another connection or process
    /// allocated first, the save fails as a whole and the write runs again from fresh data. So
    /// sequence numbers never collide, and they become visible in increasing order.
    func write<T>(_ body: (NSManagedObjectContext, SequenceAllocator) throws -> T) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try perform { context in
                    let allocator = try SequenceAllocator(in: context, database: self)
                    let result = try body(context, allocator)
                    try save(context)
                    return result
                }
            } catch let conflict as WriteConflict {
                guard attempt < Self.maxWriteAttempts else {
                    throw HKError(.errorDatabaseInaccessible, "health store write kept conflicting with other writers (\(attempt) attempts): \(conflict.underlying)")
                }
                usleep(UInt32.random(in: 100...2_000) * UInt32(min(attempt, 8)))
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

    /// The store's change counter: the last sequence number handed out (0 when nothing was written).
    func changeCounter(in context: NSManagedObjectContext) throws -> Int64 {
        try StoreCounters.read(in: context, database: self).sequence
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
    guard let value = object.value(forKey: key) else { return 0 }
    switch value {
    case let v as Int64: return v
    case let v as Int16: return Int64(v)
    case let v as Int32: return Int64(v)
    case let v as Int: return Int64(v)
    case let v as NSNumber: return v.int64Value
    default: return 0
    }
}

func bool(_ object: NSManagedObject, _ key: String) -> Bool {
    guard let value = object.value(forKey: key) else { return false }
    switch value {
    case let v as Bool: return v
    case let v as NSNumber: return v.boolValue
    default: return false
    }
}

func double(_ object: NSManagedObject, _ key: String) -> Double? {
    // nil first: casting a missing value to NSNumber goes through Foundation bridging, which is slow.
    guard let value = object.value(forKey: key) else { return nil }
    switch value {
    case let v as Double: return v
    case let v as NSNumber: return v.doubleValue
    default: return nil
    }
}

/// In-process change notification: waiters on a store file are resumed when a connection saves to it.
/// Hands out the store-wide sequence numbers of one write (see `HealthDatabase.write`).
final class SequenceAllocator {
    static let counterName = "seq"
    /// The row holding the sequence number of the latest deletion (no deleted-object record has a
    /// higher one), so anchored reads skip the deletions table when nothing was deleted since.
    static let deletionName = "del"
    /// The row counting changes to what apps may see: authorization decisions and the set of
    /// medications. Readers cache their visibility conditions per generation.
    static let authorizationName = "auth"
    private let context: NSManagedObjectContext
    private var records: [String: NSManagedObject]
    private(set) var last: Int64

    init(in context: NSManagedObjectContext, database: HealthDatabase) throws {
        self.context = context
        records = try StoreCounters.records(in: context, database: database)
        if let record = records[Self.counterName] {
            last = int64(record, "value")
        } else {
            // A new store (a second process creating it at the same time hits the unique name and retries).
            last = 0
            _ = row(Self.counterName, initial: 0)
        }
    }

    private func row(_ name: String, initial: Int64) -> NSManagedObject {
        if let record = records[name] { return record }
        let record = NSEntityDescription.insertNewObject(forEntityName: HealthStoreModel.changeCounter, into: context)
        record.setValue(name, forKey: "name")
        record.setValue(initial, forKey: "value")
        records[name] = record
        return record
    }

    /// The next sequence number.
    func next() -> Int64 {
        last += 1
        row(Self.counterName, initial: 0).setValue(last, forKey: "value")
        return last
    }

    /// Makes the next sequence number larger than `value` (nothing changes when it already is).
    func advance(past value: Int64) {
        guard value > last else { return }
        last = value
        row(Self.counterName, initial: 0).setValue(last, forKey: "value")
    }

    /// Records that the change with sequence number `seq` deleted something.
    func markDeletion(_ seq: Int64) {
        row(Self.deletionName, initial: seq).setValue(seq, forKey: "value")
    }

    /// Records a change to authorization decisions or to the set of medications.
    func bumpAuthorization() {
        let record = row(Self.authorizationName, initial: 0)
        record.setValue(int64(record, "value") + 1, forKey: "value")
    }

    /// Creates the deletion and authorization rows of a store that lacks them. A store written before
    /// they existed gets a deletion mark at its current counter: deletions at or below it are looked for.
    func ensureMarkers() {
        if records[Self.deletionName] == nil { _ = row(Self.deletionName, initial: last) }
        if records[Self.authorizationName] == nil { _ = row(Self.authorizationName, initial: 1) }
    }
}

/// The counter rows as a reader sees them, read in one fetch.
struct StoreCounters {
    /// The last sequence number handed out.
    var sequence: Int64 = 0
    /// No deletion has a higher sequence number (`Int64.max` when unknown).
    var lastDeletion: Int64 = .max
    /// The authorization generation (nil when unknown: nothing may be cached).
    var authorization: Int64?

    static func records(in context: NSManagedObjectContext, database: HealthDatabase) throws -> [String: NSManagedObject] {
        var records: [String: NSManagedObject] = [:]
        for record in try database.fetch(HealthStoreModel.changeCounter, nil, in: context) {
            if let name = record.value(forKey: "name") as? String { records[name] = record }
        }
        return records
    }

    static func read(in context: NSManagedObjectContext, database: HealthDatabase) throws -> StoreCounters {
        let records = try records(in: context, database: database)
        var counters = StoreCounters()
        if let r = records[SequenceAllocator.counterName] { counters.sequence = int64(r, "value") }
        if let r = records[SequenceAllocator.deletionName] { counters.lastDeletion = int64(r, "value") }
        if let r = records[SequenceAllocator.authorizationName] { counters.authorization = int64(r, "value") }
        return counters
    }
}

final class ChangeHub: @unchecked Sendable {
    static let shared = ChangeHub()
    private let lock = NSLock()
    private var waiters: [URL: [UUID: CheckedContinuation<Void, Never>]] = [:]
    /// Saves signalled per store file: a reader marks the generation before it reads, and waits only
    /// while it is unchanged, so a save between the read and the wait is never missed.
    private var generations: [URL: UInt64] = [:]

    /// Where a reader stood before it read: the in-process generation and the files' stamps.
    struct Mark: Sendable {
        let generation: UInt64
        let probe: StoreFileProbe
    }

    /// Marks the current state of a store file; take it before reading the store.
    func mark(_ url: URL) -> Mark {
        let generation = lock.withLock { generations[url, default: 0] }
        return Mark(generation: generation, probe: StoreFileProbe(url))
    }

    func signal(_ url: URL) {
        let resumed = lock.withLock { () -> [UUID: CheckedContinuation<Void, Never>] in
            generations[url, default: 0] &+= 1
            return waiters.removeValue(forKey: url) ?? [:]
        }
        for continuation in resumed.values { continuation.resume() }
    }

    /// Waits until the file was saved in this process since `mark`, the store's files changed on disk
    /// since `mark` (another process committed: checked every `probeInterval` with `stat`, which costs
    /// microseconds), or the timeout passes (the caller then re-reads the change counter anyway).
    func wait(_ url: URL, since mark: Mark, timeout: Duration, probeInterval: Duration = .milliseconds(10)) async {
        let id = UUID()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let registered = lock.withLock { () -> Bool in
                guard generations[url, default: 0] == mark.generation else { return false }
                waiters[url, default: [:]][id] = continuation
                return true
            }
            guard registered else { continuation.resume(); return }
            if mark.probe.changed() {
                lock.withLock { waiters[url]?.removeValue(forKey: id) }?.resume()
                return
            }
            Task {
                let deadline = ContinuousClock.now + timeout
                while ContinuousClock.now < deadline {
                    try? await Task.sleep(for: min(probeInterval, timeout))
                    if self.lock.withLock({ self.waiters[url]?[id] == nil }) { return } // signalled in-process
                    if mark.probe.changed() { break }
                }
                let pending = self.lock.withLock { self.waiters[url]?.removeValue(forKey: id) }
                pending?.resume()
            }
        }
    }
}

/// Notices commits by other processes without opening the database: in WAL mode every commit
/// writes the `-wal` file (size or modification time change), a checkpoint the main file.
struct StoreFileProbe: Sendable {
    let paths: [String]
    let initial: [FileStamp]

    struct FileStamp: Equatable, Sendable {
        var size: Int64 = -1
        var seconds: Int = 0
        var nanoseconds: Int = 0
    }

    init(_ url: URL) {
        paths = [url.path + "-wal", url.path]
        initial = paths.map(Self.stamp)
    }

    static func stamp(_ path: String) -> FileStamp {
        var info = stat()
        guard stat(path, &info) == 0 else { return FileStamp() }
        return FileStamp(size: Int64(info.st_size), seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec))
    }

    func changed() -> Bool { paths.map(Self.stamp) != initial }
}
