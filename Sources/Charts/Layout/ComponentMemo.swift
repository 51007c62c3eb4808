import Foundation

/// What one render has already worked out about its plotted values: a binned date's calendar interval, a value's
/// text, and a style value's color.
///
/// A chart of a year of days by medication has ten marks on each day, and the renderer asks each mark's interval
/// several times (to find the scale's domain, to place the bar, to size its band) and its text twice (the stacking
/// key, the accessible label). `Calendar.dateInterval(of:for:)` costs about 5 µs and a date's text goes through a
/// `DateFormatter`, so asking again was most of such a chart's cost. Values are kept by calendar, unit and moment, for
/// one render only (a render's calendars and values do not change under it).
final class ComponentMemo {
    private struct Key: Hashable {
        /// The calendar's index in `calendars`; -1 for none (the text of a date without a unit uses `.current`).
        let calendar: Int
        let unit: Calendar.Component?
        let moment: Double
    }

    /// The calendars seen, few in a chart (usually one): a key holds an index, not a calendar to hash.
    private var calendars: [Calendar] = []
    /// Calendars equal to one in `calendars` but not copies of it, with its index, so that they are found by their
    /// bits next time (``CalendarIdentity``); at most `aliasLimit` of them.
    private var aliases: [(calendar: Calendar, index: Int)] = []
    private static let aliasLimit = 16
    private var intervals: [Key: (Date, Date)?] = [:]
    private var texts: [Key: String] = [:]
    /// The last interval and date text asked for: marks come in order, a day's ten one after another, so most asks
    /// are the one before again and need no hashing.
    private var lastInterval: (key: Key, value: (Date, Date)?)?
    private var lastText: (key: Key, value: String)?
    /// The last day worked out with the calendar, and its zone's next change of offset from that day's end on: the
    /// following day, when no change falls in it, is the next 86,400 seconds (a year's bars are 365 days in order,
    /// and `Calendar.dateInterval(of:for:)` costs about 5 µs).
    private var lastDay: (calendar: Int, start: Date, end: Date, nextChange: Date?)?
    private var styleColors: [String: String] = [:]

    /// The start and end of the unit a binned date falls in (nil when the value is not a binned date).
    func dateInterval(_ component: PlotComponent) -> (Date, Date)? {
        guard case .date(let date) = component.datum, let unit = component.unit, let calendar = component.calendar
        else { return nil }
        let key = Key(calendar: index(of: calendar), unit: unit, moment: date.timeIntervalSinceReferenceDate)
        if let last = lastInterval, last.key == key { return last.value }
        let interval: (Date, Date)?
        if let known = intervals[key] {
            interval = known
        } else if unit == .day, let day = followingDay(of: date, calendar: key.calendar) {
            interval = day
            intervals[key] = .some(interval)
        } else {
            interval = component.dateInterval
            intervals[key] = .some(interval)
            if unit == .day, let (start, end) = interval {
                lastDay = (
                    key.calendar, start, end,
                    calendar.timeZone.nextDaylightSavingTimeTransition(after: end.addingTimeInterval(-1))
                )
            }
        }
        lastInterval = (key, interval)
        return interval
    }

    /// The day after the last one worked out, when `date` falls in it and the clocks keep their offset from that
    /// day's start until after its end (so it is 86,400 seconds long); nil when the calendar must say.
    private func followingDay(of date: Date, calendar: Int) -> (Date, Date)? {
        guard let last = lastDay, last.calendar == calendar else { return nil }
        let start = last.end
        let end = start.addingTimeInterval(86_400)
        guard date >= start, date < end, last.nextChange.map({ $0 > end }) ?? true else { return nil }
        lastDay = (calendar, start, end, last.nextChange)
        return (start, end)
    }

    /// The value as read aloud and shown in a tooltip (``PlotComponent/text``).
    func text(_ component: PlotComponent) -> String {
        guard case .date(let date) = component.datum else { return component.text }
        let key = Key(
            calendar: component.calendar.map(index(of:)) ?? -1, unit: component.unit,
            moment: date.timeIntervalSinceReferenceDate)
        if let last = lastText, last.key == key { return last.value }
        let text: String
        if let known = texts[key] {
            text = known
        } else {
            text = component.text
            texts[key] = text
        }
        lastText = (key, text)
        return text
    }

    /// The color of a `foregroundStyle(by:)` value, made by `make` the first time it is asked for.
    func styleColor(_ value: String, _ make: (String) -> String) -> String {
        if let known = styleColors[value] { return known }
        let color = make(value)
        styleColors[value] = color
        return color
    }

    /// The calendar's index in `calendars`: found by its bits when it is a copy of one seen (almost always), by
    /// `Calendar.==` otherwise.
    private func index(of calendar: Calendar) -> Int {
        for index in calendars.indices where CalendarIdentity.same(calendars[index], calendar) { return index }
        for alias in aliases where CalendarIdentity.same(alias.calendar, calendar) { return alias.index }
        if let index = calendars.firstIndex(of: calendar) {
            if aliases.count < Self.aliasLimit { aliases.append((calendar, index)) }
            return index
        }
        calendars.append(calendar)
        return calendars.count - 1
    }
}
