import Foundation
import MedsKit
import OpenHealthKit
import Testing

/// The charts' numbers: doses per day and medication, and weekly adherence, from the same rules as Today.
@Suite struct HistoryTests {
    typealias T = TodayPlanTests

    @Test func countsPerDayAndAdherencePerWeek() throws {
        let medications = [
            TodayPlan.Medication(id: "a", name: "Aspirin", schedule: try T.everyDay("08:00, 20:00")),
            TodayPlan.Medication(
                id: "b", name: "Ibuprofen", schedule: try MedicationSchedule(frequency: .asNeeded, times: [])),
        ]
        var logged: [LoggedDose] = []
        // 14 days ending Tuesday 2026-03-10 at 12:00: the morning dose taken every day, the evening one on the
        // last three evenings before today, one morning skipped instead; ibuprofen twice on 03-05.
        for day in 1...10 {
            let date = String(format: "2026-03-%02d", day)
            if day == 4 {
                logged.append(T.log("a", .skipped, at: "\(date) 08:10", scheduled: "\(date) 08:00"))
            } else {
                logged.append(T.log("a", .taken, at: "\(date) 08:10", scheduled: "\(date) 08:00"))
            }
            if (7...9).contains(day) {
                logged.append(T.log("a", .taken, at: "\(date) 21:00", scheduled: "\(date) 20:00"))
            }
        }
        logged.append(T.log("b", .taken, at: "2026-03-05 10:00", scheduled: nil))
        logged.append(T.log("b", .taken, at: "2026-03-05 18:00", scheduled: nil))
        let history = History(
            endingAt: T.date("2026-03-10 12:00"), dayCount: 14, timeZone: T.zone, medications: medications,
            logged: logged)

        let aspirin = history.days.filter { $0.medicationID == "a" }
        #expect(aspirin.count == 14)
        #expect(aspirin.first?.day == T.date("2026-02-25 00:00"))
        // Before March nothing was taken: both doses due and missed.
        let first = try #require(aspirin.first)
        #expect((first.scheduled, first.taken, first.skipped) == (2, 0, 0))
        let march4 = try #require(aspirin.first { $0.day == T.date("2026-03-04 00:00") })
        #expect((march4.scheduled, march4.taken, march4.skipped) == (2, 0, 1))
        let march8 = try #require(aspirin.first { $0.day == T.date("2026-03-08 00:00") })  // spring forward: 23 hours
        #expect((march8.scheduled, march8.taken) == (2, 2))
        let today = try #require(aspirin.last)
        #expect((today.scheduled, today.taken) == (1, 1))  // 20:00 is not due yet
        let ibuprofen = history.days.filter { $0.medicationID == "b" }
        #expect(ibuprofen.map(\.taken) == [2])
        #expect(ibuprofen.first?.scheduled == 0)

        // Two weeks: 02-25…03-03 and 03-04…03-10.
        #expect(history.weeks.map(\.start) == [T.date("2026-02-25 00:00"), T.date("2026-03-04 00:00")])
        #expect(history.weeks.map(\.scheduled) == [14, 13])
        #expect(history.weeks.map(\.taken) == [3, 9])  // 03-01..03: mornings; 03-05..10 mornings + 3 evenings
    }

    /// A dose with several logs counts by its latest answer, as on Today; the logs of one medication never count
    /// for another's dose at the same moment; times given out of order count all the same.
    @Test func aDoseWithSeveralLogsCountsByItsLatestAnswer() throws {
        let medications = [
            TodayPlan.Medication(id: "a", name: "Aspirin", schedule: try T.everyDay("20:00, 08:00")),
            TodayPlan.Medication(id: "c", name: "Codeine", schedule: try T.everyDay("08:00")),
        ]
        let logged = [
            // 03-08: snoozed, then taken. 03-09: taken, then changed to skipped. 03-10: skipped, then taken.
            T.log("a", .snoozed, at: "2026-03-08 08:01", scheduled: "2026-03-08 08:00"),
            T.log("a", .taken, at: "2026-03-08 08:20", scheduled: "2026-03-08 08:00"),
            T.log("a", .taken, at: "2026-03-09 08:05", scheduled: "2026-03-09 08:00"),
            T.log("c", .taken, at: "2026-03-09 08:06", scheduled: "2026-03-09 08:00"),
            T.log("a", .skipped, at: "2026-03-09 09:00", scheduled: "2026-03-09 08:00"),
            T.log("a", .skipped, at: "2026-03-10 08:05", scheduled: "2026-03-10 08:00"),
            T.log("a", .taken, at: "2026-03-10 08:30", scheduled: "2026-03-10 08:00"),
            T.log("a", .taken, at: "2026-03-09 20:10", scheduled: "2026-03-09 20:00"),
        ]
        let history = History(
            endingAt: T.date("2026-03-10 12:00"), dayCount: 3, timeZone: T.zone, medications: medications,
            logged: logged)
        let aspirin = history.days.filter { $0.medicationID == "a" }
        #expect(aspirin.map(\.scheduled) == [2, 2, 1])
        #expect(aspirin.map(\.taken) == [1, 1, 1])
        #expect(aspirin.map(\.skipped) == [0, 1, 0])
        #expect(history.days.filter { $0.medicationID == "c" }.map(\.taken) == [0, 1, 0])
    }
}
