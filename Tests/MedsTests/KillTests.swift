import Foundation
import MedsKit
import OpenHealthKit
import TestSupport
import Testing

/// Meds' stores after the process that writes them is killed mid-write: every write it reported committed is
/// there, the stores open, and the app reads them. Three kills at different moments.
@MainActor @Suite(.serialized) struct KillTests {
    @Test(arguments: [0.4, 0.9, 1.7]) func everyCommittedWriteSurvivesSIGKILL(after seconds: Double) async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let process = Process()
        process.executableURL = builtExecutable("MedsProbe")
        process.arguments = [folder.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // Read what it prints on a thread of its own, until the kill closes the pipe.
        let reading = Task {
            try await onOwnThread { () -> [String] in
                let data = output.fileHandleForReading.readDataToEndOfFile()
                return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            }
        }
        // Kill it `seconds` after it is ready (it is writing by then), or after 30 s if it never is.
        let ready = folder.appendingPathComponent("profiles")
        let deadline = ContinuousClock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: ready.path) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .seconds(seconds + 0.3))
        kill(process.processIdentifier, SIGKILL)
        let lines = try await reading.value
        _ = await reap(process)
        #expect(process.terminationReason == .uncaughtSignal)
        let doses = Set(
            lines.compactMap { $0.hasPrefix("committed dose ") ? UUID(uuidString: String($0.dropFirst(15))) : nil })
        let symptoms = Set(
            lines.compactMap { $0.hasPrefix("committed symptom ") ? UUID(uuidString: String($0.dropFirst(18))) : nil })
        let notes = lines.compactMap { $0.hasPrefix("committed note ") ? Int($0.dropFirst(15)) : nil }
        #expect(doses.count > 0, "the probe wrote nothing before it was killed: \(lines.suffix(3))")

        let model = try MedsModel(dataDirectory: folder)
        let health = try model.health()
        let stored = try await health.loggedDoses(from: .distantPast, to: .distantFuture)
        #expect(doses.isSubset(of: Set(stored.map(\.uuid))), "committed doses missing after the kill")
        #expect(stored.count <= doses.count + 1)  // at most the one in flight
        let storedSymptoms = try await health.symptoms(from: .distantPast, to: .distantFuture)
        #expect(symptoms.isSubset(of: Set(storedSymptoms.map(\.id))))
        let note = try model.appData.note(profile: model.profile.id, medication: "rxnorm:313782")
        let lastNote = notes.last ?? 0
        #expect(
            note == "note \(lastNote)" || note == "note \(lastNote + 1)", "note \(note), last committed \(lastNote)")
        // The stores take writes again.
        #expect(try await health.logAsNeeded("rxnorm:313782", at: Date(), now: Date()).medicationID == "rxnorm:313782")
    }
}
