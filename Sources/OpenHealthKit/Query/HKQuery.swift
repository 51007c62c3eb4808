import OpenCoreData

/// The value of a query's `limit` that asks for every matching object.
public let HKObjectQueryNoLimit: Int = 0

/// The base of the class-based queries that `HKHealthStore.execute(_:)` runs and `HKHealthStore.stop(_:)` stops.
///
/// A query runs once: executing it a second time reports an invalid-argument error through its handler (Apple's
/// framework raises an exception). Handlers are called on a background thread, one at a time per query. Once
/// `stop(_:)` returns, no handler of that query is running or will be called.
// Unchecked: immutable after init; its execution state is `QueryExecution`'s, under a lock.
open class HKQuery: NSObject, @unchecked Sendable {
    /// The type of object the query looks for (nil for a query over several types).
    public let objectType: HKObjectType?
    /// Which objects the query matches (nil: all of its type).
    public let predicate: NSPredicate?
    let execution = QueryExecution()

    init(objectType: HKObjectType?, predicate: NSPredicate?) {
        self.objectType = objectType
        self.predicate = predicate
        super.init()
    }

    /// The type of sample the query looks for, when it looks for samples.
    @available(*, deprecated, renamed: "objectType")
    public var sampleType: HKSampleType? { objectType as? HKSampleType }

    /// Runs the query against a store; subclasses report through their handlers with `execution.deliver`.
    func run(on store: HKHealthStore) async {
        preconditionFailure("\(type(of: self)) must override run(on:)")
    }

    /// Reports an error through the query's handler (used when it cannot run at all).
    func fail(_ error: any Error) {
        preconditionFailure("\(type(of: self)) must override fail(_:)")
    }
}

/// Where a query stands: not started, running (with its task), or stopped.
final class QueryExecution: @unchecked Sendable {  // Unchecked: its state is read and written under `lock`.
    private let lock = NSLock()
    /// Held while a handler runs, and by `stop()`: so once `stop()` returns no handler runs. Recursive, because a
    /// handler may stop its own query.
    private let delivery = NSRecursiveLock()
    private var started = false
    private var stopped = false
    private var task: Task<Void, Never>?

    /// Starts `body` in a task, or returns false when the query was executed before.
    func start(_ body: @escaping @Sendable () async -> Void) -> Bool {
        let first = lock.withLock { () -> Bool in
            defer { started = true }
            return !started
        }
        guard first else { return false }
        let task = Task.detached { await body() }
        let cancelNow = lock.withLock { () -> Bool in
            self.task = task
            return stopped
        }
        if cancelNow { task.cancel() }
        return true
    }

    /// Whether `stop()` was called.
    var isStopped: Bool { lock.withLock { stopped } }

    /// Calls a handler unless the query was stopped; returns whether it was called.
    @discardableResult
    func deliver(_ handler: () -> Void) -> Bool {
        delivery.lock()
        defer { delivery.unlock() }
        guard !isStopped else { return false }
        handler()
        return true
    }

    /// Stops the query: its task is cancelled and no handler is called after this returns.
    func stop() {
        delivery.lock()
        defer { delivery.unlock() }
        let task = lock.withLock { () -> Task<Void, Never>? in
            stopped = true
            return self.task
        }
        task?.cancel()
    }
}
