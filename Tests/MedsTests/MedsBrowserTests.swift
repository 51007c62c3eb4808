import Foundation
import SwiftUIWebDriver
import Testing

/// Where tests leave files for people to look at (gitignored).
let artifactsDirectory: URL = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let dir = root.appendingPathComponent(".test-artifacts")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)  // exists already: fine
    return dir
}()

/// Meds in headless Chromium, as a person uses it: add a medication found by searching the catalog, take a dose,
/// see it in a second window, undo it there, refuse a bad entry with a message, and find everything again after
/// the app restarts. Screenshots go to the test artifacts.
@Suite(.serialized, .enabled(if: BrowserEnvironment.shouldRun), .timeLimit(.minutes(3)))
struct MedsBrowserTests {
    @Test func addAMedicationTakeADoseAndUndoItInAnotherWindow() async throws {
        let server = try ExampleServer("Meds")
        try await server.start()
        defer { server.stop() }
        let driver = try await ChromeDriver()
        defer { driver.stop() }
        let browser = try await driver.session()
        try await browser.open(server.signInURL)
        try await waitUntil("the socket") { try await browser.connected() }
        let pageHas = { @Sendable (text: String) async throws -> Bool in
            try await browser.run("return document.body.textContent.indexOf(arguments[0])>=0", [text]) as? Bool == true
        }
        let click = { @Sendable (xpath: String) async throws in
            try await browser.click(try await browser.find(xpath: xpath))
        }
        let labelled = { (label: String) in "//*[@aria-label=\"\(label)\"]/descendant-or-self::button" }
        /// Replaces a text field's content, as a person selecting all and typing would.
        let fill = { @Sendable (placeholder: String, text: String) async throws in
            _ = try await browser.run(
                """
                var e=document.querySelector('input[placeholder="'+arguments[0]+'"]');
                e.focus();e.value='';e.dispatchEvent(new Event('input',{bubbles:true}));
                """, [placeholder])
            try await browser.type(try await browser.find(css: "input[placeholder=\"\(placeholder)\"]"), text)
        }
        try await waitUntil("Today, empty") { try await pageHas("Nothing scheduled today") }

        // Add: search as you type, choose, give a nickname and times that are always today.
        try await click("//*[@role='tab'][normalize-space(.)='Add']")
        try await waitUntil("the search field") {
            try await browser.run("return !!document.querySelector('input[placeholder=\"Search medications\"]')")
                as? Bool == true
        }
        try await browser.type(try await browser.find(css: "input[placeholder=\"Search medications\"]"), "acetamin 325")
        try await waitUntil("the catalog's answer") { try await pageHas("Acetaminophen 325 MG Oral Tablet") }
        try await click(labelled("Choose Acetaminophen 325 MG Oral Tablet"))
        try await waitUntil("the details") { try await pageHas("RxNorm 313782") }
        try await fill("Nickname (optional)", "Tylenol")
        try await fill("Times (08:00, 20:00)", "00:00, 23:59")
        try await click("//button[normalize-space(.)='Add Medication']")
        try await waitUntil("two doses on Today") {
            let rows = try await browser.run(
                "return document.querySelectorAll('[aria-label^=\"Mark Tylenol\"]').length")
            return rows as? Int == 2
        }
        try (try await browser.screenshot()).write(to: artifactsDirectory.appendingPathComponent("meds-today.png"))

        // Take the midnight dose.
        try await click(labelled("Mark Tylenol at 00:00 taken"))
        try await waitUntil("the dose taken") { try await pageHas("Taken at") }

        // A second window shows it too, and its chart of doses per day has the dose; undo it in the first window,
        // and the second window's Today and chart follow.
        let first = try await browser.windowHandle()
        let second = try await browser.newWindow()
        try await browser.open(server.url)
        try await waitUntil("the second window") { try await browser.connected() }
        try await waitUntil("the dose taken, in the second window") { try await pageHas("Taken at") }
        let bars = { @Sendable () async throws -> Int in
            try await browser.run("return document.querySelectorAll('rect[aria-roledescription=bar]').length") as? Int
                ?? -1
        }
        try await click("//*[@role='tab'][normalize-space(.)='Charts']")
        try await waitUntil("one bar in the second window's chart") { try await bars() == 1 }
        try (try await browser.screenshot()).write(to: artifactsDirectory.appendingPathComponent("meds-charts.png"))
        try await browser.switchTo(first)
        try await click(labelled("Undo Tylenol at 00:00"))
        try await waitUntil("the dose open again, in the first window") { try await !pageHas("Taken at") }
        try await browser.switchTo(second)
        try await waitUntil("no bar in the second window's chart") { try await bars() == 0 }

        // A symptom, logged against the medication, shows in the timeline.
        try await click("//*[@role='tab'][normalize-space(.)='Symptoms']")
        try await waitUntil("the symptom form") { try await pageHas("How is it?") }
        _ = try await browser.run(
            """
            var s=Array.from(document.querySelectorAll('select')).find(function(e){
              return Array.from(e.options).some(function(o){return o.textContent==='Tylenol';});});
            var o=Array.from(s.options).find(function(o){return o.textContent==='Tylenol';});
            s.value=o.value;s.dispatchEvent(new Event('input',{bubbles:true}));s.dispatchEvent(new Event('change',{bubbles:true}));
            """)
        try await click(labelled("Log Headache: Moderate"))
        try await waitUntil("the symptom in the timeline") { try await pageHas("Headache: moderate (after Tylenol)") }
        try (try await browser.screenshot()).write(to: artifactsDirectory.appendingPathComponent("meds-symptoms.png"))

        // The medication's own window lists it among Tylenol's side effects, and logs it again from there.
        try await click("//*[@role='tab'][normalize-space(.)='Medications']")
        try await waitUntil("the medication list") {
            try await browser.run(
                "return !!document.querySelector('[aria-label=\"Open Tylenol in its own window\"]')") as? Bool == true
        }
        let before = try await browser.windowHandles()
        try await click(labelled("Open Tylenol in its own window"))
        try await waitUntil("the medication's window") { try await browser.windowHandles().count > before.count }
        let opened = try await browser.windowHandles().first { !before.contains($0) }
        try await browser.switchTo(try #require(opened))
        try await waitUntil("the medication window's socket") { try await browser.connected() }
        try await waitUntil("Tylenol's side effects") {
            let listed = try await pageHas("1 time; last: moderate")
            return try await pageHas("Side effects") && listed
        }
        try await click(labelled("Log Headache with Tylenol: Mild"))
        try await waitUntil("the side effect logged again") { try await pageHas("2 times; last: mild") }
        try (try await browser.screenshot()).write(
            to: artifactsDirectory.appendingPathComponent("meds-side-effects.png"))
        try await browser.switchTo(second)
        try await click("//*[@role='tab'][normalize-space(.)='Symptoms']")
        try await waitUntil("both in the timeline") { try await pageHas("Headache: mild (after Tylenol)") }
        try await browser.switchTo(first)

        // Bad input: a profile with no name is refused with a message, and nothing is added.
        try await click("//button[normalize-space(.)='Add Profile']")
        try await waitUntil("the profile form") { try await pageHas("Save Profile") }
        try await click("//button[normalize-space(.)='Save Profile']")
        try await waitUntil("the message") { try await pageHas("A profile needs a name.") }
        try (try await browser.screenshot()).write(to: artifactsDirectory.appendingPathComponent("meds-error.png"))

        // Take it again, restart the app, and find everything.
        try await click(labelled("Mark Tylenol at 00:00 taken"))
        try await waitUntil("the dose taken again") { try await pageHas("Taken at") }
        server.stop()
        try await server.start()
        try await browser.open(server.signInURL)
        try await waitUntil("the socket after the restart") { try await browser.connected() }
        try await waitUntil("the dose, still taken") {
            let taken = try await pageHas("Taken at")
            return try await pageHas("Tylenol") && taken
        }
        #expect(try await browser.run("return document.querySelectorAll('option').length") as? Int == 1)  // only "Me"
    }
}
