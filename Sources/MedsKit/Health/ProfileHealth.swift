import Foundation
import OpenHealthKit

/// One profile's health data, in its own OpenHealthKit store (`<profile folder>/health.sqlite`) or, for the
/// person's own profile when the health daemon runs, in the store the daemon serves (``HealthStorage``), edited as
/// the Health app: Meds adds the person's medications, keeps their schedules and logs their doses. Every write
/// checks its input first and goes into the store in one transaction, so a rejected or failed write changes
/// nothing.
public final class ProfileHealth: Sendable {
    /// The editor of the profile's store.
    public let editor: HealthEditor
    /// The catalog medications are added from.
    public let catalog: MedicationCatalog

    /// Opens (or creates) the health store file in `folder`.
    public init(folder: URL, catalog: MedicationCatalog = .bundled) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        editor = .file(try HKHealthAppEditor(storeURL: folder.appendingPathComponent(HealthStorage.storeName)))
        self.catalog = catalog
    }

    /// The store `orchard-healthd` serves at `daemonSocketPath` (connected on first use). The daemon lets Meds edit it
    /// only when its registry names the Meds program as the Health app (`com.apple.Health`); otherwise each write
    /// fails with the daemon's reason.
    public init(daemonSocketPath: String, catalog: MedicationCatalog = .bundled) {
        editor = .daemon(HealthAppDaemonEditor(store: HKHealthStore(daemonSocketPath: daemonSocketPath)))
        self.catalog = catalog
    }

    var store: HKHealthStore { editor.store }

    // MARK: Medications

    /// Every medication of the profile, archived ones included, by name.
    public func medications() async throws -> [MedicationItem] {
        let annotated = try await HKUserAnnotatedMedicationQueryDescriptor().result(for: store)
        var items: [MedicationItem] = []
        for medication in annotated {
            let concept = medication.medication
            let rxcui = concept.relatedCodings.first { $0.system == HKClinicalCoding.rxNormSystem }?.code
            items.append(
                MedicationItem(
                    id: concept.identifier.identifier, displayText: concept.displayText, nickname: medication.nickname,
                    form: concept.generalForm.rawValue, rxcui: rxcui, isArchived: medication.isArchived,
                    schedule: try await editor.schedule(of: concept.identifier)))
        }
        return items.sorted { $0.name.localizedCaseInsensitiveCompare($1.name) == .orderedAscending }
    }

    /// Adds a catalog medication by its RxNorm code, with a nickname and a schedule.
    @discardableResult
    public func addMedication(
        rxcui: String, nickname: String?, schedule: MedicationSchedule
    ) async throws
        -> MedicationItem
    {
        guard let entry = catalog.entry(rxcui: rxcui) else {
            throw MedsError("RxNorm code \(rxcui) is not in the medication catalog; nothing was added.")
        }
        let nickname = try Self.validatedNickname(nickname)
        do {
            try await editor.addMedications([.init(concept: entry.concept, nickname: nickname, schedule: schedule)])
        } catch let error as HKError {
            throw MedsError("\(entry.displayName) was not added: \(error.localizedDescription)")
        }
        guard let item = try await medications().first(where: { $0.id == entry.concept.identifier.identifier }) else {
            throw MedsError("\(entry.displayName) was added but cannot be read back from the health store.")
        }
        return item
    }

    static func validatedNickname(_ nickname: String?) throws -> String? {
        guard let trimmed = nickname?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else {
            return nil
        }
        guard trimmed.count <= 60 else {
            throw MedsError("A nickname can be at most 60 characters (this one has \(trimmed.count)).")
        }
        return trimmed
    }

    /// Changes a medication's nickname, schedule or archived state (nil leaves it as it is).
    public func updateMedication(
        _ id: String, nickname: String?? = nil, schedule: MedicationSchedule? = nil, isArchived: Bool? = nil
    ) async throws {
        let nickname: String?? = try nickname.map { try Self.validatedNickname($0) }
        try await editor.updateMedication(
            Self.identifier(id), nickname: nickname, isArchived: isArchived, schedule: schedule.map { .some($0) })
    }

    static func identifier(_ id: String) -> HKHealthConceptIdentifier {
        HKHealthConceptIdentifier(domain: .medication, identifier: id)
    }

    // MARK: Doses

    /// The doses logged between `start` and `end` (by when they were logged or scheduled, with twelve hours'
    /// margin on both sides, so a dose logged after midnight is found with its day).
    public func loggedDoses(from start: Date, to end: Date) async throws -> [LoggedDose] {
        let span = HKQuery.predicateForSamples(
            withStart: start.addingTimeInterval(-12 * 3600), end: end.addingTimeInterval(12 * 3600))
        let events = try await HKSampleQueryDescriptor(
            predicates: [.medicationDoseEvent(span)], sortDescriptors: [SortDescriptor(\.startDate)]
        ).result(for: store)
        return events.map(LoggedDose.init)
    }

    /// The doses logged after `anchor` (every dose when nil) from `start` on (twelve hours' margin, as
    /// ``loggedDoses(from:to:)``), and the UUIDs of doses deleted after it: what ``DoseLog`` keeps itself up to
    /// date with.
    func doseChanges(
        after anchor: HKQueryAnchor?, from start: Date
    ) async throws -> (added: [LoggedDose], deleted: [UUID], anchor: HKQueryAnchor) {
        let span = HKQuery.predicateForSamples(withStart: start.addingTimeInterval(-12 * 3600), end: nil)
        let changes = try await HKAnchoredObjectQueryDescriptor(
            predicates: [.medicationDoseEvent(span)], anchor: anchor
        ).result(for: store)
        return (changes.addedSamples.map(LoggedDose.init), changes.deletedObjects.map(\.uuid), changes.newAnchor)
    }

    /// Logs the person's answer to a scheduled dose at `now`. The dose must be one the medication's schedule has
    /// (checked against the stored schedule), and a dose cannot be logged before its reminder would show.
    @discardableResult
    public func answer(
        _ medicationID: String, scheduledDate: Date, status: HKMedicationDoseEvent.LogStatus, now: Date,
        timeZone: TimeZone
    ) async throws -> LoggedDose {
        guard status == .taken || status == .skipped || status == .snoozed else {
            throw MedsError("A dose can be marked taken, skipped or snoozed, not \(status).")
        }
        let id = Self.identifier(medicationID)
        guard let schedule = try await editor.schedule(of: id), schedule.hasSchedule else {
            throw MedsError("This medication has no schedule; log it as needed instead.")
        }
        let near = schedule.scheduledDoses(
            from: scheduledDate.addingTimeInterval(-1), to: scheduledDate.addingTimeInterval(1),
            currentTimeZone: timeZone)
        guard let due = near.first(where: { $0.date == scheduledDate }) else {
            throw MedsError("No dose of this medication is scheduled at \(scheduledDate); nothing was logged.")
        }
        guard scheduledDate.timeIntervalSince(now) <= 12 * 3600 else {
            throw MedsError("A dose due more than 12 hours from now cannot be logged yet; nothing was logged.")
        }
        let events = try await editor.logDoses([
            HKHealthAppEditor.DoseLog(
                medication: id, status: status, date: now, scheduledDate: due.date, scheduledQuantity: due.quantity,
                unit: scheduledDoseUnit(of: medicationID))
        ])
        return LoggedDose(events[0])
    }

    /// The unit a scheduled dose's quantity is in: millilitres for a liquid from the catalog, else a count (see
    /// ``DoseAmount``). A medication from outside the catalog (another health app's, in the daemon's store) is
    /// counted, as the Health app counts doses. An as-needed dose is one dose, counted, whatever the form.
    private func scheduledDoseUnit(of medicationID: String) -> HKUnit {
        guard let entry = catalog.entry(conceptIdentifier: medicationID) else { return .count() }
        return DoseAmount.unit(form: entry.generalForm.rawValue)
    }

    /// Logs an as-needed dose taken at `date`, which cannot be in the future.
    @discardableResult
    public func logAsNeeded(
        _ medicationID: String, quantity: Double = 1, at date: Date, now: Date
    ) async throws
        -> LoggedDose
    {
        guard date <= now.addingTimeInterval(60) else {
            throw MedsError("A dose cannot be logged in the future; nothing was logged.")
        }
        guard quantity > 0, quantity <= 100, quantity.isFinite else {
            throw MedsError("A dose's quantity must be more than 0 and at most 100, not \(quantity).")
        }
        let events = try await editor.logDoses([
            HKHealthAppEditor.DoseLog(
                medication: Self.identifier(medicationID), status: .taken, date: date, doseQuantity: quantity)
        ])
        return LoggedDose(events[0])
    }

    /// Undoes a log: a scheduled dose becomes open again (its event is kept as `notLogged`, as the Health app
    /// keeps it); an as-needed dose is deleted.
    public func undo(_ log: LoggedDose) async throws {
        let events = try await HKSampleQueryDescriptor(
            predicates: [.medicationDoseEvent(HKQuery.predicateForObjects(with: [log.uuid]))], sortDescriptors: []
        ).result(for: store)
        guard let event = events.first else {
            throw MedsError("That dose is no longer in the log (it was changed elsewhere); nothing was undone.")
        }
        if event.scheduledDate == nil {
            try await editor.deleteDose(event)
        } else {
            try await editor.undoLog(event)
        }
    }
}
