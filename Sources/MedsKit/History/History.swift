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
        // Medications by index in the order a day lists them (name, then identifier), days by index in `starts`:
        // the counts sit in one flat array (day × medication), not in dictionaries keyed by strings and dates
        // (hashing those was most of the cost of a year's history).
        let listed = medications.filter { !$0.isArchived }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
        let ids = listed.map(\.id)
        // A medication's index (its first position): a person has tens of medications at most, and identifiers are
        // short strings, so a scan comparing them beats hashing each log's (the last one found is tried first). A
        // longer list is indexed by a dictionary.
        var byID: [String: Int] = [:]
        if ids.count > 32 {
            for (position, id) in ids.enumerated() where byID[id] == nil { byID[id] = position }
        }
        var lastFound = -1
        func medicationIndex(_ id: String) -> Int? {
            guard ids.count <= 32 else { return byID[id] }
            if lastFound >= 0, ids[lastFound] == id { return lastFound }
            guard let found = ids.firstIndex(of: id) else { return nil }
            lastFound = found
            return found
        }
        let width = listed.count
        func dayIndex(_ date: Date) -> Int? {
            var low = 0
            var high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= date { low = middle + 1 } else { high = middle }
            }
            return low == 0 || date >= end ? nil : low - 1
        }
        // Scheduled logs by medication, in the order of their scheduled moments (then of `logged`): a dose's logs
        // are the run of logs with its moment, found by a search without hashing (a year has thousands of doses, and
        // a dictionary lookup each was a quarter of this count). As-needed doses taken, by day.
        var scheduledLogs = [[(moment: Double, position: Int)]](repeating: [], count: width)
        var asNeeded = [Int](repeating: 0, count: starts.count * width)
        for (position, log) in logged.enumerated() {
            guard let medication = medicationIndex(log.medicationID) else { continue }
            if let scheduled = log.scheduledDate {
                scheduledLogs[medication].append((scheduled.timeIntervalSinceReferenceDate, position))
            } else if log.status == .taken, log.date >= first, let day = dayIndex(log.date) {
                asNeeded[day * width + medication] += 1
            }
        }
        // Each schedule expanded once over the whole span (not day by day), its doses counted by day.
        struct Count {
            var listed = false
            var scheduled = 0
            var taken = 0
            var skipped = 0
        }
        var counts = [Count](repeating: Count(), count: starts.count * width)
        for (medication, entry) in listed.enumerated() where medicationIndex(entry.id) == medication {
            guard let schedule = entry.schedule, schedule.hasSchedule else { continue }
            let logs = scheduledLogs[medication].sorted { ($0.moment, $0.position) < ($1.moment, $1.position) }
            for due in schedule.scheduledDoses(from: first, to: end, currentTimeZone: timeZone) {
                guard let day = dayIndex(due.date) else { continue }
                let moment = due.date.timeIntervalSinceReferenceDate
                // The first log at or after the moment (a search: nothing here relies on the doses' order).
                var cursor = 0
                var high = logs.count
                while cursor < high {
                    let middle = (cursor + high) / 2
                    if logs[middle].moment < moment { cursor = middle + 1 } else { high = middle }
                }
                var last = cursor
                while last < logs.count && logs[last].moment == moment { last += 1 }
                let run = LogRun(logged: logged, logs: logs[cursor..<last])
                let (state, _) = TodayPlan.state(of: due.date, logs: run, now: now, leadTime: 0)
                let slot = day * width + medication
                counts[slot].listed = true
                if state != .upcoming && due.date <= now { counts[slot].scheduled += 1 }
                if case .taken = state { counts[slot].taken += 1 }
                if case .skipped = state { counts[slot].skipped += 1 }
            }
        }
        var days: [DayCount] = []
        var weeks: [Week] = []
        var weekScheduled = 0
        var weekTaken = 0
        var weekStart: Date?
        var offset = starts.count - 1
        for (dayNumber, day) in starts.enumerated() {
            for medication in 0..<width {
                let slot = dayNumber * width + medication
                // A medication with doses due that day is counted by its schedule (its as-needed extras are not);
                // one with none, by the as-needed doses taken.
                var count = counts[slot]
                if !count.listed {
                    guard asNeeded[slot] > 0 else { continue }
                    count = Count(listed: true, scheduled: 0, taken: asNeeded[slot], skipped: 0)
                }
                let entry = listed[medication]
                days.append(
                    DayCount(
                        day: day, medicationID: entry.id, name: entry.name, scheduled: count.scheduled,
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

/// One dose's logs in ``History``'s count: their positions in the logged doses, in `logged`'s order.
private struct LogRun: Sequence, IteratorProtocol {
    let logged: [LoggedDose]
    var logs: ArraySlice<(moment: Double, position: Int)>

    mutating func next() -> LoggedDose? {
        guard let first = logs.popFirst() else { return nil }
        return logged[first.position]
    }
}
