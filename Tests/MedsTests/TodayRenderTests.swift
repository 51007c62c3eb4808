import Foundation
import MedsKit
import MedsUI
import OpenHealthKit
import SwiftUIWeb
import Testing

/// The model every window of ``RenderedApp`` shows.
@MainActor enum RenderedModel { static var model: MedsModel! }

/// Meds' main window, as the app has it.
struct RenderedApp: App {
    var body: some Scene { WindowGroup("Meds") { MainView().environment(RenderedModel.model) } }
}

/// What a logged dose makes a window do: Today's rows that did not change are not evaluated again.
@MainActor @Suite(.serialized) struct TodayRenderTests {
    @Test func aLoggedDoseEvaluatesOnlyTheRowsItChanged() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let model = try MedsModel(dataDirectory: folder, now: { clock.now })
        #expect(await model.setPreferences(Preferences(timeZoneIdentifier: TodayPlanTests.zone.identifier)))
        let tablets = MedicationCatalog.bundled.entries.filter { $0.generalForm == .tablet }.prefix(4).map(\.rxcui)
        for (index, rxcui) in tablets.prefix(3).enumerated() {
            let form = MedsModel.NewMedication(rxcui: rxcui, nickname: "Med \(index)", times: "08:00, 12:00, 20:00")
            #expect(await model.addMedication(form), "\(String(describing: model.message))")
        }
        var asNeeded = MedsModel.NewMedication(rxcui: tablets[3], nickname: "Relief", times: "")
        asNeeded.weekdays = nil
        #expect(await model.addMedication(asNeeded), "\(String(describing: model.message))")
        #expect(model.today.doses.count == 9)
        RenderedModel.model = model
        let host = AppHost(app: RenderedApp(), storageDirectory: folder.appendingPathComponent("state").path)
        let window = host.newScene()
        let first = window.document()
        #expect(first.contains("Med 2"))
        // An as-needed dose: Today, the reminder banner and scheduler (which read Today) and the one as-needed row
        // run again, in one or two passes (the model assigns Today, then its change count); none of the nine
        // scheduled rows.
        var before = window.bodyEvaluations
        await model.logAsNeeded(try #require(model.today.asNeeded.first).medicationID)
        window.flush()
        #expect(window.bodyEvaluations - before < 9, "\(window.bodyEvaluations - before) bodies ran")
        // (The window may have rendered on its own while the model reloaded: the page is what it holds now.)
        #expect(window.document().contains("1 dose today, last at 08:05"))
        // A scheduled dose taken: its row changes, the other eight do not run again.
        before = window.bodyEvaluations
        await model.answer(model.today.doses[0], .taken)
        window.flush()
        #expect(window.bodyEvaluations - before < 9, "\(window.bodyEvaluations - before) bodies ran")
        #expect(model.today.doses[0].state == .taken(at: clock.now))
        #expect(window.document().contains("Taken at 08:05") && window.document().contains("Med 2"))
    }
}
