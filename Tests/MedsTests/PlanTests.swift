import Foundation
import MedsKit
import OpenHealthKit
import Testing

/// The medication plan file: written from one machine's profile, read and imported on another, and hostile or
/// broken files refused by name with nothing imported.
@MainActor @Suite struct PlanTests {
    @Test func aPlanMovesToAnotherMachine() async throws {
        let home = temporaryFolder()
        let away = temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: home)  // cleanup only
            try? FileManager.default.removeItem(at: away)  // cleanup only
        }
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let first = try MedsModel(dataDirectory: home, now: { clock.now })
        #expect(
            await first.addMedication(
                MedsModel.NewMedication(
                    rxcui: MedsModelTests.acetaminophen, nickname: "Tylenol", weekdays: [2, 4], times: "08:00, 20:00")))
        #expect(await first.addMedication(MedsModel.NewMedication(rxcui: "310965", weekdays: nil)))
        let data = try first.currentPlan().data()

        let second = try MedsModel(dataDirectory: away, now: { clock.now })
        let plan = try MedicationPlan(data: data)
        #expect(plan.title == "Me's medications" && plan.medications.count == 2)
        #expect(await second.importPlan(plan) == 2)
        await second.refresh()
        #expect(Set(second.medications.map(\.name)) == Set(first.medications.map(\.name)))
        #expect(
            second.medications.map { "\($0.rxcui ?? "") \($0.scheduleSummary)" }.sorted()
                == first.medications.map { "\($0.rxcui ?? "") \($0.scheduleSummary)" }.sorted())
        // Importing again adds nothing.
        #expect(await second.importPlan(plan) == 0)
    }

    @Test func brokenAndHostilePlansAreRefusedByName() throws {
        let schedule = try MedicationSchedule(frequency: .weekdays([2]), times: [try .init(hour: 8)])
        let good = MedicationPlan(
            title: "Plan",
            medications: [.init(rxcui: MedsModelTests.acetaminophen, name: "A", nickname: nil, schedule: schedule)])
        let text = String(decoding: try good.data(), as: UTF8.self)
        func refused(_ data: Data, _ named: String) {
            do {
                _ = try MedicationPlan(data: data)
                Issue.record("accepted a plan that should name \(named)")
            } catch let error as MedsError {
                #expect(error.message.contains(named), "\(error.message)")
            } catch {
                Issue.record("\(error)")
            }
        }
        func edited(_ from: String, _ to: String) -> Data {
            let changed = text.replacingOccurrences(of: from, with: to)
            #expect(changed != text, "the edit \(from) did not apply")
            return Data(changed.utf8)
        }
        refused(Data("not json".utf8), "not a readable medication plan")
        refused(Data("{}".utf8), "format is missing")
        refused(edited(MedicationPlan.formatName, "com.example.other"), "com.example.other, not a medication plan")
        refused(edited("\"version\" : 1", "\"version\" : 2"), "version 2")
        refused(edited(MedsModelTests.acetaminophen, "999999999"), "999999999")
        refused(edited("\"hour\" : 8", "\"hour\" : 25"), "hour 25")
        var twice = good
        twice.medications.append(good.medications[0])
        refused(try twice.data(), "in the plan twice")
        var many = good
        many.medications = Array(repeating: good.medications[0], count: 201)
        refused(try many.data(), "at most 200")
        refused(Data(count: MedicationPlan.maximumSize + 1), "at most 1 MiB")
        #expect(try MedicationPlan(data: good.data()) == good)
    }
}
