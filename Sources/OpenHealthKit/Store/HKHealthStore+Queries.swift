import OpenCoreData

extension HKHealthStore {
    /// Runs a query; its handlers report the results on a background thread. A query runs once: executing it
    /// again reports an invalid-argument error through its handler.
    public func execute(_ query: HKQuery) {
        let started = query.execution.start { [self] in await query.run(on: self) }
        if !started {
            query.fail(HKError(.errorInvalidArgument, "\(type(of: query)) was already executed; create a new query"))
        }
    }

    /// Stops a query. A long-running query (an anchored query with an update handler, an observer query) reports
    /// nothing more; a one-shot query that has not reported yet never will. Once this returns, none of the query's
    /// handlers is running or will be called.
    public func stop(_ query: HKQuery) {
        query.execution.stop()
    }

    // MARK: Completion-handler forms

    /// Asks for permission to share and read sample types, then calls `completion` with true when the request was
    /// processed (whatever the person decided: read access is never disclosed) or false and the error.
    public func requestAuthorization(
        toShare typesToShare: Set<HKSampleType>?, read typesToRead: Set<HKObjectType>?,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        Task.detached { [self] in
            do {
                try await requestAuthorization(toShare: typesToShare ?? [], read: typesToRead ?? [])
                completion(true, nil)
            } catch {
                completion(false, error)
            }
        }
    }

    /// Asks the person which medications the app may read, then calls `completion` with true when the request was
    /// processed, or false and the error.
    public func requestPerObjectReadAuthorization(
        for objectType: HKObjectType, predicate: NSPredicate?,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        Task.detached { [self] in
            do {
                try await requestPerObjectReadAuthorization(for: objectType, predicate: predicate)
                completion(true, nil)
            } catch {
                completion(false, error)
            }
        }
    }
}
