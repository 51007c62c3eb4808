import Foundation
import MedsUI
import OpenHealthKit
import OpenNetwork
import Synchronization
import Testing

@testable import MedsKit
@testable import SwiftUIWeb

/// Sync between two machines' data folders, over TLS on loopback with the listeners the app advertises (Bonjour
/// discovery itself is tested across two network namespaces in `SyncNamespaceTests`): pairing by code, a first
/// round that copies a profile, edits made apart that converge by the documented rules, and machines that do not
/// know the key or the code getting nothing.
@MainActor @Suite struct SyncTests {
    /// One machine: its model, its sync, and (for the one that listens) its listeners' endpoints.
    struct Machine {
        let model: MedsModel
        let sync: SyncService
    }

    func machine(_ folder: URL, _ name: String, _ clock: TestClock) throws -> Machine {
        let model = try MedsModel(dataDirectory: folder, now: { clock.now })
        return Machine(
            model: model, sync: try SyncService(dataDirectory: folder, deviceName: name, stores: model.syncStores()))
    }

    /// Starts `sync`'s pairing and sync listeners on loopback; returns their endpoints and the task serving them.
    func listen(
        _ sync: SyncService
    ) async throws -> (pairing: NWEndpoint, sync: NWEndpoint, task: Task<Void, any Error>) {
        let (ports, portsSink) = AsyncStream.makeStream(of: (NWEndpoint.Port, NWEndpoint.Port).self)
        let task = Task { try await sync.listen(advertise: false) { portsSink.yield(($0, $1)) } }
        var iterator = ports.makeAsyncIterator()
        let (syncPort, pairingPort) = try #require(await iterator.next())
        return (.hostPort(host: "127.0.0.1", port: pairingPort), .hostPort(host: "127.0.0.1", port: syncPort), task)
    }

    @Test func twoMachinesPairSyncAndConvergeAfterEditsMadeApart() async throws {
        let home = temporaryFolder()
        let away = temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: home)  // cleanup only
            try? FileManager.default.removeItem(at: away)  // cleanup only
        }
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let a = try machine(home, "Kitchen", clock)
        let b = try machine(away, "Laptop", clock)
        #expect(
            await a.model.addMedication(
                MedsModel.NewMedication(rxcui: MedsModelTests.acetaminophen, nickname: "Tylenol", times: "08:00, 20:00")
            ))
        let morning = try #require(a.model.today.doses.first)
        await a.model.answer(morning, .taken)
        #expect(await a.model.logSymptom(.headache, severity: .mild, medicationID: morning.medicationID))
        let listening = try await listen(a.sync)
        defer { listening.task.cancel() }

        // Pairing: no code shown yet, then a wrong code, are refused; the code shown pairs the two.
        await #expect(throws: (any Error).self) { try await b.sync.pair(code: "123456", at: listening.pairing) }
        let code = a.sync.startPairing()
        let wrong = String(format: "%06d", (Int(code)! + 1) % 1_000_000)
        await #expect(throws: (any Error).self) { try await b.sync.pair(code: wrong, at: listening.pairing) }
        #expect(b.sync.pairings.peers.isEmpty)
        let paired = try await b.sync.pair(code: code, at: listening.pairing)
        #expect(paired == a.sync.device)
        #expect(a.sync.pairings.peers == [b.sync.device])
        // The code is used up.
        await #expect(throws: (any Error).self) { try await b.sync.pair(code: code, at: listening.pairing) }

        // The first round: each machine gets the other's profile, with its doses, symptoms and medication.
        try await b.sync.dial(listening.sync, peer: a.sync.device.id)
        let kitchenMe = a.model.profile
        let adopted = try #require(b.model.profiles.first { $0.id == kitchenMe.id })
        #expect(adopted.name == "Me (Kitchen)")
        #expect(a.model.profiles.contains { $0.id == b.model.profile.id && $0.name == "Me (Laptop)" })
        await b.model.select(profile: kitchenMe.id)
        #expect(b.model.medications.map(\.name) == ["Tylenol"])
        #expect(b.model.today.doses.map(\.state) == a.model.today.doses.map(\.state))
        #expect(b.model.symptoms.map(\.id) == a.model.symptoms.map(\.id))

        // Apart: the kitchen undoes the morning dose and takes the evening one at 08:10; the laptop skipped the
        // evening one at 08:05 and logged nausea.
        let evening = try #require(b.model.today.doses.last)
        await b.model.answer(evening, .skipped)
        #expect(await b.model.logSymptom(.nausea, severity: .moderate, medicationID: nil))
        clock.set(TodayPlanTests.date("2026-03-10 08:10"))
        await a.model.undo(try #require(a.model.today.doses.first))
        await a.model.answer(try #require(a.model.today.doses.last), .taken)
        #expect(a.model.message == nil && b.model.message == nil)

        // They meet again: the same doses, the same states (the later answer counts; the undone dose stays open),
        // both symptoms, on both.
        try await b.sync.dial(listening.sync, peer: a.sync.device.id)
        await b.model.refresh()
        let doses = { (m: MedsModel) in Set(m.recentDoses.map(\.uuid)) }
        #expect(doses(a.model) == doses(b.model))
        #expect(b.model.recentDoses.count == a.model.recentDoses.count)
        #expect(a.model.today.doses.map(\.state) == b.model.today.doses.map(\.state))
        if case .taken = a.model.today.doses.last?.state {
        } else {
            Issue.record("the later answer (taken) should count")
        }
        #expect(a.model.today.doses.first?.log?.status != .taken)
        #expect(Set(a.model.symptoms.map(\.type)) == [.headache, .nausea])
        let symptomsHere: Set<UUID> = Set(a.model.symptoms.map(\.id))
        let symptomsThere: Set<UUID> = Set(b.model.symptoms.map(\.id))
        #expect(symptomsHere == symptomsThere)

        // A third round finds nothing new to apply, and neither machine sends back what the other gave it in the
        // second (the laptop's third round reports nothing sent and nothing received).
        let before = a.model.recentDoses
        try await b.sync.dial(listening.sync, peer: a.sync.device.id)
        #expect(a.model.recentDoses == before)
        var events = b.sync.events.makeAsyncIterator()
        var rounds: [(received: Int, sent: Int)] = []
        while rounds.count < 3, let event = await events.next() {
            if case .synced(_, let received, let sent) = event { rounds.append((received, sent)) }
        }
        #expect(rounds.count == 3 && rounds[1].received > 0 && rounds[1].sent > 0)
        #expect(rounds.last?.received == 0 && rounds.last?.sent == 0)

        // Live: with a session open, a symptom logged on either machine reaches the other without another round.
        a.model.syncService = a.sync
        b.model.syncService = b.sync
        let live = Task { try await b.sync.dial(listening.sync, peer: a.sync.device.id, live: true) }
        defer { live.cancel() }
        while let event = await events.next() {
            if case .synced = event { break }
        }
        #expect(await a.model.logSymptom(.fatigue, severity: .mild, medicationID: nil))
        #expect(await b.model.logSymptom(.dizziness, severity: .mild, medicationID: nil))
        let deadline = ContinuousClock.now + .seconds(10)
        func types(_ model: MedsModel) -> Set<HKCategoryTypeIdentifier> { Set(model.symptoms.map(\.type)) }
        while ContinuousClock.now < deadline, types(a.model) != types(b.model) || types(a.model).count != 4 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(types(a.model) == [.headache, .nausea, .fatigue, .dizziness])
        #expect(types(b.model) == types(a.model))
    }

    @Test func machinesWithoutTheKeyOrTheCodeGetNothing() async throws {
        let home = temporaryFolder()
        let intruderHome = temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: home)  // cleanup only
            try? FileManager.default.removeItem(at: intruderHome)  // cleanup only
        }
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let a = try machine(home, "Kitchen", clock)
        let intruder = try machine(intruderHome, "Intruder", clock)
        #expect(
            await a.model.addMedication(MedsModel.NewMedication(rxcui: MedsModelTests.acetaminophen, times: "08:00")))
        let listening = try await listen(a.sync)
        defer { listening.task.cancel() }

        // A machine that claims a pairing it does not have (a made-up key) fails the handshake.
        try intruder.sync.pairings.addPeer(a.sync.device, secret: Data(repeating: 7, count: 32))
        await #expect(throws: (any Error).self) { try await intruder.sync.dial(listening.sync, peer: a.sync.device.id) }
        #expect(intruder.model.profiles.count == 1 && a.model.profiles.count == 1)

        // Guessing a code: five tries, then the code is void even when the sixth is right.
        let code = a.sync.startPairing()
        for guess in 1...5 {
            let wrong = String(format: "%06d", (Int(code)! + guess) % 1_000_000)
            await #expect(throws: (any Error).self) { try await intruder.sync.pair(code: wrong, at: listening.pairing) }
        }
        await #expect(throws: (any Error).self) { try await intruder.sync.pair(code: code, at: listening.pairing) }
        #expect(a.sync.pairings.peers.isEmpty)

        // Codes are six digits.
        await #expect { try await intruder.sync.pair(code: "12ab56", at: listening.pairing) } throws: { error in
            "\(error)".contains("six digits")
        }
    }

    @Test(.timeLimit(.minutes(1))) func aMachineThatWasNotListeningIsReachedOnceItIs() async throws {
        let home = temporaryFolder()
        let away = temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: home)  // cleanup only
            try? FileManager.default.removeItem(at: away)  // cleanup only
        }
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let a = try machine(home, "Kitchen", clock)
        let b = try machine(away, "Laptop", clock)
        #expect(
            await a.model.addMedication(MedsModel.NewMedication(rxcui: MedsModelTests.acetaminophen, times: "08:00")))
        let first = try await listen(a.sync)
        try await b.sync.pair(code: a.sync.startPairing(), at: first.pairing)
        // The kitchen stops listening (asleep, say): its last address refuses connections.
        first.task.cancel()
        _ = await first.task.result
        let current = Mutex<NWEndpoint?>(first.sync)
        var events = b.sync.events.makeAsyncIterator()
        let dialing = Task {
            await b.sync.keepDialing(
                a.sync.device.id, endpoint: { current.withLock { $0 } }, delays: [.milliseconds(50)],
                connectTimeout: .milliseconds(500))
        }

        // The laptop's tries fail and are reported; it goes on trying.
        var failures = 0
        while failures < 2, let event = await events.next() {
            if case .failed = event { failures += 1 }
        }
        #expect(b.model.profiles.count == 1)

        // The kitchen listens again (at a new port, as after a restart): the laptop reaches it without anything
        // else happening, and the two hold each other's profile.
        let second = try await listen(a.sync)
        defer { second.task.cancel() }
        current.withLock { $0 = second.sync }
        while let event = await events.next() {
            if case .synced = event { break }
        }
        #expect(b.model.profiles.contains { $0.id == a.model.profile.id })
        #expect(a.model.profiles.contains { $0.id == b.model.profile.id })

        // Once the kitchen is no longer advertised and the session ends, the laptop stops dialing.
        current.withLock { $0 = nil }
        second.task.cancel()
        _ = await second.task.result
        await dialing.value
    }

    @Test func theSyncSettingsFileIsTheUsersAloneAndSurvivesReopening() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let first = try SyncPairings(url: folder.appendingPathComponent("sync.json"), deviceName: "Kitchen")
        let peer = SyncDevice(id: UUID(), name: "Laptop")
        try first.addPeer(peer, secret: Data(repeating: 1, count: 32))
        try first.setAnchor(42, from: peer.id, profile: peer.id)
        let attributes = try FileManager.default.attributesOfItem(atPath: first.url.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let again = try SyncPairings(url: first.url, deviceName: "ignored")
        #expect(again.device == first.device && again.peers == [peer])
        #expect(again.anchors(from: peer.id) == [peer.id.uuidString: 42])
        try "{ not json".write(to: first.url, atomically: true, encoding: .utf8)
        #expect { try SyncPairings(url: first.url, deviceName: "x") } throws: { "\($0)".contains("cannot be read") }
    }
}

/// The Settings window's sync section, rendered as the app renders it.
@MainActor @Suite struct SyncSettingsTests {
    struct SettingsApp: App {
        var body: some Scene { WindowGroup("Settings") { SettingsView().environment(RenderedModel.model) } }
    }

    func clickable(_ window: SceneInstance, _ label: String) throws -> String {
        func find(_ node: Node) -> Node? {
            let clickable = node.attributes.contains { $0.0 == "data-click" }
            if clickable && node.textContent == label { return node }
            for child in node.children {
                if let found = find(child) { return found }
            }
            return nil
        }
        let tree = try #require(window.lastTree)
        return try #require(find(tree), "no button \(label)").id
    }

    @Test func syncIsTurnedOnShowsACodeRefusesABadOneAndStaysOnAcrossLaunches() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let model = try MedsModel(dataDirectory: folder)
        model.syncUsesDiscovery = false
        RenderedModel.model = model
        let host = AppHost(app: SettingsApp(), storageDirectory: folder.appendingPathComponent("state").path)
        let window = host.newScene()
        #expect(window.document().contains("Turn On Sync"))
        _ = window.handle(event: ClientEvent(t: "click", id: try clickable(window, "Turn On Sync")))
        #expect(model.syncStatus.isOn && model.message == nil)
        _ = window.handle(event: ClientEvent(t: "click", id: try clickable(window, "Show a Pairing Code")))
        let code = try #require(model.syncStatus.code)
        #expect(window.document().contains("Pairing code: \(code)"))
        #expect(window.document().contains("Not paired with any machine yet."))
        #expect(await !model.pair(code: "12ab"))
        #expect(model.message?.contains("six digits") == true)
        #expect(try SyncPairings.isOn(in: folder))

        // A later launch starts it again; turned off, it stays off.
        model.stopSync()
        #expect(try !SyncPairings.isOn(in: folder))
        #expect(window.document().contains("Turn On Sync"))
        _ = window.handle(event: ClientEvent(t: "click", id: try clickable(window, "Turn On Sync")))
        model.stopSync()
        try SyncPairings(url: folder.appendingPathComponent("sync.json"), deviceName: "").setOn(true)
        let relaunched = try MedsModel(dataDirectory: folder)
        relaunched.syncUsesDiscovery = false
        relaunched.startSyncIfOn(deviceName: "Kitchen")
        #expect(relaunched.syncStatus.isOn)
        relaunched.stopSync()

        // Damaged sync settings: sync stays off, and the windows say why.
        try "{ damaged".write(to: folder.appendingPathComponent("sync.json"), atomically: true, encoding: .utf8)
        let damaged = try MedsModel(dataDirectory: folder)
        damaged.syncUsesDiscovery = false
        damaged.startSyncIfOn(deviceName: "Kitchen")
        #expect(!damaged.syncStatus.isOn)
        #expect(damaged.message?.contains("cannot be read") == true)
    }
}
