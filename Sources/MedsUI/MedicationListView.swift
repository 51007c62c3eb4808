import MedsKit
import SwiftUIWeb

/// The profile's medications: active ones, then archived ones, each with its schedule, opened in its own window.
struct MedicationListView: View {
    @Environment(MedsModel.self) private var model
    @Environment(\.openWindow) private var openWindow

    var body: some View {
        let active = model.medications.filter { !$0.isArchived }
        let archived = model.medications.filter(\.isArchived)
        VStack(alignment: .leading, spacing: 12) {
            Text("Medications").font(.title)
            if model.medications.isEmpty {
                Text("No medications yet.").foregroundStyle(.secondary)
            }
            Section("Active") {
                ForEach(active) { item in row(item) }
            }
            if !archived.isEmpty {
                Section("Archived") {
                    ForEach(archived) { item in row(item) }
                }
            }
        }
    }

    func row(_ item: MedicationItem) -> some View {
        HStack(spacing: 8) {
            VStack(alignment: .leading) {
                Text(item.name).font(.headline)
                if item.nickname != nil { Text(item.displayText).foregroundStyle(.secondary) }
                Text(item.scheduleSummary(in: model.preferences.volumeUnit)).foregroundStyle(.secondary)
            }
            Spacer()
            Button("Open") { openWindow(id: "medication", value: item.id) }
                .accessibilityLabel("Open \(item.name) in its own window")
            Button(item.isArchived ? "Restore" : "Archive") {
                Task { await model.setArchived(item.id, !item.isArchived) }
            }
            .accessibilityLabel("\(item.isArchived ? "Restore" : "Archive") \(item.name)")
        }
        .padding(.vertical, 4)
        .frame(maxWidth: .infinity, alignment: .leading)
    }
}

/// A medication in its own window: its details, schedule, the profile's note and its side effects.
public struct MedicationWindow: View {
    @Environment(MedsModel.self) private var model
    let medicationID: String?
    @State private var note = ""
    @State private var loadedNote = false
    /// The schedule being changed (shown while `editing`).
    @State private var draft = ScheduleDraft()
    @State private var editing = false

    /// The window of the medication with this concept identifier.
    public init(medicationID: String?) { self.medicationID = medicationID }

    /// The window's content.
    public var body: some View {
        if let item = model.medications.first(where: { $0.id == medicationID }) {
            VStack(alignment: .leading, spacing: 10) {
                Text(item.name).font(.title)
                Text(item.displayText)
                Text("Form: \(item.form)")
                if let rxcui = item.rxcui { Text("RxNorm \(rxcui)") }
                Text(item.scheduleSummary(in: model.preferences.volumeUnit))
                if editing {
                    ScheduleFields(draft: $draft, form: item.form)
                    if let message = model.message { AlertText(message) }
                    HStack {
                        Button("Save Schedule") {
                            Task { if await model.setSchedule(item.id, draft: draft) { editing = false } }
                        }
                        Button("Cancel") { editing = false }
                    }
                } else {
                    Button("Change Schedule") {
                        draft = ScheduleDraft(item, volumeUnit: model.preferences.volumeUnit)
                        editing = true
                    }
                }
                Text(item.isArchived ? "Archived" : "Active").foregroundStyle(.secondary)
                TextField("Note", text: $note, axis: .vertical)
                Button("Save Note") { Task { await model.setNote(note, for: item.id) } }
                SideEffectsView(medication: item)
            }
            .padding()
            .navigationTitle(item.name)
            .task {
                if !loadedNote {
                    note = model.note(for: item.id)
                    loadedNote = true
                }
            }
        } else {
            Text("This medication is not in \(model.profile.name)'s list.")
                .padding()
                .task { await model.refresh() }
        }
    }
}

/// The settings window: time zone and reminder lead time.
public struct SettingsView: View {
    @Environment(MedsModel.self) private var model
    @State private var zone = ""
    @State private var lead = 0
    @State private var volumeUnit = VolumeUnit.milliliters
    @State private var loaded = false

    /// Creates the settings window's content.
    public init() {}

    /// The window's content.
    public var body: some View {
        Form {
            TextField("Time zone (blank: this machine's)", text: $zone)
            Stepper("Remind \(lead) minutes early", value: $lead, in: 0...120, step: 5)
            Picker("Liquid doses in", selection: $volumeUnit) {
                ForEach(VolumeUnit.allCases, id: \.self) { Text($0.title).tag($0) }
            }
            Button("Save Settings") {
                var preferences = model.preferences
                preferences.timeZoneIdentifier = zone.isEmpty ? nil : zone
                preferences.reminderLeadMinutes = lead
                preferences.volumeUnit = volumeUnit
                Task { await model.setPreferences(preferences) }
            }
            if let message = model.message { AlertText(message) }
            NotificationSettings()
            SyncSettings()
            HealthDataSettings()
        }
        .padding()
        .task {
            if !loaded {
                zone = model.preferences.timeZoneIdentifier ?? ""
                lead = model.preferences.reminderLeadMinutes
                volumeUnit = model.preferences.volumeUnit
                loaded = true
            }
        }
    }
}

/// Settings' health data section, when the health daemon runs: where the person's own health data is kept, and
/// moving it from Meds' folder into the daemon's store.
struct HealthDataSettings: View {
    @Environment(MedsModel.self) private var model

    var body: some View {
        let place = model.healthPlace
        if place == .fileMovableToDaemon {
            VStack(alignment: .leading, spacing: 8) {
                Text("Your health data").font(.headline)
                Text(
                    "The health daemon runs on this machine. Your medications, doses and symptoms are in Meds' own"
                        + " folder; move them into the daemon to share them with your other health apps, by what you"
                        + " grant each.")
                Button("Move My Health Data to the Health Daemon") { Task { await model.moveHealthDataToDaemon() } }
            }
        } else if place == .daemon {
            VStack(alignment: .leading, spacing: 8) {
                Text("Your health data").font(.headline)
                Text("Your medications, doses and symptoms are kept by the health daemon (orchard-healthd).")
            }
        }
    }
}

/// Settings' sync section: turning sync on and off, this machine's pairing code, typing another machine's code, the
/// paired machines, and what sync last did.
struct SyncSettings: View {
    @Environment(MedsModel.self) private var model
    @State private var typed = ""

    var body: some View {
        let status = model.syncStatus
        VStack(alignment: .leading, spacing: 8) {
            Text("Sync with your other machines").font(.headline)
            if !status.isOn {
                Text("Machines on this network that you pair with keep the same medications, doses and symptoms.")
                Button("Turn On Sync") { model.startSync(deviceName: ProcessInfo.processInfo.hostName) }
            } else {
                if let device = status.device { Text("This machine is \(device.name) to the others.") }
                if let code = status.code {
                    Text("Pairing code: \(code)").font(.title2).accessibilityLabel(
                        "Pairing code \(code.map(String.init).joined(separator: " "))")
                    Text("Type it on the other machine within ten minutes.")
                } else {
                    Button("Show a Pairing Code") { model.showPairingCode() }
                }
                TextField("Code shown on the other machine", text: $typed)
                Button("Pair") {
                    let code = typed
                    Task { if await model.pair(code: code) { typed = "" } }
                }
                .disabled(typed.isEmpty)
                if status.peers.isEmpty {
                    Text("Not paired with any machine yet.")
                } else {
                    Text("Paired with: \(status.peers.map(\.name).joined(separator: ", "))")
                }
                if let last = status.last { Text(last) }
                Button("Turn Off Sync") { model.stopSync() }
            }
        }
    }
}
