import Foundation
import SwiftUIWebDriver
import Testing

extension InBrowser {
    /// Dark mode in Chromium: when the system's appearance turns dark (emulated through the DevTools protocol) the
    /// open window turns dark at once, and the server hears of it.
    @Suite(.serialized, .enabled(if: BrowserEnvironment.shouldRun), .timeLimit(.minutes(2)))
    struct ColorSchemeBrowserTests {
        @Test func theWindowFollowsTheSystemsAppearance() async throws {
            let server = try ExampleServer("Gallery")
            try await server.start()
            defer { server.stop() }
            let driver = try await ChromeDriver()
            defer { driver.stop() }
            let browser = try await driver.session()
            try await browser.open(server.signInURL)
            try await waitUntil("the socket") { try await browser.connected() }
            let background = { @Sendable () async throws -> String in
                try await browser.run("return getComputedStyle(document.body).backgroundColor") as? String ?? ""
            }
            #expect(try await background() == "rgb(245, 245, 247)")
            let emulate = { @Sendable (value: String) async throws in
                _ = try await browser.command(
                    "POST", "goog/cdp/execute",
                    [
                        "cmd": "Emulation.setEmulatedMedia",
                        "params": ["features": [["name": "prefers-color-scheme", "value": value]]],
                    ])
            }
            try await emulate("dark")
            try await waitUntil("the dark stylesheet") { try await background() == "rgb(0, 0, 0)" }
            #expect(
                try await browser.run("return document.documentElement.classList.contains('sw-dark')") as? Bool == true)
            let sidebar =
                try await browser.run(
                    "return getComputedStyle(document.querySelector('.sw-sidebar')).backgroundColor") as? String
            #expect(sidebar == "rgb(22, 22, 24)")
            try await browser.screenshot().write(to: artifactsDirectory.appendingPathComponent("gallery-dark.png"))
            try await emulate("light")
            try await waitUntil("the light stylesheet again") { try await background() == "rgb(245, 245, 247)" }
            await browser.quit()
        }
    }
}
