import MedsKit
import SwiftUIWeb

/// A Meds window: the profile chooser, then Today, the medication list, the add form, symptoms and charts as
/// tabs. It reads the shared ``MedsModel`` from the environment.
public struct MainView: View {
    @Environment(MedsModel.self) private var model
    @SceneStorage("tab") private var tab = "today"
    @Environment(\.openWindow) private var openWindow

    /// Creates the window's content.
    public init() {}

    /// The window's content.
    public var body: some View {
        VStack(alignment: .leading, spacing: 12) {
            ProfileBar()
            if let message = model.message {
                HStack {
                    Text(message).accessibilityLabel("Error: \(message)")
                    Spacer()
                    Button("Dismiss") { model.message = nil }
                }
                .padding(8)
                .background(Color.red.opacity(0.15))
            }
            ReminderBanner()
            TabView(selection: $tab) {
                Tab("Today", systemImage: "sun.max", value: "today") { TodayView() }
                Tab("Medications", systemImage: "list.bullet", value: "medications") { MedicationListView() }
                Tab("Add", systemImage: "plus", value: "add") { AddMedicationView(done: { tab = "today" }) }
                Tab("Symptoms", systemImage: "heart", value: "symptoms") { SymptomsView() }
                Tab("Charts", systemImage: "calendar", value: "charts") { ChartsView() }
                Tab("Export", systemImage: "square.and.arrow.up", value: "export") { ExportView() }
            }
        }
        .padding()
        .toolbar {
            Button("Printable Summary") { openWindow(id: "summary") }
        }
        .navigationTitle("Meds: \(model.profile.name)")
        .task { await model.refresh() }
        .background { RemindersScheduler() }
    }
}

/// Keeps the reminders in step with the model after each change. A view of its own, so that the change count it
/// watches makes only this empty view run again, not the window around it.
struct RemindersScheduler: View {
    @Environment(MedsModel.self) private var model

    var body: some View {
        Color.clear.frame(width: 0, height: 0).task(id: model.revision) { await Reminders.update(model) }
    }
}

/// The profile shown, a picker of the others, and a form to add one.
struct ProfileBar: View {
    @Environment(MedsModel.self) private var model
    @State private var adding = false
    @State private var newName = ""
    @State private var relationship = Profile.Relationship.child

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            HStack(spacing: 8) {
                profilePicker
                Button(adding ? "Cancel" : "Add Profile") { adding.toggle() }
                Spacer()
            }
            if adding {
                HStack(spacing: 8) {
                    TextField("Name", text: $newName)
                        .onSubmit(add)
                    Picker("Relationship", selection: $relationship) {
                        ForEach(Profile.Relationship.allCases, id: \.self) { Text($0.title).tag($0) }
                    }
                    Button("Save Profile", action: add)
                }
            }
        }
    }

    var profilePicker: some View {
        Picker(
            "Profile",
            selection: Binding(
                get: { model.profile.id },
                set: { id in Task { await model.select(profile: id) } })
        ) {
            ForEach(model.profiles) { profile in
                Text("\(profile.name) (\(profile.relationship.title))").tag(profile.id)
            }
        }
    }

    func add() {
        let name = newName
        let relationship = relationship
        Task {
            if await model.addProfile(name: name, relationship: relationship) {
                newName = ""
                adding = false
            }
        }
    }
}

/// The doses due now, at the top of every window, with Taken and Snooze: the in-page reminder.
struct ReminderBanner: View {
    @Environment(MedsModel.self) private var model

    var body: some View {
        let due = model.today.reminders
        if !due.isEmpty {
            VStack(alignment: .leading, spacing: 6) {
                Text(due.count == 1 ? "A dose is due" : "\(due.count) doses are due").font(.headline)
                ForEach(due) { dose in
                    HStack(spacing: 8) {
                        Text("\(clock(dose.scheduledDate, model)) \(dose.name)")
                        Button("Taken") { Task { await model.answer(dose, .taken) } }
                            .accessibilityLabel("Reminder: mark \(dose.name) taken")
                        Button("Snooze") { Task { await model.answer(dose, .snoozed) } }
                            .accessibilityLabel("Reminder: snooze \(dose.name) for 10 minutes")
                    }
                    // Filled buttons: the accent's text on the orange banner would be under 4.5:1 contrast.
                    .buttonStyle(.borderedProminent)
                }
            }
            .padding(8)
            .background(Color.orange.opacity(0.15))
            .accessibilityLabel("Reminders")
        }
    }
}
