import Foundation
import OpenHealthKit

/// What a day holds: each scheduled dose with its state, and the as-needed medications with what was taken.
/// A value computed from the schedules and the logged doses, with no store behind it, so every rule below is
/// testable on its own.
///
/// The rules:
/// - A scheduled dose belongs to the day its schedule puts it on, in the profile's time zone, whenever it is
///   logged: a 22:00 dose taken at 00:30 is yesterday's, taken.
/// - A taken or skipped log settles the dose. Otherwise the latest log counts: a snooze holds the dose back for
///   ``snoozeInterval``; an undone log (`notLogged`) or an unanswered reminder leaves it open.
/// - An open dose is upcoming until its reminder is due (`leadTime` before it), then due, and
///   missed once ``missedAfter`` has passed since it was scheduled. A missed dose can still be logged late.
public struct TodayPlan: Hashable, Sendable {
    /// A medication as the plan needs it.
    public struct Medication: Hashable, Sendable {
        /// The concept identifier.
        public let id: String
        /// The name shown (the nickname when there is one).
        public let name: String
        /// When it is due (nil or as-needed: no scheduled doses).
        public let schedule: MedicationSchedule?
        /// Archived medications are not shown on Today.
        public let isArchived: Bool
        /// Its general form ("tablet", "liquid"), which says how a dose's quantity is measured (``DoseAmount``).
        public let form: String

        /// Creates a medication entry.
        public init(
            id: String, name: String, schedule: MedicationSchedule?, isArchived: Bool = false, form: String = ""
        ) {
            self.id = id
            self.name = name
            self.schedule = schedule
            self.isArchived = isArchived
            self.form = form
        }
    }

    /// Where a scheduled dose stands.
    public enum State: Hashable, Sendable {
        /// Not yet due.
        case upcoming
        /// Due now.
        case due
        /// Snoozed until then.
        case snoozed(until: Date)
        /// Taken at a time.
        case taken(at: Date)
        /// Skipped at a time.
        case skipped(at: Date)
        /// Not logged, and long past.
        case missed

        /// Whether the person still has to answer it.
        public var isOpen: Bool {
            switch self {
            case .upcoming, .due, .snoozed, .missed: true
            case .taken, .skipped: false
            }
        }
    }

    /// One scheduled dose of the day.
    public struct Dose: Identifiable, Hashable, Sendable {
        /// The medication and the moment, which name the dose.
        public var id: String { "\(medicationID)@\(Int(scheduledDate.timeIntervalSince1970))" }
        /// The medication's concept identifier.
        public let medicationID: String
        /// The medication's name.
        public let name: String
        /// When it is due.
        public let scheduledDate: Date
        /// How much is due (millilitres for a liquid, else a count: see ``DoseAmount``).
        public let quantity: Double
        /// The medication's general form.
        public let form: String
        /// Where it stands.
        public let state: State
        /// The log that settled or snoozed it, for undo.
        public let log: LoggedDose?
    }

    /// An as-needed medication and what was taken of it during the day.
    public struct AsNeeded: Identifiable, Hashable, Sendable {
        /// The medication's concept identifier.
        public var id: String { medicationID }
        /// The medication's concept identifier.
        public let medicationID: String
        /// Its name.
        public let name: String
        /// The doses taken during the day, oldest first.
        public let taken: [LoggedDose]
    }

    /// How long a snooze holds a dose back.
    public static let snoozeInterval: TimeInterval = 10 * 60
    /// How long after its time an unanswered dose counts as missed.
    public static let missedAfter: TimeInterval = 3 * 3600

    /// The scheduled doses of the day, in time order.
    public let doses: [Dose]
    /// The as-needed medications, by name.
    public let asNeeded: [AsNeeded]

    /// The plan for the day that contains `day`, as it stands at `now`.
    /// - Parameters:
    ///   - leadTime: how long before its time a dose is due (the reminder lead time).
    ///   - logged: the logged doses near the day (a wider span does no harm).
    public init(
        day: Date, now: Date, timeZone: TimeZone, leadTime: TimeInterval = 0, medications: [Medication],
        logged: [LoggedDose]
    ) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let start = calendar.startOfDay(for: day)
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        let byDose = Dictionary(grouping: logged.filter { $0.scheduledDate != nil }) {
            DoseKey(medicationID: $0.medicationID, scheduledDate: $0.scheduledDate!)
        }
        var doses: [Dose] = []
        var asNeeded: [AsNeeded] = []
        for medication in medications where !medication.isArchived {
            guard let schedule = medication.schedule, schedule.hasSchedule else {
                let taken = logged.filter {
                    $0.medicationID == medication.id && $0.scheduledDate == nil && $0.status == .taken
                        && $0.date >= start && $0.date < end
                }
                asNeeded.append(
                    AsNeeded(
                        medicationID: medication.id, name: medication.name, taken: taken.sorted { $0.date < $1.date }))
                continue
            }
            // The schedule's days are read in the profile's zone unless the schedule names its own.
            for due in schedule.scheduledDoses(from: start, to: end, currentTimeZone: timeZone) {
                let logs = byDose[DoseKey(medicationID: medication.id, scheduledDate: due.date)] ?? []
                let (state, log) = Self.state(
                    of: due.date, logs: logs, now: now, leadTime: leadTime)
                doses.append(
                    Dose(
                        medicationID: medication.id, name: medication.name, scheduledDate: due.date,
                        quantity: due.quantity, form: medication.form, state: state, log: log))
            }
        }
        self.doses = doses.sorted { ($0.scheduledDate, $0.name) < ($1.scheduledDate, $1.name) }
        self.asNeeded = asNeeded.sorted { $0.name < $1.name }
    }

    struct DoseKey: Hashable {
        let medicationID: String
        let scheduledDate: Date
    }

    /// The state of one scheduled dose from its logs.
    static func state(
        of scheduled: Date, logs: some Sequence<LoggedDose>, now: Date, leadTime: TimeInterval
    ) -> (
        State, LoggedDose?
    ) {
        // One pass, no arrays: a year's history asks this for every dose due in it.
        var answer: LoggedDose?
        var latest: LoggedDose?
        for log in logs {
            if log.isAnswer, answer.map({ log.date > $0.date }) ?? true { answer = log }
            if latest.map({ log.date > $0.date }) ?? true { latest = log }
        }
        if let answer {
            return (answer.status == .taken ? .taken(at: answer.date) : .skipped(at: answer.date), answer)
        }
        if let latest, latest.status == .snoozed {
            let until = latest.date.addingTimeInterval(snoozeInterval)
            if now < until { return (.snoozed(until: until), latest) }
        }
        if now < scheduled.addingTimeInterval(-leadTime) { return (.upcoming, nil) }
        if now >= scheduled.addingTimeInterval(missedAfter) { return (.missed, nil) }
        return (.due, nil)
    }

    /// The doses still to answer whose reminder is due at `now` (due, or snoozed and past the snooze).
    public var reminders: [Dose] { doses.filter { $0.state == .due } }
}
