import Foundation
import MedsKit
import SwiftUIWebDriver
import Testing

/// The medication plan document in headless Chromium, between two machines (two Meds servers with their own data
/// and documents): a plan made from a profile and saved on one, opened on the other and added to a profile there;
/// a hostile plan file opened there is refused with its reason, and nothing is added.
@Suite(.serialized, .enabled(if: BrowserEnvironment.shouldRun), .timeLimit(.minutes(3)))
struct PlanBrowserTests {
    @MainActor @Test func aPlanSavedOnOneMachineIsAddedToAProfileOnAnother() async throws {
        let home = try ExampleServer("Meds")
        // The first machine's person already takes a medication.
        let homeData = URL(fileURLWithPath: home.dataDirectory).appendingPathComponent("meds")
        let seeded = try MedsModel(dataDirectory: homeData)
        #expect(
            await seeded.addMedication(
                MedsModel.NewMedication(rxcui: MedsModelTests.acetaminophen, nickname: "Tylenol", times: "09:00")))
        try await home.start()
        defer { home.stop() }
        let driver = try await ChromeDriver()
        defer { driver.stop() }
        let browser = try await driver.session()
        let pageHas = { @Sendable (text: String) async throws -> Bool in
            try await browser.run("return document.body.textContent.indexOf(arguments[0])>=0", [text]) as? Bool == true
        }
        let click = { @Sendable (xpath: String) async throws in
            try await browser.click(try await browser.find(xpath: xpath))
        }

        try await browser.open(home.signInURL)
        try await waitUntil("the first machine's window") { try await browser.connected() }
        try await browser.open(home.url + "?g=_documents")
        try await waitUntil("the documents") { try await pageHas("New Document") }
        try await click("//button[normalize-space(.)='New Document']")
        try await waitUntil("the plan window") { try await pageHas("This plan has no medications yet.") }
        try await click("//button[normalize-space(.)='Fill from Me']")
        try await waitUntil("the plan filled") { try await pageHas("Acetaminophen 325 MG Oral Tablet (RxNorm 313782)") }
        try await browser.type(try await browser.find(css: "body"), "\u{E009}s\u{E000}")
        let saved = URL(fileURLWithPath: home.documentsDirectory).appendingPathComponent("Untitled.medsplan")
        try await waitUntil("the plan saved") {
            (try? MedicationPlan(data: Data(contentsOf: saved)).medications.count) == 1
        }
        try (try await browser.screenshot()).write(to: artifactsDirectory.appendingPathComponent("meds-plan.png"))

        // The other machine: the file arrives (as a download would bring it), with a hostile one beside it.
        let away = try ExampleServer("Meds")
        try FileManager.default.createDirectory(atPath: away.documentsDirectory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: saved, to: URL(fileURLWithPath: away.documentsDirectory).appendingPathComponent("Plan.medsplan"))
        let hostile = String(decoding: try Data(contentsOf: saved), as: UTF8.self)
            .replacingOccurrences(of: "313782", with: "99999999")
        try Data(hostile.utf8).write(
            to: URL(fileURLWithPath: away.documentsDirectory).appendingPathComponent("Hostile.medsplan"))
        try await away.start()
        defer { away.stop() }
        try await browser.open(away.signInURL)
        try await waitUntil("the second machine's window") { try await browser.connected() }
        try await waitUntil("an empty Today") { try await pageHas("Nothing scheduled today") }
        try await browser.open(away.url + "?g=_documents")
        try await waitUntil("the documents") { try await pageHas("Hostile") }
        try await click("//button[normalize-space(.)='Hostile']")
        try await waitUntil("the hostile plan refused") {
            try await pageHas(
                "RxNorm code 99999999 (Acetaminophen 325 MG Oral Tablet) is not in the medication catalog")
        }
        try await browser.open(away.url + "?g=_documents")
        try await waitUntil("the documents again") { try await pageHas("Hostile") }
        try await click("//button[normalize-space(.)='Plan']")
        try await waitUntil("the plan window") { try await pageHas("Add to Me") }
        try await click("//button[normalize-space(.)='Add to Me']")
        try await waitUntil("the plan added") { try await pageHas("Added 1 medication to Me.") }
        try await browser.open(away.url)
        try await waitUntil("the second machine's Today") {
            let connected = try await browser.connected()
            let time = try await pageHas("09:00")
            let name = try await pageHas("Tylenol")
            return connected && time && name
        }
        let awayModel = try MedsModel(
            dataDirectory: URL(fileURLWithPath: away.dataDirectory).appendingPathComponent("meds"))
        await awayModel.refresh()
        #expect(awayModel.medications.map(\.rxcui) == [MedsModelTests.acetaminophen])
    }
}
