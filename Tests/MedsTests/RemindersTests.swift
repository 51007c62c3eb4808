import Foundation
import MedsKit
import Testing
import UserNotifications

@testable import MedsUI

/// Meds' reminders as notification requests, in step with Today: one per open dose at its reminder time, gone once
/// the dose is answered, and moved by a snooze.
@MainActor @Suite(.serialized) struct RemindersTests {
    /// The pending reminders of one profile (the center is the process's: other tests' may be in it too).
    func pending(_ profile: UUID) async -> [String: Date] {
        var found: [String: Date] = [:]
        for request in await UNUserNotificationCenter.current().pendingNotificationRequests()
        where request.identifier.hasPrefix(Reminders.prefix + profile.uuidString) {
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
        // A reminder's trigger counts from when it was added, in real time: bracket that moment, so a loaded
        // machine cannot make the check fail.
        var updating = Date()
        await Reminders.update(model)
        var updated = Date()
        defer {
            UNUserNotificationCenter.current().removePendingNotificationRequests(
                withIdentifiers: Array((Reminders.scheduled[model.instanceID] ?? [:]).keys))
        }
        let id = { (dose: TodayPlan.Dose) in Reminders.identifier(dose, profile: model.profile.id) }
        let doses = model.today.doses
        #expect(doses.count == 2)
        var reminders = await pending(model.profile.id)
        #expect(Set(reminders.keys) == Set(doses.map { id($0) }))
        // At 07:50, ten minutes before 08:00 (the lead time): 50 minutes from the clock's 07:00.
        let morning = try #require(reminders[id(doses[0])])
        #expect(
            morning >= updating.addingTimeInterval(50 * 60 - 1) && morning <= updated.addingTimeInterval(50 * 60 + 1))
        let content = try #require(
            await UNUserNotificationCenter.current().pendingNotificationRequests().first {
                $0.identifier == id(doses[0])
            }?.content)
        #expect(content.title == "Tylenol: time for your dose" && content.body.contains("due at"))

        // The morning dose taken at 07:55: its reminder goes, the evening's stays.
        clock.set(TodayPlanTests.date("2026-03-10 07:55"))
        await model.answer(doses[0], .taken)
        await Reminders.update(model)
        reminders = await pending(model.profile.id)
        #expect(Set(reminders.keys) == [id(doses[1])])

        // The evening dose snoozed at 19:55: its reminder moves to when the snooze ends, ten minutes on.
        clock.set(TodayPlanTests.date("2026-03-10 19:55"))
        await model.refresh()
        await model.answer(try #require(model.today.doses.last), .snoozed)
        updating = Date()
        await Reminders.update(model)
        updated = Date()
        reminders = await pending(model.profile.id)
        let snoozed = try #require(reminders[id(doses[1])])
        #expect(
            snoozed >= updating.addingTimeInterval(10 * 60 - 1) && snoozed <= updated.addingTimeInterval(10 * 60 + 1))
    }

    @Test func everyProfilesDosesAreReminded() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 07:00"))
        let model = try MedsModel(dataDirectory: folder, now: { clock.now })
        #expect(
            await model.setPreferences(
                Preferences(timeZoneIdentifier: TodayPlanTests.zone.identifier, reminderLeadMinutes: 10)))
        let me = model.profile
        #expect(await model.addMedication(MedsModel.NewMedication(rxcui: MedsModelTests.acetaminophen, times: "08:00")))
        #expect(await model.addProfile(name: "Sam", relationship: .child))
        let sam = model.profile
        #expect(
            await model.addMedication(
                MedsModel.NewMedication(rxcui: MedsModelTests.acetaminophen, nickname: "Sam's syrup", times: "09:00")))
        let samsDose = try #require(model.today.doses.first)
        defer {
            UNUserNotificationCenter.current().removePendingNotificationRequests(
                withIdentifiers: Array((Reminders.scheduled[model.instanceID] ?? [:]).keys))
        }

        // Back to my own profile: Sam's dose is reminded too, named with Sam's profile.
        await model.select(profile: me.id)
        await Reminders.update(model)
        #expect((await pending(me.id)).count == 1)
        let samsReminders = await pending(sam.id)
        #expect(Set(samsReminders.keys) == [Reminders.identifier(samsDose, profile: sam.id)])
        let content = try #require(
            await UNUserNotificationCenter.current().pendingNotificationRequests().first {
                $0.identifier == Reminders.identifier(samsDose, profile: sam.id)
            }?.content)
        #expect(content.title == "Sam's syrup: time for your dose" && content.body.hasSuffix("(Sam)"))

        // Sam's dose given (in Sam's profile): its reminder goes, mine stays.
        await model.select(profile: sam.id)
        await model.answer(samsDose, .taken)
        await model.select(profile: me.id)
        await Reminders.update(model)
        #expect((await pending(sam.id)).isEmpty)
        #expect((await pending(me.id)).count == 1)
    }
}
