import Foundation
import MedsKit
import OpenHealthKit
import TestSupport
import Testing

/// Sync between two machines: two processes (MedsProbe's `sync`, which runs the app's SyncService) in two network
/// namespaces joined by a link, finding each other with Bonjour, pairing with the code one shows and the other
/// types, then, after edits each made while the other was off, converging when they meet again. A third machine
/// with a wrong code gets nothing. Needs root (CI runs as root), as the other namespace tests do.
@MainActor @Suite("Meds sync between two hosts", .serialized, .timeLimit(.minutes(3)))
struct SyncNamespaceTests {
    static var probe: String { builtExecutable("MedsProbe").path }

    func dosesAndSymptoms(_ folder: URL, profile: UUID) async throws -> (doses: Set<UUID>, symptoms: Set<UUID>) {
        let model = try MedsModel(dataDirectory: folder)
        await model.select(profile: profile)
        #expect(model.profile.id == profile)
        return (Set(model.recentDoses.map(\.uuid)), Set(model.symptoms.map(\.id)))
    }

    @Test func twoHostsFindEachOtherPairAndConverge() async throws {
        let home = temporaryFolder()
        let away = temporaryFolder()
        let stranger = temporaryFolder()
        defer {
            for folder in [home, away, stranger] { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        }
        // The kitchen's data: a medication, a dose taken, a symptom.
        let kitchenProfile: UUID
        do {
            let model = try MedsModel(dataDirectory: home)
            #expect(
                await model.addMedication(
                    MedsModel.NewMedication(rxcui: MedsModelTests.acetaminophen, nickname: "Tylenol", weekdays: nil)))
            await model.logAsNeeded(try #require(model.medications.first).id)
            #expect(await model.logSymptom(.headache, severity: .mild, medicationID: nil))
            kitchenProfile = model.profile.id
        }
        let hosts = try await TwoHosts()
        do {
            try await scenario(hosts, home: home, away: away, stranger: stranger, kitchenProfile: kitchenProfile)
        } catch {
            await hosts.remove()
            throw error
        }
        await hosts.remove()
    }

    func scenario(_ hosts: TwoHosts, home: URL, away: URL, stranger: URL, kitchenProfile: UUID) async throws {
        // Pairing: the kitchen shows a code; a stranger's wrong code fails; the laptop types the right one.
        let kitchen = try HostProcess(in: hosts.a, [Self.probe, "sync", home.path, "Kitchen", "show-code"])
        let code = String(try await kitchen.line("the pairing code") { $0.hasPrefix("code ") }.dropFirst(5))
        let wrong = String(format: "%06d", (Int(code)! + 1) % 1_000_000)
        let intruder = try HostProcess(in: hosts.b, [Self.probe, "sync", stranger.path, "Intruder", "pair", wrong])
        try await intruder.line("the refusal", timeout: .seconds(40)) { $0.hasPrefix("pair-failed") }
        await intruder.stop()
        // The laptop types the code late, once each machine has found the other's sync service: pairing must then
        // start a round by itself (no later browse result names the other machine again).
        let laptop = try HostProcess(in: hosts.b, [Self.probe, "sync", away.path, "Laptop", "pair", code, "late"])
        try await laptop.line("the pairing") { $0 == "paired Kitchen" }
        try await kitchen.line("the pairing") { $0 == "paired Laptop" }
        // The first round, started by whichever found the other: the laptop gets the kitchen's profile.
        try await laptop.line("a round", timeout: .seconds(30)) { $0.hasPrefix("synced Kitchen received") }
        try await kitchen.line("a round", timeout: .seconds(30)) { $0.hasPrefix("synced Laptop received") }
        await laptop.stop()
        await kitchen.stop()
        #expect(!(kitchen.lines + laptop.lines).contains { $0.hasPrefix("failed") })
        let first = try await dosesAndSymptoms(away, profile: kitchenProfile)
        #expect(first.doses.count == 1 && first.symptoms.count == 1)
        #expect(try await dosesAndSymptoms(home, profile: kitchenProfile) == first)
        // The stranger got nothing: only its own profile, with no medication.
        let strangerModel = try MedsModel(dataDirectory: stranger)
        #expect(strangerModel.profiles.count == 1 && strangerModel.medications.isEmpty)

        // Apart: each logs a dose and a symptom; the laptop deletes the kitchen's first symptom.
        for folder in [home, away] {
            let model = try MedsModel(dataDirectory: folder)
            await model.select(profile: kitchenProfile)
            await model.logAsNeeded(try #require(model.medications.first).id)
            #expect(await model.logSymptom(.nausea, severity: .moderate, medicationID: nil))
            if folder == away { await model.deleteSymptom(try #require(model.symptoms.first { $0.type == .headache })) }
            #expect(model.message == nil)
        }

        // They meet again, with no code: both find each other and converge.
        let kitchenAgain = try HostProcess(in: hosts.a, [Self.probe, "sync", home.path, "Kitchen"])
        let laptopAgain = try HostProcess(in: hosts.b, [Self.probe, "sync", away.path, "Laptop"])
        let started = ContinuousClock.now
        let done: (text: String, at: ContinuousClock.Instant)
        do {
            done = try await laptopAgain.timedLine("a round", timeout: .seconds(30)) {
                $0.hasPrefix("synced Kitchen received")
            }
        } catch {
            throw HostError("\(error); the kitchen printed \(kitchenAgain.lines)")
        }
        try await kitchenAgain.line("a round", timeout: .seconds(30)) { $0.hasPrefix("synced Laptop received") }
        print("sync: second round done \(done.at - started) after both started (discovery included)")
        await laptopAgain.stop()
        await kitchenAgain.stop()
        #expect(!(kitchenAgain.lines + laptopAgain.lines).contains { $0.hasPrefix("failed") })
        let here = try await dosesAndSymptoms(home, profile: kitchenProfile)
        let there = try await dosesAndSymptoms(away, profile: kitchenProfile)
        #expect(here == there)
        #expect(here.doses.count == 3 && here.symptoms.count == 2)
    }
}
