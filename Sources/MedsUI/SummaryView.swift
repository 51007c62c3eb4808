import Foundation
import MedsKit
import SwiftUIWeb

/// A one-page summary for a doctor, made to be printed (File ▸ Print…, or the browser's own): the person, their
/// active medications with schedules and notes, adherence per week and the symptoms of the last four weeks.
public struct SummaryView: View {
    @Environment(MedsModel.self) private var model

    /// Creates the summary.
    public init() {}

    /// The summary.
    public var body: some View {
        let active = model.medications.filter { !$0.isArchived }
        let weeks = model.history.weeks.filter { $0.adherence != nil }
        VStack(alignment: .leading, spacing: 10) {
            Text("Medication summary: \(model.profile.name)").font(.title)
            Text("Made \(Self.dayText(model.day, model.preferences.timeZone)) with Meds").foregroundStyle(.secondary)
            Text("Medications").font(.headline)
            if active.isEmpty { Text("None.") }
            ForEach(active) { item in
                VStack(alignment: .leading) {
                    Text(item.name).font(.headline)
                    if item.nickname != nil { Text(item.displayText) }
                    Text(
                        "\(item.scheduleSummary(in: model.preferences.volumeUnit))\(item.rxcui.map { " · RxNorm \($0)" } ?? "")"
                    )
                    let note = model.note(for: item.id)
                    if !note.isEmpty { Text("Note: \(note)") }
                }
            }
            Text("Doses taken, per week").font(.headline)
            if weeks.isEmpty { Text("No scheduled doses in the last four weeks.") }
            ForEach(weeks) { week in
                Text(
                    "Week of \(Self.dayText(week.start, model.preferences.timeZone)): \(week.taken) of \(week.scheduled) (\(Int(((week.adherence ?? 0) * 100).rounded()))%)"
                )
            }
            Text("Symptoms, last four weeks").font(.headline)
            let counts = Dictionary(grouping: model.symptoms, by: \.name).sorted { $0.key < $1.key }
            if counts.isEmpty { Text("None logged.") }
            ForEach(counts, id: \.key) { name, entries in
                Text(
                    "\(name): \(entries.count) time\(entries.count == 1 ? "" : "s"), worst \(entries.map(\.severity.rawValue).max().map { SymptomScale.emoji(.init(rawValue: $0) ?? .unspecified) } ?? "")"
                )
            }
        }
        .padding()
        .navigationTitle("Summary: \(model.profile.name)")
    }

    static func dayText(_ date: Date, _ zone: TimeZone) -> String {
        ClockFormat.formatter(zone, "d MMMM yyyy").string(from: date)
    }
}
