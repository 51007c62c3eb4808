import Foundation
import MedsKit
import OpenHealthKit
import Testing

/// The model holds the doses it has read (``MedsModel/recentDoses``, ``MedsModel/history(days:)``) and reads only
/// what changed since: each test checks what it shows against a fresh read of the store, after writes by this model,
/// by another model on the same folder (as sync or a second process writes), undo (a deletion), and reloads that
/// overlap.
@MainActor @Suite struct DoseLogTests {
    static let zone = TodayPlanTests.zone

    /// A model with ibuprofen as needed, its identifier.
    func model(_ folder: URL, _ clock: TestClock) async throws -> (MedsModel, String) {
        let model = try MedsModel(dataDirectory: folder, now: { clock.now })
        #expect(await model.setPreferences(Preferences(timeZoneIdentifier: Self.zone.identifier)))
        let entry = try #require(model.search("ibuprofen 200").first { $0.generalForm == .tablet })
        if !model.medications.contains(where: { $0.id == entry.concept.identifier.identifier }) {
            #expect(await model.addMedication(MedsModel.NewMedication(rxcui: entry.rxcui, weekdays: nil, times: "")))
        }
        return (model, entry.concept.identifier.identifier)
    }

    /// The recent doses the store holds, read afresh by a new model.
    func fresh(_ folder: URL, _ clock: TestClock) async throws -> [UUID] {
        let model = try MedsModel(dataDirectory: folder, now: { clock.now })
        await model.refresh()
        return model.recentDoses.map(\.uuid).sorted { $0.uuidString < $1.uuidString }
    }

    @Test func theDosesHeldFollowEveryWriterAndUndo() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let (shown, ibuprofen) = try await model(folder, clock)
        let (other, _) = try await model(folder, clock)

        // Days apart, so the year's history has them on their days; the model reads the year once.
        for day in [-200, -30, -1] {
            clock.set(TodayPlanTests.date("2026-03-10 08:05").addingTimeInterval(Double(day) * 86_400))
            await other.logAsNeeded(ibuprofen)
            #expect(other.message == nil)
        }
        clock.set(TodayPlanTests.date("2026-03-10 08:05"))
        await shown.refresh()
        var year = try await shown.history(days: 365)
        #expect(year.days.map(\.taken) == [1, 1, 1])

        // Another writer adds a dose today: the shown model's next reload has it, in today's plan and the year.
        await other.logAsNeeded(ibuprofen)
        await shown.refresh()
        #expect(shown.today.asNeeded.first?.taken.count == 1)
        year = try await shown.history(days: 365)
        #expect(year.days.map(\.taken) == [1, 1, 1, 1])

        // This model's own dose, then undo of the other's (a deletion in the store): gone from what is held too.
        await shown.logAsNeeded(ibuprofen)
        let theirs = try #require(other.recentDoses.last)
        await other.undo(theirs)
        #expect(other.message == nil)
        await shown.refresh()
        #expect(shown.recentDoses.map(\.uuid).contains(theirs.uuid) == false)
        year = try await shown.history(days: 365)
        #expect(year.days.map(\.taken) == [1, 1, 1, 1])
        #expect(shown.today.asNeeded.first?.taken.count == 1)

        // What is held is what the store has.
        #expect(
            shown.recentDoses.map(\.uuid).sorted { $0.uuidString < $1.uuidString }
                == (try await fresh(folder, clock)))
    }

    /// Doses another writer logs between and before the ones held take their places in the log (it is kept in order
    /// as it is updated, not sorted again): the same order as a fresh read.
    @Test func dosesWrittenBetweenTheOnesHeldTakeTheirPlaces() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let (shown, ibuprofen) = try await model(folder, clock)
        let (other, _) = try await model(folder, clock)
        for time in ["08:05", "08:35", "09:05"] {
            clock.set(TodayPlanTests.date("2026-03-10 " + time))
            await shown.logAsNeeded(ibuprofen)
        }
        // One between two held, one before all, and two at the same moment (kept in one order).
        for time in ["08:20", "07:00", "08:50", "08:50"] {
            clock.set(TodayPlanTests.date("2026-03-10 " + time))
            await other.logAsNeeded(ibuprofen)
            #expect(other.message == nil)
        }
        clock.set(TodayPlanTests.date("2026-03-10 09:30"))
        await shown.refresh()
        let reread = try MedsModel(dataDirectory: folder, now: { clock.now })
        await reread.refresh()
        #expect(shown.recentDoses.count == 7)
        #expect(shown.recentDoses == reread.recentDoses)
        #expect(shown.recentDoses.map(\.date) == shown.recentDoses.map(\.date).sorted())

        // More than a few at once (as a sync's page brings them) are merged in, in the same order.
        for minute in stride(from: 0, to: 20 * 7, by: 7) {
            clock.set(TodayPlanTests.date("2026-03-10 06:00").addingTimeInterval(Double(minute) * 60))
            await other.logAsNeeded(ibuprofen)
            #expect(other.message == nil)
        }
        clock.set(TodayPlanTests.date("2026-03-10 09:30"))
        await shown.refresh()
        let rereadAgain = try MedsModel(dataDirectory: folder, now: { clock.now })
        await rereadAgain.refresh()
        #expect(shown.recentDoses.count == 27)
        #expect(shown.recentDoses == rereadAgain.recentDoses)
        #expect(shown.recentDoses.map(\.date) == shown.recentDoses.map(\.date).sorted())
    }

    @Test func overlappingReloadsHoldEachDoseOnce() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let (shown, ibuprofen) = try await model(folder, clock)
        let (other, _) = try await model(folder, clock)
        for round in 0..<5 {
            clock.set(TodayPlanTests.date("2026-03-10 08:05").addingTimeInterval(Double(round) * 60))
            await other.logAsNeeded(ibuprofen)
            // Three reloads at once: each suspends while the store reads, and they finish in any order.
            async let a: Void = shown.refresh()
            async let b = shown.history(days: 365)
            async let c: Void = shown.refresh()
            _ = await (a, try b, c)
        }
        await shown.refresh()
        let held = shown.recentDoses.map(\.uuid)
        #expect(held.count == 5)
        #expect(Set(held).count == held.count)
        #expect(shown.today.asNeeded.first?.taken.count == 5)
        #expect(held.sorted { $0.uuidString < $1.uuidString } == (try await fresh(folder, clock)))
    }
}
