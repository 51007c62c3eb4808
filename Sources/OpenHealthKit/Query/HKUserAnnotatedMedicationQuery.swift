import OpenCoreData

/// A query for the medications the app may read, reported one at a time.
///
/// The results handler is called once per medication with `done` false, then once with no medication and `done`
/// true; after an error, once with the error and `done` true. (This follows the shape of Apple's other
/// streaming one-shot queries, such as `HKDocumentQuery`: a result, a flag saying the query is finished, an error.)
public final class HKUserAnnotatedMedicationQuery: HKQuery, @unchecked Sendable {
    /// The handler's signature: the query, a medication (nil on the final call), whether the query is done, an error.
    public typealias ResultsHandler =
        @Sendable (HKUserAnnotatedMedicationQuery, HKUserAnnotatedMedication?, Bool, (any Error)?)
        -> Void

    /// The most medications reported (`HKObjectQueryNoLimit`: all).
    public let limit: Int
    private let resultsHandler: ResultsHandler

    /// A query for the medications matching a predicate (see `HKQuery.predicateForUserAnnotatedMedications`).
    public init(predicate: NSPredicate?, limit: Int, resultsHandler: @escaping ResultsHandler) {
        self.limit = limit
        self.resultsHandler = resultsHandler
        super.init(objectType: HKObjectType.userAnnotatedMedicationType(), predicate: predicate)
    }

    override func run(on store: HKHealthStore) async {
        do {
            guard limit >= 0 else {
                throw HKError(.errorInvalidArgument, "limit must not be negative (got \(limit))")
            }
            let medications = try await store.medications(
                matching: predicate, limit: limit == HKObjectQueryNoLimit ? nil : limit)
            for medication in medications {
                guard execution.deliver({ resultsHandler(self, medication, false, nil) }) else { return }
            }
            execution.deliver { resultsHandler(self, nil, true, nil) }
        } catch {
            fail(error)
        }
    }

    override func fail(_ error: any Error) { execution.deliver { resultsHandler(self, nil, true, error) } }
}
