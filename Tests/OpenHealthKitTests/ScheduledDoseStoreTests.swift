import Testing
@testable import OpenHealthKit

/// Scheduled dose events written to the store from a schedule across daylight-saving changes in two
/// time zones and a move between them, found again by their local day.
@Suite struct ScheduledDoseStoreTests {
    /// Logs every dose a schedule produces in [start, end) as taken 10 minutes late; returns the local
    /// (day, hour:minute) of each scheduled date read back through the store, by local day.
    func roundTrip(_ schedule: MedicationSchedule, zone: TimeZone, from start: Date, to end: Date) async throws -> [String] {
        let f = try StoreFixture()
        let concept = f.concept("313782")
        try await f.editor.addMedication(concept, schedule: schedule)
        let doses = schedule.scheduledDoses(from: start, to: end, currentTimeZone: zone)
        try f.editor.logDoses(doses.map { .init(medication: concept.identifier, status: .taken, date: $0.date.addingTimeInterval(600),
                                                scheduledDate: $0.date, scheduledQuantity: $0.quantity) })
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var found: [String] = []
        var day = calendar.startOfDay(for: start)
        while day < end {
            let next = calendar.date(byAdding: .day, value: 1, to: day)!
            let events = try await HKSampleQueryDescriptor(
                predicates: [.medicationDoseEvent(HKQuery.predicateForMedicationDoseEvent(scheduledStart: day, end: next))],
                sortDescriptors: [SortDescriptor(\.scheduledDate)]).result(for: f.editor.store)
            for event in events {
                let c = calendar.dateComponents([.day, .hour, .minute], from: event.scheduledDate!)
                #expect(event.scheduleType == .schedule && event.doseQuantity == event.scheduledDoseQuantity)
                found.append("\(c.day!) \(c.hour!):\(c.minute!)")
            }
            day = next
        }
        return found
    }

    @Test(arguments: [
        // zone, spring-forward day (local), fall-back day (local)
        ("America/New_York", 8, 3, 1, 11),
        ("Europe/Berlin", 29, 3, 25, 10),
    ])
    func dailyDosesStayAtLocalTimeAcrossTransitions(zoneID: String, springDay: Int, springMonth: Int, fallDay: Int, fallMonth: Int) async throws {
        let zone = TimeZone(identifier: zoneID)!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let schedule = try MedicationSchedule(frequency: .weekdays(Set(1...7)), times: [.init(hour: 8), .init(hour: 2, minute: 30, quantity: 2)], timeZone: zone)
        for (day, month) in [(springDay, springMonth), (fallDay, fallMonth)] {
            let transitionDay = calendar.date(from: DateComponents(year: 2026, month: month, day: day))!
            let start = calendar.date(byAdding: .day, value: -1, to: transitionDay)!
            let end = calendar.date(byAdding: .day, value: 2, to: transitionDay)!
            let found = try await roundTrip(schedule, zone: zone, from: start, to: end)
            // 02:30 does not exist on the spring day: due when clocks jump to 03:00. On the fall day
            // it happens twice and is due once. 08:00 stays 08:00 local every day.
            func dayNumber(_ offset: Int) -> Int {
                calendar.component(.day, from: calendar.date(byAdding: .day, value: offset, to: start)!)
            }
            let (before, on, after) = (dayNumber(0), dayNumber(1), dayNumber(2))
            #expect(on == day)
            let transition = month == springMonth ? "\(on) 3:0" : "\(on) 2:30"
            #expect(found == ["\(before) 2:30", "\(before) 8:0", transition, "\(on) 8:0", "\(after) 2:30", "\(after) 8:0"])
        }
    }

    @Test func floatingScheduleFollowsAMoveFromBerlinToNewYork() async throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!, newYork = TimeZone(identifier: "America/New_York")!
        let schedule = try MedicationSchedule(frequency: .weekdays(Set(1...7)), times: [.init(hour: 22)]) // floating
        // In Berlin until the flight lands in New York on June 2 (12:00 UTC).
        let inBerlin = schedule.scheduledDoses(from: utc(2026, 6, 1, 0, 0), to: utc(2026, 6, 2, 12, 0), currentTimeZone: berlin)
        let inNewYork = schedule.scheduledDoses(from: utc(2026, 6, 2, 12, 0), to: utc(2026, 6, 4, 0, 0), currentTimeZone: newYork)
        #expect(inBerlin.map(\.date) == [utc(2026, 6, 1, 20, 0)])
        #expect(inNewYork.map(\.date) == [utc(2026, 6, 3, 2, 0)]) // 22:00 EDT on June 2
        #expect(inNewYork.first?.day == DateComponents(year: 2026, month: 6, day: 2))
        // Taken at 00:40 New York time: it belongs to June 2, the day it was scheduled for.
        let f = try StoreFixture()
        let concept = f.concept("313782")
        try await f.editor.addMedication(concept, schedule: schedule)
        let loggedAt = utc(2026, 6, 3, 4, 40)
        let due = try #require(schedule.scheduledDose(forLogAt: loggedAt, currentTimeZone: newYork))
        #expect(due.day == DateComponents(year: 2026, month: 6, day: 2))
        try f.editor.logDose(.init(medication: concept.identifier, status: .taken, date: loggedAt, scheduledDate: due.date, scheduledQuantity: due.quantity))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = newYork
        let june2 = calendar.date(from: DateComponents(year: 2026, month: 6, day: 2))!
        let onJune2 = try await HKSampleQueryDescriptor(
            predicates: [.medicationDoseEvent(HKQuery.predicateForMedicationDoseEvent(scheduledStart: june2, end: calendar.date(byAdding: .day, value: 1, to: june2)))],
            sortDescriptors: []).result(for: f.editor.store)
        #expect(onJune2.map(\.startDate) == [loggedAt])
        #expect(try f.editor.schedule(of: concept.identifier) == schedule)
    }

    /// The Health app's reminders on a stored schedule, around spring-forward in two zones: an
    /// evening dose answered after midnight belongs to the evening before, and the reminders nobody
    /// answered become notInteracted events at their scheduled times, once.
    @Test(arguments: [("America/New_York", 8, 3), ("Europe/Berlin", 29, 3)])
    func remindersAnsweredAfterMidnightAndUnansweredOnes(zoneID: String, springDay: Int, springMonth: Int) async throws {
        let zone = TimeZone(identifier: zoneID)!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func local(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
            calendar.date(from: DateComponents(year: 2026, month: springMonth, day: day, hour: hour, minute: minute))!
        }
        let f = try StoreFixture()
        let concept = f.concept("313782")
        let schedule = try MedicationSchedule(frequency: .weekdays(Set(1...7)), times: [.init(hour: 8), .init(hour: 22, quantity: 2)])
        try await f.editor.addMedication(concept, schedule: schedule)
        let before = springDay - 1
        // The evening dose before the change, taken at 00:30 on the transition day.
        let late = try f.editor.logScheduledDose(concept.identifier, status: .taken, at: local(springDay, 0, 30), currentTimeZone: zone)
        #expect(late.scheduledDate == local(before, 22))
        #expect(late.scheduledDoseQuantity == 2 && late.doseQuantity == 2 && late.scheduleType == .schedule)
        // The morning dose of the transition day, skipped at 09:15 (after the clocks jumped).
        let skipped = try f.editor.logScheduledDose(concept.identifier, status: .skipped, at: local(springDay, 9, 15), currentTimeZone: zone)
        #expect(skipped.scheduledDate == local(springDay, 8))
        #expect(skipped.doseQuantity == 0)
        // Everything else over three local days went unanswered.
        let start = calendar.startOfDay(for: local(before, 12)), end = calendar.startOfDay(for: local(springDay + 2, 12))
        let missed = try f.editor.recordUnansweredReminders(for: concept.identifier, from: start, to: end, currentTimeZone: zone)
        #expect(missed.map(\.scheduledDate) == [local(before, 8), local(springDay, 22), local(springDay + 1, 8), local(springDay + 1, 22)])
        #expect(missed.allSatisfy { $0.logStatus == .notInteracted && $0.doseQuantity == nil && $0.startDate == $0.scheduledDate })
        #expect(try f.editor.recordUnansweredReminders(for: concept.identifier, from: start, to: end, currentTimeZone: zone).isEmpty)
        // An app reading each local day by scheduled date finds exactly that day's two doses.
        let app = try f.app()
        try await app.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)
        for day in [before, springDay, springDay + 1] {
            let dayStart = calendar.startOfDay(for: local(day, 12))
            let events = try await HKSampleQueryDescriptor(
                predicates: [.medicationDoseEvent(HKQuery.predicateForMedicationDoseEvent(
                    scheduledStart: dayStart, end: calendar.date(byAdding: .day, value: 1, to: dayStart)))],
                sortDescriptors: [SortDescriptor(\.scheduledDate)]).result(for: app)
            #expect(events.map { calendar.component(.hour, from: $0.scheduledDate!) } == [8, 22], "local day \(day)")
        }
        // The transition day is 23 hours long: its 08:00 dose comes 23 h after the previous one.
        #expect(local(springDay, 8).timeIntervalSince(local(before, 8)) == 23 * 3600)
    }

    @Test func reminderLoggingNeedsASchedule() async throws {
        let f = try StoreFixture()
        let concept = f.concept("313782")
        try await f.editor.addMedication(concept)
        #expect(throws: HKError.self) { try f.editor.logScheduledDose(concept.identifier, status: .taken, at: Date()) }
        #expect(throws: HKError.self) {
            try f.editor.recordUnansweredReminders(for: concept.identifier, from: Date(), to: Date().addingTimeInterval(86400))
        }
        let weekly = try MedicationSchedule(frequency: .weekdays([2]), times: [.init(hour: 8)], timeZone: TimeZone(identifier: "UTC")!)
        try f.editor.updateMedication(concept.identifier, schedule: .some(weekly))
        // 2026-06-03 is a Wednesday: nothing is due within 12 hours of noon.
        #expect(throws: HKError.self) { try f.editor.logScheduledDose(concept.identifier, status: .taken, at: utc(2026, 6, 3, 12, 0)) }
        #expect(throws: HKError.self) { try f.editor.recordUnansweredReminders(for: concept.identifier, from: utc(2026, 6, 3, 0, 0), to: utc(2026, 6, 2, 0, 0)) }
    }
}
