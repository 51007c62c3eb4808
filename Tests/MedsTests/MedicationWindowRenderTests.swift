import Foundation
import MedsUI
import OpenHealthKit
import Testing

@testable import MedsKit
@testable import SwiftUIWeb

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

    /// A medication's schedule is changed in its window: the fields start from the schedule as it is (a liquid's
    /// dose in the person's unit), and saving "every 3 days" at 09:00, 1.5 tsp, makes the schedule that.
    @Test func aScheduleIsChangedInTheMedicationsWindow() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let model = try MedsModel(dataDirectory: folder, now: { clock.now })
        #expect(
            await model.setPreferences(
                Preferences(timeZoneIdentifier: TodayPlanTests.zone.identifier, volumeUnit: .teaspoons)))
        #expect(
            await model.addMedication(
                MedsModel.NewMedication(rxcui: "239191", nickname: "Amoxil", times: "08:00", quantity: 5)))
        RenderedMedication.model = model
        RenderedMedication.medicationID = try #require(model.medications.first).id
        let host = AppHost(app: RenderedMedicationApp(), storageDirectory: folder.appendingPathComponent("state").path)
        let window = host.newScene()
        window.flush()
        _ = window.handle(
            event: ClientEvent(t: "click", id: try element(window) { $0.textContent == "Change Schedule" }))
        window.flush()
        let dose = try element(window) { $0.attributes.contains { $0 == ("placeholder", "Dose in tsp") } }
        #expect(window.document().contains("value=\"1\""))
        // A dose that is not a number is refused with a message, and the schedule stays as it was.
        _ = window.handle(event: ClientEvent(t: "input", id: dose, v: "a spoon"))
        _ = window.handle(event: ClientEvent(t: "click", id: try element(window) { $0.textContent == "Save Schedule" }))
        let refusal = "Give the dose in tsp as a number, such as 5; “a spoon” is not one."
        for _ in 0..<500 where model.message != refusal { try await Task.sleep(for: .milliseconds(10)) }
        #expect(model.message == refusal)
        window.flush()
        #expect(window.document().contains("a spoon” is not one."))
        #expect(model.medications.first?.scheduleSummary == "Every day at 08:00 (5 mL)")
        await #expect(!model.setSchedule("rxnorm:1", draft: ScheduleDraft()))
        #expect(model.message == "rxnorm:1 is not one of Me's medications; no schedule was changed.")

        let times = try element(window) { $0.attributes.contains { $0 == ("placeholder", "Times (08:00, 20:00)") } }
        _ = window.handle(event: ClientEvent(t: "input", id: times, v: "09:00"))
        _ = window.handle(event: ClientEvent(t: "input", id: dose, v: "1.5"))
        // The toggle's checkbox: a direct child of the control that holds its label.
        let isCheckbox = { (node: Node) in node.attributes.contains { $0 == ("type", "checkbox") } }
        let toggle = try node(window) {
            $0.textContent.contains("Every few days") && $0.children.contains(where: isCheckbox)
        }
        let everyFew = try #require(toggle.children.first(where: isCheckbox)).id
        _ = window.handle(event: ClientEvent(t: "input", id: everyFew, v: "true"))
        window.flush()
        #expect(window.document().contains("Every 2 days, from today"))
        _ = window.handle(event: ClientEvent(t: "click", id: try element(window) { $0.textContent == "Save Schedule" }))
        // The fields close once the save returned (the model has read the new schedule, and its message is gone).
        for _ in 0..<1000 where !window.document().contains("Change Schedule") {
            try await Task.sleep(for: .milliseconds(10))
            window.flush()
        }
        #expect(window.document().contains("Change Schedule"))
        #expect(model.message == nil, "\(model.message ?? "")")
        let item = try #require(model.medications.first)
        #expect(item.scheduleSummary(in: .teaspoons) == "Every 2 days at 09:00 (1.5 tsp)")
        #expect(item.scheduleSummary == "Every 2 days at 09:00 (7.5 mL)")
        guard case .everyNDays(2, 2026, 3, 10) = item.schedule?.frequency else {
            Issue.record("the schedule is \(String(describing: item.schedule?.frequency)), not every 2 days from today")
            return
        }
    }

    /// The first element of the window's last page that `matches`.
    func node(_ window: SceneInstance, _ matches: (Node) -> Bool) throws -> Node {
        func find(_ node: Node) -> Node? {
            if matches(node) { return node }
            for child in node.children {
                if let found = find(child) { return found }
            }
            return nil
        }
        let tree = try #require(window.lastTree)
        return try #require(find(tree), "no such element")
    }

    /// The id of the first element of the window's last page that `matches`.
    func element(_ window: SceneInstance, _ matches: (Node) -> Bool) throws -> String {
        try node(window, matches).id
    }
}
