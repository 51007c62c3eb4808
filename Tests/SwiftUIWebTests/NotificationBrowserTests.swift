import Foundation
import SwiftUIWebDriver
import Testing
import UserNotifications

@testable import SwiftUIWeb

/// A window that asks for notification permission and schedules a notification a second ahead.
struct NotifyingApp: App {
    var body: some Scene { WindowGroup("Notifying") { NotifyingView() } }
}

struct NotifyingView: View {
    @State private var answer = "not asked"

    var body: some View {
        VStack {
            Text("Answer: \(answer)")
            Button("Allow") {
                Task {
                    do {
                        let granted = try await UNUserNotificationCenter.current().requestAuthorization(options: [
                            .alert
                        ])
                        answer = granted ? "granted" : "not granted"
                    } catch {
                        answer = "failed: \(error)"
                    }
                }
            }
            Button("Remind Me") {
                Task {
                    let content = UNMutableNotificationContent()
                    content.title = "Tylenol"
                    content.subtitle = "Time for your dose"
                    content.body = "1 tablet due at 08:00"
                    let request = UNNotificationRequest(
                        identifier: "dose-1", content: content,
                        trigger: UNTimeIntervalNotificationTrigger(timeInterval: 1, repeats: false))
                    do {
                        try await UNUserNotificationCenter.current().add(request)
                        answer = "scheduled"
                    } catch {
                        answer = "failed: \(error)"
                    }
                }
            }
        }
    }
}

/// UserNotifications delivered by the app's browser windows as Web Notifications, in headless Chromium: the page
/// reports its permission, a request asks the browser only after a click, and a scheduled notification reaches the
/// browser's `Notification` when its trigger fires. (A headless browser draws no notification, so the page's
/// `Notification` is wrapped to record each one it is asked to show, and then shows it.)
@Suite(.serialized, .enabled(if: BrowserEnvironment.shouldRun), .timeLimit(.minutes(2)))
struct NotificationBrowserTests {
    /// Records every notification the page shows, and every permission request, in `window.__notes`.
    static let recorder = """
        (function(){var Real=window.Notification;if(!Real)return;window.__notes=[];window.__asked=0;
          var N=function(t,o){window.__notes.push([t,(o&&o.body)||'',(o&&o.tag)||'']);return new Real(t,o)};
          Object.defineProperty(N,'permission',{get:function(){return Real.permission}});
          N.requestPermission=function(){window.__asked++;return Real.requestPermission()};
          window.Notification=N;})();
        """

    func cdp(_ browser: WebSession, _ command: String, _ parameters: [String: Any]) async throws {
        _ = try await browser.command("POST", "goog/cdp/execute", ["cmd": command, "params": parameters])
    }

    @Test func aScheduledNotificationReachesAWindowThatMayShowIt() async throws {
        let server = await TestServer(AppHost(app: NotifyingApp(), storageDirectory: tempDir()))
        try await server.start()
        defer { Task { await server.stop() } }
        let driver = try await ChromeDriver()
        defer { driver.stop() }
        let browser = try await driver.session()
        try await cdp(browser, "Page.addScriptToEvaluateOnNewDocument", ["source": Self.recorder])
        try await cdp(
            browser, "Browser.grantPermissions", ["origin": server.base, "permissions": ["notifications"]])
        try await browser.open(server.base + "/?token=" + server.access.token)
        try await waitUntil("the socket") { try await browser.connected() }
        try await waitUntil("the page's report") {
            await MainActor.run { WebNotificationCenter.shared.permission == .granted }
        }
        let settings = await UNUserNotificationCenter.current().notificationSettings()
        #expect(settings.authorizationStatus == .authorized)
        try await browser.click(try await browser.find(xpath: "//button[normalize-space(.)='Remind Me']"))
        try await waitUntil("the notification", timeout: 30) {  // the main actor is shared with every suite
            let notes = try await browser.run("return JSON.stringify(window.__notes||[])") as? String ?? ""
            return notes.contains("Tylenol") && notes.contains("Time for your dose\\n1 tablet due at 08:00")
                && notes.contains("dose-1")
        }
        // (The center is the process's: other suites' requests may be in it too.)
        #expect(
            await UNUserNotificationCenter.current().deliveredNotifications().contains {
                $0.request.identifier == "dose-1"
            })
        #expect(
            await !UNUserNotificationCenter.current().pendingNotificationRequests().contains {
                $0.identifier == "dose-1"
            })
        // Asking again needs no prompt: the answer is known.
        try await browser.click(try await browser.find(xpath: "//button[normalize-space(.)='Allow']"))
        try await waitUntil("the answer", timeout: 30) { try await browser.text("main").contains("Answer: granted") }
        #expect(try await browser.run("return window.__asked") as? Int == 0)
        await browser.quit()
    }

    @Test func permissionIsAskedOnlyAfterAClick() async throws {
        let server = await TestServer(AppHost(app: NotifyingApp(), storageDirectory: tempDir()))
        try await server.start()
        defer { Task { await server.stop() } }
        let driver = try await ChromeDriver()
        defer { driver.stop() }
        let browser = try await driver.session()
        try await cdp(browser, "Page.addScriptToEvaluateOnNewDocument", ["source": Self.recorder])
        try await cdp(
            browser, "Browser.setPermission",
            ["origin": server.base, "permission": ["name": "notifications"], "setting": "prompt"])
        try await browser.open(server.base + "/?token=" + server.access.token)
        try await waitUntil("the socket") { try await browser.connected() }
        try await waitUntil("the page's report") {
            await MainActor.run { WebNotificationCenter.shared.permission == .notDetermined }
        }
        // Not from a click: refused at once, and the browser is not asked. (A center of this test's own, with this
        // server's windows only: the process's center also has the windows of suites running beside this one,
        // which may have been clicked a moment ago.)
        let own = WebNotificationCenter()
        await own.register(server.host)
        await #expect(throws: (any Error).self) { _ = try await own.requestPermission() }
        #expect(try await browser.run("return window.__asked") as? Int == 0)
        // From a click: the browser is asked, and its answer comes back (headless Chromium answers without a
        // person, so whatever it answers, the request ends).
        try await browser.click(try await browser.find(xpath: "//button[normalize-space(.)='Allow']"))
        try await waitUntil("the browser's answer") {
            let text = try await browser.text("main")
            return text.contains("Answer: granted") || text.contains("Answer: not granted")
        }
        #expect(try await browser.run("return window.__asked") as? Int == 1)
        await browser.quit()
    }
}
