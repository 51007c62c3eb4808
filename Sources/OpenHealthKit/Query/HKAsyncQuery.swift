import OpenCoreData

/// A query descriptor that runs once and returns its output.
public protocol HKAsyncQuery {
    /// What the query returns.
    associatedtype Output
    /// Runs the query against a store.
    func result(for healthStore: HKHealthStore) async throws -> Output
}

/// A query descriptor that keeps running, yielding its output each time matching data changes.
public protocol HKAsyncSequenceQuery {
    /// What each element of the sequence is.
    associatedtype Output
    /// The sequence `results(for:)` returns.
    associatedtype Results: AsyncSequence where Results.Element == Output
    /// Starts the query against a store.
    func results(for healthStore: HKHealthStore) -> Results
}
