import Foundation
import OpenHealthKit
import OpenNetwork
import Testing

@testable import MedsKit

/// `orchard-healthd` serving this test process, registered as the Health app, from a private folder. The daemon
/// runs in this process (its own tests run it as a separate program against other users' clients); the Meds model
/// reaches it over its Unix domain socket as the app would.
final class InProcessHealthDaemon: Sendable {
    let root: URL
    let socket: String
    private let task: Task<Void, any Error>

    /// Starts a daemon whose registry names this process's program as `bundleIdentifier`.
    init(registering bundleIdentifier: String = HKHealthStore.healthAppBundleIdentifier) async throws {
        // Not under /tmp: every folder above the registry must be writable by no one but its owner.
        let build = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/healthd-tests")
        try FileManager.default.createDirectory(at: build, withIntermediateDirectories: true)
        chmod(build.path, 0o755)
        root = build.appendingPathComponent("meds-" + UUID().uuidString.prefix(8).lowercased())
        try FileManager.default.createDirectory(
            at: root, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        socket = root.appendingPathComponent("socket").path
        let registry = root.appendingPathComponent("apps.json")
        let program = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let apps = try HealthAppRegistry(apps: [.init(executable: program, bundleIdentifier: bundleIdentifier)])
        try JSONEncoder().encode(["apps": apps.apps]).write(to: registry)
        let daemon = HealthDaemon(
            configuration: .init(
                storeDirectory: root.appendingPathComponent("store"), socketPath: socket, registryURL: registry))
        let (ready, readySink) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            defer { readySink.finish() }
            try await daemon.run { readySink.yield() }
        }
        self.task = task
        var iterator = ready.makeAsyncIterator()
        if await iterator.next() == nil {
            // The daemon stopped before it was ready: its error says why.
            try await task.value
            throw HKError(.errorDatabaseInaccessible, "the health daemon stopped before it was ready")
        }
    }

    func stop() async {
        task.cancel()
        _ = await task.result  // stopped: how it ended is not this test's
        try? FileManager.default.removeItem(at: root)  // cleanup only
    }

    /// A store reading the daemon's data directly (this process is registered, so it sees everything).
    func store() -> HKHealthStore { HKHealthStore(daemonSocketPath: socket) }
}

/// The person's own profile keeps its health data in the health daemon when the daemon runs; the people they care
/// for keep theirs in their own store files; a profile whose data is in the daemon is never opened as an empty file.
@MainActor @Suite(.serialized, .timeLimit(.minutes(2))) struct HealthDaemonStorageTests {
    @Test func thePersonsProfileLivesInTheDaemonAndTheOthersInTheirFiles() async throws {
        let daemon = try await InProcessHealthDaemon()
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let storage = HealthStorage.daemon(socketPath: daemon.socket)
        let model = try MedsModel(dataDirectory: folder, healthStorage: storage, now: { clock.now })
        #expect(await model.setPreferences(Preferences(timeZoneIdentifier: TodayPlanTests.zone.identifier)))
        let me = model.profile
        #expect(me.relationship == .me)

        // Everything the app does, through the daemon: add (with a schedule), answer, undo, as needed, archive, a
        // new schedule, symptoms.
        #expect(
            await model.addMedication(
                MedsModel.NewMedication(rxcui: MedsModelTests.acetaminophen, nickname: "Tylenol", times: "08:00, 20:00")
            ), "\(model.message ?? "")")
        // A plan's medications are added in one call (all or none).
        let asNeeded = try MedsModel.NewMedication(rxcui: "310965", weekdays: nil).schedule(timeZone: nil)
        let plan = MedicationPlan(
            title: "Plan",
            medications: [
                .init(rxcui: "310965", name: "Ibuprofen 200 MG Oral Tablet", nickname: nil, schedule: asNeeded)
            ])
        #expect(await model.importPlan(plan) == 1, "\(model.message ?? "")")
        let morning = try #require(model.today.doses.first)
        await model.answer(morning, .taken)
        #expect(model.message == nil, "\(model.message ?? "")")
        if case .taken = try #require(model.today.doses.first).state {} else { Issue.record("not taken") }
        await model.undo(try #require(model.today.doses.first))
        if case .due = try #require(model.today.doses.first).state {
        } else {
            Issue.record("not open again: \(model.today.doses[0].state)")
        }
        await model.answer(try #require(model.today.doses.first), .skipped)
        #expect(await model.logSymptom(.headache, severity: .mild, medicationID: morning.medicationID))
        #expect(
            await model.setSchedule(
                morning.medicationID, MedsModel.NewMedication(rxcui: MedsModelTests.acetaminophen, times: "09:00")))
        #expect(model.today.doses.map(\.scheduledDate) == [TodayPlanTests.date("2026-03-10 09:00")])
        #expect(model.message == nil, "\(model.message ?? "")")

        // It is in the daemon's store, not in a file in the profile's folder.
        let profileFolder = folder.appendingPathComponent("profiles").appendingPathComponent(me.id.uuidString)
        #expect(FileManager.default.fileExists(atPath: profileFolder.appendingPathComponent("health.daemon").path))
        #expect(!FileManager.default.fileExists(atPath: profileFolder.appendingPathComponent("health.sqlite").path))
        let direct = daemon.store()
        let medications = try await HKUserAnnotatedMedicationQueryDescriptor().result(for: direct)
        #expect(Set(medications.map(\.medication.displayText)) == Set(model.medications.map(\.displayText)))
        #expect(medications.count == 2)
        let doses = try await HKSampleQueryDescriptor(
            predicates: [.medicationDoseEvent()], sortDescriptors: [SortDescriptor(\.startDate)]
        ).result(for: direct)
        // The undone answer is kept as `notLogged` (as the Health app keeps it), and the later answer beside it.
        #expect(doses.map(\.logStatus) == [.notLogged, .skipped])
        #expect(try model.health().editor.isDaemon)
        // The doctor's export reads the same data through the daemon.
        let fhir = try #require(await model.export(.fhir), "\(model.message ?? "")")
        #expect(String(decoding: fhir.data, as: UTF8.self).contains("Acetaminophen 325 MG Oral Tablet"))

        // A child's data stays in the child's own file, apart from the person's.
        #expect(await model.addProfile(name: "Sam", relationship: .child))
        let child = try #require(model.profiles.first { $0.name == "Sam" })
        await model.select(profile: child.id)
        #expect(
            await model.addMedication(MedsModel.NewMedication(rxcui: "310965", weekdays: nil)), "\(model.message ?? "")"
        )
        let childFolder = folder.appendingPathComponent("profiles").appendingPathComponent(child.id.uuidString)
        #expect(FileManager.default.fileExists(atPath: childFolder.appendingPathComponent("health.sqlite").path))
        #expect(!FileManager.default.fileExists(atPath: childFolder.appendingPathComponent("health.daemon").path))
        #expect(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: direct).count == 2)

        // Opened again with the daemon, the person's data is there.
        let again = try MedsModel(dataDirectory: folder, healthStorage: storage, now: { clock.now })
        await again.select(profile: me.id)
        #expect(again.medications.map(\.name) == ["Ibuprofen 200 MG Oral Tablet", "Tylenol"])
        #expect(again.symptoms.count == 1)

        // Opened without the daemon, the person's profile says where its data is, and nothing is written to a file
        // in its place; the child's profile still opens.
        let without = try MedsModel(dataDirectory: folder, healthStorage: .files, now: { clock.now })
        await without.select(profile: me.id)
        #expect(without.message?.contains("orchard-healthd") == true, "\(without.message ?? "")")
        #expect(!(await without.addMedication(MedsModel.NewMedication(rxcui: "310965", weekdays: nil))))
        #expect(!FileManager.default.fileExists(atPath: profileFolder.appendingPathComponent("health.sqlite").path))
        await without.select(profile: child.id)
        #expect(without.message == nil && without.medications.count == 1, "\(without.message ?? "")")
        await daemon.stop()
    }

    @Test func aProfileKeptInAFileMovesIntoTheDaemonWithEverything() async throws {
        let daemon = try await InProcessHealthDaemon()
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        // Meds used before the daemon ran: the person's data is in their profile's file.
        let before = try MedsModel(dataDirectory: folder, now: { clock.now })
        #expect(await before.setPreferences(Preferences(timeZoneIdentifier: TodayPlanTests.zone.identifier)))
        #expect(
            await before.addMedication(
                MedsModel.NewMedication(rxcui: MedsModelTests.acetaminophen, nickname: "Tylenol", times: "08:00, 20:00")
            ))
        #expect(await before.addMedication(MedsModel.NewMedication(rxcui: "310965", weekdays: nil)))
        await before.answer(try #require(before.today.doses.first), .taken)
        await before.logAsNeeded("rxnorm:310965")
        await before.undo(try #require(before.recentDoses.last))  // a deletion
        await before.logAsNeeded("rxnorm:310965")
        #expect(await before.logSymptom(.nausea, severity: .moderate, medicationID: nil))
        await before.setArchived("rxnorm:310965", true)
        #expect(before.message == nil, "\(before.message ?? "")")
        let file = try before.health()
        let inFile = try await file.editor.replicatedChanges(after: nil, limit: 10_000)
        let schedule = try await file.editor.schedule(of: .init(domain: .medication, identifier: "rxnorm:313782"))

        // Opened with the daemon running, the data stays where it is, and moving it is offered.
        let storage = HealthStorage.daemon(socketPath: daemon.socket)
        let model = try MedsModel(dataDirectory: folder, healthStorage: storage, now: { clock.now })
        await model.refresh()
        #expect(model.healthPlace == .fileMovableToDaemon)
        #expect(model.medications.count == 2 && model.recentDoses == before.recentDoses)

        // Not while sync is on (a sync could write to the file meanwhile).
        model.syncService = try SyncService(dataDirectory: folder, deviceName: "Kitchen", stores: model.syncStores())
        #expect(!(await model.moveHealthDataToDaemon()))
        #expect(model.message?.contains("sync") == true && model.healthPlace == .fileMovableToDaemon)
        model.syncService = nil

        #expect(await model.moveHealthDataToDaemon(), "\(model.message ?? "")")
        #expect(model.healthPlace == .daemon)
        #expect(model.medications.count == 2 && model.recentDoses == before.recentDoses)
        #expect(model.today.doses.map(\.state) == before.today.doses.map(\.state))
        #expect(model.symptoms.map(\.id) == before.symptoms.map(\.id))

        // Everything is in the daemon's store, numbered after the file's last change (a machine that synced this
        // profile is sent all of it again, not only what follows its old anchor).
        let direct = HealthAppDaemonEditor(store: daemon.store())
        let moved = try await direct.replicatedChanges(after: inFile.anchor, limit: 10_000)
        #expect(Set(moved.doses.map(\.uuid)) == Set(inFile.doses.map(\.uuid)))
        #expect(Set(moved.samples.map(\.uuid)) == Set(inFile.samples.map(\.uuid)))
        #expect(Set(moved.deletions.map(\.uuid)) == Set(inFile.deletions.map(\.uuid)) && !moved.deletions.isEmpty)
        #expect(Set(moved.medications.map(\.identifier)) == ["rxnorm:313782", "rxnorm:310965"])
        #expect(moved.medications.first { $0.identifier == "rxnorm:310965" }?.isArchived == true)
        #expect(try await direct.schedule(of: .init(domain: .medication, identifier: "rxnorm:313782")) == schedule)

        // New doses go to the daemon; the file is as it was; a second move is refused; reopened, the profile is
        // the daemon's.
        await model.answer(try #require(model.today.doses.last), .skipped)
        #expect(
            try await direct.replicatedChanges(after: inFile.anchor, limit: 10_000).doses.count == inFile.doses.count
                + 1)
        #expect(try await file.editor.replicatedChanges(after: nil, limit: 10_000).doses.count == inFile.doses.count)
        #expect(!(await model.moveHealthDataToDaemon()))
        let again = try MedsModel(dataDirectory: folder, healthStorage: storage, now: { clock.now })
        await again.refresh()
        #expect(again.recentDoses == model.recentDoses)
        #expect(try again.health().editor.isDaemon)
        await daemon.stop()
    }

    @Test func aProgramTheDaemonDoesNotKnowAsTheHealthAppChangesNothing() async throws {
        let daemon = try await InProcessHealthDaemon(registering: "org.example.meds")
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let model = try MedsModel(
            dataDirectory: folder, healthStorage: .daemon(socketPath: daemon.socket), now: { clock.now })
        #expect(
            !(await model.addMedication(MedsModel.NewMedication(rxcui: MedsModelTests.acetaminophen, times: "08:00"))))
        #expect(model.message?.contains("Health app") == true, "\(model.message ?? "")")
        #expect(model.medications.isEmpty)
        // Nor does it read what only the Health app reads: the whole replication feed, a medication's schedule; nor
        // write a page as if it came from another machine.
        let editor = HealthAppDaemonEditor(store: daemon.store())
        for attempt in [
            { _ = try await editor.replicatedChanges(after: nil) },
            { _ = try await editor.schedule(of: .init(domain: .medication, identifier: "rxnorm:313782")) },
            { _ = try await editor.applyReplicatedChanges(HKHealthAppEditor.ReplicatedChanges()) },
            { _ = try await editor.advanceChangeCounter(past: 1_000_000) },
        ] as [@Sendable () async throws -> Void] {
            await #expect { try await attempt() } throws: { error in
                (error as? HKError)?.code == .errorAuthorizationDenied
            }
        }
        await daemon.stop()
    }

    @Test func aMachineWhoseHealthDataIsInTheDaemonSyncsWithOneThatUsesFiles() async throws {
        let daemon = try await InProcessHealthDaemon()
        let home = temporaryFolder()
        let away = temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: home)  // cleanup only
            try? FileManager.default.removeItem(at: away)  // cleanup only
        }
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let a = try MedsModel(
            dataDirectory: home, healthStorage: .daemon(socketPath: daemon.socket), now: { clock.now })
        let b = try MedsModel(dataDirectory: away, now: { clock.now })
        let aSync = try SyncService(dataDirectory: home, deviceName: "Kitchen", stores: a.syncStores())
        let bSync = try SyncService(dataDirectory: away, deviceName: "Laptop", stores: b.syncStores())
        #expect(
            await a.addMedication(
                MedsModel.NewMedication(rxcui: MedsModelTests.acetaminophen, nickname: "Tylenol", times: "08:00, 20:00")
            ))
        await a.answer(try #require(a.today.doses.first), .taken)
        let listening = try await SyncTests().listen(aSync)
        defer { listening.task.cancel() }
        _ = try await bSync.pair(code: aSync.startPairing(), at: listening.pairing)
        try await bSync.dial(listening.sync, peer: aSync.device.id)

        // The laptop has the kitchen's profile, read from the daemon; the kitchen has the laptop's, in a file.
        await b.select(profile: a.profile.id)
        #expect(b.medications.map(\.name) == ["Tylenol"])
        #expect(b.today.doses.map(\.state) == a.today.doses.map(\.state))
        let laptopMe = try #require(a.profiles.first { $0.name == "Me (Laptop)" })
        let laptopFolder = home.appendingPathComponent("profiles").appendingPathComponent(laptopMe.id.uuidString)
        #expect(FileManager.default.fileExists(atPath: laptopFolder.appendingPathComponent("health.sqlite").path))

        // The laptop answers the evening dose; the next round brings it into the daemon's store.
        await b.answer(try #require(b.today.doses.last), .skipped)
        try await bSync.dial(listening.sync, peer: aSync.device.id)
        await a.refresh()
        #expect(a.today.doses.map(\.state) == b.today.doses.map(\.state))
        let statuses = try await HKSampleQueryDescriptor(
            predicates: [.medicationDoseEvent()], sortDescriptors: [SortDescriptor(\.startDate)]
        ).result(for: daemon.store()).map(\.logStatus)
        #expect(statuses == [.taken, .skipped])

        // A third round: what the daemon's store took from the laptop (its sequence numbers, reported over the
        // daemon's socket) is not sent back, and nothing is new either way.
        try await bSync.dial(listening.sync, peer: aSync.device.id)
        var events = bSync.events.makeAsyncIterator()
        var rounds: [(received: Int, sent: Int)] = []
        while rounds.count < 3, let event = await events.next() {
            if case .synced(_, let received, let sent) = event { rounds.append((received, sent)) }
        }
        #expect(rounds.count == 3 && rounds[1].sent > 0)
        #expect(rounds.last?.received == 0 && rounds.last?.sent == 0)
        await daemon.stop()
    }
}
