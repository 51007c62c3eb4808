import Foundation
import Testing

@testable import Charts

/// The renderer's memo of binned dates works a day out from the day before when the clocks keep their offset; it
/// must give the calendar's own answer on every day, the days the clocks change included.
@Suite struct ComponentMemoTests {
    /// Every five hours over two years, in zones that change at 02:00, at midnight, by half an hour, and one that
    /// skipped a whole day (Samoa, 30 December 2011): the memo's day is the calendar's.
    @Test(arguments: [
        "America/New_York", "Europe/London", "America/Santiago", "Australia/Lord_Howe", "Pacific/Apia", "UTC",
    ])
    func aDayFromTheDayBeforeIsTheCalendarsDay(zone: String) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: zone))
        let memo = ComponentMemo()
        // 2011-06-01 to 2013-06-01 (UTC).
        var moment = Date(timeIntervalSince1970: 1_306_886_400)
        let end = Date(timeIntervalSince1970: 1_370_044_800)
        var checked = 0
        while moment < end {
            let component = PlotComponent(label: "Day", datum: .date(moment), unit: .day, calendar: calendar)
            let expected = try #require(calendar.dateInterval(of: .day, for: moment))
            let found = try #require(memo.dateInterval(component))
            #expect(
                found.0 == expected.start && found.1 == expected.end,
                "\(zone) at \(moment): \(found) against the calendar's \(expected.start)–\(expected.end)")
            moment.addTimeInterval(5 * 3_600)
            checked += 1
        }
        #expect(checked > 3_000)
    }
}
