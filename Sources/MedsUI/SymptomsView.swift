import Foundation
import MedsKit
import OpenHealthKit
import SwiftUIWeb

/// Symptoms: log one with the emoji scale (against a medication, if the person thinks it is a side effect), and a
/// timeline of the last four weeks with doses and symptoms side by side, newest first.
struct SymptomsView: View {
    @Environment(MedsModel.self) private var model
    @State private var symptom = HKCategoryTypeIdentifier.headache.rawValue
    @State private var medication = ""

    var body: some View {
        VStack(alignment: .leading, spacing: 12) {
            Text("Symptoms").font(.title)
            // One under another: a medication's name can be long, and the window phone-width.
            VStack(alignment: .leading, spacing: 8) {
                Picker("Symptom", selection: $symptom) {
                    ForEach(SymptomScale.all, id: \.rawValue) { Text(SymptomScale.name(of: $0)).tag($0.rawValue) }
                }
                Picker("Medication", selection: $medication) {
                    Text("None").tag("")
                    ForEach(model.medications.filter { !$0.isArchived }) { Text($0.name).tag($0.id) }
                }
            }
            Text("How is it?")
            SeverityButtons(
                type: HKCategoryTypeIdentifier(symptom), medicationID: medication.isEmpty ? nil : medication,
                label: { "Log \(SymptomScale.name(of: HKCategoryTypeIdentifier(symptom))): \($0.title)" })
            Text("Timeline").font(.headline)
            let entries = TimelineEntry.merge(doses: model.recentDoses, symptoms: model.symptoms, model: model)
            if entries.isEmpty { Text("Nothing logged in the last four weeks.").foregroundStyle(.secondary) }
            ForEach(entries) { entry in
                HStack(spacing: 8) {
                    Text(entry.when).font(.headline)
                    Text(entry.text)
                    if let symptom = entry.symptom {
                        Button("Delete") { Task { await model.deleteSymptom(symptom) } }
                            .accessibilityLabel("Delete \(entry.text) at \(entry.when)")
                    }
                }
            }
        }
    }
}

/// The sample's emoji scale as buttons: each logs `type` now, at its severity, against `medicationID` (if any).
struct SeverityButtons: View {
    @Environment(MedsModel.self) private var model
    let type: HKCategoryTypeIdentifier
    let medicationID: String?
    /// What a button is read as, from its level.
    let label: (_ level: (emoji: String, title: String, severity: HKCategoryValueSeverity)) -> String

    var body: some View {
        HStack(spacing: 8) {
            ForEach(SymptomScale.levels, id: \.title) { level in
                Button(level.emoji) {
                    Task { await model.logSymptom(type, severity: level.severity, medicationID: medicationID) }
                }
                .accessibilityLabel(label(level))
            }
        }
    }
}

/// One line of the timeline: a dose taken or skipped, or a symptom.
struct TimelineEntry: Identifiable {
    let id: String
    let date: Date
    let when: String
    let text: String
    /// The symptom the line shows, which can be deleted (nil: the line is a dose).
    let symptom: SymptomEntry?

    @MainActor
    static func merge(doses: [LoggedDose], symptoms: [SymptomEntry], model: MedsModel) -> [TimelineEntry] {
        let formatter = ClockFormat.formatter(model.preferences.timeZone, ClockFormat.dayAndTime)
        let names = Dictionary(model.medications.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        var entries: [TimelineEntry] = []
        for dose in doses where dose.status == .taken || dose.status == .skipped {
            let name = names[dose.medicationID] ?? dose.medicationID
            entries.append(
                TimelineEntry(
                    id: dose.uuid.uuidString, date: dose.date, when: formatter.string(from: dose.date),
                    text: dose.status == .taken ? "💊 \(name) taken" : "⏭ \(name) skipped", symptom: nil))
        }
        for symptom in symptoms {
            let cause = symptom.medicationID.map { " (after \(names[$0] ?? $0))" } ?? ""
            entries.append(
                TimelineEntry(
                    id: symptom.id.uuidString, date: symptom.date, when: formatter.string(from: symptom.date),
                    text: "\(SymptomScale.emoji(symptom.severity)) \(symptom.name): \(symptom.severity.title)\(cause)",
                    symptom: symptom))
        }
        return entries.sorted { $0.date > $1.date }
    }
}

extension HKCategoryValueSeverity {
    /// The severity in words.
    var title: String {
        switch self {
        case .unspecified: "present"
        case .notPresent: "not present"
        case .mild: "mild"
        case .moderate: "moderate"
        case .severe: "severe"
        }
    }
}
