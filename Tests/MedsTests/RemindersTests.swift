import Foundation
import MedsKit
import Testing
import UserNotifications

@testable import MedsUI

/// Meds' reminders as notification requests, in step with Today: one per open dose at its reminder time, gone once
/// the dose is answered, and moved by a snooze.
@MainActor @Suite(.serialized) struct RemindersTests {
    func pending() async -> [String: Date] {
        var found: [String: Date] = [:]
        for request in await UNUserNotificationCenter.current().pendingNotificationRequests()
        where request.identifier.hasPrefix(Reminders.prefix) {
            found[request.identifier] = (request.trigger as? UNTimeIntervalNotificationTrigger)?.nextTriggerDate()
        }
        return found
    }

    @Test func eachOpenDoseHasAReminderUntilItIsAnswered() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 07:00"))
        let model = try MedsModel(dataDirectory: folder, now: { clock.now })
        #expect(
            await model.setPreferences(
                Preferences(timeZoneIdentifier: TodayPlanTests.zone.identifier, reminderLeadMinutes: 10)))
        #expect(
            await model.addMedication(
                MedsModel.NewMedication(rxcui: MedsModelTests.acetaminophen, nickname: "Tylenol", times: "08:00, 20:00")
            ))
        await Reminders.update(model)
        defer {
            UNUserNotificationCenter.current().removePendingNotificationRequests(
                withIdentifiers: Array(Reminders.scheduled.keys))
        }
        let doses = model.today.doses
        #expect(doses.count == 2)
        var reminders = await pending()
        #expect(Set(reminders.keys) == Set(doses.map { Reminders.prefix + $0.id }))
        // At 07:50, ten minutes before 08:00 (the lead time): 50 minutes from the clock's 07:00.
        let morning = try #require(reminders[Reminders.prefix + doses[0].id])
        #expect(abs(morning.timeIntervalSinceNow - 50 * 60) < 5)
        let content = try #require(
            await UNUserNotificationCenter.current().pendingNotificationRequests().first {
                $0.identifier == Reminders.prefix + doses[0].id
            }?.content)
        #expect(content.title == "Tylenol: time for your dose" && content.body.contains("due at"))

        // The morning dose taken at 07:55: its reminder goes, the evening's stays.
        clock.set(TodayPlanTests.date("2026-03-10 07:55"))
        await model.answer(doses[0], .taken)
        await Reminders.update(model)
        reminders = await pending()
        #expect(Set(reminders.keys) == [Reminders.prefix + doses[1].id])

        // The evening dose snoozed at 19:55: its reminder moves to when the snooze ends, ten minutes on.
        clock.set(TodayPlanTests.date("2026-03-10 19:55"))
        await model.refresh()
        await model.answer(try #require(model.today.doses.last), .snoozed)
        await Reminders.update(model)
        reminders = await pending()
        let snoozed = try #require(reminders[Reminders.prefix + doses[1].id])
        #expect(abs(snoozed.timeIntervalSinceNow - 10 * 60) < 5)
    }
}
