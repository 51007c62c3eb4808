import OpenCoreData

/// A one-shot query for samples: predicates, sort order and limit, all applied in SQL.
public struct HKSampleQueryDescriptor<Sample: HKSample>: HKAsyncQuery, @unchecked Sendable {
    /// The sample types and predicates.
    public var predicates: [HKSamplePredicate<Sample>]
    /// The order of the results.
    public var sortDescriptors: [SortDescriptor<Sample>]
    /// The most samples to return (nil: all).
    public var limit: Int?

    /// Creates a descriptor.
    public init(predicates: [HKSamplePredicate<Sample>], sortDescriptors: [SortDescriptor<Sample>], limit: Int? = nil) {
        self.predicates = predicates
        self.sortDescriptors = sortDescriptors
        self.limit = limit
    }

    /// Runs the query.
    public func result(for healthStore: HKHealthStore) async throws -> [Sample] {
        guard !predicates.isEmpty else {
            throw HKError(.errorInvalidArgument, "HKSampleQueryDescriptor needs at least one predicate")
        }
        let sort = try SampleSort.columns(sortDescriptors)
        var all: [Sample] = []
        for predicate in predicates {
            all += try await healthStore.samples(
                of: predicate.sampleType, matching: predicate.nsPredicate, sort: sort, limit: limit
            )
            .compactMap { $0 as? Sample }
        }
        if predicates.count > 1 {
            all.sort(using: sortDescriptors)
            if let limit, limit > 0 { all = Array(all.prefix(limit)) }
        }
        return all
    }
}

/// A query for the medications the app may read.
public struct HKUserAnnotatedMedicationQueryDescriptor: HKAsyncQuery, @unchecked Sendable {
    /// Which medications (all when nil); see `HKQuery.predicateForUserAnnotatedMedications`.
    public var predicate: NSPredicate?
    /// The most medications to return (nil: all).
    public var limit: Int?

    /// Creates a descriptor.
    public init(predicate: NSPredicate? = nil, limit: Int? = nil) {
        self.predicate = predicate
        self.limit = limit
    }

    /// Runs the query.
    public func result(for healthStore: HKHealthStore) async throws -> [HKUserAnnotatedMedication] {
        try await healthStore.medications(matching: predicate, limit: limit)
    }
}
