import Charts
import Foundation
import MedsKit
import SwiftUIWeb

/// Charts of the last four weeks or the last year: doses taken per day by medication, adherence per week, and
/// symptoms' severity over time. They are drawn from the model, so a dose logged in any window shows here at once.
public struct ChartsView: View {
    @Environment(MedsModel.self) private var model
    @SceneStorage("chartDays") private var days = MedsModel.historyDays
    @State private var longer: History?

    /// Creates the charts.
    public init() {}

    /// The span picker and the charts.
    public var body: some View {
        VStack(alignment: .leading, spacing: 16) {
            Text("Charts").font(.title)
            Picker("Span", selection: $days) {
                Text("4 weeks").tag(MedsModel.historyDays)
                Text("1 year").tag(365)
            }
            .pickerStyle(.segmented)
            HistoryCharts(
                history: days == MedsModel.historyDays ? model.history : (longer ?? model.history), days: days,
                symptoms: model.symptoms, symptomSpan: model.history.span)
        }
        .task(id: "\(model.revision) \(days)") {
            // A longer span is read from the store again whenever the model changes (a dose in any window).
            guard days != MedsModel.historyDays else { return }
            do { longer = try await model.history(days: days) } catch { model.message = error.localizedDescription }
        }
    }
}

/// The charts of one history: doses taken per day by medication, adherence per week, and symptoms' severity.
public struct HistoryCharts: View {
    /// The counts drawn.
    let history: History
    /// The span's length in days, for the charts' labels.
    let days: Int
    /// The symptoms logged, drawn over `symptomSpan`.
    let symptoms: [SymptomEntry]
    /// The span of the symptoms' chart.
    let symptomSpan: ClosedRange<Date>

    /// Creates the charts of `history` (`days` long) and of `symptoms` over `symptomSpan`.
    public init(history: History, days: Int, symptoms: [SymptomEntry], symptomSpan: ClosedRange<Date>) {
        self.history = history
        self.days = days
        self.symptoms = symptoms
        self.symptomSpan = symptomSpan
    }

    /// The three charts.
    public var body: some View {
        VStack(alignment: .leading, spacing: 16) {
            Text("Doses taken per day").font(.headline)
            Chart(history.days.filter { $0.taken > 0 }) { count in
                BarMark(x: .value("Day", count.day, unit: .day), y: .value("Doses", count.taken))
                    .foregroundStyle(by: .value("Medication", count.name))
            }
            .chartXScale(domain: history.span)
            .frame(height: 220)
            .accessibilityLabel("Doses taken per day, by medication, over the last \(days) days")

            Text("Adherence per week").font(.headline)
            let weeks = history.weeks.filter { $0.adherence != nil }
            if weeks.isEmpty {
                Text("No scheduled doses yet.").foregroundStyle(.secondary)
            } else {
                Chart(weeks) { week in
                    LineMark(
                        x: .value("Week", week.start, unit: .day), y: .value("Taken (%)", (week.adherence ?? 0) * 100))
                    PointMark(
                        x: .value("Week", week.start, unit: .day), y: .value("Taken (%)", (week.adherence ?? 0) * 100))
                }
                .chartXScale(domain: history.span)
                .chartYScale(domain: 0...100)
                .frame(height: 180)
                .accessibilityLabel("Share of scheduled doses taken, per week")
            }

            Text("Symptoms").font(.headline)
            if symptoms.isEmpty {
                Text("No symptoms logged.").foregroundStyle(.secondary)
            } else {
                Chart(symptoms) { entry in
                    PointMark(x: .value("Date", entry.date), y: .value("Severity", entry.severity.rawValue))
                        .foregroundStyle(by: .value("Symptom", entry.name))
                }
                .chartXScale(domain: symptomSpan)
                .chartYScale(domain: 0...4)
                .frame(height: 180)
                .accessibilityLabel("Symptoms' severity over the last four weeks")
            }
        }
    }
}
