import OpenCoreData

/// When a medication is due: times of day on chosen weekdays, every N days, or as needed.
/// (Apple keeps schedules inside the Health app; OpenHealthKit exposes them to the Health app's
/// editor so reminders and scheduled dose events can be generated.)
public struct MedicationSchedule: Codable, Hashable, Sendable {
    /// A time of day and the quantity due then.
    public struct DoseTime: Codable, Hashable, Sendable, Comparable {
        /// Hour, 0...23.
        public let hour: Int
        /// Minute, 0...59.
        public let minute: Int
        /// The quantity scheduled.
        public let quantity: Double

        /// Creates a time of day; throws `HKError.invalidArgument` naming a bad field.
        public init(hour: Int, minute: Int = 0, quantity: Double = 1) throws {
            guard (0...23).contains(hour) else {
                throw HKError(.errorInvalidArgument, "DoseTime hour \(hour) is not in 0...23")
            }
            guard (0...59).contains(minute) else {
                throw HKError(.errorInvalidArgument, "DoseTime minute \(minute) is not in 0...59")
            }
            guard quantity > 0, quantity.isFinite else {
                throw HKError(.errorInvalidArgument, "DoseTime quantity \(quantity) must be positive")
            }
            self.hour = hour
            self.minute = minute
            self.quantity = quantity
        }

        /// Orders by time of day.
        public static func < (a: DoseTime, b: DoseTime) -> Bool { (a.hour, a.minute) < (b.hour, b.minute) }

        /// Decodes a time, checked as ``init(hour:minute:quantity:)`` checks it: a file or a peer cannot
        /// hand over an hour of 25 or a negative quantity.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            do {
                try self.init(
                    hour: container.decode(Int.self, forKey: .hour),
                    minute: container.decode(Int.self, forKey: .minute),
                    quantity: container.decode(Double.self, forKey: .quantity))
            } catch let error as HKError {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: error.message))
            }
        }
    }

    /// Which days doses are due.
    public enum Frequency: Codable, Hashable, Sendable {
        /// On these weekdays (1 = Sunday ... 7 = Saturday, as `Calendar`).
        case weekdays(Set<Int>)
        /// Every `interval` days, counted from the day `start` (year, month, day).
        case everyNDays(interval: Int, startYear: Int, startMonth: Int, startDay: Int)
        /// No schedule: taken as needed.
        case asNeeded
    }

    /// Which days.
    public let frequency: Frequency
    /// The times on those days (sorted).
    public let times: [DoseTime]
    /// The time zone the times are in. nil: "floating" times that follow the person's current time
    /// zone (8:00 stays 8:00 local after a flight), as reminders in the Health app do.
    public let timeZoneIdentifier: String?

    /// Creates a schedule, checking its parts.
    public init(frequency: Frequency, times: [DoseTime], timeZone: TimeZone? = nil) throws {
        switch frequency {
        case .weekdays(let days):
            guard !days.isEmpty, days.allSatisfy({ (1...7).contains($0) }) else {
                throw HKError(.errorInvalidArgument, "weekdays \(days.sorted()) must be a non-empty set of 1...7")
            }
            guard !times.isEmpty else {
                throw HKError(.errorInvalidArgument, "a weekday schedule needs at least one time")
            }
        case .everyNDays(let interval, let y, let m, let d):
            guard interval >= 1 else {
                throw HKError(.errorInvalidArgument, "everyNDays interval \(interval) must be at least 1")
            }
            var c = DateComponents()
            c.year = y
            c.month = m
            c.day = d
            guard c.isValidDate(in: Calendar(identifier: .gregorian)) else {
                throw HKError(.errorInvalidArgument, "everyNDays start \(y)-\(m)-\(d) is not a valid date")
            }
            guard !times.isEmpty else {
                throw HKError(.errorInvalidArgument, "an every-N-days schedule needs at least one time")
            }
        case .asNeeded:
            guard times.isEmpty else { throw HKError(.errorInvalidArgument, "an as-needed schedule has no times") }
        }
        self.frequency = frequency
        self.times = times.sorted()
        self.timeZoneIdentifier = timeZone?.identifier
    }

    /// Decodes a schedule, checked as ``init(frequency:times:timeZone:)`` checks it (weekdays in 1...7, times for
    /// a schedule and none as needed, a time zone this machine knows): stored or received data is no more
    /// trusted than arguments are.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let frequency = try container.decode(Frequency.self, forKey: .frequency)
        let times = try container.decode([DoseTime].self, forKey: .times)
        var zone: TimeZone?
        if let identifier = try container.decodeIfPresent(String.self, forKey: .timeZoneIdentifier) {
            guard let known = TimeZone(identifier: identifier) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .timeZoneIdentifier, in: container, debugDescription: "unknown time zone \(identifier)")
            }
            zone = known
        }
        do {
            try self.init(frequency: frequency, times: times, timeZone: zone)
        } catch let error as HKError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    /// No schedule: taken as needed (built without the checks, which it passes by construction).
    public static let asNeeded = MedicationSchedule(unchecked: .asNeeded, times: [], timeZoneIdentifier: nil)

    private init(unchecked frequency: Frequency, times: [DoseTime], timeZoneIdentifier: String?) {
        self.frequency = frequency
        self.times = times
        self.timeZoneIdentifier = timeZoneIdentifier
    }

    /// Whether reminders are set (anything but as needed).
    public var hasSchedule: Bool { if case .asNeeded = frequency { return false } else { return true } }

    /// One dose due at a moment, on a calendar day.
    public struct ScheduledDose: Hashable, Sendable {
        /// The moment the dose is due.
        public let date: Date
        /// The quantity due.
        public let quantity: Double
        /// The calendar day the dose belongs to (year, month, day in the schedule's zone).
        public let day: DateComponents
    }

    func calendar(in currentZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZoneIdentifier.flatMap(TimeZone.init(identifier:)) ?? currentZone
        return calendar
    }

    func isDue(on day: Date, calendar: Calendar) -> Bool {
        isDue(on: day, weekday: nil, calendar: calendar)
    }

    /// Whether doses are due on the day starting at `day`; `weekday` is that day's (1 = Sunday), when known.
    private func isDue(on day: Date, weekday: Int?, calendar: Calendar) -> Bool {
        switch frequency {
        case .asNeeded: return false
        case .weekdays(let days):
            if days.count == 7 { return true }  // every day
            return days.contains(weekday ?? calendar.component(.weekday, from: day))
        case .everyNDays(let interval, let y, let m, let d):
            guard let start = calendar.date(from: DateComponents(year: y, month: m, day: d)) else { return false }
            let n = calendar.dateComponents([.day], from: start, to: day).day ?? 0
            return n >= 0 && n % interval == 0
        }
    }

    /// The moment a wall-clock time happens on a day. A time skipped by a DST change (02:30 on the
    /// spring-forward day) is due at the moment the clocks jump (03:00); a time that happens twice
    /// (01:30 on the fall-back day) is due the first time.
    static func moment(of time: DoseTime, onDayStarting start: Date, calendar: Calendar) -> Date {
        let day = calendar.dateComponents([.year, .month, .day], from: start)
        let target = time.hour * 60 + time.minute
        /// Minutes since the local midnight of `day` as the wall clock shows them (negative before it,
        /// past 1440 after it).
        func wallMinutes(_ date: Date) -> Int {
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
            let minutes = c.hour! * 60 + c.minute!
            if c.year == day.year && c.month == day.month && c.day == day.day { return minutes }
            return date < start ? minutes - 1440 : minutes + 1440
        }
        // A first guess that ignores offset changes, then minute steps (offsets change by at most
        // an hour or so): back while an earlier instant already shows the time, forward while the
        // clock is still before it.
        var candidate = start.addingTimeInterval(TimeInterval(target * 60))
        while wallMinutes(candidate.addingTimeInterval(-60)) >= target { candidate.addTimeInterval(-60) }
        while wallMinutes(candidate) < target { candidate.addTimeInterval(60) }
        return candidate
    }

    /// The doses due in [start, end), in order. `currentTimeZone` is the person's zone for floating
    /// schedules; pass the zone they were in for past days to follow a trip.
    public func scheduledDoses(from start: Date, to end: Date, currentTimeZone: TimeZone = .current) -> [ScheduledDose]
    {
        guard hasSchedule, start < end else { return [] }
        let calendar = calendar(in: currentTimeZone)
        var day = calendar.startOfDay(for: start)
        var doses: [ScheduledDose] = []
        // A dose is a large value (its day's `DateComponents`): room for the span's doses at once, not grown by copies.
        let days = Int((end.timeIntervalSince(day) / 86_400).rounded(.up)) + 1
        doses.reserveCapacity(min(days, 40_000) * max(times.count, 1))
        // The zone's next change of offset, looked up again only once a day reaches it.
        var change = calendar.timeZone.nextDaylightSavingTimeTransition(after: day)
        // The fields read each day, made once (a set literal in the loop allocated a set per day).
        let clockFields: Set<Calendar.Component> = [.year, .month, .day, .hour, .minute, .weekday]
        // The day's date and weekday when worked out from the day before (a quiet day that started at midnight: the
        // next starts at midnight too, one Gregorian day on), without asking the calendar.
        var known: (year: Int, month: Int, day: Int, weekday: Int)?
        while day < end {
            if let moment = change, moment <= day {
                change = calendar.timeZone.nextDaylightSavingTimeTransition(after: day)
            }
            // No change of offset until after the next midnight: a day that starts at midnight is 86,400 s long, and
            // the next starts that much later (no calendar arithmetic for most days).
            let quiet = change.map { $0 > day.addingTimeInterval(86_400) } ?? true
            let clock: (year: Int, month: Int, day: Int, hour: Int, minute: Int, weekday: Int)
            if let known {
                clock = (known.year, known.month, known.day, 0, 0, known.weekday)
            } else {
                let fields = calendar.dateComponents(clockFields, from: day)
                guard let y = fields.year, let m = fields.month, let d = fields.day, let h = fields.hour,
                    let minute = fields.minute, let weekday = fields.weekday
                else { preconditionFailure("the Gregorian calendar gave no date or time of day for \(day)") }
                clock = (y, m, d, h, minute, weekday)
            }
            let atMidnight = clock.hour == 0 && clock.minute == 0
            let next: Date
            if quiet && atMidnight {
                next = day.addingTimeInterval(86_400)
                // (Foundation's Gregorian calendar is Julian before October 1582: such days ask the calendar.)
                known =
                    clock.year > 1582 ? Self.dayAfter(clock.year, clock.month, clock.day, weekday: clock.weekday) : nil
            } else {
                guard let following = calendar.date(byAdding: .day, value: 1, to: day).map(calendar.startOfDay) else {
                    break
                }
                next = following
                known = nil
            }
            if isDue(on: day, weekday: clock.weekday, calendar: calendar) {
                // A day that starts at midnight and keeps its offset until the next (most days): a time of day is
                // that many minutes after the day's start. Only days the clocks change take the careful path.
                let steady = atMidnight && (change.map { $0 >= next } ?? true)
                let ymd = DateComponents(year: clock.year, month: clock.month, day: clock.day)
                for time in times {
                    let date =
                        steady
                        ? day.addingTimeInterval(TimeInterval(time.hour * 3600 + time.minute * 60))
                        : Self.moment(of: time, onDayStarting: day, calendar: calendar)
                    if date >= start && date < end {
                        doses.append(ScheduledDose(date: date, quantity: time.quantity, day: ymd))
                    }
                }
            }
            day = next
        }
        return doses
    }

    /// The Gregorian day after `year`-`month`-`day` and its weekday (1 = Sunday).
    static func dayAfter(
        _ year: Int, _ month: Int, _ day: Int, weekday: Int
    ) -> (
        year: Int, month: Int, day: Int, weekday: Int
    ) {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let length = month == 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].contains(month) ? 30 : 31
        let weekday = weekday % 7 + 1
        if day < length { return (year, month, day + 1, weekday) }
        return month == 12 ? (year + 1, 1, 1, weekday) : (year, month + 1, 1, weekday)
    }

    /// The scheduled dose a log belongs to: the latest dose due at or before `loggedAt` within
    /// `window` (so a 22:00 dose logged at 00:30 belongs to the day before), else the next one due
    /// within `window` (an early dose). nil when nothing is due near it.
    public func scheduledDose(
        forLogAt loggedAt: Date, window: TimeInterval = 12 * 3600,
        currentTimeZone: TimeZone = .current
    ) -> ScheduledDose? {
        let doses = scheduledDoses(
            from: loggedAt.addingTimeInterval(-window), to: loggedAt.addingTimeInterval(window + 1),
            currentTimeZone: currentTimeZone)
        if let before = doses.last(where: { $0.date <= loggedAt }) { return before }
        return doses.first
    }

    /// The calendar day a scheduled date belongs to in this schedule's zone — the day of the dose,
    /// whenever it was logged.
    public func day(ofScheduledDate date: Date, currentTimeZone: TimeZone = .current) -> DateComponents {
        calendar(in: currentTimeZone).dateComponents([.year, .month, .day], from: date)
    }
}
