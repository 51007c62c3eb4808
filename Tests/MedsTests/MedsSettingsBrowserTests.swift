import Foundation
import MedsKit
import SwiftUIWebDriver
import Testing

/// Meds' Settings window in headless Chromium: the units a liquid's doses are shown in, chosen there, change what
/// the main window shows, and stay chosen after a restart. (The dose itself is kept in millilitres.)
@Suite(.serialized, .enabled(if: BrowserEnvironment.shouldRun), .timeLimit(.minutes(3)))
struct MedsSettingsBrowserTests {
    @Test func teaspoonsChosenInSettingsShowInTheMainWindow() async throws {
        let server = try ExampleServer("Meds")
        let folder = URL(fileURLWithPath: server.dataDirectory).appendingPathComponent("meds")
        try await Self.seed(folder)
        try await server.start()
        defer { server.stop() }
        let driver = try await ChromeDriver()
        defer { driver.stop() }
        let browser = try await driver.session()
        let pageHas = { @Sendable (text: String) async throws -> Bool in
            try await browser.run("return document.body.textContent.indexOf(arguments[0])>=0", [text]) as? Bool == true
        }
        try await browser.open(server.signInURL)
        try await waitUntil("the socket") { try await browser.connected() }
        try await browser.click(try await browser.find(xpath: "//*[@role='tab'][normalize-space(.)='Medications']"))
        try await waitUntil("the dose in millilitres") { try await pageHas("Every day at 08:00 (7.5 mL)") }

        // Settings, in its own window: choose teaspoons and save.
        let main = try await browser.windowHandle()
        _ = try await browser.newWindow()
        try await browser.open(server.url + "?g=_settings")
        try await waitUntil("the Settings window") { try await pageHas("Liquid doses in") }
        _ = try await browser.run(
            """
            var s=Array.from(document.querySelectorAll('select')).find(function(e){
              return Array.from(e.options).some(function(o){return o.textContent.indexOf('Teaspoons')===0;});});
            var o=Array.from(s.options).find(function(o){return o.textContent.indexOf('Teaspoons')===0;});
            s.value=o.value;s.dispatchEvent(new Event('input',{bubbles:true}));s.dispatchEvent(new Event('change',{bubbles:true}));
            """)
        try await browser.click(try await browser.find(xpath: "//button[normalize-space(.)='Save Settings']"))
        try (try await browser.screenshot()).write(to: artifactsDirectory.appendingPathComponent("meds-settings.png"))

        // The main window follows at once.
        try await browser.switchTo(main)
        try await waitUntil("the dose in teaspoons") { try await pageHas("Every day at 08:00 (1.5 tsp)") }

        // After a restart, teaspoons are still chosen.
        server.stop()
        try await server.start()
        try await browser.open(server.signInURL)
        try await waitUntil("the socket again") { try await browser.connected() }
        try await browser.click(try await browser.find(xpath: "//*[@role='tab'][normalize-space(.)='Medications']"))
        try await waitUntil("teaspoons after the restart") { try await pageHas("Every day at 08:00 (1.5 tsp)") }
    }

    /// A liquid (amoxicillin 50 MG/ML oral suspension) taken as 7.5 mL every morning.
    @MainActor static func seed(_ folder: URL) async throws {
        let model = try MedsModel(dataDirectory: folder)
        let form = MedsModel.NewMedication(rxcui: "239191", nickname: "Amoxil", times: "08:00", quantity: 7.5)
        #expect(await model.addMedication(form), "\(String(describing: model.message))")
    }
}
