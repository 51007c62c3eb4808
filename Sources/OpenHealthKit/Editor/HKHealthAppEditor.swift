import OpenCoreData

/// The Health app's side of the store (privileged): adds medications from catalog concepts,
/// customizes them, logs, edits and deletes doses. Apps cannot do any of this; they only read.
/// When a medication is added, every app that asked for medication access is asked again, for that
/// medication, through the authorization handler (the sharing switches of the Health app).
public final class HKHealthAppEditor: @unchecked Sendable {
    /// The privileged store, which also reads everything.
    public let store: HKHealthStore
    var database: HealthDatabase { store.database }

    /// The editor of a store the daemon opened for the Health app.
    init(store: HKHealthStore) { self.store = store }

    /// Opens the store at a URL as the Health app.
    public init(storeURL: URL, authorizationHandler: any HKAuthorizationHandler = HKDenyAllAuthorizationHandler()) throws {
        store = try HKHealthStore(storeURL: storeURL, bundleIdentifier: HKHealthStore.healthAppBundleIdentifier,
                                  authorizationHandler: authorizationHandler)
    }

    private func record(_ entity: String, _ key: String, _ value: String, in context: NSManagedObjectContext) throws -> NSManagedObject? {
        try database.fetch(entity, HKQuery.compare(key, .equal, value), limit: 1, in: context).first
    }

    func medicationRecord(_ id: HKHealthConceptIdentifier, in context: NSManagedObjectContext) throws -> NSManagedObject {
        guard let record = try record(HealthStoreModel.medication, "medicationConceptIdentifier", id.identifier, in: context) else {
            throw HKError(.errorInvalidArgument, "no medication \(id.identifier) in the Health app")
        }
        return record
    }

    // MARK: Medications

    /// Adds a medication, then asks every app that requested medication access whether it may read it.
    @discardableResult
    public func addMedication(_ concept: HKMedicationConcept, nickname: String? = nil,
                              schedule: MedicationSchedule? = nil) async throws -> HKUserAnnotatedMedication {
        try await addMedications([NewMedication(concept: concept, nickname: nickname, schedule: schedule)])[0]
    }

    /// A medication for ``addMedications(_:)``.
    public struct NewMedication: Sendable {
        /// What the medication is.
        public var concept: HKMedicationConcept
        /// The person's name for it.
        public var nickname: String?
        /// When it is due (nil: no schedule).
        public var schedule: MedicationSchedule?

        /// A medication to add.
        public init(concept: HKMedicationConcept, nickname: String? = nil, schedule: MedicationSchedule? = nil) {
            self.concept = concept
            self.nickname = nickname
            self.schedule = schedule
        }
    }

    /// Adds several medications in one transaction: all of them or, when one is refused (already in the list,
    /// twice in `medications`, an empty identifier) or the write fails, none. Then every app that requested
    /// medication access is asked once about all of them.
    @discardableResult
    public func addMedications(_ medications: [NewMedication]) async throws -> [HKUserAnnotatedMedication] {
        var seen: Set<String> = []
        for new in medications {
            let id = new.concept.identifier.identifier
            guard !id.isEmpty else { throw HKError(.errorInvalidArgument, "the concept has an empty identifier") }
            guard seen.insert(id).inserted else {
                throw HKError(.errorInvalidArgument, "medication \(id) is twice in the medications to add")
            }
        }
        guard !medications.isEmpty else { return [] }
        let (added, apps) = try database.write { context, sequence -> ([HKUserAnnotatedMedication], Set<String>) in
            var added: [HKUserAnnotatedMedication] = []
            for new in medications {
                let concept = new.concept
                if try record(HealthStoreModel.medication, "medicationConceptIdentifier", concept.identifier.identifier, in: context) != nil {
                    throw HKError(.errorInvalidArgument, "medication \(concept.identifier.identifier) is already in the list")
                }
                let seq = sequence.next()
                database.insert(HealthStoreModel.medication, [
                    "medicationConceptIdentifier": concept.identifier.identifier, "displayText": concept.displayText,
                    "generalForm": concept.generalForm.rawValue, "codings": RecordMapping.codingsData(concept.relatedCodings),
                    "nickname": new.nickname, "isArchived": false, "hasSchedule": new.schedule?.hasSchedule ?? false,
                    "schedule": try new.schedule.map { try JSONEncoder().encode($0) }, "createdAt": Date(), "seq": seq,
                    "modifiedAt": Date(),
                ], in: context)
                added.append(HKUserAnnotatedMedication(nickname: new.nickname, isArchived: false,
                                                       hasSchedule: new.schedule?.hasSchedule ?? false, medication: concept))
            }
            sequence.bumpAuthorization() // the set of medications apps may be shown changed
            return (added, try AuthorizationRecords.appsThatRequestedMedications(database, in: context))
        }
        try await ask(apps, about: added)
        return added
    }

    /// Asks each app that requested medication access whether it may read newly added medications, and records
    /// the answers.
    func ask(_ apps: Set<String>, about added: [HKUserAnnotatedMedication]) async throws {
        for app in apps.sorted() {
            let current = try database.perform { try AuthorizationRecords.keys(database, app, AuthorizationRecords.medication, in: $0) }
            let granted = await store.authorizationHandler.perObjectReadAuthorization(bundleIdentifier: app, medications: added,
                                                                                    current: current)
            try database.write { context, sequence in
                for medication in added {
                    let id = medication.medication.identifier
                    try AuthorizationRecords.set(database, app, AuthorizationRecords.medication, key: id.identifier,
                                                 granted: granted.contains(id), in: context)
                }
                sequence.bumpAuthorization()
            }
        }
    }

    /// Changes a medication's nickname, archived state or schedule (nil arguments are left alone;
    /// pass `.some(nil)` to remove a nickname or schedule).
    @discardableResult
    public func updateMedication(_ id: HKHealthConceptIdentifier, nickname: String?? = nil, isArchived: Bool? = nil,
                                 schedule: MedicationSchedule?? = nil) throws -> HKUserAnnotatedMedication {
        try database.write { context, sequence in
            let record = try medicationRecord(id, in: context)
            if let nickname { record.setValue(nickname, forKey: "nickname") }
            if let isArchived { record.setValue(isArchived, forKey: "isArchived") }
            if let schedule {
                record.setValue(try schedule.map { try JSONEncoder().encode($0) }, forKey: "schedule")
                record.setValue(schedule?.hasSchedule ?? false, forKey: "hasSchedule")
            }
            record.setValue(sequence.next(), forKey: "seq")
            record.setValue(Date(), forKey: "modifiedAt")
            return RecordMapping.medication(record)
        }
    }

    /// A medication's schedule, if it has one.
    public func schedule(of id: HKHealthConceptIdentifier) throws -> MedicationSchedule? {
        try database.perform { context in
            try (medicationRecord(id, in: context).value(forKey: "schedule") as? Data).map {
                try JSONDecoder().decode(MedicationSchedule.self, from: $0)
            }
        }
    }

    /// Deletes a medication with its dose events (reported as deletions to anchored queries) and
    /// every app's permission for it.
    public func deleteMedication(_ id: HKHealthConceptIdentifier) throws {
        try database.write { context, sequence in
            let record = try medicationRecord(id, in: context)
            for dose in try database.fetch(HealthStoreModel.doseEvent, HKQuery.compare("medicationConceptIdentifier", .equal, id.identifier), in: context) {
                recordDeletion(of: dose, sequence: sequence, in: context)
                context.delete(dose)
            }
            let grants = HKQuery.and([HKQuery.compare("kind", .equal, AuthorizationRecords.medication), HKQuery.compare("key", .equal, id.identifier)])
            for grant in try database.fetch(HealthStoreModel.authorization, grants, in: context) { context.delete(grant) }
            context.delete(record)
            sequence.bumpAuthorization()
        }
    }

    // MARK: Doses

    /// One dose to log.
    public struct DoseLog: Sendable {
        /// The medication.
        public var medication: HKHealthConceptIdentifier
        /// What the person did.
        public var status: HKMedicationDoseEvent.LogStatus
        /// When it was logged (the sample's start and end date).
        public var date: Date
        /// When it was scheduled (nil: as needed).
        public var scheduledDate: Date?
        /// The quantity scheduled (nil: as needed).
        public var scheduledQuantity: Double?
        /// The quantity taken (nil: the default for the status).
        public var doseQuantity: Double?
        /// The unit.
        public var unit: HKUnit
        /// The event's UUID (nil: a new one). Logging a UUID that is already in the store logs nothing and returns
        /// the stored event, so a log retried after its reply was lost (a killed daemon, a dropped connection) is
        /// never a duplicate.
        public var uuid: UUID?

        /// Creates a log entry.
        public init(medication: HKHealthConceptIdentifier, status: HKMedicationDoseEvent.LogStatus, date: Date,
                    scheduledDate: Date? = nil, scheduledQuantity: Double? = nil, doseQuantity: Double? = nil, unit: HKUnit = .count()) {
            self.medication = medication
            self.status = status
            self.date = date
            self.scheduledDate = scheduledDate
            self.scheduledQuantity = scheduledQuantity
            self.doseQuantity = doseQuantity
            self.unit = unit
        }
    }

    /// The quantity HealthKit records for a log: as given, else the scheduled quantity (or 1 as
    /// needed) when taken, 0 when skipped, none otherwise.
    static func defaultQuantity(_ log: DoseLog) -> Double? {
        if let q = log.doseQuantity { return q }
        switch log.status {
        case .taken: return log.scheduledQuantity ?? 1
        case .skipped: return 0
        default: return nil
        }
    }

    static func validate(_ log: DoseLog) throws {
        if (log.scheduledDate == nil) != (log.scheduledQuantity == nil) {
            throw HKError(.errorInvalidArgument, "a scheduled dose needs both scheduledDate and scheduledQuantity; an as-needed dose neither")
        }
        if let q = log.doseQuantity, !(q >= 0 && q.isFinite) { throw HKError(.errorInvalidArgument, "doseQuantity \(q) must be zero or more") }
        if let q = log.scheduledQuantity, !(q > 0 && q.isFinite) { throw HKError(.errorInvalidArgument, "scheduledQuantity \(q) must be positive") }
        if log.scheduledDate == nil, log.status != .taken, log.status != .skipped, log.status != .notLogged {
            throw HKError(.errorInvalidArgument, "an as-needed dose cannot be \(log.status): only scheduled doses have reminders")
        }
    }

    /// Logs doses in one transaction (for imports); returns the events in order.
    @discardableResult
    public func logDoses(_ logs: [DoseLog]) throws -> [HKMedicationDoseEvent] {
        try logs.forEach(Self.validate)
        return try database.write { context, sequence in try insertDoses(logs, in: context, sequence: sequence) }
    }

    /// Inserts validated logs inside a write.
    func insertDoses(_ logs: [DoseLog], in context: NSManagedObjectContext, sequence: SequenceAllocator) throws -> [HKMedicationDoseEvent] {
        var known = Set<String>()
        var events: [HKMedicationDoseEvent] = []
        events.reserveCapacity(logs.count)
        // Logs naming a UUID already stored (a retry) return the stored event instead of a second one.
        let named = logs.compactMap { $0.uuid?.uuidString }
        var stored: [String: HKMedicationDoseEvent] = [:]
        if !named.isEmpty {
            let existing = try database.fetch(HealthStoreModel.doseEvent, HKQuery.compare("uuid", .within, named), in: context)
            for record in existing { stored[record.value(forKey: "uuid") as? String ?? ""] = RecordMapping.doseEvent(record) }
        }
        for log in logs {
            if let uuid = log.uuid?.uuidString, let event = stored[uuid] {
                guard event.medicationConceptIdentifier == log.medication, event.logStatus == log.status,
                    event.startDate == log.date
                else {
                    throw HKError(.errorInvalidArgument, "dose event \(uuid) is already logged as another dose")
                }
                events.append(event)
                continue
            }
            if !known.contains(log.medication.identifier) {
                _ = try medicationRecord(log.medication, in: context)
                known.insert(log.medication.identifier)
            }
            let seq = sequence.next()
            let uuid = log.uuid ?? UUID()
            let quantity = Self.defaultQuantity(log)
            database.insert(HealthStoreModel.doseEvent, [
                "uuid": uuid.uuidString, "seq": seq, "startDate": log.date, "endDate": log.date,
                "sourceName": RecordMapping.healthSource.source.name, "sourceBundle": HKHealthStore.healthAppBundleIdentifier,
                "medicationConceptIdentifier": log.medication.identifier, "logStatus": Int16(log.status.rawValue),
                "scheduleType": Int16((log.scheduledDate == nil ? HKMedicationDoseEvent.ScheduleType.asNeeded : .schedule).rawValue),
                "scheduledDate": log.scheduledDate, "scheduledDoseQuantity": log.scheduledQuantity, "doseQuantity": quantity,
                "unit": log.unit.unitString,
            ], in: context)
            let event = HKMedicationDoseEvent(
                medicationConceptIdentifier: log.medication, logStatus: log.status,
                scheduleType: log.scheduledDate == nil ? .asNeeded : .schedule, scheduledDate: log.scheduledDate,
                scheduledDoseQuantity: log.scheduledQuantity, doseQuantity: quantity, unit: log.unit,
                startDate: log.date, endDate: log.date, uuid: uuid, metadata: nil,
                sourceRevision: RecordMapping.healthSource)
            events.append(event)
            if log.uuid != nil { stored[uuid.uuidString] = event }  // the same UUID twice in one call: one event
        }
        return events
    }

    /// Logs one dose.
    @discardableResult
    public func logDose(_ log: DoseLog) throws -> HKMedicationDoseEvent { try logDoses([log])[0] }

    private func recordDeletion(of dose: NSManagedObject, sequence: SequenceAllocator, in context: NSManagedObjectContext) {
        let seq = sequence.next()
        sequence.markDeletion(seq)
        database.insert(HealthStoreModel.deletedObject, [
            "uuid": dose.value(forKey: "uuid") as? String ?? "", "seq": seq, "sampleType": HKSampleType.medicationDoseEventIdentifier,
            "medicationConceptIdentifier": dose.value(forKey: "medicationConceptIdentifier") as? String,
            "metadata": dose.value(forKey: "metadata") as? Data, "deletedAt": Date(),
        ], in: context)
    }

    /// Deletes a dose event (anchored queries report it as deleted).
    public func deleteDose(_ event: HKMedicationDoseEvent) throws { try deleteDose(uuid: event.uuid) }

    /// Deletes the dose event with a UUID.
    func deleteDose(uuid: UUID) throws {
        try database.write { context, sequence in try removeDose(uuid, in: context, sequence: sequence) }
    }

    /// Deletes a dose event inside a write, recording the deletion.
    private func removeDose(_ uuid: UUID, in context: NSManagedObjectContext, sequence: SequenceAllocator) throws {
        guard let dose = try record(HealthStoreModel.doseEvent, "uuid", uuid.uuidString, in: context) else {
            throw HKError(.errorInvalidArgument, "no dose event \(uuid)")
        }
        recordDeletion(of: dose, sequence: sequence, in: context)
        context.delete(dose)
    }

    /// Edits a dose: samples are immutable, so the old event is deleted and a new one (new UUID) added
    /// in the same transaction, both reported to anchored queries (in one result).
    @discardableResult
    public func editDose(_ event: HKMedicationDoseEvent, status: HKMedicationDoseEvent.LogStatus? = nil,
                         doseQuantity: Double?? = nil, date: Date? = nil) throws -> HKMedicationDoseEvent {
        var log = DoseLog(medication: event.medicationConceptIdentifier, status: status ?? event.logStatus, date: date ?? event.startDate,
                          scheduledDate: event.scheduledDate, scheduledQuantity: event.scheduledDoseQuantity,
                          doseQuantity: doseQuantity ?? event.doseQuantity, unit: event.unit)
        if status != nil, doseQuantity == nil { log.doseQuantity = nil } // a new status takes its default quantity
        try Self.validate(log)
        // One transaction: readers see the old event and then the new one, never neither.
        return try database.write { context, sequence in
            try removeDose(event.uuid, in: context, sequence: sequence)
            return try insertDoses([log], in: context, sequence: sequence)[0]
        }
    }

    /// Undoes a log: the dose becomes `notLogged` with no quantity.
    @discardableResult
    public func undoLog(_ event: HKMedicationDoseEvent) throws -> HKMedicationDoseEvent {
        try editDose(event, status: .notLogged, doseQuantity: .some(nil))
    }
}
