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
        let reply = try await call(.addMedication(HealthWire.concept(concept), nickname: nickname, schedule: schedule))
        guard case .medications(let list) = reply, let first = list.first else { throw HKHealthStore.unexpected(reply) }
        return HealthWire.medication(first)
    }

    /// Changes a medication's nickname or archived state (nil leaves it; `.some(nil)` removes the nickname).
    @discardableResult
    public func updateMedication(
        _ id: HKHealthConceptIdentifier, nickname: String?? = nil, isArchived: Bool? = nil
    )
        async throws -> HKUserAnnotatedMedication
    {
        let clear = nickname.map { $0 == nil } ?? false
        let reply = try await call(
            .updateMedication(
                id: id.identifier, nickname: nickname ?? nil, clearNickname: clear, isArchived: isArchived))
        guard case .medications(let list) = reply, let first = list.first else { throw HKHealthStore.unexpected(reply) }
        return HealthWire.medication(first)
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
        let reply = try await call(.logDoses(wire))
        guard case .samples(let samples) = reply else { throw HKHealthStore.unexpected(reply) }
        let interner = RecordMapping.Interner()
        return try samples.map { sample in
            guard let event = try HealthWire.sample(sample, interner: interner) as? HKMedicationDoseEvent else {
                throw HKHealthStore.unexpected(reply)
            }
            return event
        }
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
}
