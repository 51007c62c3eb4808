import Testing

@testable import OpenHealthKit

/// Builds a UTC instant.
func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int) -> Date {
    var c = Calendar(identifier: .gregorian)
    c.timeZone = TimeZone(identifier: "UTC")!
    return c.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi))!
}

func zone(_ id: String) -> TimeZone { TimeZone(identifier: id)! }

func daily(_ hour: Int, _ minute: Int = 0, zone: TimeZone? = nil) throws -> MedicationSchedule {
    try MedicationSchedule(frequency: .weekdays(Set(1...7)), times: [.init(hour: hour, minute: minute)], timeZone: zone)
}

@Suite struct ScheduleTests {
    /// Most days take the quick path (a time of day is minutes after midnight); every day of a year in zones with
    /// and without daylight saving (a 30-minute change, a +5:45 offset, a change at midnight) gives the moment the
    /// careful minute-by-minute search gives.
    @Test func theQuickPathAgreesWithTheCarefulOneEveryDayOfAYear() throws {
        let zones = [
            "America/New_York", "Europe/Berlin", "Australia/Sydney", "Australia/Lord_Howe", "Asia/Kathmandu",
            "America/Santiago", "America/Havana", "UTC",
        ]
        let times = try [(0, 0), (0, 30), (1, 30), (2, 30), (3, 0), (12, 0), (23, 59)].map {
            try MedicationSchedule.DoseTime(hour: $0.0, minute: $0.1)
        }
        for name in zones {
            let zone = try #require(TimeZone(identifier: name))
            let schedule = try MedicationSchedule(frequency: .weekdays(Set(1...7)), times: times, timeZone: zone)
            let calendar = schedule.calendar(in: zone)
            let start = utc(2026, 1, 1, 12, 0)
            let doses = schedule.scheduledDoses(from: start, to: start.addingTimeInterval(366 * 86_400))
            var careful: [Date] = []
            var day = calendar.startOfDay(for: start)
            while careful.count < doses.count + times.count {
                for time in times {
                    careful.append(MedicationSchedule.moment(of: time, onDayStarting: day, calendar: calendar))
                }
                day = calendar.startOfDay(for: calendar.date(byAdding: .day, value: 1, to: day)!)
            }
            careful = careful.filter { $0 >= start }
            #expect(doses.map(\.date) == Array(careful.prefix(doses.count)), "\(name)")
        }
    }

    /// Quiet days take their date and weekday from the day before (no calendar call); over two years that cross a
    /// leap day, year ends and a day Samoa skipped (30 December 2011), a Monday-Wednesday-Friday schedule's doses
    /// fall on the days and weekdays the calendar gives, each with its day's date.
    @Test func daysWorkedOutFromTheDayBeforeAreTheCalendarsDays() throws {
        let times = try [(0, 0), (8, 30), (23, 59)].map { try MedicationSchedule.DoseTime(hour: $0.0, minute: $0.1) }
        for name in ["Pacific/Apia", "America/Santiago", "Europe/Berlin", "Australia/Lord_Howe", "UTC"] {
            let zone = try #require(TimeZone(identifier: name))
            let schedule = try MedicationSchedule(frequency: .weekdays([2, 4, 6]), times: times, timeZone: zone)
            let calendar = schedule.calendar(in: zone)
            let start = utc(2011, 6, 1, 12, 0)
            let end = utc(2013, 6, 1, 12, 0)
            let doses = schedule.scheduledDoses(from: start, to: end)
            var expected: [(Date, DateComponents)] = []
            var day = calendar.startOfDay(for: start)
            while day < end {
                if [2, 4, 6].contains(calendar.component(.weekday, from: day)) {
                    let ymd = calendar.dateComponents([.year, .month, .day], from: day)
                    for time in times {
                        let moment = MedicationSchedule.moment(of: time, onDayStarting: day, calendar: calendar)
                        if moment >= start && moment < end { expected.append((moment, ymd)) }
                    }
                }
                day = calendar.startOfDay(for: calendar.date(byAdding: .day, value: 1, to: day)!)
            }
            #expect(doses.count == expected.count && doses.count > 900, "\(name)")
            for (dose, (moment, ymd)) in zip(doses, expected) {
                #expect(
                    dose.date == moment && dose.day == ymd, "\(name): \(dose.date) \(dose.day) against \(moment) \(ymd)"
                )
            }
        }
        #expect(MedicationSchedule.dayAfter(2012, 2, 28, weekday: 3) == (2012, 2, 29, 4))
        #expect(MedicationSchedule.dayAfter(2100, 2, 28, weekday: 1) == (2100, 3, 1, 2))
        #expect(MedicationSchedule.dayAfter(2000, 2, 28, weekday: 2) == (2000, 2, 29, 3))
        #expect(MedicationSchedule.dayAfter(2026, 12, 31, weekday: 7) == (2027, 1, 1, 1))
        #expect(MedicationSchedule.dayAfter(2026, 4, 30, weekday: 5) == (2026, 5, 1, 6))
    }

    /// `.asNeeded` is the schedule the checked initializer makes for "as needed".
    @Test func asNeededIsTheCheckedOne() throws {
        #expect(MedicationSchedule.asNeeded == (try MedicationSchedule(frequency: .asNeeded, times: [])))
        #expect(!MedicationSchedule.asNeeded.hasSchedule)
    }

    /// A schedule read from a file, a store or a peer is checked as one built in code: each bad field is refused by
    /// name, and a good one round-trips.
    @Test func decodingChecksWhatTheInitializerChecks() throws {
        let good = try MedicationSchedule(
            frequency: .weekdays([2]), times: [try .init(hour: 8), try .init(hour: 20, minute: 30, quantity: 2)],
            timeZone: TimeZone(identifier: "Europe/Paris"))
        let data = try JSONEncoder().encode(good)
        #expect(try JSONDecoder().decode(MedicationSchedule.self, from: data) == good)
        let text = String(decoding: data, as: UTF8.self)
        let hostile = [
            ("\"hour\":8", "\"hour\":25", "hour 25"), ("\"quantity\":2", "\"quantity\":-2", "quantity -2"),
            ("Europe\\/Paris", "Mars\\/Olympus", "Mars/Olympus"), ("[2]", "[9]", "[9]"),
        ]
        for (from, to, named) in hostile {
            let bad = text.replacingOccurrences(of: from, with: to)
            #expect(bad != text, "the test's edit \(from) did not apply to \(text)")
            do {
                _ = try JSONDecoder().decode(MedicationSchedule.self, from: Data(bad.utf8))
                Issue.record("accepted \(bad)")
            } catch let DecodingError.dataCorrupted(context) {
                #expect(context.debugDescription.contains(named), "\(context.debugDescription)")
            }
        }
    }

    @Test func newYorkSpringForwardKeepsLocalTimeAndMovesSkippedTime() throws {
        let ny = zone("America/New_York")
        let morning = try daily(8).scheduledDoses(
            from: utc(2026, 3, 7, 0, 0), to: utc(2026, 3, 10, 0, 0), currentTimeZone: ny)
        #expect(morning.map(\.date) == [utc(2026, 3, 7, 13, 0), utc(2026, 3, 8, 12, 0), utc(2026, 3, 9, 12, 0)])
        // 02:30 does not exist on March 8: due when the clocks jump, 03:00 EDT = 07:00 UTC.
        let skipped = try daily(2, 30).scheduledDoses(
            from: utc(2026, 3, 8, 5, 0), to: utc(2026, 3, 9, 5, 0), currentTimeZone: ny)
        #expect(skipped.map(\.date) == [utc(2026, 3, 8, 7, 0)])
        #expect(skipped.first?.day == DateComponents(year: 2026, month: 3, day: 8))
    }

    @Test func newYorkFallBackSchedulesRepeatedTimeOnce() throws {
        let ny = zone("America/New_York")
        let doses = try daily(1, 30).scheduledDoses(
            from: utc(2026, 11, 1, 4, 0), to: utc(2026, 11, 2, 4, 0), currentTimeZone: ny)
        #expect(doses.map(\.date) == [utc(2026, 11, 1, 5, 30)])  // the first 01:30, EDT
        let evening = try daily(20).scheduledDoses(
            from: utc(2026, 10, 31, 4, 0), to: utc(2026, 11, 2, 5, 0), currentTimeZone: ny)
        #expect(evening.map(\.date) == [utc(2026, 11, 1, 0, 0), utc(2026, 11, 2, 1, 0)])
    }

    @Test func berlinTransitions() throws {
        let berlin = zone("Europe/Berlin")
        let spring = try daily(2, 30).scheduledDoses(
            from: utc(2026, 3, 28, 23, 0), to: utc(2026, 3, 29, 22, 0), currentTimeZone: berlin)
        #expect(spring.map(\.date) == [utc(2026, 3, 29, 1, 0)])  // 03:00 CEST
        let autumn = try daily(2, 30).scheduledDoses(
            from: utc(2026, 10, 24, 22, 0), to: utc(2026, 10, 25, 23, 0), currentTimeZone: berlin)
        #expect(autumn.map(\.date) == [utc(2026, 10, 25, 0, 30)])  // first 02:30, CEST
        let morning = try daily(8).scheduledDoses(
            from: utc(2026, 10, 24, 0, 0), to: utc(2026, 10, 27, 0, 0), currentTimeZone: berlin)
        #expect(morning.map(\.date) == [utc(2026, 10, 24, 6, 0), utc(2026, 10, 25, 7, 0), utc(2026, 10, 26, 7, 0)])
    }

    @Test func halfHourAndQuarterHourOffsets() throws {
        // Adelaide (+09:30, +10:30 in summer) starts DST on 2026-10-04.
        let adelaide = zone("Australia/Adelaide")
        let doses = try daily(8).scheduledDoses(
            from: utc(2026, 10, 2, 12, 0), to: utc(2026, 10, 5, 12, 0), currentTimeZone: adelaide)
        // 08:00 ACST on Oct 3 = 22:30 UTC Oct 2; 08:00 ACDT on Oct 4 and 5 = 21:30 UTC the day before.
        #expect(doses.map(\.date) == [utc(2026, 10, 2, 22, 30), utc(2026, 10, 3, 21, 30), utc(2026, 10, 4, 21, 30)])
        let kathmandu = try daily(8).scheduledDoses(
            from: utc(2026, 1, 1, 0, 0), to: utc(2026, 1, 2, 0, 0), currentTimeZone: zone("Asia/Kathmandu"))
        #expect(kathmandu.map(\.date) == [utc(2026, 1, 1, 2, 15)])
    }

    @Test func floatingTimesFollowTheTravellerFixedTimesDoNot() throws {
        let floating = try daily(8)
        let inBerlin = floating.scheduledDoses(
            from: utc(2026, 6, 1, 0, 0), to: utc(2026, 6, 2, 0, 0), currentTimeZone: zone("Europe/Berlin"))
        let inNewYork = floating.scheduledDoses(
            from: utc(2026, 6, 1, 0, 0), to: utc(2026, 6, 2, 0, 0), currentTimeZone: zone("America/New_York"))
        #expect(inBerlin.map(\.date) == [utc(2026, 6, 1, 6, 0)])
        #expect(inNewYork.map(\.date) == [utc(2026, 6, 1, 12, 0)])
        let fixed = try daily(8, zone: zone("America/New_York"))
        let fixedFromBerlin = fixed.scheduledDoses(
            from: utc(2026, 6, 1, 0, 0), to: utc(2026, 6, 2, 0, 0), currentTimeZone: zone("Europe/Berlin"))
        #expect(fixedFromBerlin.map(\.date) == [utc(2026, 6, 1, 12, 0)])
    }

    @Test func doseLoggedAfterMidnightBelongsToItsScheduledDay() throws {
        let ny = zone("America/New_York")
        let schedule = try daily(22)
        let logged = utc(2026, 5, 13, 4, 30)  // 00:30 EDT on May 13
        let dose = try #require(schedule.scheduledDose(forLogAt: logged, currentTimeZone: ny))
        #expect(dose.date == utc(2026, 5, 13, 2, 0))  // 22:00 EDT on May 12
        #expect(dose.day == DateComponents(year: 2026, month: 5, day: 12))
        #expect(
            schedule.day(ofScheduledDate: dose.date, currentTimeZone: ny)
                == DateComponents(year: 2026, month: 5, day: 12))
    }

    @Test func weekdaysEveryNDaysAndAsNeeded() throws {
        let utcZone = zone("UTC")
        // 2026-06-01 is a Monday; Monday = 2, Wednesday = 4, Friday = 6.
        let mwf = try MedicationSchedule(
            frequency: .weekdays([2, 4, 6]), times: [.init(hour: 9), .init(hour: 21, quantity: 2)])
        let week = mwf.scheduledDoses(from: utc(2026, 6, 1, 0, 0), to: utc(2026, 6, 8, 0, 0), currentTimeZone: utcZone)
        #expect(week.count == 6)
        #expect(week.map(\.quantity) == [1, 2, 1, 2, 1, 2])
        #expect(week.map { $0.day.day! } == [1, 1, 3, 3, 5, 5])
        let every3 = try MedicationSchedule(
            frequency: .everyNDays(interval: 3, startYear: 2026, startMonth: 6, startDay: 2), times: [.init(hour: 7)])
        let days = every3.scheduledDoses(
            from: utc(2026, 6, 1, 0, 0), to: utc(2026, 6, 12, 0, 0), currentTimeZone: utcZone
        ).map { $0.day.day! }
        #expect(days == [2, 5, 8, 11])
        let asNeeded = try MedicationSchedule(frequency: .asNeeded, times: [])
        #expect(!asNeeded.hasSchedule)
        #expect(asNeeded.scheduledDoses(from: utc(2026, 6, 1, 0, 0), to: utc(2026, 6, 12, 0, 0)).isEmpty)
    }

    @Test func invalidSchedulesAreRejected() {
        #expect(throws: HKError.self) { try MedicationSchedule.DoseTime(hour: 24) }
        #expect(throws: HKError.self) { try MedicationSchedule.DoseTime(hour: 8, minute: 60) }
        #expect(throws: HKError.self) { try MedicationSchedule(frequency: .weekdays([0]), times: [.init(hour: 8)]) }
        #expect(throws: HKError.self) {
            try MedicationSchedule(
                frequency: .everyNDays(interval: 0, startYear: 2026, startMonth: 1, startDay: 1),
                times: [.init(hour: 8)])
        }
        #expect(throws: HKError.self) { try MedicationSchedule(frequency: .asNeeded, times: [.init(hour: 8)]) }
    }

    @Test func scheduleRoundTripsThroughCodable() throws {
        let schedule = try MedicationSchedule(
            frequency: .everyNDays(interval: 2, startYear: 2026, startMonth: 1, startDay: 1),
            times: [.init(hour: 8, minute: 15, quantity: 0.5)], timeZone: zone("Europe/Berlin"))
        let decoded = try JSONDecoder().decode(MedicationSchedule.self, from: JSONEncoder().encode(schedule))
        #expect(decoded == schedule)
    }
}
