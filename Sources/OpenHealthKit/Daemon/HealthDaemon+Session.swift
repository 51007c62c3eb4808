import Logging
import OpenCoreData
import OpenNetwork

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Who a connected client is, as the daemon established it.
struct ClientIdentity: Sendable {
    let credentials: PeerCredentials
    let executable: String
    let bundleIdentifier: String
    var privileged: Bool { bundleIdentifier == HKHealthStore.healthAppBundleIdentifier }
}

extension HealthDaemon {
    /// One client: identified, welcomed, then served until it leaves or misbehaves.
    func serve(_ connection: NetworkConnection<Stack>) async {
        do {
            // A client that does not introduce itself within ten seconds is let go.
            let first = try await Self.within(.seconds(10)) { try await connection.receive().content }
            guard case .hello(let claim) = first.call else {
                try await connection.send(
                    HealthWire.Response(
                        id: first.id,
                        reply: .failure(
                            code: HKError.Code.errorInvalidArgument.rawValue,
                            message: "introduce yourself first (hello)")))
                return
            }
            let identity: ClientIdentity
            let store: HKHealthStore
            do {
                identity = try identify(await connection.peerCredentials, claim: claim)
                guard let found = state.store(for: identity.bundleIdentifier) else {
                    throw HKError(.errorDatabaseInaccessible, "the health store is not open")
                }
                store = found
                // An app registered without grants has been granted nothing.
                try store.applyRegistryDecisions(
                    state.registry?.app(executable: identity.executable)?.grants ?? .init())
            } catch {
                logger.notice("refused a client: \(error)")
                try await connection.send(HealthWire.Response(id: first.id, reply: HealthWire.failure(error)))
                return
            }
            try await connection.send(
                HealthWire.Response(
                    id: first.id,
                    reply: .welcome(
                        bundleIdentifier: identity.bundleIdentifier, privileged: identity.privileged,
                        shareStatuses: try store.shareStatuses())))
            let slots = CallSlots(configuration.maximumCallsInFlight)
            try await withThrowingDiscardingTaskGroup { group in
                // A client that left gets no answers: its calls still running (a long poll) are cancelled.
                defer { group.cancelAll() }
                for try await message in connection.messages {
                    await slots.acquire()
                    let request = message.content
                    group.addTask {
                        defer { slots.release() }
                        let reply = await self.handle(request.call, store: store, identity: identity)
                        try await connection.send(HealthWire.Response(id: request.id, reply: reply))
                    }
                }
            }
        } catch {
            // A client that leaves, or sends what does not decode, ends only its own connection.
            logger.debug("a client's connection ended: \(error)")
        }
        await connection.cancel()
    }

    /// The result of `body`, or an error when it takes longer than `limit` (`body` is then cancelled).
    static func within<T: Sendable>(
        _ limit: Duration, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw HKError(.errorInvalidArgument, "the client said nothing within \(limit)")
            }
            defer { group.cancelAll() }
            guard let result = try await group.next() else { throw CancellationError() }
            return result
        }
    }

    /// The client's identity from the kernel's credentials, the program it runs and the registry.
    func identify(_ credentials: PeerCredentials?, claim: String?) throws -> ClientIdentity {
        guard let credentials else {
            throw HKError(.errorAuthorizationDenied, "the daemon could not learn which process connected")
        }
        guard configuration.allowedUsers.contains(credentials.userIdentifier) else {
            throw HKError(
                .errorAuthorizationDenied, "user \(credentials.userIdentifier) may not use this health daemon")
        }
        let link = "/proc/\(credentials.processIdentifier)/exe"
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: link) else {
            // No link: the process is gone (or not ours to see), so nothing can be said about it.
            throw HKError(.errorAuthorizationDenied, "process \(credentials.processIdentifier) cannot be identified")
        }
        // The running image must be the registered file itself, not one replaced or deleted since it started.
        var running = stat()
        var onDisk = stat()
        guard !executable.hasSuffix(" (deleted)"), stat(link, &running) == 0, stat(executable, &onDisk) == 0,
            running.st_dev == onDisk.st_dev, running.st_ino == onDisk.st_ino
        else {
            throw HKError(
                .errorAuthorizationDenied,
                "the program of process \(credentials.processIdentifier) was replaced while it ran")
        }
        do {
            try loadRegistry()
        } catch {
            throw HKError(.errorDatabaseInaccessible, "the health daemon's registry is not valid: \(error)")
        }
        guard let app = state.registry?.app(executable: executable) else {
            throw HKError(
                .errorAuthorizationDenied,
                "\(executable) is not registered with the health daemon; the person adds it to \(configuration.registryURL.path)"
            )
        }
        if let claim, !claim.isEmpty, claim != app.bundleIdentifier {
            throw HKError(
                .errorAuthorizationDenied, "\(executable) is registered as \(app.bundleIdentifier), not \(claim)")
        }
        return ClientIdentity(credentials: credentials, executable: executable, bundleIdentifier: app.bundleIdentifier)
    }

    /// Runs one call as the client's store would in process.
    func handle(_ call: HealthWire.Call, store: HKHealthStore, identity: ClientIdentity) async -> HealthWire.Reply {
        do {
            switch call {
            case .hello:
                throw HKError(.errorInvalidArgument, "this client has already introduced itself")
            case .requestAuthorization(let share, let read):
                let shareTypes = try Set(share.map(HealthWire.sampleType))
                let readTypes = try Set(read.map(HealthWire.objectType))
                try await store.requestAuthorization(toShare: shareTypes, read: readTypes)
                return .shareStatuses(try store.shareStatuses())
            case .requestPerObjectReadAuthorization(let type, let predicate):
                try await store.requestPerObjectReadAuthorization(
                    for: try HealthWire.objectType(type),
                    predicate: try predicate?.predicate(allowing: HealthWire.medicationKeys))
                return .done
            case .save(let samples):
                let interner = RecordMapping.Interner()
                let objects = try samples.map { wire -> HKSample in
                    guard wire.type != HKSampleType.medicationDoseEventIdentifier else {
                        throw HKError(
                            .errorAuthorizationDenied, "apps cannot save dose events; the Health app writes them")
                    }
                    return try HealthWire.sample(wire, interner: interner)
                }
                try await store.save(objects)
                return .done
            case .delete(let uuid):
                try store.localDelete(uuid: uuid)
                return .done
            case .medications(let predicate, let limit):
                let list = try store.localMedications(
                    matching: try predicate?.predicate(allowing: HealthWire.medicationKeys), limit: limit)
                return .medications(list.map(HealthWire.medication))
            case .samples(let type, let predicate, let sort, let limit):
                let sampleType = try HealthWire.sampleType(type)
                let keys = HealthWire.keys(for: sampleType)
                for key in sort.map(\.key) where !keys.contains(key) {
                    throw HKError(.errorInvalidArgument, "cannot sort \(type) by \"\(key)\"")
                }
                let samples = try store.localSamples(
                    of: sampleType, matching: try predicate?.predicate(allowing: keys),
                    sort: sort.map { HKQuery.sort($0.key, ascending: $0.ascending) }, limit: limit)
                return .samples(samples.map(HealthWire.sample))
            case .anchoredChanges(let type, let predicate, let after, let limit):
                let sampleType = try HealthWire.sampleType(type)
                let changes = try store.localAnchoredChanges(
                    of: sampleType, matching: try predicate?.predicate(allowing: HealthWire.keys(for: sampleType)),
                    after: after, limit: limit)
                return .changes(
                    added: changes.added.map { HealthWire.sample($0.sample) }, addedSequence: changes.added.map(\.seq),
                    deleted: changes.deleted.map {
                        HealthWire.Deletion(uuid: $0.object.uuid, metadata: MetadataCoding.encode($0.object.metadata))
                    },
                    deletedSequence: changes.deleted.map(\.seq), newAnchor: changes.newAnchor)
            case .changeCounter:
                return .counter(try store.database.changeCounter())
            case .waitForChange(let after, let milliseconds):
                return .counter(try await waitForChange(store.database, after: after, milliseconds: milliseconds))
            case .addMedications, .updateMedication, .deleteMedication, .schedule, .logDoses, .deleteDose, .undoLog,
                .replicatedChanges, .applyReplicatedChanges, .advanceChangeCounter:
                guard identity.privileged else {
                    throw HKError(.errorAuthorizationDenied, "only the Health app edits medications and doses")
                }
                return try await edit(call, editor: HKHealthAppEditor(store: store))
            }
        } catch {
            return HealthWire.failure(error)
        }
    }

    /// The Health app's calls.
    private func edit(_ call: HealthWire.Call, editor: HKHealthAppEditor) async throws -> HealthWire.Reply {
        switch call {
        case .addMedications(let medications):
            let added = try await editor.addMedications(
                medications.map {
                    HKHealthAppEditor.NewMedication(
                        concept: HealthWire.concept($0.concept), nickname: $0.nickname, schedule: $0.schedule)
                })
            return .medications(added.map(HealthWire.medication))
        case .updateMedication(let id, let nickname, let clearNickname, let isArchived, let schedule, let clearSchedule):
            let nicknameChange: String?? = clearNickname ? .some(nil) : nickname.map { .some($0) }
            let scheduleChange: MedicationSchedule?? = clearSchedule ? .some(nil) : schedule.map { .some($0) }
            let updated = try editor.updateMedication(
                RecordMapping.conceptIdentifier(id), nickname: nicknameChange, isArchived: isArchived,
                schedule: scheduleChange)
            return .medications([HealthWire.medication(updated)])
        case .deleteMedication(let id):
            try editor.deleteMedication(RecordMapping.conceptIdentifier(id))
            return .done
        case .schedule(let id):
            return .schedule(try editor.schedule(of: RecordMapping.conceptIdentifier(id)))
        case .undoLog(let uuid):
            let found = try editor.store.localSamples(
                of: .medicationDoseEventType(), matching: HKQuery.predicateForObjects(with: [uuid]), sort: [],
                limit: 1)
            guard let event = found.first as? HKMedicationDoseEvent else {
                throw HKError(.errorInvalidArgument, "no dose event \(uuid) in the store; nothing was undone")
            }
            return .samples([HealthWire.sample(try editor.undoLog(event))])
        case .replicatedChanges(let after, let limit, let excluding):
            return .replicatedChanges(try editor.replicatedChanges(after: after, limit: limit, excluding: excluding))
        case .advanceChangeCounter(let past):
            return .counter(try editor.advanceChangeCounter(past: past))
        case .applyReplicatedChanges(let page):
            let outcome = try await editor.applyReplicatedChanges(page)
            return .replicationOutcome(
                medications: outcome.medications, added: outcome.added, deleted: outcome.deleted,
                skipped: outcome.skipped, sequences: outcome.sequences)
        case .logDoses(let logs):
            let converted = try logs.map { log -> HKHealthAppEditor.DoseLog in
                guard let status = HKMedicationDoseEvent.LogStatus(rawValue: log.status) else {
                    throw HKError(
                        .errorInvalidArgument, "log status \(log.status) is not a HKMedicationDoseEvent.LogStatus")
                }
                var converted = HKHealthAppEditor.DoseLog(
                    medication: RecordMapping.conceptIdentifier(log.medication), status: status, date: log.date,
                    scheduledDate: log.scheduledDate, scheduledQuantity: log.scheduledQuantity,
                    doseQuantity: log.doseQuantity, unit: HKUnit(from: log.unit))
                converted.uuid = log.uuid
                return converted
            }
            return .samples(try editor.logDoses(converted).map(HealthWire.sample))
        case .deleteDose(let uuid):
            try editor.deleteDose(uuid: uuid)
            return .done
        default:
            throw HKError(.errorInvalidArgument, "not an editing call")
        }
    }

    /// Answers once the change counter passes `after`, or when the wait (at most a minute) is over.
    private func waitForChange(_ database: HealthDatabase, after: Int64, milliseconds: Int) async throws -> Int64 {
        let deadline = ContinuousClock.now + .milliseconds(min(max(milliseconds, 0), 60_000))
        while true {
            let mark = ChangeHub.shared.mark(database.url)
            let counter = try database.changeCounter()
            if counter > after || ContinuousClock.now >= deadline { return counter }
            try Task.checkCancellation()
            await ChangeHub.shared.wait(
                database.url, since: mark, timeout: min(deadline - ContinuousClock.now, .seconds(1)))
        }
    }
}

/// At most `limit` calls of one connection at once; the reader waits for a slot before reading the next message.
final class CallSlots: @unchecked Sendable {  // Unchecked: `free` and `waiters` are read and written under `lock`.
    private let lock = NSLock()
    private var free: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(_ limit: Int) { free = max(1, limit) }

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLock { () -> Bool in
                if free > 0 {
                    free -= 1
                    return true
                }
                waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func release() {
        let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            if waiters.isEmpty {
                free += 1
                return nil
            }
            return waiters.removeFirst()
        }
        next?.resume()
    }
}

extension HKHealthStore {
    /// The app's sharing decisions by type identifier (`HKAuthorizationStatus` raw values).
    func shareStatuses() throws -> [String: Int] {
        try database.perform { context in
            let records = try database.fetch(
                HealthStoreModel.authorization,
                AuthorizationRecords.predicate(bundleIdentifier, AuthorizationRecords.share), in: context)
            var statuses: [String: Int] = [:]
            for record in records {
                let granted = record.value(forKey: "granted") as? Bool ?? false
                statuses[record.value(forKey: "key") as? String ?? ""] =
                    (granted ? HKAuthorizationStatus.sharingAuthorized : .sharingDenied).rawValue
            }
            return statuses
        }
    }

    /// Brings the app's stored decisions in line with the person's grants in the registry: what the person took
    /// back is withdrawn and what they allowed since is given, for everything the app has asked about. (New
    /// requests are decided by the registry as they come.)
    func applyRegistryDecisions(_ grants: HealthAppRegistry.Grants) throws {
        guard !isPrivileged else { return }
        try database.write { context, sequence in
            let records = try database.fetch(
                HealthStoreModel.authorization, HKQuery.compare("bundleIdentifier", .equal, bundleIdentifier),
                in: context)
            let medications = try database.fetch(HealthStoreModel.medication, nil, in: context).map(
                RecordMapping.medication)
            let rxnorm = Dictionary(
                medications.map { medication in
                    (
                        medication.medication.identifier.identifier,
                        Set(
                            medication.medication.relatedCodings.filter { $0.system == HKClinicalCoding.rxNormSystem }
                                .map(\.code))
                    )
                }
            ) { first, _ in first }
            let allMedications = grants.medications.contains("*")
            let listed = Set(grants.medications)
            var changed = false
            for record in records {
                let key = record.value(forKey: "key") as? String ?? ""
                let wanted: Bool
                switch record.value(forKey: "kind") as? String {
                case AuthorizationRecords.share: wanted = grants.share.contains(key)
                case AuthorizationRecords.read: wanted = grants.read.contains(key)
                case AuthorizationRecords.medication:
                    wanted = allMedications || listed.contains(key) || !(rxnorm[key] ?? []).isDisjoint(with: listed)
                default: continue
                }
                if (record.value(forKey: "granted") as? Bool ?? false) != wanted {
                    record.setValue(wanted, forKey: "granted")
                    changed = true
                }
            }
            if changed { sequence.bumpAuthorization() }
        }
    }
}
