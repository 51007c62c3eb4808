import Foundation

/// When a notification is delivered.
open class UNNotificationTrigger: NSObject, @unchecked Sendable {
    // Unchecked: immutable once made.
    /// Whether it repeats.
    public let repeats: Bool

    init(repeats: Bool) {
        self.repeats = repeats
        super.init()
    }

    /// The next time after `date` it fires (nil: never again).
    func nextDate(after date: Date) -> Date? { nil }
}

/// Fires after a number of seconds (at least 60 when it repeats, as Apple's).
public final class UNTimeIntervalNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    /// The interval.
    public let timeInterval: TimeInterval
    let created = Date()

    /// A trigger firing `timeInterval` seconds from now (and every `timeInterval` seconds, if `repeats`). Traps, as
    /// Apple's does, for an interval of zero or less, or under 60 seconds when it repeats.
    public init(timeInterval: TimeInterval, repeats: Bool) {
        precondition(timeInterval > 0, "time interval must be greater than 0")
        precondition(!repeats || timeInterval >= 60, "time interval must be at least 60 if repeating")
        self.timeInterval = timeInterval
        super.init(repeats: repeats)
    }

    /// When it fires next.
    public func nextTriggerDate() -> Date? { nextDate(after: Date()) }

    override func nextDate(after date: Date) -> Date? {
        let first = created.addingTimeInterval(timeInterval)
        if first > date { return first }
        guard repeats else { return nil }
        let periods = ((date.timeIntervalSince(first)) / timeInterval).rounded(.down) + 1
        return first.addingTimeInterval(periods * timeInterval)
    }
}

/// Fires when the clock matches date components (in the components' calendar and time zone, else the current ones).
public final class UNCalendarNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    /// The components to match.
    public let dateComponents: DateComponents

    /// A trigger for the next moment that matches `dateComponents` (every such moment, if `repeats`).
    public init(dateMatching dateComponents: DateComponents, repeats: Bool) {
        self.dateComponents = dateComponents
        super.init(repeats: repeats)
    }

    /// When it fires next.
    public func nextTriggerDate() -> Date? { nextDate(after: Date()) }

    override func nextDate(after date: Date) -> Date? {
        var calendar = dateComponents.calendar ?? Calendar.current
        if let zone = dateComponents.timeZone { calendar.timeZone = zone }
        var match = dateComponents
        match.calendar = nil
        match.timeZone = nil
        // A full date (year, month, day) that is past never comes again.
        return calendar.nextDate(after: date, matching: match, matchingPolicy: .nextTime)
    }
}
