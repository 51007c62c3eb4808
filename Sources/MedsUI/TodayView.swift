import Foundation
import MedsKit
import OpenHealthKit
import SwiftUIWeb

/// Today: the scheduled doses in time order with their state and actions, then the as-needed medications.
struct TodayView: View {
    @Environment(MedsModel.self) private var model

    var body: some View {
        let plan = model.today
        VStack(alignment: .leading, spacing: 12) {
            Text("Today").font(.title)
            if plan.doses.isEmpty && plan.asNeeded.isEmpty {
                Text("Nothing scheduled today. Add a medication to start.").foregroundStyle(.secondary)
            }
            if !plan.doses.isEmpty {
                Section("Scheduled") {
                    ForEach(plan.doses) { dose in DoseRow(dose: dose).equatable() }
                }
            }
            if !plan.asNeeded.isEmpty {
                Section("As needed") {
                    ForEach(plan.asNeeded) { item in AsNeededRow(item: item).equatable() }
                }
            }
        }
        .task {
            // States move with the clock (upcoming → due → missed): look again every half minute.
            while !Task.isCancelled {
                do { try await Task.sleep(for: .seconds(30)) } catch { return }  // cancelled: the window closed
                await model.refresh()
            }
        }
    }
}

/// Clock times in the profile's time zone.
@MainActor
func clock(_ date: Date, _ model: MedsModel) -> String {
    ClockFormat.formatter(model.preferences.timeZone).string(from: date)
}

/// Date formatters, one per format and time zone: making a `DateFormatter` costs far more than using one, and
/// every row of every window formats its times on each render.
@MainActor
enum ClockFormat {
    static var formatters: [String: DateFormatter] = [:]

    /// A day and a time of it, as the timeline and a medication's side effects show them ("Tue 10 Mar 08:05").
    static let dayAndTime = "EEE d MMM HH:mm"

    /// The formatter of a format ("HH:mm" by default) in a zone.
    static func formatter(_ zone: TimeZone, _ format: String = "HH:mm") -> DateFormatter {
        let key = format + "|" + zone.identifier
        if let formatter = formatters[key] { return formatter }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = format
        formatters[key] = formatter
        return formatter
    }
}

/// One scheduled dose: its time, the medication, where it stands, and what can be done. Equal rows are not
/// evaluated again when Today is (`equatable()`): what else a row shows, the time zone, it reads from the model,
/// which updates it by itself.
struct DoseRow: View, Equatable {
    @Environment(MedsModel.self) private var model
    let dose: TodayPlan.Dose

    nonisolated static func == (a: DoseRow, b: DoseRow) -> Bool { a.dose == b.dose }

    var body: some View {
        let time = clock(dose.scheduledDate, model)
        HStack(spacing: 8) {
            Text(time).font(.headline)
            // The name with its state under it, so a row fits a phone-width window.
            VStack(alignment: .leading, spacing: 0) {
                HStack(spacing: 4) {
                    Text(dose.name)
                    let amount = DoseAmount.text(
                        dose.quantity, form: dose.form, volumeUnit: model.preferences.volumeUnit)
                    if !amount.isEmpty { Text(amount) }
                }
                if stateIsAlert { AlertText(stateText) } else { Text(stateText).foregroundStyle(.secondary) }
            }
            Spacer()
            if dose.state.isOpen {
                Button("Taken") { Task { await model.answer(dose, .taken) } }
                    .accessibilityLabel("Mark \(dose.name) at \(time) taken")
                Button("Skip") { Task { await model.answer(dose, .skipped) } }
                    .accessibilityLabel("Skip \(dose.name) at \(time)")
                if dose.state == .due || dose.state == .missed {
                    Button("Snooze") { Task { await model.answer(dose, .snoozed) } }
                        .accessibilityLabel("Snooze \(dose.name) at \(time) for 10 minutes")
                }
            } else {
                Button("Undo") { Task { await model.undo(dose) } }
                    .accessibilityLabel("Undo \(dose.name) at \(time)")
            }
        }
        .padding(.vertical, 4)
        .frame(maxWidth: .infinity, alignment: .leading)
    }

    var stateIsAlert: Bool { dose.state == .missed || dose.state == .due }

    var stateText: String {
        switch dose.state {
        case .upcoming: "Upcoming"
        case .due: "Due now"
        case .snoozed(let until): "Snoozed until \(clock(until, model))"
        case .taken(let at): "Taken at \(clock(at, model))"
        case .skipped(let at): "Skipped at \(clock(at, model))"
        case .missed: "Missed"
        }
    }
}

/// An as-needed medication: what was taken today, and a button to log a dose (equatable as ``DoseRow`` is).
struct AsNeededRow: View, Equatable {
    @Environment(MedsModel.self) private var model
    let item: TodayPlan.AsNeeded

    nonisolated static func == (a: AsNeededRow, b: AsNeededRow) -> Bool { a.item == b.item }

    var takenText: String {
        guard let last = item.taken.last else { return "None today" }
        let times = item.taken.count == 1 ? "1 dose" : "\(item.taken.count) doses"
        return "\(times) today, last at \(clock(last.date, model))"
    }

    var body: some View {
        HStack(spacing: 8) {
            Text(item.name)
            Spacer()
            // The count and the last time, however many were taken (every time is on the Symptoms timeline).
            Text(takenText).foregroundStyle(.secondary)
            Button("Log Dose") { Task { await model.logAsNeeded(item.medicationID) } }
                .accessibilityLabel("Log a dose of \(item.name)")
            if let last = item.taken.last {
                Button("Undo") { Task { await model.undo(last) } }
                    .accessibilityLabel("Undo the last dose of \(item.name)")
            }
        }
        .padding(.vertical, 4)
        .frame(maxWidth: .infinity, alignment: .leading)
    }
}
