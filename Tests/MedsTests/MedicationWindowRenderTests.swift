import Foundation
import MedsUI
import OpenHealthKit
import SwiftUIWeb
import Testing

@testable import MedsKit

/// The model and medication ``RenderedMedicationApp``'s window shows.
@MainActor enum RenderedMedication {
    static var model: MedsModel!
    static var medicationID: String?
}

/// Meds' medication window, as the app has it.
struct RenderedMedicationApp: App {
    var body: some Scene {
        WindowGroup("Medication") {
            MedicationWindow(medicationID: RenderedMedication.medicationID).environment(RenderedMedication.model)
        }
    }
}

/// A medication's window, rendered as the server sends it.
@MainActor @Suite(.serialized) struct MedicationWindowRenderTests {
    /// Ciprofloxacin injection's window lists the HealthKit sample's side effects for its RxNorm code, each with the
    /// emoji scale, before any is logged; a symptom logged in the window moves to the front with its count.
    @Test func theWindowListsTheSamplesSideEffects() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let model = try MedsModel(dataDirectory: folder, now: { clock.now })
        #expect(await model.addMedication(MedsModel.NewMedication(rxcui: "1665229", nickname: "Cipro")))
        RenderedMedication.model = model
        RenderedMedication.medicationID = try #require(model.medications.first).id
        let host = AppHost(app: RenderedMedicationApp(), storageDirectory: folder.appendingPathComponent("state").path)
        let window = host.newScene()
        let page = { () async throws -> String in
            // The side effects are read in a task: let it run, then take the page the window holds.
            for _ in 0..<500 {
                window.flush()
                let html = window.document()
                if html.contains("Known side effect") { return html }
                try await Task.sleep(for: .milliseconds(10))
            }
            return window.document()
        }
        var html = try await page()
        for name in ["Headache", "Diarrhea", "Nausea", "Generalized body ache"] {
            let listed = html.contains("• \(name)")
            let scale = html.contains("aria-label=\"Log \(name) with Cipro: Mild\"")
            #expect(listed, "\(name) is not listed")
            #expect(scale, "\(name) has no scale")
        }
        #expect(html.components(separatedBy: "Known side effect; not logged").count - 1 == 4)

        #expect(await model.logSymptom(.nausea, severity: .moderate, medicationID: RenderedMedication.medicationID))
        for _ in 0..<500 where !html.contains("Known side effect; 1 time; last: moderate") {
            try await Task.sleep(for: .milliseconds(10))
            html = try await page()
        }
        let logged = html.contains("Known side effect; 1 time; last: moderate")
        #expect(logged)
        #expect(html.components(separatedBy: "Known side effect; not logged").count - 1 == 3)
        let nausea = try #require(html.range(of: "Nausea"))
        let headache = try #require(html.range(of: "Headache"))
        #expect(nausea.lowerBound < headache.lowerBound)  // the logged one first
    }

    /// A liquid's window shows its dose in the unit Settings chose (stored in millilitres), and a scheduled dose of
    /// it is logged in millilitres.
    @Test func aLiquidsDoseIsShownInTheChosenUnit() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let model = try MedsModel(dataDirectory: folder, now: { clock.now })
        let amoxicillin = "239191"  // amoxicillin 50 MG/ML Oral Suspension: a liquid
        #expect(
            await model.addMedication(
                MedsModel.NewMedication(rxcui: amoxicillin, nickname: "Amoxil", times: "08:00", quantity: 5)))
        RenderedMedication.model = model
        RenderedMedication.medicationID = try #require(model.medications.first).id
        let host = AppHost(app: RenderedMedicationApp(), storageDirectory: folder.appendingPathComponent("state").path)
        let window = host.newScene()
        window.flush()
        #expect(window.document().contains("Every day at 08:00 (5 mL)"))

        var preferences = model.preferences
        preferences.volumeUnit = .teaspoons
        #expect(await model.setPreferences(preferences))
        window.flush()
        #expect(window.document().contains("Every day at 08:00 (1 tsp)"))
        #expect(model.today.doses.first?.form == "liquid")

        // The dose taken is logged in millilitres, whatever unit is shown.
        await model.answer(try #require(model.today.doses.first), .taken)
        let events = try await HKSampleQueryDescriptor(
            predicates: [.medicationDoseEvent()], sortDescriptors: []
        ).result(for: try model.health().store)
        #expect(events.map(\.unit) == [.milliliter()])
        #expect(events.map(\.scheduledDoseQuantity) == [5])
    }
}
