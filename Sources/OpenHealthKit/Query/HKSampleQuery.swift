import OpenCoreData

/// A one-shot query for samples of one type (or several, through query descriptors), sorted and limited.
///
/// The results handler is called once, with the samples the app may read, or with an error.
public final class HKSampleQuery: HKQuery, @unchecked Sendable {
    /// The most samples returned (`HKObjectQueryNoLimit`: all).
    public let limit: Int
    /// The order of the results (nil: the store's order).
    public let sortDescriptors: [NSSortDescriptor]?
    /// The types and predicates the query reads.
    public let queryDescriptors: [HKQueryDescriptor]
    private let resultsHandler: @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void

    /// A query for samples of one type.
    public init(
        sampleType: HKSampleType, predicate: NSPredicate?, limit: Int, sortDescriptors: [NSSortDescriptor]?,
        resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    ) {
        self.limit = limit
        self.sortDescriptors = sortDescriptors
        self.queryDescriptors = [HKQueryDescriptor(sampleType: sampleType, predicate: predicate)]
        self.resultsHandler = resultsHandler
        super.init(objectType: sampleType, predicate: predicate)
    }

    /// A query for samples of several types, unsorted.
    public convenience init(
        queryDescriptors: [HKQueryDescriptor], limit: Int,
        resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    ) {
        self.init(queryDescriptors: queryDescriptors, limit: limit, sortDescriptors: [], resultsHandler: resultsHandler)
    }

    /// A query for samples of several types, merged in the order of the sort descriptors.
    public init(
        queryDescriptors: [HKQueryDescriptor], limit: Int, sortDescriptors: [NSSortDescriptor],
        resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    ) {
        self.limit = limit
        self.sortDescriptors = sortDescriptors
        self.queryDescriptors = queryDescriptors
        self.resultsHandler = resultsHandler
        super.init(
            objectType: queryDescriptors.count == 1 ? queryDescriptors[0].sampleType : nil,
            predicate: queryDescriptors.count == 1 ? queryDescriptors[0].predicate : nil)
    }

    override func run(on store: HKHealthStore) async {
        do {
            let samples = try await read(store)
            execution.deliver { resultsHandler(self, samples, nil) }
        } catch {
            fail(error)
        }
    }

    override func fail(_ error: any Error) { execution.deliver { resultsHandler(self, nil, error) } }

    private func read(_ store: HKHealthStore) async throws -> [HKSample] {
        guard !queryDescriptors.isEmpty else {
            throw HKError(.errorInvalidArgument, "HKSampleQuery needs at least one query descriptor")
        }
        guard limit >= 0 else { throw HKError(.errorInvalidArgument, "limit must not be negative (got \(limit))") }
        let sort = sortDescriptors ?? []
        try SampleSortKeys.check(sort, types: queryDescriptors.map(\.sampleType))
        let columns = SampleSortKeys.columns(sort)
        let cap = limit == HKObjectQueryNoLimit ? nil : limit
        var samples: [HKSample] = []
        for descriptor in queryDescriptors {
            try Task.checkCancellation()
            samples += try await store.samples(
                of: descriptor.sampleType, matching: descriptor.predicate, sort: columns, limit: cap)
        }
        guard queryDescriptors.count > 1 else { return samples }
        // Several types: a sample two descriptors both match is returned once; merged, then limited.
        var seen = Set<UUID>()
        samples = samples.filter { seen.insert($0.uuid).inserted }
        if !sort.isEmpty { samples.sort { SampleSortKeys.precedes($0, $1, sort) } }
        if let cap { samples = Array(samples.prefix(cap)) }
        return samples
    }
}
