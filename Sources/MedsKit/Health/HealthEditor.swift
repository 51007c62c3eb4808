import Foundation
import OpenHealthKit

/// The Health app's editing calls on a profile's store, wherever the store is: a store file opened in this process
/// (`HKHealthAppEditor`), or the person's store served by `orchard-healthd` (`HealthAppDaemonEditor`, where each
/// call crosses to the daemon). Both run each call as one transaction, so what fails changes nothing.
public enum HealthEditor: Sendable {
    /// A store file opened here.
    case file(HKHealthAppEditor)
    /// The store `orchard-healthd` serves.
    case daemon(HealthAppDaemonEditor)

    /// The store the editor writes, for queries.
    public var store: HKHealthStore {
        switch self {
        case .file(let editor): editor.store
        case .daemon(let editor): editor.store
        }
    }

    /// Whether the store is the one `orchard-healthd` serves.
    public var isDaemon: Bool {
        if case .daemon = self { return true }
        return false
    }

    /// Adds medications in one transaction (all of them or none).
    @discardableResult
    public func addMedications(
        _ medications: [HKHealthAppEditor.NewMedication]
    ) async throws -> [HKUserAnnotatedMedication] {
        switch self {
        case .file(let editor): try await editor.addMedications(medications)
        case .daemon(let editor): try await editor.addMedications(medications)
        }
    }

    /// Changes a medication's nickname, archived state or schedule (nil leaves each; `.some(nil)` removes a nickname
    /// or schedule).
    @discardableResult
    public func updateMedication(
        _ id: HKHealthConceptIdentifier, nickname: String?? = nil, isArchived: Bool? = nil,
        schedule: MedicationSchedule?? = nil
    ) async throws -> HKUserAnnotatedMedication {
        switch self {
        case .file(let editor):
            try editor.updateMedication(id, nickname: nickname, isArchived: isArchived, schedule: schedule)
        case .daemon(let editor):
            try await editor.updateMedication(id, nickname: nickname, isArchived: isArchived, schedule: schedule)
        }
    }

    /// A medication's schedule, if it has one.
    public func schedule(of id: HKHealthConceptIdentifier) async throws -> MedicationSchedule? {
        switch self {
        case .file(let editor): try editor.schedule(of: id)
        case .daemon(let editor): try await editor.schedule(of: id)
        }
    }

    /// Logs doses in one transaction.
    @discardableResult
    public func logDoses(_ logs: [HKHealthAppEditor.DoseLog]) async throws -> [HKMedicationDoseEvent] {
        switch self {
        case .file(let editor): try editor.logDoses(logs)
        case .daemon(let editor): try await editor.logDoses(logs)
        }
    }

    /// Deletes a dose event.
    public func deleteDose(_ event: HKMedicationDoseEvent) async throws {
        switch self {
        case .file(let editor): try editor.deleteDose(event)
        case .daemon(let editor): try await editor.deleteDose(event)
        }
    }

    /// Makes a logged dose `notLogged` again.
    @discardableResult
    public func undoLog(_ event: HKMedicationDoseEvent) async throws -> HKMedicationDoseEvent {
        switch self {
        case .file(let editor): try editor.undoLog(event)
        case .daemon(let editor): try await editor.undoLog(event)
        }
    }

    /// The store's changes after `anchor`, for sync.
    public func replicatedChanges(
        after anchor: Int64?, limit: Int, excluding: [ClosedRange<Int64>] = []
    ) async throws -> HKHealthAppEditor.ReplicatedChanges {
        switch self {
        case .file(let editor): try editor.replicatedChanges(after: anchor, limit: limit, excluding: excluding)
        case .daemon(let editor): try await editor.replicatedChanges(after: anchor, limit: limit, excluding: excluding)
        }
    }

    /// Makes every later change's sequence number larger than `value`; returns the change counter after it.
    @discardableResult
    public func advanceChangeCounter(past value: Int64) async throws -> Int64 {
        switch self {
        case .file(let editor): try editor.advanceChangeCounter(past: value)
        case .daemon(let editor): try await editor.advanceChangeCounter(past: value)
        }
    }

    /// Applies another machine's page of changes in one transaction.
    @discardableResult
    public func applyReplicatedChanges(
        _ page: HKHealthAppEditor.ReplicatedChanges
    ) async throws -> HKHealthAppEditor.ReplicationOutcome {
        switch self {
        case .file(let editor): try await editor.applyReplicatedChanges(page)
        case .daemon(let editor): try await editor.applyReplicatedChanges(page)
        }
    }
}
