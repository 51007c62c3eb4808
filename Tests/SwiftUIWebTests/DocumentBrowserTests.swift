import Foundation
import SwiftUIWebDriver
import Testing

extension InBrowser {
    /// Documents, menus and settings end to end in headless Chromium, against the examples and the seed's
    /// samples run as servers.
    @Suite(.serialized, .enabled(if: BrowserEnvironment.shouldRun), .timeLimit(.minutes(3)))
    struct DocumentBrowserTests {
        /// WebDriver's Control key; sent again (or NULL, U+E000) to release it.
        static let control = "\u{E009}", shift = "\u{E008}", release = "\u{E000}"

        @Test func aTextDocumentIsCreatedEditedSavedUndoneRevertedAndDownloaded() async throws {
            let server = try ExampleServer("PlainText")
            try await server.start()
            defer { server.stop() }
            let driver = try await ChromeDriver()
            defer { driver.stop() }
            let browser = try await driver.session()

            try await browser.open(server.signInURL)
            try await waitUntil("the start page") { try await browser.connected() }
            #expect(try await browser.text(".sw-content").contains("No documents yet."))
            try await browser.click(try await browser.find(xpath: "//button[normalize-space(.)='New Document']"))
            try await waitUntil("the document window") { try await browser.title() == "Untitled" }
            try await waitUntil("its socket") { try await browser.connected() }
            let file = URL(fileURLWithPath: server.documentsDirectory).appendingPathComponent("Untitled.txt")
            #expect(FileManager.default.fileExists(atPath: file.path))

            let editor = try await browser.find(css: "textarea.sw-editor")
            try await browser.type(editor, "Hello")
            try await waitUntil("the edited title") { try await browser.title() == "Untitled — Edited" }
            try await browser.type(editor, Self.control + "s" + Self.release)
            try await waitUntil("the save") { try await browser.title() == "Untitled" }
            #expect(try String(contentsOf: file, encoding: .utf8) == "Hello")
            try await browser.screenshot().write(
                to: artifactsDirectory.appendingPathComponent("plaintext-document.png"))

            try await browser.type(editor, " world")
            try await waitUntil("the second edit") { try await browser.title() == "Untitled — Edited" }
            try await browser.type(editor, Self.control + "z" + Self.release)
            try await waitUntil("undo to bring back the saved text") {
                try await browser.run("return document.querySelector('textarea.sw-editor').value") as? String == "Hello"
            }
            try await browser.type(editor, Self.control + Self.shift + "z" + Self.release)
            try await waitUntil("redo") {
                try await browser.run("return document.querySelector('textarea.sw-editor').value") as? String
                    == "Hello world"
            }

            // The menu bar, by mouse: File ▸ Revert to Saved.
            try await browser.click(try await browser.find(xpath: "//button[@data-menu and normalize-space(.)='File']"))
            #expect(
                try await browser.run("return document.querySelector('[data-menu][aria-expanded=true]').textContent")
                    as? String == "File")
            try await browser.screenshot().write(
                to: artifactsDirectory.appendingPathComponent("plaintext-file-menu.png"))
            try await browser.click(
                try await browser.find(
                    xpath: "//button[@role='menuitem' and .//span[normalize-space(.)='Revert to Saved']]"))
            try await waitUntil("the revert") {
                try await browser.run("return document.querySelector('textarea.sw-editor').value") as? String == "Hello"
            }
            #expect(try await browser.title() == "Untitled")

            let downloaded =
                try await browser.runAsync(
                    """
                    var done = arguments[arguments.length - 1];
                    fetch('/_swiftuiweb/download?w=' + document.body.dataset.scene)
                      .then(function (r) { return r.text().then(function (t) { done(r.headers.get('content-disposition') + '|' + t); }); });
                    """) as? String
            #expect(downloaded?.hasPrefix("attachment; filename=\"Untitled.txt\"") == true)
            #expect(downloaded?.hasSuffix("|Hello") == true)
            await browser.quit()
        }

        @Test func aMenuShortcutActsOnTheFocusedWindowsSelection() async throws {
            let server = try ExampleServer("SeedCommandsApp")
            try await server.start()
            defer { server.stop() }
            let driver = try await ChromeDriver()
            defer { driver.stop() }
            let browser = try await driver.session()
            try await browser.open(server.signInURL)
            try await waitUntil("the window") { try await browser.connected() }
            let item = "//button[@role='menuitem' and .//span[normalize-space(.)='Update Progress...']]"
            #expect(
                try await browser.run(
                    "return document.evaluate(arguments[0],document,null,9,null).singleNodeValue.disabled", [item])
                    as? Bool
                    == true)
            try await browser.click(
                try await browser.find(xpath: "//*[@data-click and contains(normalize-space(.),'Book #1: 0%')]"))
            try await waitUntil("the command to be enabled") {
                try await browser.run(
                    "return document.evaluate(arguments[0],document,null,9,null).singleNodeValue.disabled", [item])
                    as? Bool
                    == false
            }
            let body = try await browser.find(css: "body")
            try await browser.type(body, Self.control + "u" + Self.release)
            try await waitUntil("Ctrl+U to update the progress") {
                try await browser.text(".sw-content").contains("Book #1: 10%")
            }
            try await browser.type(body, Self.control + Self.shift + "c" + Self.release)
            try await waitUntil("Ctrl+Shift+C to mark it completed") {
                try await browser.text(".sw-content").contains("Book #1: completed")
            }
            try await browser.screenshot().write(to: artifactsDirectory.appendingPathComponent("bookcommands.png"))
            await browser.quit()
        }

        @Test func settingsPersistAcrossARestart() async throws {
            let server = try ExampleServer("PlainText")
            try await server.start()
            defer { server.stop() }
            let driver = try await ChromeDriver()
            defer { driver.stop() }
            let browser = try await driver.session()
            try await browser.open(server.signInURL)
            try await browser.open(server.url + "?g=_settings")
            try await waitUntil("the Settings window") { try await browser.title() == "Settings" }
            try await waitUntil("its socket") { try await browser.connected() }
            let toggle = try await browser.find(css: "input[type=checkbox]")
            #expect(
                try await browser.run("return document.querySelector('input[type=checkbox]').checked") as? Bool == true)
            try await browser.click(toggle)
            try await waitUntil("the setting to be written") {
                FileManager.default.fileExists(atPath: server.stateDirectory + "/config/PlainText.plist")
            }
            try await browser.screenshot().write(
                to: artifactsDirectory.appendingPathComponent("plaintext-settings.png"))
            server.stop()
            try await server.start()
            try await browser.open(server.url + "?g=_settings")
            try await waitUntil("the Settings window after the restart") { try await browser.connected() }
            #expect(
                try await browser.run("return document.querySelector('input[type=checkbox]').checked") as? Bool == false
            )
            await browser.quit()
        }

        @Test func aFileUploadedFromThePersonsMachineOpensInAWindow() async throws {
            let server = try ExampleServer("PlainText")
            try await server.start()
            defer { server.stop() }
            let driver = try await ChromeDriver()
            defer { driver.stop() }
            let browser = try await driver.session()
            let local = URL(fileURLWithPath: NSTemporaryDirectory() + "orchard-upload-\(UUID().uuidString).txt")
            try Data("from my machine".utf8).write(to: local)
            defer { try? FileManager.default.removeItem(at: local) }  // A temporary file; gone is fine.

            try await browser.open(server.signInURL)
            try await waitUntil("the start page") { try await browser.connected() }
            // WebDriver types a path into a file input that is visible; the start page's is inside its button.
            _ = try await browser.run("document.querySelector('input[data-upload]').hidden=false")
            try await browser.type(try await browser.find(css: "input[data-upload]"), local.path)
            let stem = local.deletingPathExtension().lastPathComponent
            try await waitUntil("the uploaded document's window") { try await browser.title() == stem }
            try await waitUntil("its socket") { try await browser.connected() }
            #expect(
                try await browser.run("return document.querySelector('textarea.sw-editor').value") as? String
                    == "from my machine")
            let stored = URL(fileURLWithPath: server.documentsDirectory).appendingPathComponent(local.lastPathComponent)
            #expect(try String(contentsOf: stored, encoding: .utf8) == "from my machine")

            // Back on the start page (File ▸ Open…), the document is listed and opens again.
            try await browser.type(try await browser.find(css: "body"), Self.control + "o" + Self.release)
            try await waitUntil("the start page again") { try await browser.text(".sw-content").contains(stem) }
            try await browser.screenshot().write(
                to: artifactsDirectory.appendingPathComponent("plaintext-start-page.png"))
            await browser.quit()
        }

        @Test func anObjectDocumentsUndoStepsWalkBackInTheBrowser() async throws {
            let server = try ExampleServer("Sketch")
            try await server.start()
            defer { server.stop() }
            let driver = try await ChromeDriver()
            defer { driver.stop() }
            let browser = try await driver.session()
            try await browser.open(server.signInURL)
            try await waitUntil("the start page") { try await browser.connected() }
            try await browser.click(try await browser.find(xpath: "//button[normalize-space(.)='New Document']"))
            try await waitUntil("the sketch window") { try await browser.title() == "Untitled" }
            try await waitUntil("its socket") { try await browser.connected() }
            let addCircle = "//button[normalize-space(.)='Add Circle']"
            try await browser.click(try await browser.find(xpath: addCircle))
            try await waitUntil("one shape") { try await browser.text(".sw-content").contains("1 shapes") }
            try await browser.click(try await browser.find(xpath: "//button[normalize-space(.)='Add Square']"))
            try await waitUntil("two shapes") { try await browser.text(".sw-content").contains("2 shapes") }
            #expect(try await browser.title() == "Untitled — Edited")
            let undoTitle =
                "return Array.from(document.querySelectorAll('[role=menuitem] .sw-menuitem-label')).map(function(e){return e.textContent}).filter(function(t){return t.indexOf('Undo')===0})[0]"
            #expect(try await browser.run(undoTitle) as? String == "Undo Add Square")
            try await browser.type(try await browser.find(css: "body"), Self.control + "z" + Self.release)
            try await waitUntil("the square undone") { try await browser.text(".sw-content").contains("1 shapes") }
            try await browser.type(try await browser.find(css: "body"), Self.control + Self.shift + "z" + Self.release)
            try await waitUntil("the square redone") { try await browser.text(".sw-content").contains("2 shapes") }
            try await browser.screenshot().write(to: artifactsDirectory.appendingPathComponent("sketch.png"))
            await browser.quit()
        }

        @Test func aWindowOpenedWithAValueKeepsItAcrossAReload() async throws {
            let server = try ExampleServer("Recipes")
            try await server.start()
            defer { server.stop() }
            let driver = try await ChromeDriver()
            defer { driver.stop() }
            let browser = try await driver.session()
            try await browser.open(server.signInURL)
            try await waitUntil("the recipe list") { try await browser.connected() }
            let list = try await browser.windowHandle()
            let openBread =
                "//div[contains(@class,'sw-hstack') and .//*[normalize-space(.)='Soda Bread']]//button[normalize-space(.)='Open in Window']"
            try await browser.click(try await browser.find(xpath: openBread))
            try await waitUntil("a second window") {
                (try await browser.command("GET", "window/handles") as? [String] ?? []).count == 2
            }
            let handles = try await browser.command("GET", "window/handles") as? [String] ?? []
            try await browser.switchTo(try #require(handles.first { $0 != list }))
            try await waitUntil("the recipe window") { try await browser.title() == "Soda Bread" }
            try await waitUntil("its socket") { try await browser.connected() }
            try await waitUntil("its phase to be reported") {
                try await browser.text(".sw-content").contains("This window is")
            }
            try await browser.screenshot().write(to: artifactsDirectory.appendingPathComponent("recipes-window.png"))
            try await browser.refresh()
            #expect(try await browser.title() == "Soda Bread")
            #expect(try await browser.text(".sw-content").contains("45 minutes"))
            // Opening the same recipe again shows the window that presents it rather than a third one.
            try await browser.switchTo(list)
            try await browser.click(try await browser.find(xpath: openBread))
            try await Task.sleep(for: .milliseconds(500))
            #expect((try await browser.command("GET", "window/handles") as? [String])?.count == 2)
            await browser.quit()
        }
    }
}
