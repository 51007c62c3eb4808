// A second process for Meds' tests: writes through MedsKit as the app does, one write after another, and prints
// `committed <kind> <id>` after each write returns, so a test can SIGKILL it at any moment and check that every
// write it saw committed is in the stores.
//
//   MedsProbe <data folder>   adds a medication, then forever logs an as-needed dose, a symptom and a note
import Foundation
import MedsKit

/// Writes a line to standard output at once (unbuffered: the test reads it before any kill).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

@MainActor
func main() async {
    let arguments = CommandLine.arguments
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
            let dose = try health.logAsNeeded(item.id, at: Date(), now: Date())
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
