import Foundation
import MedsKit
import SwiftUIWeb
import UserNotifications

/// Meds' reminders as system notifications: one for each open dose of every profile, at its reminder time (its time
/// less the reminder lead time, or when its snooze ends), kept in step with Today after every change (a dose
/// answered in any window, or on another machine through sync, takes its reminder away). The browser shows them
/// once the person allowed notifications in Settings; the in-page banner shows the shown profile's due doses either
/// way.
@MainActor enum Reminders {
    /// Each model's pending reminders (one model in the app; tests have several), with their times.
    static var scheduled: [UUID: [String: Date]] = [:]
    static let prefix = "meds-dose-"

    /// A dose's reminder's identifier: its profile's and its own, so two profiles' doses never share one.
    static func identifier(_ dose: TodayPlan.Dose, profile: UUID) -> String {
        prefix + profile.uuidString + "-" + dose.id
    }

    /// The model revision each model's reminders were last brought up to date for: every open window runs the
    /// update after a change, and the first one does it for all.
    static var updatedRevision: [UUID: Int] = [:]

    /// Brings the pending reminders in step with every profile's Today (once per model revision).
    static func update(_ model: MedsModel) async {
        let key = model.instanceID
        guard updatedRevision[key] != model.revision else { return }
        updatedRevision[key] = model.revision
        let plans: [(profile: Profile, plan: TodayPlan)]
        do {
            plans = try await model.todayPlans()
        } catch {
            // The reminders already scheduled stay as they are; the person is told why nothing changed.
            model.message = "Reminders could not be brought up to date: \(error.localizedDescription)"
            return
        }
        let mine = scheduled[key] ?? [:]
        let now = model.now()
        let lead = TimeInterval(model.preferences.reminderLeadMinutes * 60)
        var wanted: [String: (date: Date, dose: TodayPlan.Dose, profile: Profile)] = [:]
        for (profile, plan) in plans {
            for dose in plan.doses {
                let date: Date
                switch dose.state {
                case .upcoming: date = dose.scheduledDate.addingTimeInterval(-lead)
                case .snoozed(let until): date = until
                default: continue
                }
                if date > now { wanted[identifier(dose, profile: profile.id)] = (date, dose, profile) }
            }
        }
        let center = UNUserNotificationCenter.current()
        center.removePendingNotificationRequests(withIdentifiers: mine.keys.filter { wanted[$0] == nil })
        var formatter = Date.FormatStyle(date: .omitted, time: .shortened)
        formatter.timeZone = model.preferences.timeZone
        // "5 mL" for a liquid, "2" (tablets, puffs) for any other form.
        let amount = { (dose: TodayPlan.Dose) -> String in
            DoseAmount.isVolume(form: dose.form)
                ? DoseAmount.text(dose.quantity, form: dose.form, volumeUnit: model.preferences.volumeUnit)
                : dose.quantity.formatted()
        }
        for (identifier, reminder) in wanted where mine[identifier] != reminder.date {
            let content = UNMutableNotificationContent()
            content.title = "\(reminder.dose.name): time for your dose"
            content.body =
                "\(amount(reminder.dose)) due at \(reminder.dose.scheduledDate.formatted(formatter))"
                + " (\(reminder.profile.name))"
            let trigger = UNTimeIntervalNotificationTrigger(
                timeInterval: max(1, reminder.date.timeIntervalSince(now)), repeats: false)
            do {
                try await center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: trigger))
            } catch {
                model.message = "A reminder could not be scheduled: \(error.localizedDescription)"
            }
        }
        scheduled[key] = wanted.mapValues(\.date)
    }
}

/// Settings' notifications section: whether the browser may show Meds' reminders, and a button to ask.
struct NotificationSettings: View {
    @State private var status: UNAuthorizationStatus?
    @State private var problem: String?

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text("Reminders").font(.headline)
            switch status {
            case .authorized?:
                Text("This browser shows a notification when a dose is due.")
            case .denied?:
                Text("This browser blocks Meds' notifications; allow them in its site settings to get reminders.")
            default:
                Text("Allow notifications to be reminded when a dose is due, even when Meds is in the background.")
                Button("Allow Notifications") {
                    Task {
                        do {
                            _ = try await UNUserNotificationCenter.current().requestAuthorization(options: [
                                .alert, .sound,
                            ])
                            problem = nil
                        } catch {
                            problem = "\(error)"
                        }
                        status = await UNUserNotificationCenter.current().notificationSettings().authorizationStatus
                    }
                }
            }
            if let problem { AlertText(problem) }
        }
        .task { status = await UNUserNotificationCenter.current().notificationSettings().authorizationStatus }
    }
}
