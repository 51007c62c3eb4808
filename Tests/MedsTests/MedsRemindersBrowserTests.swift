import Foundation
import MedsKit
import SwiftUIWebDriver
import Testing

/// A dose's reminder reaching the browser as a system notification: Meds started with a dose due at the next
/// minute, a browser that allowed its notifications, and the notification arriving at the dose's time with the
/// dose's name. (Headless Chromium draws no notification: the page's `Notification` is wrapped to record each one
/// it is asked to show, and then shows it.) Waits up to a minute and a half for the dose's time.
@Suite(.serialized, .enabled(if: BrowserEnvironment.shouldRun), .timeLimit(.minutes(4)))
struct MedsRemindersBrowserTests {
    /// The next whole minute at least 50 seconds away (the app must start and its window open before it, also on a
    /// loaded machine: a reminder is scheduled by the window, and one whose time has passed is not sent), as "HH:mm" in this machine's time zone (the app's too). Just
    /// before midnight that minute is tomorrow's, not on Today: then it waits for the day to turn first.
    static func nextMinute() async throws -> (text: String, date: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let date = calendar.nextDate(
            after: Date().addingTimeInterval(50), matching: DateComponents(second: 0), matchingPolicy: .nextTime)!
        if !calendar.isDate(date, inSameDayAs: Date()) {
            try await Task.sleep(for: .seconds(date.timeIntervalSinceNow + 2))
            return try await nextMinute()
        }
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return (String(format: "%02d:%02d", parts.hour!, parts.minute!), date)
    }

    @MainActor static func seed(_ folder: URL, at time: String) async throws {
        let model = try MedsModel(dataDirectory: folder)
        let form = MedsModel.NewMedication(rxcui: "313782", nickname: "Tylenol", times: time)
        #expect(await model.addMedication(form), "\(String(describing: model.message))")
    }

    @Test func aDoseReminderArrivesAsABrowserNotification() async throws {
        let (time, due) = try await Self.nextMinute()
        let server = try ExampleServer("Meds")
        try await Self.seed(URL(fileURLWithPath: server.dataDirectory).appendingPathComponent("meds"), at: time)
        try await server.start()
        defer { server.stop() }
        let driver = try await ChromeDriver()
        defer { driver.stop() }
        let browser = try await driver.session()
        let origin = String(server.url.dropLast())
        _ = try await browser.command(
            "POST", "goog/cdp/execute",
            ["cmd": "Page.addScriptToEvaluateOnNewDocument", "params": ["source": Self.recorder]])
        _ = try await browser.command(
            "POST", "goog/cdp/execute",
            ["cmd": "Browser.grantPermissions", "params": ["origin": origin, "permissions": ["notifications"]]])
        try await browser.open(server.signInURL)
        try await waitUntil("the socket") { try await browser.connected() }
        try await waitUntil("Today's dose") {
            try await browser.run("return document.querySelectorAll('[aria-label^=\"Mark Tylenol\"]').length") as? Int
                == 1
        }
        let wait = max(10, due.timeIntervalSinceNow + 20)
        try await waitUntil("the reminder at \(time)", timeout: wait) {
            let notes = try await browser.run("return JSON.stringify(window.__notes||[])") as? String ?? ""
            return notes.contains("Tylenol: time for your dose") && notes.contains("due at")
        }
        // It came at the dose's time, not before.
        #expect(Date() >= due.addingTimeInterval(-1))
        try (try await browser.screenshot()).write(
            to: artifactsDirectory.appendingPathComponent("meds-reminder-due.png"))
        await browser.quit()
    }

    /// Records every notification the page shows in `window.__notes`, then shows it.
    static let recorder = """
        (function(){var Real=window.Notification;if(!Real)return;window.__notes=[];
          var N=function(t,o){window.__notes.push([t,(o&&o.body)||'',(o&&o.tag)||'']);return new Real(t,o)};
          Object.defineProperty(N,'permission',{get:function(){return Real.permission}});
          N.requestPermission=function(){return Real.requestPermission()};
          window.Notification=N;})();
        """
}
