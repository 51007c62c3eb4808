import OpenCoreData

/// A query for samples added and objects deleted since an anchor: `result(for:)` once,
/// `results(for:)` as a long-running sequence that yields whenever matching data changes.
// Unchecked: immutable once made; its predicates are NSPredicate trees (not Sendable), read only, never changed.
public struct HKAnchoredObjectQueryDescriptor<Sample: HKSample>: HKAsyncQuery, HKAsyncSequenceQuery, @unchecked Sendable
{
    /// One batch of changes.
    public struct Result: @unchecked Sendable {
        /// Samples added since the anchor.
        public let addedSamples: [Sample]
        /// Objects deleted since the anchor.
        public let deletedObjects: [HKDeletedObject]
        /// The anchor to pass next time.
        public let newAnchor: HKQueryAnchor
    }

    /// The sample types and predicates.
    public var predicates: [HKSamplePredicate<Sample>]
    /// Where to start (nil: from the beginning, without deletions).
    public var anchor: HKQueryAnchor?
    /// The most changes per result (nil: all); read long histories in batches by anchor.
    public var limit: Int?
    /// How often `results(for:)` re-reads the change counter at the latest. In-process saves wake
    /// it at once; commits by other processes as soon as the store's files change on disk (checked
    /// every 10 ms).
    public var pollingInterval: Duration = .milliseconds(250)

    /// Creates a descriptor.
    public init(predicates: [HKSamplePredicate<Sample>], anchor: HKQueryAnchor?, limit: Int? = nil) {
        self.predicates = predicates
        self.anchor = anchor
        self.limit = limit
    }

    /// Runs the query once.
    public func result(for healthStore: HKHealthStore) async throws -> Result {
        guard !predicates.isEmpty else {
            throw HKError(.errorInvalidArgument, "HKAnchoredObjectQueryDescriptor needs at least one predicate")
        }
        if predicates.count == 1 {
            // One predicate: the store's page is the result (no merging; this code is generic and
            // unspecialized, so a history read in pages pays for every step per sample).
            let changes = try await healthStore.anchoredChanges(
                of: predicates[0].sampleType, matching: predicates[0].nsPredicate,
                after: anchor?.sequence, limit: limit)
            var samples: [Sample] = []
            samples.reserveCapacity(changes.added.count)
            for change in changes.added { if let sample = change.sample as? Sample { samples.append(sample) } }
            return Result(
                addedSamples: samples, deletedObjects: changes.deleted.map { $0.object },
                newAnchor: HKQueryAnchor(sequence: changes.newAnchor))
        }
        var added: [(Int64, Sample)] = []
        var deleted: [(Int64, HKDeletedObject)] = []
        var newAnchor = Int64.max
        for predicate in predicates {
            let changes = try await healthStore.anchoredChanges(
                of: predicate.sampleType, matching: predicate.nsPredicate,
                after: anchor?.sequence, limit: limit)
            added += changes.added.compactMap { s in (s.sample as? Sample).map { (s.seq, $0) } }
            deleted += changes.deleted.map { ($0.seq, $0.object) }
            newAnchor = min(newAnchor, changes.newAnchor)
        }
        if predicates.count > 1 {
            // Several predicates: keep only what lies at or before the smallest anchor, so nothing is
            // skipped; a change two predicates both match is reported once (its sequence number is
            // unique store-wide); the limit applies to the whole result.
            var seenAdded = Set<Int64>()
            var seenDeleted = Set<Int64>()
            added = added.filter { $0.0 <= newAnchor && seenAdded.insert($0.0).inserted }.sorted { $0.0 < $1.0 }
            deleted = deleted.filter { $0.0 <= newAnchor && seenDeleted.insert($0.0).inserted }.sorted { $0.0 < $1.0 }
            if let limit, limit > 0, added.count + deleted.count > limit {
                let cut = (added.map(\.0) + deleted.map(\.0)).sorted()[limit - 1]
                added = added.filter { $0.0 <= cut }
                deleted = deleted.filter { $0.0 <= cut }
                newAnchor = cut
            }
        }
        return Result(
            addedSamples: added.map { $0.1 }, deletedObjects: deleted.map { $0.1 },
            newAnchor: HKQueryAnchor(sequence: newAnchor))
    }

    /// A long-running sequence: first the changes since the anchor, then one element each time
    /// matching samples are added or deleted (in this process, or in another one sharing the file).
    public func results(for healthStore: HKHealthStore) -> Results {
        Results(stream: stream(for: healthStore))
    }

    /// The long-running sequence of `results(for:)`: one `Result` per batch of changes, until the task reading it
    /// is cancelled or reading fails (then it throws).
    public struct Results: AsyncSequence, Sendable {
        /// Each element is one batch of changes.
        public typealias Element = Result
        /// The error reading can throw.
        public typealias Failure = any Error
        let stream: AsyncThrowingStream<Result, any Error>

        /// The iterator over the batches.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<Result, any Error>.AsyncIterator
            /// The next batch of changes (waits for one; nil once the sequence has ended).
            public mutating func next() async throws -> Result? { try await base.next() }
        }

        /// Makes an iterator.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: stream.makeAsyncIterator()) }
    }

    private func stream(for healthStore: HKHealthStore) -> AsyncThrowingStream<Result, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var descriptor = self
                var first = true
                do {
                    while !Task.isCancelled {
                        // Marked before reading: a save after this point wakes the wait below at once.
                        let mark = healthStore.changeMark()
                        let counter = try await healthStore.changeCounter()
                        if first || counter > (descriptor.anchor?.sequence ?? -1) {
                            let result = try await descriptor.result(for: healthStore)
                            let full =
                                limit.map { $0 > 0 && result.addedSamples.count + result.deletedObjects.count >= $0 }
                                ?? false
                            descriptor.anchor = result.newAnchor
                            if first || !result.addedSamples.isEmpty || !result.deletedObjects.isEmpty {
                                continuation.yield(result)
                            }
                            first = false
                            if full { continue }
                        }
                        try await healthStore.waitForChange(
                            after: max(counter, descriptor.anchor?.sequence ?? counter), since: mark, timeout: pollingInterval)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
