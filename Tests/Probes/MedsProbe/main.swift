// A second process for Meds' tests: writes through MedsKit as the app does, one write after another, and prints
// `committed <kind> <id>` after each write returns, so a test can SIGKILL it at any moment and check that every
// write it saw committed is in the stores.
//
//   MedsProbe <data folder>   adds a medication, then forever logs an as-needed dose, a symptom and a note
//   MedsProbe sync <data folder> <device name> [show-code | pair <code> [late]]
//                             runs the app's sync (Bonjour, pairing, sessions) and prints what it reports:
//                             `device <id>`, `code <code>`, `paired <name>`, `synced <name> received <n> sent <n>`,
//                             `failed <message>`, `pair-failed <message>`; exits when standard input closes
import Foundation
import MedsKit

/// Writes a line to standard output at once (unbuffered: the test reads it before any kill).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// The `sync` command.
@MainActor
func sync(_ arguments: [String]) async {
    do {
        let folder = URL(fileURLWithPath: arguments[0])
        let model = try MedsModel(dataDirectory: folder)
        let sync = try SyncService(dataDirectory: folder, deviceName: arguments[1], stores: model.syncStores())
        say("device \(sync.device.id.uuidString)")
        Task {
            for await event in sync.events {
                switch event {
                case .paired(let peer): say("paired \(peer.name)")
                case .synced(let peer, let received, let sent):
                    say("synced \(peer.name) received \(received) sent \(sent)")
                case .failed(let message): say("failed \(message)")
                }
            }
        }
        let running = Task {
            do { try await sync.run() } catch { say("failed \(error)") }
        }
        if arguments.count > 2, arguments[2] == "show-code" { say("code \(sync.startPairing())") }
        if arguments.count > 3, arguments[2] == "pair" {
            if arguments.count > 4, arguments[4] == "late" {
                // Pairs only after the browse has found the other machine (the order a person who types slowly
                // makes): the found machine must still be dialled once it is paired.
                try await Task.sleep(for: .seconds(2))
            }
            do {
                try await sync.pair(code: arguments[3], timeout: .seconds(8))
            } catch {
                say("pair-failed \(error)")
            }
        }
        // Until standard input closes (the test's stop), read on a thread of its own.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                while !FileHandle.standardInput.availableData.isEmpty {}
                done.resume()
            }.start()
        }
        running.cancel()
        say("stopped")
        exit(0)
    } catch {
        say("failed \(error)")
        exit(1)
    }
}

@MainActor
func main() async {
    let arguments = CommandLine.arguments
    if arguments.count >= 4, arguments[1] == "sync" {
        await sync(Array(arguments.dropFirst(2)))
        return
    }
    guard arguments.count == 2 else {
        FileHandle.standardError.write(Data("usage: MedsProbe <data folder>\n".utf8))
        exit(2)
    }
    do {
        let model = try MedsModel(dataDirectory: URL(fileURLWithPath: arguments[1]))
        let health = try model.health()
        let item = try await health.addMedication(
            rxcui: "313782", nickname: nil,
            schedule: try MedsModel.NewMedication(rxcui: "313782", weekdays: nil)
                .schedule(timeZone: nil))
        say("ready \(item.id)")
        var n = 0
        while true {
            n += 1
            let dose = try await health.logAsNeeded(item.id, at: Date(), now: Date())
            say("committed dose \(dose.uuid.uuidString)")
            let symptom = try await health.logSymptom(
                .headache, severity: .mild, at: Date(), medicationID: item.id, now: Date())
            say("committed symptom \(symptom.id.uuidString)")
            try model.appData.setNote("note \(n)", profile: model.profile.id, medication: item.id)
            say("committed note \(n)")
        }
    } catch {
        FileHandle.standardError.write(Data("MedsProbe: \(error.localizedDescription)\n".utf8))
        exit(1)
    }
}

await main()
