import OpenCoreData

/// Replication: one store's changes read as a feed and applied to another copy of the same person's data (Meds'
/// sync between machines). Orchard's own API: Apple's Health app syncs through iCloud, which apps never see.
///
/// The rules that make two copies converge whatever order changes arrive in:
/// - A sample (a dose event or a category sample) is named by its UUID, and samples never change: an edit is a
///   deletion and a new sample. Applying an addition that is already here, or a deletion already done, does
///   nothing, so a batch can be applied twice.
/// - A deletion wins for good: the store keeps a record of every deletion (what anchored queries report), and an
///   addition of a UUID deleted here, earlier or later, is skipped. A deletion of a sample not yet here is recorded,
///   so the addition arriving after it is skipped too.
/// - Everything else is kept: two answers to one scheduled dose made on two machines are both kept; which one
///   counts is the reader's rule (Meds takes the one logged last).
/// - A medication is named by its concept identifier. One not here is added with the sender's nickname, archived
///   state and schedule (and every app that asked for medication access is asked about it, as when the person adds
///   one). One here takes the sender's state when the sender's was changed later (`modifiedAt`, the person's last
///   edit on either machine; equal times: the state that sorts last wins, so both copies choose the same one).
///   Medications are never deleted by replication.
extension HKHealthAppEditor {
    /// A dose event as replication carries it.
    public struct ReplicatedDose: Codable, Sendable, Hashable {
        /// The event's UUID.
        public var uuid: UUID
        /// The medication's concept identifier.
        public var medication: String
        /// The log status's raw value.
        public var status: Int
        /// When it was logged.
        public var date: Date
        /// When it was scheduled (nil: as needed).
        public var scheduledDate: Date?
        /// The quantity scheduled.
        public var scheduledQuantity: Double?
        /// The quantity taken.
        public var doseQuantity: Double?
        /// The unit's string.
        public var unit: String
    }

    /// A category sample (a symptom) as replication carries it.
    public struct ReplicatedSample: Codable, Sendable, Hashable {
        /// The sample's UUID.
        public var uuid: UUID
        /// The category type's identifier.
        public var type: String
        /// The value.
        public var value: Int
        /// The start date.
        public var start: Date
        /// The end date.
        public var end: Date
        /// The metadata's string values (the only kind Meds writes).
        public var metadata: [String: String]?
        /// The bundle identifier of the app that saved it.
        public var sourceBundle: String
    }

    /// A medication's state as replication carries it.
    public struct ReplicatedMedication: Codable, Sendable, Hashable {
        /// The concept identifier.
        public var identifier: String
        /// The concept's display text.
        public var displayText: String
        /// The concept's general form.
        public var generalForm: String
        /// The concept's clinical codings.
        public var codings: [HKClinicalCoding]
        /// The person's name for it.
        public var nickname: String?
        /// Whether it is archived.
        public var isArchived: Bool
        /// When it is due.
        public var schedule: MedicationSchedule?
        /// When the person last changed it.
        public var modifiedAt: Date

        /// Orders two states of one medication changed at the same moment (the same on every machine).
        var tieKey: String {
            var parts = [nickname ?? "", isArchived ? "archived" : ""]
            if let schedule {
                // Spelled out in a fixed order (a set of weekdays, as JSON or a description, has none).
                switch schedule.frequency {
                case .weekdays(let days):
                    parts.append("weekdays " + days.sorted().map(String.init).joined(separator: ","))
                case .everyNDays(let n, let year, let month, let day):
                    parts.append("every \(n) from \(year)-\(month)-\(day)")
                case .asNeeded: parts.append("as needed")
                }
                parts.append(schedule.times.map { "\($0.hour):\($0.minute)x\($0.quantity)" }.joined(separator: ","))
                parts.append(schedule.timeZoneIdentifier ?? "")
            }
            return parts.joined(separator: "|")
        }
    }

    /// A deletion as replication carries it.
    public struct ReplicatedDeletion: Codable, Sendable, Hashable {
        /// The deleted sample's UUID.
        public var uuid: UUID
        /// Its sample type's identifier.
        public var sampleType: String
        /// The medication of a deleted dose event.
        public var medication: String?
    }

    /// A page of a store's changes after an anchor.
    public struct ReplicatedChanges: Codable, Sendable {
        /// Medications added or changed.
        public var medications: [ReplicatedMedication] = []
        /// Dose events added.
        public var doses: [ReplicatedDose] = []
        /// Category samples added.
        public var samples: [ReplicatedSample] = []
        /// Samples deleted.
        public var deletions: [ReplicatedDeletion] = []
        /// The anchor after these changes: the next page starts here.
        public var anchor: Int64 = 0
        /// Whether there are more changes after ``anchor`` (the page was cut at its limit).
        public var hasMore = false

        /// No changes.
        public init() {}

        /// The number of changes in the page.
        public var count: Int { medications.count + doses.count + samples.count + deletions.count }
    }

    /// What applying a page did.
    public struct ReplicationOutcome: Sendable, Hashable {
        /// Medications added, or changed to the sender's later state.
        public var medications = 0
        /// Samples added.
        public var added = 0
        /// Samples deleted (or deletions recorded before their sample arrived).
        public var deleted = 0
        /// Changes already here, or additions of samples deleted here.
        public var skipped = 0
        /// The sequence numbers the changes written took in this store (nil when nothing was written): a sync that
        /// sends this store's changes back to the machine they came from leaves these out
        /// (``HKHealthAppEditor/replicatedChanges(after:limit:excluding:)``).
        public var sequences: ClosedRange<Int64>?
    }

    /// The store's changes after `anchor` (nil or 0: from the beginning), at most `limit` of them in the order they
    /// were made: dose events, category samples and deletions. Changes whose sequence number lies in one of
    /// `excluding` are left out (the anchor still moves past them): a sync leaves out what it wrote from the machine
    /// the page is for (``ReplicationOutcome/sequences``), which that machine has already.
    public func replicatedChanges(
        after anchor: Int64?, limit: Int = 2000, excluding: [ClosedRange<Int64>] = []
    ) throws -> ReplicatedChanges {
        guard limit > 0 else { throw HKError(.errorInvalidArgument, "limit must be positive (got \(limit))") }
        return try database.perform { context in
            let since = anchor ?? 0
            let counter = try StoreCounters.read(in: context, database: database).sequence
            var page = ReplicatedChanges()
            page.anchor = max(since, counter)
            guard counter > since else { return page }
            let window = HKQuery.and([HKQuery.compare("seq", .above, since), HKQuery.compare("seq", .atMost, counter)])
            let bySeq = [HKQuery.sort("seq", ascending: true)]
            let doses = try database.fetch(HealthStoreModel.doseEvent, window, sort: bySeq, limit: limit, in: context)
            let samples = try database.fetch(
                HealthStoreModel.categorySample, window, sort: bySeq, limit: limit, in: context)
            let deletions = try database.fetch(
                HealthStoreModel.deletedObject, window, sort: bySeq, limit: limit, in: context)
            var sequences = (doses + samples + deletions).map { Self.sequence($0) }
            var upper = counter
            if sequences.count > limit {
                sequences.sort()
                upper = sequences[limit - 1]
                page.hasMore = true
            } else if doses.count == limit || samples.count == limit || deletions.count == limit {
                // One table filled its page: what lies after its last row is read next time.
                upper = [doses, samples, deletions].filter { $0.count == limit }.map { Self.sequence($0.last!) }.min()!
                page.hasMore = true
            }
            page.anchor = upper
            let medicationWindow = HKQuery.and([
                HKQuery.compare("seq", .above, since), HKQuery.compare("seq", .atMost, upper),
            ])
            func excluded(_ record: NSManagedObject) -> Bool {
                guard !excluding.isEmpty else { return false }
                let seq = Self.sequence(record)
                return excluding.contains { $0.contains(seq) }
            }
            for record in try database.fetch(HealthStoreModel.medication, medicationWindow, sort: bySeq, in: context)
            where !excluded(record) {
                let concept = RecordMapping.concept(record)
                page.medications.append(
                    ReplicatedMedication(
                        identifier: concept.identifier.identifier, displayText: concept.displayText,
                        generalForm: concept.generalForm.rawValue,
                        codings: concept.relatedCodings.sorted { ($0.system, $0.code) < ($1.system, $1.code) },
                        nickname: record.value(forKey: "nickname") as? String,
                        isArchived: record.value(forKey: "isArchived") as? Bool ?? false,
                        schedule: try (record.value(forKey: "schedule") as? Data).map {
                            try JSONDecoder().decode(MedicationSchedule.self, from: $0)
                        },
                        modifiedAt: Self.modifiedAt(record)))
            }
            let interner = RecordMapping.Interner()
            for record in doses where Self.sequence(record) <= upper && !excluded(record) {
                let event = RecordMapping.doseEvent(record, interner)
                page.doses.append(
                    ReplicatedDose(
                        uuid: event.uuid, medication: event.medicationConceptIdentifier.identifier,
                        status: event.logStatus.rawValue, date: event.startDate, scheduledDate: event.scheduledDate,
                        scheduledQuantity: event.scheduledDoseQuantity, doseQuantity: event.doseQuantity,
                        unit: event.unit.unitString))
            }
            for record in samples where Self.sequence(record) <= upper && !excluded(record) {
                let sample = RecordMapping.categorySample(record)
                page.samples.append(
                    ReplicatedSample(
                        uuid: sample.uuid, type: sample.categoryType.identifier, value: sample.value,
                        start: sample.startDate, end: sample.endDate,
                        metadata: sample.metadata?.compactMapValues { $0 as? String },
                        sourceBundle: sample.sourceRevision.source.bundleIdentifier))
            }
            for record in deletions where Self.sequence(record) <= upper && !excluded(record) {
                page.deletions.append(
                    ReplicatedDeletion(
                        uuid: RecordMapping.uuid(record),
                        sampleType: record.value(forKey: "sampleType") as? String ?? "",
                        medication: record.value(forKey: "medicationConceptIdentifier") as? String))
            }
            return page
        }
    }

    /// When the person last changed a medication record (its creation, in a store from before `modifiedAt`).
    static func modifiedAt(_ record: NSManagedObject) -> Date {
        record.value(forKey: "modifiedAt") as? Date ?? record.value(forKey: "createdAt") as? Date ?? .distantPast
    }

    private static func sequence(_ record: NSManagedObject) -> Int64 {
        (record as? DoseEventRecord)?.seq ?? int64(record, "seq")
    }

    /// Makes every later change's sequence number larger than `value`, and returns the store's change counter
    /// after it. A store that takes over another store's history (a copy moved into it by pages of
    /// ``replicatedChanges(after:limit:excluding:)``) calls it first with that store's last anchor: what it takes is
    /// then numbered after every anchor the other store's readers hold, so a reader that asks for the changes after
    /// its anchor misses none of them.
    @discardableResult
    public func advanceChangeCounter(past value: Int64) throws -> Int64 {
        try database.write { _, sequence in
            sequence.advance(past: value)
            return sequence.last
        }
    }

    /// Applies another copy's page of changes in one transaction, by the rules above. Every change is checked first
    /// (a known medication, a valid status and quantity, a symptom value HealthKit has); one bad change rejects the
    /// whole page with an error naming it, and nothing is written.
    @discardableResult
    public func applyReplicatedChanges(_ page: ReplicatedChanges) async throws -> ReplicationOutcome {
        var identifiers = Set<String>()
        for medication in page.medications {
            guard !medication.identifier.isEmpty, !medication.displayText.isEmpty,
                identifiers.insert(medication.identifier).inserted
            else {
                throw HKError(
                    .errorInvalidArgument,
                    "medication \"\(medication.identifier)\": no identifier or name, or listed twice in one page")
            }
            guard (medication.nickname?.count ?? 0) <= 200, medication.modifiedAt.timeIntervalSince1970.isFinite else {
                throw HKError(.errorInvalidArgument, "medication \(medication.identifier): a bad nickname or date")
            }
        }
        let logs = try page.doses.map { dose -> DoseLog in
            guard let status = HKMedicationDoseEvent.LogStatus(rawValue: dose.status) else {
                throw HKError(.errorInvalidArgument, "dose event \(dose.uuid): unknown log status \(dose.status)")
            }
            guard dose.date.timeIntervalSince1970.isFinite, !dose.medication.isEmpty else {
                throw HKError(.errorInvalidArgument, "dose event \(dose.uuid): no medication or no date")
            }
            var log = DoseLog(
                medication: HKHealthConceptIdentifier(domain: .medication, identifier: dose.medication), status: status,
                date: dose.date, scheduledDate: dose.scheduledDate, scheduledQuantity: dose.scheduledQuantity,
                doseQuantity: dose.doseQuantity, unit: HKUnit(from: dose.unit))
            log.uuid = dose.uuid
            try Self.validate(log)
            return log
        }
        for sample in page.samples {
            let type = HKCategoryTypeIdentifier(sample.type)
            guard HKCategoryTypeIdentifier.allSymptoms.contains(type) else {
                throw HKError(.errorInvalidArgument, "sample \(sample.uuid): \(sample.type) is not a symptom type")
            }
            guard HKCategoryValueSeverity(rawValue: sample.value) != nil else {
                throw HKError(.errorInvalidArgument, "sample \(sample.uuid): \(sample.value) is not a severity (0...4)")
            }
            guard sample.end >= sample.start else {
                throw HKError(.errorInvalidArgument, "sample \(sample.uuid): its end is before its start")
            }
        }
        let (outcome, added, apps) = try database.write { context, sequence in
            var outcome = ReplicationOutcome()
            let before = sequence.last
            /// The outcome with the sequence numbers this page took.
            func stamped() -> ReplicationOutcome {
                var stamped = outcome
                stamped.sequences = sequence.last > before ? (before + 1)...sequence.last : nil
                return stamped
            }
            var added: [HKUserAnnotatedMedication] = []
            for medication in page.medications {
                let existing = try database.fetch(
                    HealthStoreModel.medication,
                    HKQuery.compare("medicationConceptIdentifier", .equal, medication.identifier),
                    limit: 1, in: context
                ).first
                let schedule = try medication.schedule.map { try JSONEncoder().encode($0) }
                if let existing {
                    let mine = Self.modifiedAt(existing)
                    let current = ReplicatedMedication(
                        identifier: medication.identifier, displayText: "", generalForm: "", codings: [],
                        nickname: existing.value(forKey: "nickname") as? String,
                        isArchived: existing.value(forKey: "isArchived") as? Bool ?? false,
                        schedule: try (existing.value(forKey: "schedule") as? Data).map {
                            try JSONDecoder().decode(MedicationSchedule.self, from: $0)
                        }, modifiedAt: mine)
                    guard
                        medication.modifiedAt > mine
                            || (medication.modifiedAt == mine && medication.tieKey > current.tieKey)
                    else { continue }
                    existing.setValue(medication.nickname, forKey: "nickname")
                    existing.setValue(medication.isArchived, forKey: "isArchived")
                    existing.setValue(schedule, forKey: "schedule")
                    existing.setValue(medication.schedule?.hasSchedule ?? false, forKey: "hasSchedule")
                    existing.setValue(medication.modifiedAt, forKey: "modifiedAt")
                    existing.setValue(sequence.next(), forKey: "seq")
                } else {
                    let concept = HKMedicationConcept(
                        identifier: HKHealthConceptIdentifier(domain: .medication, identifier: medication.identifier),
                        displayText: medication.displayText,
                        generalForm: HKMedicationGeneralForm(rawValue: medication.generalForm),
                        relatedCodings: Set(medication.codings))
                    database.insert(
                        HealthStoreModel.medication,
                        [
                            "medicationConceptIdentifier": medication.identifier, "displayText": medication.displayText,
                            "generalForm": medication.generalForm,
                            "codings": RecordMapping.codingsData(concept.relatedCodings),
                            "nickname": medication.nickname,
                            "isArchived": medication.isArchived,
                            "hasSchedule": medication.schedule?.hasSchedule ?? false,
                            "schedule": schedule, "createdAt": medication.modifiedAt,
                            "modifiedAt": medication.modifiedAt,
                            "seq": sequence.next(),
                        ], in: context)
                    added.append(
                        HKUserAnnotatedMedication(
                            nickname: medication.nickname, isArchived: medication.isArchived,
                            hasSchedule: medication.schedule?.hasSchedule ?? false, medication: concept))
                }
                outcome.medications += 1
            }
            if !added.isEmpty { sequence.bumpAuthorization() }
            let apps = added.isEmpty ? [] : try AuthorizationRecords.appsThatRequestedMedications(database, in: context)
            let incoming = (page.doses.map(\.uuid) + page.samples.map(\.uuid) + page.deletions.map(\.uuid))
                .map(\.uuidString)
            guard !incoming.isEmpty else { return (stamped(), added, apps) }
            let named = HKQuery.compare("uuid", .within, Array(Set(incoming)))
            var tombstones = Set(
                try database.fetch(HealthStoreModel.deletedObject, named, in: context).map { RecordMapping.uuid($0) })
            var doseRecords: [UUID: NSManagedObject] = [:]
            for record in try database.fetch(HealthStoreModel.doseEvent, named, in: context) {
                doseRecords[RecordMapping.uuid(record)] = record
            }
            var sampleRecords: [UUID: NSManagedObject] = [:]
            for record in try database.fetch(HealthStoreModel.categorySample, named, in: context) {
                sampleRecords[RecordMapping.uuid(record)] = record
            }
            // Deletions first: an addition and a deletion of one sample in one page leave it deleted.
            for deletion in page.deletions {
                if tombstones.contains(deletion.uuid) {
                    outcome.skipped += 1
                    continue
                }
                let record =
                    doseRecords.removeValue(forKey: deletion.uuid) ?? sampleRecords.removeValue(forKey: deletion.uuid)
                let seq = sequence.next()
                sequence.markDeletion(seq)
                database.insert(
                    HealthStoreModel.deletedObject,
                    [
                        "uuid": deletion.uuid.uuidString, "seq": seq,
                        "sampleType": record.map {
                            $0 is DoseEventRecord
                                ? HKSampleType.medicationDoseEventIdentifier
                                : $0.value(forKey: "typeIdentifier") as? String ?? ""
                        } ?? deletion.sampleType,
                        // Only dose events have a medication (a category record has no such key).
                        "medicationConceptIdentifier": record.map {
                            ($0 as? DoseEventRecord)?.medicationConceptIdentifier
                        } ?? deletion.medication,
                        "metadata": record?.value(forKey: "metadata") as? Data, "deletedAt": Date(),
                    ], in: context)
                if let record { context.delete(record) }
                tombstones.insert(deletion.uuid)
                outcome.deleted += 1
            }
            var newLogs: [DoseLog] = []
            var seenDoses = Set<UUID>()
            for log in logs {
                // Safe to unwrap: every log above was made with its dose's UUID.
                let uuid = log.uuid!
                if tombstones.contains(uuid) || doseRecords[uuid] != nil || !seenDoses.insert(uuid).inserted {
                    outcome.skipped += 1
                } else {
                    newLogs.append(log)
                }
            }
            _ = try insertDoses(newLogs, in: context, sequence: sequence)
            outcome.added += newLogs.count
            var seen = Set<UUID>()
            for sample in page.samples {
                if tombstones.contains(sample.uuid) || sampleRecords[sample.uuid] != nil
                    || !seen.insert(sample.uuid).inserted
                {
                    outcome.skipped += 1
                    continue
                }
                database.insert(
                    HealthStoreModel.categorySample,
                    [
                        "uuid": sample.uuid.uuidString, "seq": sequence.next(), "startDate": sample.start,
                        "endDate": sample.end, "sourceName": sample.sourceBundle, "sourceBundle": sample.sourceBundle,
                        "metadata": MetadataCoding.encode(sample.metadata.map { $0 as [String: any Sendable] }),
                        "typeIdentifier": sample.type,
                        "value": Int64(sample.value),
                    ], in: context)
                outcome.added += 1
            }
            return (stamped(), added, apps)
        }
        try await ask(apps, about: added)
        return outcome
    }
}
