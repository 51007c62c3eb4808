import Foundation
import Testing

@testable import SeedCommandsApp
@testable import SeedDocumentApp
@testable import SeedSettingsApp
@testable import SwiftUIWeb

/// The seed's second-half samples (document app 12:59, Settings 13:27, BookCommands 14:07), built from
/// ../shared/seeds by the SeedSamples plugin at build time (a missing seed fails the build, and so these
/// tests), driven here as apps.
@Suite(.serialized) @MainActor struct SeedSampleTests {
    @Test func theDocumentSampleCreatesSavesAndOpensShapeDocuments() throws {
        let host = AppHost(app: ShapeEditApp(), storageDirectory: tempDir())
        host.autosaveDelay = nil
        let start = host.newScene()
        _ = start.document()
        start.click("New Document")
        let names = try FileManager.default.contentsOfDirectory(atPath: host.documentsFolder.path)
        #expect(names == ["Untitled.shapes"])
        let saved = try Data(contentsOf: host.documentsFolder.appendingPathComponent("Untitled.shapes"))
        #expect(try JSONDecoder().decode(ShapeDocument.self, from: saved).title == "Untitled")
        let window = try #require(host.scenes.values.first { $0.group == "_doc0" })
        _ = window.document()
        #expect(window.text("Untitled"))

        let other = try JSONEncoder().encode(ShapeDocument(title: "Triangles"))
        try other.write(to: host.documentsFolder.appendingPathComponent("Triangles.shapes"))
        let opened = try host.newDocumentScene(named: "Triangles.shapes")
        _ = opened.document()
        #expect(opened.text("Triangles"))
        #expect(opened.title == "Triangles")
    }

    @Test func theSettingsSampleHasItsWindowAndItsSettingsScene() {
        let host = AppHost(app: SeedSettingsApp.BookClubApp(), storageDirectory: tempDir())
        let main = host.newScene()
        _ = main.document()
        #expect(main.title == "Currently Reading")
        #expect(main.text("Book #3"))
        #expect(main.menuItem("Settings…")?.attr("data-arg") == "/?g=_settings")
        let settings = host.sceneForRequest(group: "_settings")
        _ = settings.document()
        #expect(settings.text("Add your settings UI here."))
        #expect(settings.title == "Settings")
    }

    @Test func theBookCommandsSampleActsOnTheSelectedBook() throws {
        let host = AppHost(app: BookCommandsApp(), storageDirectory: tempDir())
        let window = host.newScene()
        _ = window.document()
        #expect(window.menuItem("Update Progress...")?.attr("disabled") == "true")
        #expect(window.menuItem("Mark Completed")?.attr("disabled") == "true")
        let row = try #require(window.tree.first { $0.attr("data-click") != nil && $0.textContent == "Book #1: 0%" })
        window.handle(event: ClientEvent(t: "click", id: row.id))
        #expect(window.menuItem("Update Progress...")?.attr("data-shortcut") == "mod+u")
        #expect(window.menuItem("Mark Completed")?.attr("data-shortcut") == "mod+shift+c")
        window.clickMenu("Update Progress...")
        #expect(window.text("Book #1: 10%"))
        window.clickMenu("Mark Completed")
        #expect(window.text("Book #1: completed"))
        #expect(window.text("Book #2: 0%"))
    }
}
