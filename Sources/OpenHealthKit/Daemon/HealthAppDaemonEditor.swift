import OpenCoreData

/// The Health app's side when `orchard-healthd` owns the store: the editor's calls (add and change medications,
/// log and delete doses), sent to the daemon, which runs them only for the program registered as the Health app.
/// `HKHealthAppEditor` is the same for a store file opened in process; this one is asynchronous because each call
/// crosses to the daemon.
public final class HealthAppDaemonEditor: Sendable {
    /// The daemon-backed store; it reads everything once the daemon has recognised the Health app.
    public let store: HKHealthStore

    /// The editor of a daemon-backed store (`HKHealthStore(daemonSocketPath:)`, or `HKHealthStore()` when the
    /// daemon runs).
    public init(store: HKHealthStore) {
        self.store = store
    }

    private func call(_ call: HealthWire.Call) async throws -> HealthWire.Reply {
        guard let daemon = store.daemon else {
            throw HKError(
                .errorInvalidArgument,
                "HealthAppDaemonEditor needs a store served by the health daemon; use HKHealthAppEditor for a store file"
            )
        }
        return try await daemon.call(call)
    }

    /// Adds a medication (every app that asked for medications is asked again, by the person's grants).
    @discardableResult
    public func addMedication(
        _ concept: HKMedicationConcept, nickname: String? = nil, schedule: MedicationSchedule? = nil
    )
        async throws -> HKUserAnnotatedMedication
    {
        try await addMedications([.init(concept: concept, nickname: nickname, schedule: schedule)])[0]
    }

    /// Adds medications in one transaction: all of them, or (when one is refused or the write fails) none.
    @discardableResult
    public func addMedications(
        _ medications: [HKHealthAppEditor.NewMedication]
    ) async throws -> [HKUserAnnotatedMedication] {
        let wire = medications.map {
            HealthWire.NewMedication(
                concept: HealthWire.concept($0.concept), nickname: $0.nickname, schedule: $0.schedule)
        }
        let reply = try await call(.addMedications(wire))
        guard case .medications(let list) = reply, list.count == medications.count else {
            throw HKHealthStore.unexpected(reply)
        }
        return list.map(HealthWire.medication)
    }

    /// Changes a medication's nickname, archived state or schedule (nil arguments are left alone; pass `.some(nil)`
    /// to remove a nickname or schedule).
    @discardableResult
    public func updateMedication(
        _ id: HKHealthConceptIdentifier, nickname: String?? = nil, isArchived: Bool? = nil,
        schedule: MedicationSchedule?? = nil
    )
        async throws -> HKUserAnnotatedMedication
    {
        let reply = try await call(
            .updateMedication(
                id: id.identifier, nickname: nickname ?? nil, clearNickname: nickname.map { $0 == nil } ?? false,
                isArchived: isArchived, schedule: schedule ?? nil, clearSchedule: schedule.map { $0 == nil } ?? false))
        guard case .medications(let list) = reply, let first = list.first else { throw HKHealthStore.unexpected(reply) }
        return HealthWire.medication(first)
    }

    /// A medication's schedule, if it has one.
    public func schedule(of id: HKHealthConceptIdentifier) async throws -> MedicationSchedule? {
        let reply = try await call(.schedule(id: id.identifier))
        guard case .schedule(let schedule) = reply else { throw HKHealthStore.unexpected(reply) }
        return schedule
    }

    /// Deletes a medication with its doses and every app's permission for it.
    public func deleteMedication(_ id: HKHealthConceptIdentifier) async throws {
        _ = try await call(.deleteMedication(id: id.identifier))
    }

    /// Logs doses in one transaction. A log that names a UUID already stored returns the stored event, so a call
    /// retried after a lost reply never logs twice.
    @discardableResult
    public func logDoses(_ logs: [HKHealthAppEditor.DoseLog]) async throws -> [HKMedicationDoseEvent] {
        let wire = logs.map {
            HealthWire.DoseLog(
                medication: $0.medication.identifier, status: $0.status.rawValue, date: $0.date,
                scheduledDate: $0.scheduledDate, scheduledQuantity: $0.scheduledQuantity, doseQuantity: $0.doseQuantity,
                unit: $0.unit.unitString, uuid: $0.uuid)
        }
        return try Self.doseEvents(try await call(.logDoses(wire)))
    }

    /// Logs one dose.
    @discardableResult
    public func logDose(_ log: HKHealthAppEditor.DoseLog) async throws -> HKMedicationDoseEvent {
        try await logDoses([log])[0]
    }

    /// Deletes a dose event.
    public func deleteDose(_ event: HKMedicationDoseEvent) async throws { try await deleteDose(uuid: event.uuid) }

    /// Deletes the dose event with a UUID.
    public func deleteDose(uuid: UUID) async throws {
        _ = try await call(.deleteDose(uuid))
    }

    /// Undoes a log: the dose becomes `notLogged` with no quantity (a new event replaces the old one, as
    /// ``HKHealthAppEditor/undoLog(_:)``).
    @discardableResult
    public func undoLog(_ event: HKMedicationDoseEvent) async throws -> HKMedicationDoseEvent {
        try Self.doseEvents(try await call(.undoLog(event.uuid)))[0]
    }

    private static func doseEvents(_ reply: HealthWire.Reply) throws -> [HKMedicationDoseEvent] {
        guard case .samples(let samples) = reply else { throw HKHealthStore.unexpected(reply) }
        let interner = RecordMapping.Interner()
        return try samples.map { sample in
            guard let event = try HealthWire.sample(sample, interner: interner) as? HKMedicationDoseEvent else {
                throw HKHealthStore.unexpected(reply)
            }
            return event
        }
    }

    // MARK: Replication

    /// The store's changes after `anchor`, as ``HKHealthAppEditor/replicatedChanges(after:limit:excluding:)``.
    public func replicatedChanges(
        after anchor: Int64?, limit: Int = 2000, excluding: [ClosedRange<Int64>] = []
    ) async throws -> HKHealthAppEditor.ReplicatedChanges {
        let reply = try await call(.replicatedChanges(after: anchor, limit: limit, excluding: excluding))
        guard case .replicatedChanges(let page) = reply else { throw HKHealthStore.unexpected(reply) }
        return page
    }

    /// Makes every later change's sequence number larger than `value`, as
    /// ``HKHealthAppEditor/advanceChangeCounter(past:)``; returns the change counter after it.
    @discardableResult
    public func advanceChangeCounter(past value: Int64) async throws -> Int64 {
        let reply = try await call(.advanceChangeCounter(past: value))
        guard case .counter(let counter) = reply else { throw HKHealthStore.unexpected(reply) }
        return counter
    }

    /// Applies another copy's page of changes in one transaction, as
    /// ``HKHealthAppEditor/applyReplicatedChanges(_:)``.
    @discardableResult
    public func applyReplicatedChanges(
        _ page: HKHealthAppEditor.ReplicatedChanges
    ) async throws -> HKHealthAppEditor.ReplicationOutcome {
        let reply = try await call(.applyReplicatedChanges(page))
        guard case .replicationOutcome(let medications, let added, let deleted, let skipped, let sequences) = reply
        else { throw HKHealthStore.unexpected(reply) }
        return HKHealthAppEditor.ReplicationOutcome(
            medications: medications, added: added, deleted: deleted, skipped: skipped, sequences: sequences)
    }
}
