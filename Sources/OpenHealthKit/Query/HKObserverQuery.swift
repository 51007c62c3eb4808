import OpenCoreData

/// What an observer query's update handler calls once the app has dealt with an update.
public typealias HKObserverQueryCompletionHandler = @Sendable () -> Void

/// A long-running query that tells the app when samples it may read, of a type and matching a predicate, were
/// added or deleted. It says only that something changed; the app reads what with another query (an anchored
/// query, usually).
///
/// The update handler is called once when the query starts, then after each change. The app calls the completion
/// handler it is given when it has dealt with the update: until then, further changes are gathered into one next
/// update rather than queued one by one. (Apple's framework uses the same call to pace background delivery; an
/// app written for it already calls it.) A change the app may not read (another app's medication, a type it was
/// not granted) wakes nobody.
public final class HKObserverQuery: HKQuery, @unchecked Sendable {
    /// The handler's signature: the query, the completion handler to call when done, or an error.
    public typealias UpdateHandler =
        @Sendable (HKObserverQuery, @escaping HKObserverQueryCompletionHandler, (any Error)?)
        -> Void

    private let updateHandler: UpdateHandler
    /// How long the query waits at most before it re-reads the store's change counter (in-process saves and other
    /// processes' commits wake it sooner).
    var pollingInterval: Duration = .milliseconds(250)

    /// A query observing samples of a type.
    public init(sampleType: HKSampleType, predicate: NSPredicate?, updateHandler: @escaping UpdateHandler) {
        self.updateHandler = updateHandler
        self.descriptors = [HKQueryDescriptor(sampleType: sampleType, predicate: predicate)]
        super.init(objectType: sampleType, predicate: predicate)
    }

    /// A query observing samples of several types.
    public init(queryDescriptors: [HKQueryDescriptor], updateHandler: @escaping UpdateHandler) {
        self.updateHandler = updateHandler
        self.descriptors = queryDescriptors
        super.init(
            objectType: queryDescriptors.count == 1 ? queryDescriptors[0].sampleType : nil,
            predicate: queryDescriptors.count == 1 ? queryDescriptors[0].predicate : nil)
    }

    /// The types and predicates the query watches.
    private let descriptors: [HKQueryDescriptor]

    override func run(on store: HKHealthStore) async {
        let watched = descriptors
        guard !watched.isEmpty else {
            return fail(HKError(.errorInvalidArgument, "HKObserverQuery needs at least one query descriptor"))
        }
        do {
            var anchor = HKQueryAnchor(sequence: try await store.changeCounter())
            guard await notify() else { return }
            while !Task.isCancelled {
                // Marked before reading: a save after this point wakes the wait below at once.
                let mark = store.changeMark()
                if try await store.changeCounter() > anchor.sequence {
                    let descriptor = HKAnchoredObjectQueryDescriptor<HKSample>(
                        predicates: watched.map { .sample(type: $0.sampleType, predicate: $0.predicate) },
                        anchor: anchor)
                    let result = try await descriptor.result(for: store)
                    anchor = result.newAnchor
                    if !result.addedSamples.isEmpty || !result.deletedObjects.isEmpty {
                        guard await notify() else { return }
                        continue  // changes made while the app dealt with this one go in the next update
                    }
                }
                try await store.waitForChange(after: anchor.sequence, since: mark, timeout: pollingInterval)
            }
        } catch {
            fail(error)
        }
    }

    /// Calls the update handler and waits until the app calls its completion handler (or the query is stopped);
    /// returns false when the query was stopped.
    private func notify() async -> Bool {
        let gate = CompletionGate()
        let delivered = execution.deliver { updateHandler(self, { gate.open() }, nil) }
        guard delivered else { return false }
        await gate.wait()
        return !execution.isStopped && !Task.isCancelled
    }

    override func fail(_ error: any Error) {
        execution.deliver { updateHandler(self, {}, error) }  // after an error the query ends: nothing to pace
    }
}

/// A one-time gate: `wait()` returns once `open()` was called (any number of times) or the task is cancelled.
final class CompletionGate: @unchecked Sendable {  // Unchecked: `opened` and `waiter` are under `lock`.
    private let lock = NSLock()
    private var opened = false
    private var waiter: CheckedContinuation<Void, Never>?

    func open() {
        let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            opened = true
            defer { self.waiter = nil }
            return self.waiter
        }
        waiter?.resume()
    }

    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = lock.withLock { () -> Bool in
                    if opened || Task.isCancelled { return true }
                    waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            open()
        }
    }
}
