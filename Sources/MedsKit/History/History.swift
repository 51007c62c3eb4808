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
        let first = calendar.date(byAdding: .day, value: -max(dayCount - 1, 0), to: today) ?? today
        let end = calendar.date(byAdding: .day, value: 1, to: today) ?? today.addingTimeInterval(86_400)
        // The days' starts, to find a moment's day by binary search (`Calendar.startOfDay` costs far more, and a
        // year has thousands of doses).
        var starts: [Date] = []
        var cursor = first
        while cursor < end {
            starts.append(cursor)
            guard let next = calendar.date(byAdding: .day, value: 1, to: cursor) else { break }
            cursor = next
        }
        func dayStart(_ date: Date) -> Date {
            var low = 0
            var high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= date { low = middle + 1 } else { high = middle }
            }
            return low == 0 ? calendar.startOfDay(for: date) : starts[low - 1]
        }
        // Scheduled logs by dose, as-needed logs by day (the same keys Today uses).
        var byDose: [TodayPlan.DoseKey: [LoggedDose]] = [:]
        var asNeededByDay: [Date: [String: Int]] = [:]
        for log in logged {
            if let scheduled = log.scheduledDate {
                byDose[TodayPlan.DoseKey(medicationID: log.medicationID, scheduledDate: scheduled), default: []]
                    .append(log)
            } else if log.status == .taken, log.date >= first, log.date < end {
                asNeededByDay[dayStart(log.date), default: [:]][log.medicationID, default: 0] += 1
            }
        }
        // Each schedule expanded once over the whole span (not day by day), its doses grouped by day.
        struct Count {
            var scheduled = 0
            var taken = 0
            var skipped = 0
        }
        var perDay: [Date: [String: Count]] = [:]
        var names: [String: String] = [:]
        for medication in medications where !medication.isArchived {
            names[medication.id] = medication.name
            guard let schedule = medication.schedule, schedule.hasSchedule else { continue }
            for due in schedule.scheduledDoses(from: first, to: end, currentTimeZone: timeZone) {
                let logs = byDose[TodayPlan.DoseKey(medicationID: medication.id, scheduledDate: due.date)] ?? []
                let (state, _) = TodayPlan.state(of: due.date, logs: logs, now: now, leadTime: 0)
                let day = dayStart(due.date)
                var count = perDay[day, default: [:]][medication.id, default: Count()]
                if state != .upcoming && due.date <= now { count.scheduled += 1 }
                if case .taken = state { count.taken += 1 }
                if case .skipped = state { count.skipped += 1 }
                perDay[day, default: [:]][medication.id] = count
            }
        }
        var days: [DayCount] = []
        var weeks: [Week] = []
        var weekScheduled = 0
        var weekTaken = 0
        var weekStart: Date?
        var offset = starts.count - 1
        for day in starts {
            var counts = perDay[day] ?? [:]
            for (id, taken) in asNeededByDay[day] ?? [:] where names[id] != nil && counts[id] == nil {
                counts[id] = Count(scheduled: 0, taken: taken, skipped: 0)
            }
            for (id, count) in counts.sorted(by: { (names[$0.key] ?? "", $0.key) < (names[$1.key] ?? "", $1.key) }) {
                days.append(
                    DayCount(
                        day: day, medicationID: id, name: names[id] ?? id, scheduled: count.scheduled,
                        taken: count.taken, skipped: count.skipped))
                if count.scheduled > 0 {
                    weekScheduled += count.scheduled
                    weekTaken += min(count.taken, count.scheduled)
                }
            }
            if weekStart == nil { weekStart = day }
            if offset % 7 == 0, let start = weekStart {
                weeks.append(Week(start: start, scheduled: weekScheduled, taken: weekTaken))
                weekStart = nil
                weekScheduled = 0
                weekTaken = 0
            }
            offset -= 1
        }
        self.days = days
        self.weeks = weeks
        span = first...end
    }
}
