import OpenCoreData

/// A query for the samples added and the objects deleted since an anchor; with an `updateHandler`, it keeps
/// running and reports each later change until it is stopped.
///
/// The results handler gets the changes since `anchor` (all matching samples, and no deletions, for a nil anchor)
/// with the anchor to start from next time; `limit` caps that batch. The update handler, when set before the
/// query is executed, gets every later batch: saves in this process at once, commits by other processes sharing
/// the store within milliseconds. Only what the app may read is reported, deletions included.
// Unchecked: the only mutable field, `updateHandler`, is read and written under `handlerLock`.
public final class HKAnchoredObjectQuery: HKQuery, @unchecked Sendable {
    /// The handlers' signature: the query, added samples, deleted objects, the new anchor, or an error.
    public typealias Handler =
        @Sendable (HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?)
        -> Void

    /// Where the query starts (nil: from the beginning).
    public let anchor: HKQueryAnchor?
    /// The most changes in one batch (`HKObjectQueryNoLimit`: all).
    public let limit: Int
    /// The types and predicates the query reads.
    public let queryDescriptors: [HKQueryDescriptor]
    private let resultsHandler: Handler
    private let handlerLock = NSLock()
    private var _updateHandler: Handler?

    /// Called with every change after the first batch while the query runs. Set it before executing the query:
    /// a query executed without one ends after its results handler.
    public var updateHandler: Handler? {
        get { handlerLock.withLock { _updateHandler } }
        set { handlerLock.withLock { _updateHandler = newValue } }
    }

    /// A query over one sample type.
    public init(
        type: HKSampleType, predicate: NSPredicate?, anchor: HKQueryAnchor?, limit: Int,
        resultsHandler handler: @escaping Handler
    ) {
        self.anchor = anchor
        self.limit = limit
        self.queryDescriptors = [HKQueryDescriptor(sampleType: type, predicate: predicate)]
        self.resultsHandler = handler
        super.init(objectType: type, predicate: predicate)
    }

    /// A query over several sample types; each change is reported once, in the order it was made.
    public init(
        queryDescriptors: [HKQueryDescriptor], anchor: HKQueryAnchor?, limit: Int,
        resultsHandler handler: @escaping Handler
    ) {
        self.anchor = anchor
        self.limit = limit
        self.queryDescriptors = queryDescriptors
        self.resultsHandler = handler
        super.init(
            objectType: queryDescriptors.count == 1 ? queryDescriptors[0].sampleType : nil,
            predicate: queryDescriptors.count == 1 ? queryDescriptors[0].predicate : nil)
    }

    override func run(on store: HKHealthStore) async {
        guard !queryDescriptors.isEmpty else {
            return fail(HKError(.errorInvalidArgument, "HKAnchoredObjectQuery needs at least one query descriptor"))
        }
        guard limit >= 0 else {
            return fail(HKError(.errorInvalidArgument, "limit must not be negative (got \(limit))"))
        }
        let descriptor = HKAnchoredObjectQueryDescriptor<HKSample>(
            predicates: queryDescriptors.map { .sample(type: $0.sampleType, predicate: $0.predicate) }, anchor: anchor,
            limit: limit == HKObjectQueryNoLimit ? nil : limit)
        guard let update = updateHandler else {
            do {
                let result = try await descriptor.result(for: store)
                execution.deliver {
                    resultsHandler(self, result.addedSamples, result.deletedObjects, result.newAnchor, nil)
                }
            } catch {
                fail(error)
            }
            return
        }
        var first = true
        do {
            for try await result in descriptor.results(for: store) {
                let handler = first ? resultsHandler : update
                first = false
                let delivered = execution.deliver {
                    handler(self, result.addedSamples, result.deletedObjects, result.newAnchor, nil)
                }
                if !delivered { return }
            }
        } catch is CancellationError {
            return  // stopped: no handler is called after stop(_:)
        } catch {
            let handler = first ? resultsHandler : update
            execution.deliver { handler(self, nil, nil, nil, error) }
        }
    }

    override func fail(_ error: any Error) { execution.deliver { resultsHandler(self, nil, nil, nil, error) } }
}
