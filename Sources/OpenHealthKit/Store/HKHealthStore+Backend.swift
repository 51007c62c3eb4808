import OpenCoreData

/// The reads every query goes through, answered by the store file here or by the health daemon.
extension HKHealthStore {
    /// The medications the app may read that match a predicate.
    func medications(matching predicate: NSPredicate?, limit: Int?) async throws -> [HKUserAnnotatedMedication] {
        guard let daemon else { return try localMedications(matching: predicate, limit: limit) }
        let reply = try await daemon.call(
            .medications(predicate: try predicate.map(HealthWire.Predicate.init), limit: limit))
        guard case .medications(let list) = reply else { throw Self.unexpected(reply) }
        return list.map(HealthWire.medication)
    }

    /// Samples of a type matching a predicate, sorted and limited.
    func samples(
        of type: HKSampleType, matching predicate: NSPredicate?, sort: [NSSortDescriptor], limit: Int?
    )
        async throws -> [HKSample]
    {
        guard let daemon else { return try localSamples(of: type, matching: predicate, sort: sort, limit: limit) }
        let reply = try await daemon.call(
            .samples(
                type: type.identifier, predicate: try predicate.map(HealthWire.Predicate.init),
                sort: sort.map { HealthWire.Sort(key: $0.key ?? "", ascending: $0.ascending) }, limit: limit))
        guard case .samples(let list) = reply else { throw Self.unexpected(reply) }
        let interner = RecordMapping.Interner()
        return try list.map { try HealthWire.sample($0, interner: interner) }
    }

    /// Changes to samples of a type after an anchor (see `localAnchoredChanges`).
    func anchoredChanges(
        of type: HKSampleType, matching predicate: NSPredicate?, after anchor: Int64?, limit: Int?
    )
        async throws -> (added: [SequencedSample], deleted: [SequencedDeletion], newAnchor: Int64)
    {
        guard let daemon else {
            return try localAnchoredChanges(of: type, matching: predicate, after: anchor, limit: limit)
        }
        let reply = try await daemon.anchoredChanges(
            type: type.identifier, predicate: try predicate.map(HealthWire.Predicate.init), after: anchor, limit: limit)
        guard case .changes(let added, let addedSequence, let deleted, let deletedSequence, let newAnchor) = reply,
            added.count == addedSequence.count, deleted.count == deletedSequence.count
        else { throw Self.unexpected(reply) }
        let interner = RecordMapping.Interner()
        return (
            try zip(addedSequence, added).map {
                SequencedSample(seq: $0, sample: try HealthWire.sample($1, interner: interner))
            },
            zip(deletedSequence, deleted).map {
                SequencedDeletion(
                    seq: $0, object: HKDeletedObject(uuid: $1.uuid, metadata: MetadataCoding.decode($1.metadata)))
            },
            newAnchor
        )
    }

    /// Where the store's change feed stood before a read: take it before reading the change counter, so a change
    /// between the read and `waitForChange` is never missed (nil through the daemon, which needs none).
    func changeMark() -> ChangeHub.Mark? {
        guard daemon == nil else { return nil }
        return ChangeHub.shared.mark(database.url)
    }

    /// The store's change counter (it grows with every change; anchors are values of it).
    func changeCounter() async throws -> Int64 {
        guard let daemon else { return try database.changeCounter() }
        let reply = try await daemon.call(.changeCounter)
        guard case .counter(let counter) = reply else { throw Self.unexpected(reply) }
        return counter
    }

    /// Waits until the store may have changed after `counter` (since `mark`), or `timeout` passed; the caller then
    /// reads the counter again. Through the daemon this is one long-polling call.
    func waitForChange(after counter: Int64, since mark: ChangeHub.Mark?, timeout: Duration) async throws {
        if let daemon {
            let milliseconds = Int(
                timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
            _ = try await daemon.call(.waitForChange(after: counter, timeoutMilliseconds: max(1, milliseconds)))
            return
        }
        guard let mark else { return }
        await ChangeHub.shared.wait(database.url, since: mark, timeout: timeout)
    }

    static func unexpected(_ reply: HealthWire.Reply) -> HKError {
        HKError(.errorDatabaseInaccessible, "the health daemon answered with an unexpected reply: \(reply)")
    }
}
