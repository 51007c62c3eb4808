// Meds: a medication tracker for yourself and the people you care for, on Orchard's four modules. Run
// `swift run -c release Meds` and open the link it prints. Data: `MEDS_DATA_DIR`, default `$XDG_DATA_HOME/meds`
// (`~/.local/share/meds`): the app's own store (profiles, notes, settings) and one health store per profile. When
// the health daemon runs (`orchard-healthd`, with this program registered as the Health app), the person's own
// profile keeps its health data in the daemon's store instead (see `HealthStorage`).
import Foundation
import MedsKit
import MedsUI
import SwiftUIWeb

@main
struct MedsApp: App {
    @State private var model: MedsModel

    init() {
        let folder = Self.dataDirectory()
        do {
            // The person's own profile keeps its health data in the health daemon when it runs.
            let model = try MedsModel(dataDirectory: folder, healthStorage: .automatic)
            _model = State(initialValue: model)
            // Load now, while the server starts, so the first window opened shows the data (a window opened before
            // this finishes shows it as soon as it has, over its socket).
            Task { await model.refresh() }
            // Sync runs only if the person turned it on in Settings before.
            model.startSyncIfOn(deviceName: ProcessInfo.processInfo.hostName)
        } catch {
            FileHandle.standardError.write(
                Data("Meds: cannot open its data in \(folder.path): \(error.localizedDescription)\n".utf8))
            exit(1)
        }
    }

    /// Where the data is: `MEDS_DATA_DIR`, else `$XDG_DATA_HOME/meds`, else `~/.local/share/meds`.
    static func dataDirectory() -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let folder = environment["MEDS_DATA_DIR"], !folder.isEmpty { return URL(fileURLWithPath: folder) }
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser.path + "/.local/share"
        return URL(fileURLWithPath: dataHome).appendingPathComponent("meds")
    }

    var body: some Scene {
        WindowGroup("Meds") {
            MainView().environment(model)
        }
        .commands { MedsCommands(model: model) }
        WindowGroup("Medication", id: "medication", for: String.self) { id in
            MedicationWindow(medicationID: id.wrappedValue).environment(model)
        }
        Window("Summary", id: "summary") {
            SummaryView().environment(model)
        }
        DocumentGroup(newDocument: PlanDocument()) { file in
            PlanView(document: file.$document).environment(model)
        }
        Settings {
            SettingsView().environment(model)
        }
    }
}

/// The menu bar's Meds commands.
struct MedsCommands: Commands {
    let model: MedsModel

    var body: some Commands {
        CommandMenu("Doses") {
            Button("Refresh Today") { Task { await model.refresh() } }
                .keyboardShortcut("r")
        }
    }
}
