import Foundation
import Testing
import UniformTypeIdentifiers

@testable import SwiftUIWeb

/// A plain-text value document, as Apple's document-app template writes it.
struct TextFile: FileDocument {
    static var readableContentTypes: [UTType] { [.plainText] }
    var text = ""
    init(text: String = "") { self.text = text }
    init(configuration: ReadConfiguration) throws {
        guard let data = configuration.file.regularFileContents, let text = String(data: data, encoding: .utf8) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        self.text = text
    }
    func fileWrapper(configuration: WriteConfiguration) throws -> FileWrapper {
        // A text starting "fail:" can't be written: a failing writer, as a full disk would make one.
        if text.hasPrefix("fail:") { throw CocoaError(.fileWriteOutOfSpace) }
        return FileWrapper(regularFileWithContents: Data(text.utf8))
    }
}

struct TextDocumentApp: App {
    var body: some Scene {
        DocumentGroup(newDocument: TextFile()) { file in
            TextEditor(text: file.$document.text)
        }
    }
}

/// An object document whose view registers its own undo steps.
final class Drawing: ReferenceFileDocument {
    static var readableContentTypes: [UTType] { [UTType(exportedAs: "org.orchard.test.drawing", conformingTo: .json)] }
    @Published var shapes: [String] = []
    init() {}
    init(configuration: ReadConfiguration) throws {
        shapes = try JSONDecoder().decode([String].self, from: configuration.file.regularFileContents ?? Data())
    }
    func snapshot(contentType: UTType) throws -> [String] { shapes }
    func fileWrapper(snapshot: [String], configuration: WriteConfiguration) throws -> FileWrapper {
        FileWrapper(regularFileWithContents: try JSONEncoder().encode(snapshot))
    }
    @MainActor func add(_ shape: String, undoManager: UndoManager?) {
        shapes.append(shape)
        undoManager?.registerUndo(withTarget: self) { drawing in drawing.removeLast(undoManager: undoManager) }
    }
    @MainActor func removeLast(undoManager: UndoManager?) {
        let shape = shapes.removeLast()
        undoManager?.registerUndo(withTarget: self) { drawing in drawing.add(shape, undoManager: undoManager) }
    }
}

struct DrawingView: View {
    @ObservedObject var document: Drawing
    @Environment(\.undoManager) private var undoManager
    var body: some View {
        VStack {
            Text("Shapes: \(document.shapes.joined(separator: ","))")
            Button("Add Circle") { document.add("circle", undoManager: undoManager) }
        }
    }
}

struct DrawingApp: App {
    var body: some Scene {
        DocumentGroup(newDocument: { Drawing() }) { file in DrawingView(document: file.document) }
    }
}

@MainActor
extension SceneInstance {
    /// The id of the menu item whose label is `label`.
    func menuItem(_ label: String) -> Node? {
        tree.first { $0.attr("role")?.hasPrefix("menuitem") == true && $0.children.first?.textContent == label }
    }
    func clickMenu(_ label: String) {
        guard let item = menuItem(label) else {
            Issue.record("no menu item \(label)")
            return
        }
        handle(event: ClientEvent(t: "click", id: item.id))
    }
    var editor: Node? { tree.first { $0.tag == "textarea" } }
}

@MainActor
func documentHost<A: App>(_ app: A) -> (AppHost, URL) {
    let dir = tempDir()
    let host = AppHost(app: app, storageDirectory: dir)
    host.autosaveDelay = nil
    return (host, host.documentsFolder)
}

@Suite(.serialized) @MainActor struct DocumentTests {
    @Test func theStartPageCreatesADocumentThatIsSavedAtOnce() throws {
        let (host, folder) = documentHost(TextDocumentApp())
        let start = host.newScene()
        _ = start.document()
        #expect(start.text("No documents yet."))
        start.click("New Document")
        let patches = start.flush()
        _ = patches
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names == ["Untitled.txt"])
        let window = try #require(host.scenes.values.first { $0.group == "_doc0" })
        _ = window.document()
        #expect(window.title == "Untitled")
        #expect(window.editor != nil)
    }

    @Test func editingMarksTheDocumentEditedAndSaveWritesIt() async throws {
        let (host, folder) = documentHost(TextDocumentApp())
        let window = try host.createDocument()
        _ = window.document()
        window.input(try #require(window.editor).id, "hello")
        #expect(window.title == "Untitled — Edited")
        #expect(window.menuItem("Revert to Saved")?.attr("disabled") == "false")
        window.clickMenu("Save")
        let controller = try #require(host.openDocuments["Untitled.txt"])
        for _ in 0..<2000 where controller.savesCompleted == 0 { try await Task.sleep(for: .milliseconds(5)) }
        window.flush()
        #expect(window.title == "Untitled")
        #expect(try String(contentsOf: folder.appendingPathComponent("Untitled.txt"), encoding: .utf8) == "hello")
    }

    @Test func undoTakesBackARunOfTypingAndRedoBringsItBack() throws {
        let (host, _) = documentHost(TextDocumentApp())
        let window = try host.createDocument()
        _ = window.document()
        let editor = try #require(window.editor).id
        #expect(window.menuItem("Undo")?.attr("disabled") == "true")
        window.input(editor, "a")
        window.input(editor, "ab")
        // One run of typing in one field is one step, named as a Mac names it.
        #expect(window.menuItem("Undo Typing")?.attr("data-shortcut") == "mod+z")
        window.clickMenu("Undo Typing")
        #expect(window.editor?.attr("value") == "")
        #expect(window.title == "Untitled")  // Undone back to the saved state: not edited.
        #expect(window.menuItem("Undo")?.attr("disabled") == "true")
        window.clickMenu("Redo Typing")
        #expect(window.editor?.attr("value") == "ab")
        #expect(window.title == "Untitled — Edited")
        // Typing after an undo or redo starts a new step.
        window.input(editor, "abc")
        window.clickMenu("Undo Typing")
        #expect(window.editor?.attr("value") == "ab")
        window.clickMenu("Undo Typing")
        #expect(window.editor?.attr("value") == "")
    }

    @Test func twoWindowsOnOneDocumentShareIt() throws {
        let (host, _) = documentHost(TextDocumentApp())
        let a = try host.createDocument()
        let name = try #require(host.documentName(of: a))
        let b = try host.newDocumentScene(named: name)
        _ = a.document()
        _ = b.document()
        a.input(try #require(a.editor).id, "shared")
        b.flush()
        #expect(b.editor?.attr("value") == "shared")
        #expect(b.title == "Untitled — Edited")
    }

    @Test func aFileThatFailsToReadShowsTheErrorAndIsLeftUntouched() throws {
        let (host, folder) = documentHost(TextDocumentApp())
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let bad = Data([0xFF, 0xFE, 0x00, 0xC3])
        let url = folder.appendingPathComponent("Broken.txt")
        try bad.write(to: url)
        let window = try host.newDocumentScene(named: "Broken.txt")
        _ = window.document()
        #expect(window.text("The document could not be opened"))
        #expect(window.text("Broken.txt"))
        #expect(try Data(contentsOf: url) == bad)
    }

    @Test func aFailedSaveIsShownAndLeavesThePreviousFileWhole() async throws {
        let (host, folder) = documentHost(TextDocumentApp())
        let window = try host.createDocument()
        _ = window.document()
        window.input(try #require(window.editor).id, "kept")
        let controller = try #require(host.openDocuments["Untitled.txt"])
        #expect(await controller.save())
        window.input(try #require(window.editor).id, "fail: lost?")
        #expect(await controller.save() == false)
        window.flush()
        #expect(window.text("could not be saved"))
        #expect(window.title == "Untitled — Edited")
        #expect(try String(contentsOf: folder.appendingPathComponent("Untitled.txt"), encoding: .utf8) == "kept")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test func typingDuringASaveIsNotLostWhenTheSaveEnds() async throws {
        let (host, folder) = documentHost(TextDocumentApp())
        let window = try host.createDocument()
        _ = window.document()
        let editor = try #require(window.editor).id
        window.input(editor, "a")
        let controller = try #require(host.openDocuments["Untitled.txt"])
        let save = Task { await controller.save() }
        // Typed while the write of "a" runs, when the write is slow enough to still be running; either way
        // the save must not take "ab" for saved.
        while !controller.saving && controller.savesCompleted == 0 { await Task.yield() }
        window.input(editor, "ab")
        #expect(await save.value)
        window.flush()
        #expect(window.title == "Untitled — Edited")
        #expect(try String(contentsOf: folder.appendingPathComponent("Untitled.txt"), encoding: .utf8) == "a")
        #expect(await controller.save())
        #expect(try String(contentsOf: folder.appendingPathComponent("Untitled.txt"), encoding: .utf8) == "ab")
    }

    @Test func revertDropsUnsavedChanges() throws {
        let (host, _) = documentHost(TextDocumentApp())
        let window = try host.createDocument()
        _ = window.document()
        window.input(try #require(window.editor).id, "draft")
        window.clickMenu("Revert to Saved")
        #expect(window.editor?.attr("value") == "")
        #expect(window.title == "Untitled")
    }

    @Test func autosaveWritesEditsWithoutBeingAsked() async throws {
        let (host, folder) = documentHost(TextDocumentApp())
        host.autosaveDelay = 0.05
        let window = try host.createDocument()
        _ = window.document()
        window.input(try #require(window.editor).id, "autosaved")
        let url = folder.appendingPathComponent("Untitled.txt")
        for _ in 0..<400 where (try? String(contentsOf: url, encoding: .utf8)) != "autosaved" {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == "autosaved")
    }

    @Test func renameDuplicateAndDeleteKeepNamesInsideTheFolder() throws {
        let (host, folder) = documentHost(TextDocumentApp())
        let window = try host.createDocument()
        _ = window.document()
        try host.renameDocument("Untitled.txt", to: "Groceries")
        #expect(host.documentName(of: window) == "Groceries.txt")
        window.flush()
        #expect(window.title == "Groceries")
        let copy = try host.duplicateDocument("Groceries.txt")
        #expect(copy == "Groceries copy.txt")
        for hostile in ["../escape.txt", ".hidden", "a/b", ""] {
            #expect(throws: DocumentLibrary.Failure.self) { try host.renameDocument("Groceries.txt", to: hostile) }
        }
        #expect(throws: DocumentLibrary.Failure.self) { try host.newDocumentScene(named: "../../etc/passwd") }
        try host.deleteDocument(copy)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["Groceries.txt"])
    }

    @Test func aSymbolicLinkOutOfTheFolderIsRefused() throws {
        let (host, folder) = documentHost(TextDocumentApp())
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let outside = URL(fileURLWithPath: tempDir() + ".txt")
        try Data("secret".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("Link.txt"), withDestinationURL: outside)
        #expect(throws: DocumentLibrary.Failure.self) { try host.newDocumentScene(named: "Link.txt") }
    }

    @Test func uploadedFilesOfUnknownTypesAreRefused() throws {
        let (host, folder) = documentHost(TextDocumentApp())
        #expect(throws: DocumentLibrary.Failure.self) {
            try host.importDocument(named: "photo.png", contents: Data([1, 2]))
        }
        let name = try host.importDocument(named: "notes.txt", contents: Data("n".utf8))
        #expect(name == "notes.txt")
        #expect(try host.importDocument(named: "notes.txt", contents: Data("m".utf8)) == "notes 2.txt")
        #expect(try String(contentsOf: folder.appendingPathComponent("notes.txt"), encoding: .utf8) == "n")
    }

    @Test func anObjectDocumentIsEditedThroughItsUndoManager() async throws {
        let (host, folder) = documentHost(DrawingApp())
        let window = try host.createDocument()
        _ = window.document()
        let name = try #require(host.documentName(of: window))
        #expect(name == "Untitled.drawing")
        window.click("Add Circle")
        #expect(window.text("Shapes: circle"))
        #expect(window.title == "Untitled — Edited")
        window.clickMenu("Undo")
        #expect(window.text("Shapes: "))
        #expect(!window.text("circle"))
        window.clickMenu("Redo")
        #expect(window.text("Shapes: circle"))
        let controller = try #require(host.openDocuments[name])
        #expect(await controller.save())
        let saved = try JSONDecoder().decode([String].self, from: Data(contentsOf: folder.appendingPathComponent(name)))
        #expect(saved == ["circle"])
    }

    @Test func closingTheLastWindowSavesAnEditedDocument() async throws {
        let (host, folder) = documentHost(TextDocumentApp())
        let window = try host.createDocument()
        _ = window.document()
        window.input(try #require(window.editor).id, "on close")
        host.remove(window)
        let url = folder.appendingPathComponent("Untitled.txt")
        for _ in 0..<400 where (try? String(contentsOf: url, encoding: .utf8)) != "on close" {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == "on close")
        #expect(host.openDocuments.isEmpty)
    }
}

@Suite @MainActor struct SpliceTests {
    @Test func aLongFieldSendsItsEditsAndTheServerAppliesThem() throws {
        let (host, _) = documentHost(TextDocumentApp())
        let window = try host.createDocument()
        _ = window.document()
        let editor = try #require(window.editor).id
        window.input(editor, "a😀b")
        #expect(!window.html.contains("value=\"a😀b\""))  // A textarea's value is written once, as its text.
        // Replace "b" (UTF-16 offset 3, after the emoji's two units) with "c".
        var patches = window.handle(event: ClientEvent(t: "splice", id: editor, v: "c", a: 3, d: 1, n: 4))
        #expect(window.editor?.attr("value") == "a😀c")
        #expect(!patches.contains { if case .attribute(editor, "value", _) = $0 { return true } else { return false } })
        // A page that edited another value (wrong base length, or an offset inside the emoji) gets the value back.
        patches = window.handle(event: ClientEvent(t: "splice", id: editor, v: "x", a: 0, d: 0, n: 9))
        #expect(patches.contains(.attribute(id: editor, name: "value", value: "a😀c")))
        patches = window.handle(event: ClientEvent(t: "splice", id: editor, v: "x", a: 2, d: 0, n: 4))
        #expect(patches.contains(.attribute(id: editor, name: "value", value: "a😀c")))
        #expect(window.editor?.attr("value") == "a😀c")
        #expect(throws: EventError.self) {
            try ClientEvent.decode(Data(#"{"t":"splice","id":"x","a":5,"d":1,"n":3}"#.utf8))
        }
        // Offsets chosen to overflow are refused, not trapped on.
        let hostile =
            #"{"t":"splice","id":"x","a":9223372036854775807,"d":9223372036854775807,"n":9223372036854775807}"#
        #expect(throws: EventError.self) { try ClientEvent.decode(Data(hostile.utf8)) }
        patches = window.handle(event: ClientEvent(t: "splice", id: editor, v: "x", a: Int.max, d: Int.max, n: 4))
        #expect(window.editor?.attr("value") == "a😀c")
    }
}
