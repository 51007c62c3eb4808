import Foundation
import OpenHealthKit

/// A span of days as the charts and the timeline read it: per day and medication, the doses scheduled, taken and
/// skipped (from the same rules as Today), and the as-needed doses taken; per week, adherence.
public struct History: Hashable, Sendable {
    /// One medication on one day.
    public struct DayCount: Identifiable, Hashable, Sendable {
        /// Day and medication.
        public var id: String { "\(Int(day.timeIntervalSince1970))|\(medicationID)" }
        /// The day's start.
        public let day: Date
        /// The medication's concept identifier.
        public let medicationID: String
        /// Its name.
        public let name: String
        /// Doses due that day (0 for as-needed medications).
        public let scheduled: Int
        /// Doses taken (scheduled or as needed).
        public let taken: Int
        /// Doses skipped.
        public let skipped: Int
    }

    /// Adherence over a week: taken out of scheduled.
    public struct Week: Identifiable, Hashable, Sendable {
        /// The week's first day.
        public var id: Date { start }
        /// The week's first day.
        public let start: Date
        /// Scheduled doses that week (only doses already due count).
        public let scheduled: Int
        /// Of them, taken.
        public let taken: Int
        /// Taken out of scheduled, 0...1 (nil when nothing was due).
        public var adherence: Double? { scheduled == 0 ? nil : Double(taken) / Double(scheduled) }
    }

    /// Every medication's count per day, days in order, medications by name within a day.
    public let days: [DayCount]
    /// The span the history covers: the first day's start to the end of the last day.
    public let span: ClosedRange<Date>
    /// Adherence per week (weeks of seven days counted back from the last day), oldest first.
    public let weeks: [Week]

    /// The history of the `dayCount` days that end with the day containing `now`.
    public init(
        endingAt now: Date, dayCount: Int, timeZone: TimeZone, medications: [TodayPlan.Medication],
        logged: [LoggedDose]
    ) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let today = calendar.startOfDay(for: now)
        // Each day's logs: scheduled ones by their scheduled date's day, as-needed ones by when they were taken.
        var byDay: [Date: [LoggedDose]] = [:]
        for log in logged {
            byDay[calendar.startOfDay(for: log.scheduledDate ?? log.date), default: []].append(log)
        }
        var days: [DayCount] = []
        var weeks: [Week] = []
        var weekScheduled = 0
        var weekTaken = 0
        var weekStart: Date?
        for offset in stride(from: dayCount - 1, through: 0, by: -1) {
            guard let day = calendar.date(byAdding: .day, value: -offset, to: today) else { continue }
            let plan = TodayPlan(
                day: day, now: now, timeZone: timeZone, medications: medications, logged: byDay[day] ?? [])
            var perMedication: [String: (name: String, scheduled: Int, taken: Int, skipped: Int)] = [:]
            for dose in plan.doses {
                var entry = perMedication[dose.medicationID] ?? (dose.name, 0, 0, 0)
                if dose.state != .upcoming && dose.scheduledDate <= now { entry.scheduled += 1 }
                if case .taken = dose.state { entry.taken += 1 }
                if case .skipped = dose.state { entry.skipped += 1 }
                perMedication[dose.medicationID] = entry
            }
            for item in plan.asNeeded where !item.taken.isEmpty {
                perMedication[item.medicationID] = (item.name, 0, item.taken.count, 0)
            }
            for (id, entry) in perMedication.sorted(by: { $0.value.name < $1.value.name }) {
                days.append(
                    DayCount(
                        day: day, medicationID: id, name: entry.name, scheduled: entry.scheduled, taken: entry.taken,
                        skipped: entry.skipped))
                if entry.scheduled > 0 {
                    weekScheduled += entry.scheduled
                    weekTaken += min(entry.taken, entry.scheduled)
                }
            }
            if weekStart == nil { weekStart = day }
            if offset % 7 == 0, let start = weekStart {
                weeks.append(Week(start: start, scheduled: weekScheduled, taken: weekTaken))
                weekStart = nil
                weekScheduled = 0
                weekTaken = 0
            }
        }
        self.days = days
        self.weeks = weeks
        let first = calendar.date(byAdding: .day, value: -max(dayCount - 1, 0), to: today) ?? today
        span = first...(calendar.date(byAdding: .day, value: 1, to: today) ?? today)
    }
}
