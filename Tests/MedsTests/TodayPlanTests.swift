import Foundation
import MedsKit
import OpenHealthKit
import Testing

/// The Today plan's rules, on fixed days in a fixed zone: each state, a dose logged after midnight, a snooze, an
/// undone log, and the nights the clocks change.
@Suite struct TodayPlanTests {
    static let zone = TimeZone(identifier: "America/New_York")!

    static func date(_ text: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!
    }

    static func everyDay(_ times: String) throws -> MedicationSchedule {
        try MedicationSchedule(frequency: .weekdays(Set(1...7)), times: ScheduleText.times(times))
    }

    static func log(
        _ id: String, _ status: HKMedicationDoseEvent.LogStatus, at: String, scheduled: String?
    ) -> LoggedDose {
        LoggedDose(
            uuid: UUID(), medicationID: id, status: status, date: date(at), scheduledDate: scheduled.map(date),
            quantity: status == .taken ? 1 : nil)
    }

    @Test func statesFollowTheClockAndTheLogs() throws {
        let medications = [
            TodayPlan.Medication(id: "a", name: "Aspirin", schedule: try Self.everyDay("08:00, 13:00, 20:00")),
            TodayPlan.Medication(
                id: "b", name: "Ibuprofen", schedule: try MedicationSchedule(frequency: .asNeeded, times: [])),
            TodayPlan.Medication(id: "c", name: "Old", schedule: try Self.everyDay("09:00"), isArchived: true),
        ]
        let logged = [
            Self.log("b", .taken, at: "2026-03-10 10:00", scheduled: nil),
            Self.log("b", .taken, at: "2026-03-09 23:00", scheduled: nil),  // yesterday's
        ]
        let plan = TodayPlan(
            day: Self.date("2026-03-10 12:00"), now: Self.date("2026-03-10 12:30"), timeZone: Self.zone,
            medications: medications, logged: logged)
        #expect(plan.doses.map(\.name) == ["Aspirin", "Aspirin", "Aspirin"])  // the archived one is left out
        #expect(plan.doses.map(\.state) == [.missed, .upcoming, .upcoming])  // 08:00 is 4.5 h ago; 13:00 is 30 min off
        #expect(plan.asNeeded.map(\.name) == ["Ibuprofen"])
        #expect(plan.asNeeded[0].taken.count == 1)
        // With a 30-minute lead, 13:00 is due at 12:30.
        let early = TodayPlan(
            day: Self.date("2026-03-10 12:00"), now: Self.date("2026-03-10 12:30"), timeZone: Self.zone,
            leadTime: 30 * 60, medications: medications, logged: logged)
        #expect(early.doses[1].state == .due)
        #expect(plan.reminders.isEmpty && early.reminders.count == 1)
    }

    @Test func aDoseTakenAfterMidnightBelongsToItsDay() throws {
        let medications = [TodayPlan.Medication(id: "a", name: "Aspirin", schedule: try Self.everyDay("22:00"))]
        let logged = [Self.log("a", .taken, at: "2026-03-11 00:30", scheduled: "2026-03-10 22:00")]
        let tuesday = TodayPlan(
            day: Self.date("2026-03-10 12:00"), now: Self.date("2026-03-11 00:31"), timeZone: Self.zone,
            medications: medications, logged: logged)
        #expect(tuesday.doses.count == 1)
        #expect(tuesday.doses[0].state == .taken(at: Self.date("2026-03-11 00:30")))
        let wednesday = TodayPlan(
            day: Self.date("2026-03-11 00:31"), now: Self.date("2026-03-11 00:31"), timeZone: Self.zone,
            medications: medications, logged: logged)
        #expect(wednesday.doses.map(\.state) == [.upcoming])  // Wednesday's own 22:00 dose is still open
    }

    @Test func snoozeUndoAndAnswersSettleInOrder() throws {
        let medications = [TodayPlan.Medication(id: "a", name: "Aspirin", schedule: try Self.everyDay("08:00"))]
        func state(_ logs: [LoggedDose], at now: String) -> TodayPlan.State {
            TodayPlan(
                day: Self.date(now), now: Self.date(now), timeZone: Self.zone, medications: medications, logged: logs
            ).doses[0].state
        }
        let snooze = Self.log("a", .snoozed, at: "2026-03-10 08:01", scheduled: "2026-03-10 08:00")
        #expect(state([snooze], at: "2026-03-10 08:05") == .snoozed(until: Self.date("2026-03-10 08:11")))
        #expect(state([snooze], at: "2026-03-10 08:12") == .due)  // the snooze is over
        let skipped = Self.log("a", .skipped, at: "2026-03-10 08:15", scheduled: "2026-03-10 08:00")
        #expect(state([snooze, skipped], at: "2026-03-10 08:20") == .skipped(at: Self.date("2026-03-10 08:15")))
        let undone = Self.log("a", .notLogged, at: "2026-03-10 08:15", scheduled: "2026-03-10 08:00")
        #expect(state([snooze, undone], at: "2026-03-10 08:20") == .due)
        #expect(state([undone], at: "2026-03-10 12:00") == .missed)
    }

    @Test func theNightsTheClocksChange() throws {
        // 2026-03-08: New York's clocks jump from 02:00 to 03:00; a 02:30 dose is due once, at 03:00.
        let medications = [TodayPlan.Medication(id: "a", name: "Aspirin", schedule: try Self.everyDay("02:30"))]
        let spring = TodayPlan(
            day: Self.date("2026-03-08 12:00"), now: Self.date("2026-03-08 12:00"), timeZone: Self.zone,
            medications: medications, logged: [])
        #expect(spring.doses.map(\.scheduledDate) == [Self.date("2026-03-08 03:00")])
        // 2026-11-01: 01:30 happens twice; the dose is due once, the first time.
        let fallMedications = [TodayPlan.Medication(id: "a", name: "Aspirin", schedule: try Self.everyDay("01:30"))]
        let fall = TodayPlan(
            day: Self.date("2026-11-01 12:00"), now: Self.date("2026-11-01 12:00"), timeZone: Self.zone,
            medications: fallMedications, logged: [])
        #expect(fall.doses.count == 1)
        #expect(fall.doses[0].scheduledDate == Date(timeIntervalSince1970: 1_793_511_000))  // 05:30 UTC, EDT
    }

    @Test func typedTimesAreParsedOrRejectedByName() throws {
        #expect(try ScheduleText.times("8, 20:30").map { "\($0.hour):\($0.minute)" } == ["8:0", "20:30"])
        for bad in ["", "25:00", "8:5", "noon", "08:00 08:00", "7:60"] {
            #expect(throws: MedsError.self) { try ScheduleText.times(bad) }
        }
        do {
            _ = try ScheduleText.times("08:00, noon")
            Issue.record("noon was accepted")
        } catch let error as MedsError {
            #expect(error.message.contains("\"noon\""))
        }
        #expect(ScheduleText.summary(try Self.everyDay("08:00, 20:00")) == "Every day at 08:00, 20:00")
        let weekdays = try MedicationSchedule(
            frequency: .weekdays([2, 4]), times: ScheduleText.times("09:00", quantity: 2))
        #expect(ScheduleText.summary(weekdays) == "Mon, Wed at 09:00 (×2)")
        #expect(ScheduleText.summary(weekdays, form: "tablet", volumeUnit: .teaspoons) == "Mon, Wed at 09:00 (×2)")
        // A liquid's dose is a volume, stored in millilitres and shown in the person's unit.
        let syrup = try MedicationSchedule(
            frequency: .weekdays(Set(1...7)), times: ScheduleText.times("08:00, 20:00", quantity: 7.5))
        #expect(ScheduleText.summary(syrup, form: "liquid") == "Every day at 08:00 (7.5 mL), 20:00 (7.5 mL)")
        #expect(
            ScheduleText.summary(syrup, form: "liquid", volumeUnit: .teaspoons)
                == "Every day at 08:00 (1.5 tsp), 20:00 (1.5 tsp)")
    }

    /// Doses of a liquid are volumes (millilitres, HealthKit's `mL`), shown in millilitres or teaspoons of 5 mL;
    /// doses of every other form are counts, shown as "×N" when more than one.
    @Test func doseAmountsByForm() throws {
        #expect(DoseAmount.text(1, form: "tablet", volumeUnit: .milliliters) == "")
        #expect(DoseAmount.text(2, form: "capsule", volumeUnit: .teaspoons) == "×2")
        #expect(DoseAmount.text(1, form: "liquid", volumeUnit: .milliliters) == "1 mL")
        #expect(DoseAmount.text(5, form: "liquid", volumeUnit: .teaspoons) == "1 tsp")
        #expect(DoseAmount.text(2.5, form: "liquid", volumeUnit: .teaspoons) == "0.5 tsp")
        #expect(DoseAmount.text(4, form: "liquid", volumeUnit: .teaspoons) == "0.8 tsp")
        #expect(DoseAmount.text(1, form: "liquid", volumeUnit: .teaspoons) == "0.2 tsp")
        #expect(DoseAmount.unit(form: "liquid") == .milliliter() && DoseAmount.unit(form: "injection") == .count())
        #expect(VolumeUnit.teaspoons.toMilliliters(1.5) == 7.5 && VolumeUnit.milliliters.toMilliliters(3) == 3)
        #expect(try VolumeUnit.teaspoons.milliliters(typed: " 1,5 ") == 7.5)
        #expect(try VolumeUnit.milliliters.milliliters(typed: "2.5") == 2.5)
        #expect(throws: MedsError("Give the dose in tsp as a number, such as 5; “a spoon” is not one.")) {
            try VolumeUnit.teaspoons.milliliters(typed: "a spoon")
        }
    }

    /// A schedule form starts from a medication's schedule as it is and gives the same schedule back; every N days
    /// starts on the day given; a liquid's dose goes through the person's unit; a wrong interval is refused by name.
    @Test func aScheduleDraftGivesBackTheScheduleItStartedFrom() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.zone
        let today = Self.date("2026-03-10 08:05")
        let item = { (schedule: MedicationSchedule?, form: String) in
            MedicationItem(
                id: "rxnorm:1", displayText: "x", nickname: nil, form: form, rxcui: "1", isArchived: false,
                schedule: schedule)
        }
        let weekdays = try MedicationSchedule(
            frequency: .weekdays([2, 4]), times: ScheduleText.times("09:00, 20:00", quantity: 2))
        let draft = ScheduleDraft(item(weekdays, "tablet"), volumeUnit: .teaspoons)
        #expect(draft.weekdays == [2, 4] && draft.times == "09:00, 20:00" && draft.count == 2 && !draft.asNeeded)
        let form = try draft.form(rxcui: "1", nickname: "", generalForm: "tablet", volumeUnit: .teaspoons)
        #expect(try form.schedule(timeZone: nil, today: today, calendar: calendar) == weekdays)

        let syrup = try MedicationSchedule(
            frequency: .everyNDays(interval: 3, startYear: 2026, startMonth: 3, startDay: 1),
            times: ScheduleText.times("08:00", quantity: 7.5))
        var liquid = ScheduleDraft(item(syrup, "liquid"), volumeUnit: .teaspoons)
        #expect(liquid.repeatsEveryDays && liquid.everyDays == 3 && liquid.volume == "1.5")
        let again = try liquid.form(rxcui: "1", nickname: "", generalForm: "liquid", volumeUnit: .teaspoons)
            .schedule(timeZone: nil, today: today, calendar: calendar)
        #expect(again.times.map(\.quantity) == [7.5])
        #expect(again.frequency == .everyNDays(interval: 3, startYear: 2026, startMonth: 3, startDay: 10))

        #expect(ScheduleDraft(item(.asNeeded, "tablet"), volumeUnit: .milliliters).asNeeded)
        liquid.everyDays = 1
        #expect(throws: MedsError("A medication can repeat every 2 to 365 days, not every 1.")) {
            try liquid.form(rxcui: "1", nickname: "", generalForm: "liquid", volumeUnit: .teaspoons)
                .schedule(timeZone: nil, today: today, calendar: calendar)
        }
    }
}
