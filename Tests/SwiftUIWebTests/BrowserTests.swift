import Foundation
import SwiftUIWebDriver
import Testing

@testable import SwiftUIWeb

extension InBrowser {
    /// End-to-end tests in headless Chromium through WebDriver, against the example apps run as servers.
    @Suite(.serialized, .enabled(if: BrowserEnvironment.shouldRun), .timeLimit(.minutes(2)))
    struct BrowserTests {
        static let bookLink = "//a[contains(@class,'sw-link') and normalize-space(.)='%@']"

        @Test func bookClubSceneStorageSurvivesReloadAndRestart() async throws {
            let server = try ExampleServer("BookClub")
            try await server.start()
            defer { server.stop() }
            let driver = try await ChromeDriver()
            defer { driver.stop() }
            let browser = try await driver.session()

            try await browser.open(server.signInURL)
            try await waitUntil("the socket") { try await browser.connected() }
            #expect(try await browser.url().contains("?w="))
            #expect(try await browser.title() == "Currently Reading")
            #expect(try await browser.text("section.sw-detail") == "")

            try await browser.click(try await browser.find(xpath: String(format: Self.bookLink, "Book #2")))
            try await waitUntil("the detail to show Book #2") {
                try await browser.text("section.sw-detail") == "Book #2"
            }
            let shot = try await browser.screenshot()
            try shot.write(to: artifactsDirectory.appendingPathComponent("bookclub.png"))

            // Reload: the first HTML response already carries the restored selection.
            try await browser.refresh()
            #expect(try await browser.text("section.sw-detail") == "Book #2")
            try await waitUntil("the socket after reload") { try await browser.connected() }

            // A second window is its own scene: nothing selected, and selecting there leaves the first alone.
            let first = try await browser.windowHandle()
            _ = try await browser.newWindow()
            try await browser.open(server.url)
            try await waitUntil("the second window's socket") { try await browser.connected() }
            #expect(try await browser.text("section.sw-detail") == "")
            try await browser.click(try await browser.find(xpath: String(format: Self.bookLink, "Book #3")))
            try await waitUntil("the second window to show Book #3") {
                try await browser.text("section.sw-detail") == "Book #3"
            }
            try await browser.switchTo(first)
            #expect(try await browser.text("section.sw-detail") == "Book #2")

            // Restart the server: the page reconnects by itself to its scene, revived from @SceneStorage.
            // (The seed's books get new UUIDs in every process, so the restored selection matches no book
            // after a restart; the Groceries test checks a restored value across a restart.)
            let sceneURL = try await browser.url()
            server.stop()
            try await waitUntil("the page to notice the drop") { try await !browser.connected() }
            try await server.start()
            try await waitUntil("the page to reconnect", timeout: 20) { try await browser.connected() }
            #expect(try await browser.url() == sceneURL)
            try await waitUntil("the list after the restart") {
                try await browser.text("nav.sw-sidebar").contains("Book #1")
            }
            await browser.quit()
        }

        @Test func groceriesWindowsShareAppStateAndKeepTheirOwn() async throws {
            let server = try ExampleServer("Groceries")
            try await server.start()
            defer { server.stop() }
            let driver = try await ChromeDriver()
            defer { driver.stop() }
            let browser = try await driver.session()

            try await browser.open(server.signInURL)
            try await waitUntil("window A's socket") { try await browser.connected() }
            let a = try await browser.windowHandle()
            let b = try await browser.newWindow()
            try await browser.open(server.url)
            try await waitUntil("window B's socket") { try await browser.connected() }
            #expect(try await browser.title() == "Groceries (3 left)")

            // Per-window @State: a draft typed in A stays in A.
            try await browser.switchTo(a)
            try await browser.type(try await browser.find(css: "input[placeholder='New item']"), "Milk")
            try await waitUntil("A's draft footer") {
                try await browser.run("return document.body.textContent.includes('Draft: Milk')") as? Bool == true
            }
            try await browser.switchTo(b)
            #expect(
                try await browser.run("return document.querySelector(\"input[placeholder='New item']\").value")
                    as? String == "")
            #expect(try await browser.run("return document.body.textContent.includes('Draft: Milk')") as? Bool == false)

            // App-owned data: adding in A shows in B at once, and both titles follow.
            try await browser.switchTo(a)
            try await browser.click(try await browser.find(xpath: "//button[normalize-space(.)='Add to list']"))
            try await waitUntil("A's title") { try await browser.title() == "Groceries (4 left)" }
            try await browser.switchTo(b)
            try await waitUntil("B to show Milk") {
                try await browser.run("return document.querySelector('.sw-form').textContent.includes('Milk')") as? Bool
                    == true
            }
            #expect(try await browser.title() == "Groceries (4 left)")

            // Checking an item off in B updates A.
            try await browser.click(
                try await browser.find(xpath: "//label[contains(., 'Apples')]//input[@type='checkbox']"))
            try await browser.switchTo(a)
            try await waitUntil("A's title after B's change") { try await browser.title() == "Groceries (3 left)" }
            #expect(
                try await browser.run(
                    "return document.evaluate(\"//label[contains(., 'Apples')]//input\", document, null, 9, null).singleNodeValue.checked"
                ) as? Bool == true)

            // A per-window @SceneStorage value changes only this window's title.
            try await browser.type(try await browser.find(css: "input[placeholder='Shopper']"), "Ada")
            try await waitUntil("A's own title") { try await browser.title() == "Ada's groceries (3 left)" }
            try await browser.switchTo(b)
            #expect(try await browser.title() == "Groceries (3 left)")
            let shot = try await browser.screenshot()
            try shot.write(to: artifactsDirectory.appendingPathComponent("groceries.png"))

            // Restart the server: A reconnects and gets its @SceneStorage shopper back (the list starts afresh);
            // B, which saved nothing, reloads into a new window of its own.
            server.stop()
            try await waitUntil("B to notice the drop") { try await !browser.connected() }
            try await server.start()
            try await waitUntil("B to come back", timeout: 20) { try await browser.connected() }
            try await waitUntil("B's title") { try await browser.title() == "Groceries (3 left)" }
            try await browser.switchTo(a)
            try await waitUntil("A to reconnect", timeout: 20) { try await browser.connected() }
            try await waitUntil("A's restored title") { try await browser.title() == "Ada's groceries (3 left)" }
            #expect(
                try await browser.run("return document.querySelector(\"input[placeholder='Shopper']\").value")
                    as? String == "Ada")
            try await browser.refresh()
            #expect(try await browser.title() == "Ada's groceries (3 left)")
            await browser.quit()
        }

        @Test func droppedConnectionReconnectsAndADuplicatedTabGetsItsOwnScene() async throws {
            let server = await TestServer(AppHost(app: NotepadApp(), storageDirectory: tempDir()))
            try await server.start()
            let host = server.host
            let driver = try await ChromeDriver()
            defer { driver.stop() }
            let browser = try await driver.session()
            try await browser.open(server.base + "/?token=" + server.access.token)
            try await waitUntil("the socket") { try await browser.connected() }
            try await browser.type(try await browser.find(css: "input[placeholder='Note']"), "hello")
            try await browser.click(try await browser.find(xpath: "//button[normalize-space(.)='Increment']"))
            try await waitUntil("the count and title") {
                let text = try await browser.text("main")
                let title = try await browser.title()
                return text.contains("Count 1") && title == "hello"
            }
            let sceneURL = try await browser.url()
            let id = String(sceneURL.split(separator: "=").last ?? "")

            // The server drops the socket: the page reconnects by itself, to the same scene as it was.
            let opens = { @Sendable in try await browser.run("return window.__swiftuiweb.opens") as? Int ?? 0 }
            #expect(try await opens() == 1)
            await MainActor.run { #expect(host.disconnect(sceneID: id)) }
            try await waitUntil("the page to reconnect", timeout: 15) {
                let n = try await opens()
                let up = try await browser.connected()
                return n == 2 && up
            }
            #expect(try await browser.url() == sceneURL)
            // (The reconnection re-sends the window, which may replace the button under the driver: retry.)
            try await waitUntil("a click after reconnecting") {
                try await browser.click(try await browser.find(xpath: "//button[normalize-space(.)='Increment']"))
                return true
            }
            try await waitUntil("the count after reconnecting") { try await browser.text("main").contains("Count 2") }
            #expect(try await browser.title() == "hello")

            // A duplicated tab (the same scene URL in another window) is moved to a scene of its own that
            // starts from a copy of the original's @SceneStorage.
            let original = try await browser.windowHandle()
            _ = try await browser.newWindow()
            try await browser.open(sceneURL)
            try await waitUntil("the duplicate's own scene", timeout: 15) {
                let url = try await browser.url()
                let up = try await browser.connected()
                let text = try await browser.text("main")
                return url != sceneURL && up && text.contains("Count 0")
            }
            #expect(try await browser.title() == "hello")
            try await waitUntil("typing in the duplicate") {
                try await browser.type(try await browser.find(css: "input[placeholder='Note']"), " world")
                return true
            }
            try await waitUntil("the duplicate's title") { try await browser.title() == "hello world" }
            try await browser.switchTo(original)
            #expect(try await browser.title() == "hello")
            #expect(try await browser.text("main").contains("Count 2"))
            await MainActor.run { #expect(host.scenes.count == 2) }
            await browser.quit()
            await server.stop()
        }
    }
}
