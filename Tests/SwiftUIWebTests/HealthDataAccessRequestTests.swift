import OpenHealthKit
import OpenHealthKitUI
import Testing

@testable import SwiftUIWeb

/// What a test view's request reported.
@MainActor final class RequestLog {
    var results: [String] = []
}

/// A view asking for medications and for symptom types, as the talk's sample app does.
struct AccessRequestingView: View {
    let store: HKHealthStore
    let log: RequestLog
    @State private var medicationsTrigger = false
    @State private var symptomsTrigger = false

    var body: some View {
        VStack {
            Button("Share medications") { medicationsTrigger.toggle() }
            Button("Share symptoms") { symptomsTrigger.toggle() }
        }
        .healthDataAccessRequest(
            store: store, objectType: .userAnnotatedMedicationType(), trigger: medicationsTrigger
        ) { result in
            log.results.append((try? result.get()).map { "medications \($0)" } ?? "medications failed")  // failure: recorded as such
        }
        .healthDataAccessRequest(
            store: store, shareTypes: [HKCategoryType(.headache)],
            readTypes: [HKCategoryType(.headache), HKCategoryType(.nausea)],
            trigger: symptomsTrigger
        ) { result in
            log.results.append((try? result.get()).map { "symptoms \($0)" } ?? "symptoms failed")  // failure: recorded as such
        }
    }
}

/// OpenHealthKitUI's `healthDataAccessRequest` with a `HealthAccessPrompt`: the person answers in a sheet of the
/// app's window, and only what they switched on is granted.
@MainActor @Suite struct HealthDataAccessRequestTests {
    @Test func thePersonChoosesInASheetAndOnlyTheirChoiceIsGranted() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hkui-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }  // a test folder: gone is gone
        let url = folder.appendingPathComponent("Health.sqlite")
        let editor = try HKHealthAppEditor(storeURL: url)
        let catalog = MedicationCatalog.bundled
        try await editor.addMedication(catalog.entry(rxcui: "313782")!.concept)
        try await editor.addMedication(catalog.entry(rxcui: "1665229")!.concept)
        let prompt = HealthAccessPrompt()
        let store = try HKHealthStore(storeURL: url, bundleIdentifier: "org.example.ui", authorizationHandler: prompt)
        let log = RequestLog()
        let w = window { AccessRequestingView(store: store, log: log) }

        func waitFor(_ text: String) async throws {
            for _ in 0..<200 where !w.text(text) {
                try await Task.sleep(for: .milliseconds(10))
                _ = w.flush()
            }
            #expect(w.text(text), "no \(text) in \(w.html)")
        }
        func waitForLog(_ count: Int) async throws {
            for _ in 0..<200 where log.results.count < count { try await Task.sleep(for: .milliseconds(10)) }
            _ = w.flush()
        }

        w.click("Share medications")
        try await waitFor("would like to read your medications")
        let boxes = w.tree.all { $0.attr("type") == "checkbox" }
        #expect(boxes.count == 2 && boxes.allSatisfy { $0.attr("checked") == "false" })
        w.input(boxes[0].id, "true")  // the first medication (acetaminophen) only
        w.click("Allow")
        try await waitForLog(1)
        #expect(log.results == ["medications true"])
        #expect(!w.text("would like to read your medications"))
        let shared = try await HKUserAnnotatedMedicationQueryDescriptor().result(for: store)
        #expect(shared.map(\.medication.identifier.identifier) == ["rxnorm:313782"])

        // Asked again, the sheet shows what is allowed now; "Don’t Allow" takes nothing away and adds nothing.
        w.click("Share medications")
        try await waitFor("would like to read your medications")
        #expect(w.tree.all { $0.attr("type") == "checkbox" }.map { $0.attr("checked") } == ["true", "false"])
        w.click("Don’t Allow")
        try await waitForLog(2)
        let after = try await HKUserAnnotatedMedicationQueryDescriptor().result(for: store)
        #expect(after.map(\.medication.identifier.identifier) == ["rxnorm:313782"])

        // Types: sharing headaches allowed, reading left off.
        w.click("Share symptoms")
        try await waitFor("would like to access your health data")
        #expect(w.text("Share Headache") && w.text("Read Nausea"), "\(w.tree.textContent)")
        let typeBoxes = w.tree.all { $0.attr("type") == "checkbox" }
        #expect(typeBoxes.count == 3)
        w.input(typeBoxes[0].id, "true")  // "Share Headache" comes first
        w.click("Allow")
        try await waitForLog(3)
        #expect(log.results == ["medications true", "medications true", "symptoms true"])
        #expect(store.authorizationStatus(for: HKCategoryType(.headache)) == .sharingAuthorized)
    }
}
