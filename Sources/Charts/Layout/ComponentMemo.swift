import Foundation

/// What one render has already worked out about its plotted values: a binned date's calendar interval and a value's
/// text.
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
    private var intervals: [Key: (Date, Date)?] = [:]
    private var texts: [Key: String] = [:]

    /// The start and end of the unit a binned date falls in (nil when the value is not a binned date).
    func dateInterval(_ component: PlotComponent) -> (Date, Date)? {
        guard case .date(let date) = component.datum, let unit = component.unit, let calendar = component.calendar
        else { return nil }
        let key = Key(calendar: index(of: calendar), unit: unit, moment: date.timeIntervalSinceReferenceDate)
        if let known = intervals[key] { return known }
        let interval = component.dateInterval
        intervals[key] = .some(interval)
        return interval
    }

    /// The value as read aloud and shown in a tooltip (``PlotComponent/text``).
    func text(_ component: PlotComponent) -> String {
        guard case .date(let date) = component.datum else { return component.text }
        let key = Key(
            calendar: component.calendar.map(index(of:)) ?? -1, unit: component.unit,
            moment: date.timeIntervalSinceReferenceDate)
        if let known = texts[key] { return known }
        let text = component.text
        texts[key] = text
        return text
    }

    private func index(of calendar: Calendar) -> Int {
        if let index = calendars.firstIndex(of: calendar) { return index }
        calendars.append(calendar)
        return calendars.count - 1
    }
}
