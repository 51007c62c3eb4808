import Foundation
import Testing
import UniformTypeIdentifiers

@testable import SwiftUIWeb

struct Novel: Identifiable, Equatable {
    let id = 1
    var title: String
    var progress = 0
    var completed = false
    mutating func updateProgress() { progress += 10 }
    mutating func markCompleted() { completed = true }
}

struct SelectedNovelKey: FocusedValueKey { typealias Value = Binding<Novel> }
struct DraftKey: FocusedValueKey { typealias Value = String }

extension FocusedValues {
    var selectedNovel: Binding<Novel>? {
        get { self[SelectedNovelKey.self] }
        set { self[SelectedNovelKey.self] = newValue }
    }
    var draft: String? {
        get { self[DraftKey.self] }
        set { self[DraftKey.self] = newValue }
    }
}

/// The seed's BookCommands, on our own types.
struct NovelCommands: Commands {
    @FocusedBinding(\.selectedNovel) private var selectedNovel: Novel?
    @FocusedValue(\.draft) private var draft: String?
    var body: some Commands {
        CommandMenu("Book") {
            Section {
                Button("Update Progress...", action: { selectedNovel?.updateProgress() })
                    .keyboardShortcut("u")
                Button("Mark Completed", action: { selectedNovel?.markCompleted() })
                    .keyboardShortcut("C")
            }
            .disabled(selectedNovel == nil)
            Divider()
            Button("Draft: \(draft ?? "none")") {}
        }
    }
}

struct NovelView: View {
    @State private var novel = Novel(title: "Dune")
    @State private var selected = false
    @State private var note = ""
    var body: some View {
        VStack {
            Text("\(novel.title) \(novel.progress)% \(novel.completed ? "done" : "reading")")
            Button("Select") { selected = true }
            TextField("Note", text: $note).focusedValue(\.draft, "typing")
        }
        .focusedSceneValue(\.selectedNovel, selected ? $novel : nil)
    }
}

struct NovelApp: App {
    var body: some Scene {
        WindowGroup { NovelView() }
            .commands {
                NovelCommands()
                SidebarCommands()
                CommandGroup(replacing: .newItem) {}
                CommandGroup(after: .help) { Button("Orchard Help") {} }
            }
        Settings { Text("Prefs") }
        Window("Activity", id: "activity") { Text("Activity window") }
    }
}

@Suite @MainActor struct CommandsTests {
    @Test func theMenuBarHasTheStandardMenusAndTheAppsOwn() {
        let host = AppHost(app: NovelApp(), storageDirectory: tempDir())
        let scene = host.newScene()
        _ = scene.document()
        let bar = scene.tree.first { $0.attr("role") == "menubar" }
        let titles = bar?.all { $0.attr("data-menu") != nil }.map(\.textContent) ?? []
        #expect(titles == ["Novel", "File", "Edit", "View", "Book", "Window", "Help"])
        #expect(bar?.all { $0.attr("role") == "menu" }.count == titles.count)
        // CommandGroup(replacing: .newItem) {} removed New Window; Print stays in the File menu.
        #expect(scene.menuItem("New Window") == nil)
        #expect(scene.menuItem("Settings…")?.attr("data-shortcut") == "mod+,")
        #expect(scene.menuItem("Toggle Sidebar")?.attr("data-shortcut") == "mod+alt+s")
        #expect(scene.menuItem("Activity")?.attr("data-client") == "window")
        #expect(scene.menuItem("Orchard Help") != nil)
    }

    @Test func aCommandActsOnTheFocusedWindowsValue() {
        let host = AppHost(app: NovelApp(), storageDirectory: tempDir())
        let scene = host.newScene()
        _ = scene.document()
        let update = scene.menuItem("Update Progress...")
        #expect(update?.attr("disabled") == "true")
        #expect(update?.attr("data-shortcut") == nil)
        scene.click("Select")
        let enabled = scene.menuItem("Update Progress...")
        #expect(enabled?.attr("disabled") == "false")
        #expect(enabled?.attr("data-shortcut") == "mod+u")
        #expect(scene.menuItem("Mark Completed")?.attr("data-shortcut") == "mod+shift+c")
        scene.clickMenu("Update Progress...")
        scene.clickMenu("Mark Completed")
        #expect(scene.text("Dune 10% done"))
    }

    @Test func aFocusedValueIsSeenOnlyWhileItsViewHasFocus() throws {
        let host = AppHost(app: NovelApp(), storageDirectory: tempDir())
        let scene = host.newScene()
        _ = scene.document()
        #expect(scene.menuItem("Draft: none") != nil)
        let field = try #require(scene.tree.first { $0.tag == "input" && $0.attr("placeholder") == "Note" })
        scene.handle(event: ClientEvent(t: "focus", id: field.id))
        #expect(scene.menuItem("Draft: typing") != nil)
        scene.handle(event: ClientEvent(t: "focus", id: "bar"))
        #expect(scene.menuItem("Draft: none") != nil)
    }

    @Test func settingsAndWindowScenesAreSingleWindows() {
        let host = AppHost(app: NovelApp(), storageDirectory: tempDir())
        let first = host.sceneForRequest(group: "_settings")
        let again = host.sceneForRequest(group: "_settings")
        #expect(first === again)
        _ = first.document()
        #expect(first.text("Prefs"))
        #expect(first.title == "Settings")
        let activity = host.sceneForRequest(group: "activity")
        _ = activity.document()
        #expect(activity.text("Activity window"))
        #expect(host.sceneForRequest(group: "activity") === activity)
        #expect(host.sceneForRequest(group: "nope").group == nil)
    }

    @Test func shortcutsMapToKeysABrowserGivesThePage() {
        #expect(KeyboardShortcut("u").code == "mod+u")
        #expect(KeyboardShortcut("C").code == "mod+shift+c")
        #expect(KeyboardShortcut("n").code == "mod+alt+n")
        #expect(KeyboardShortcut("w", modifiers: [.command, .shift]).code == "mod+alt+shift+w")
        #expect(KeyboardShortcut("s", modifiers: [.command, .control]).code == "mod+alt+s")
        #expect(KeyboardShortcut(.return, modifiers: []).code == "enter")
        #expect(KeyboardShortcut("n").label == "Ctrl+Alt+N")
    }
}

struct PreferencesView: View {
    let store: UserDefaults
    var body: some View {
        Inner().defaultAppStorage(store)
    }
    struct Inner: View {
        @AppStorage("fontSize") private var fontSize = 12
        @AppStorage("name") private var name: String?
        var body: some View {
            VStack {
                Text("Size \(fontSize) \(name ?? "anonymous")")
                Button("Bigger") { fontSize += 1 }
                Button("Name") { name = "Ada" }
            }
        }
    }
}

struct PreferencesApp: App {
    static let suite = NSTemporaryDirectory() + "swiftuiweb-prefs-" + UUID().uuidString
    var body: some Scene {
        WindowGroup { PreferencesView(store: UserDefaults(suiteName: PreferencesApp.suite)!) }
    }
}

@Suite @MainActor struct AppStorageTests {
    @Test func aSettingIsSharedByWindowsAndSurvivesARestart() {
        let host = AppHost(app: PreferencesApp(), storageDirectory: tempDir())
        let a = host.newScene()
        let b = host.newScene()
        _ = a.document()
        _ = b.document()
        a.click("Bigger")
        a.click("Name")
        b.flush()
        #expect(b.text("Size 13 Ada"))
        // A new process reads the same file: a fresh UserDefaults on the suite stands in for it.
        let restarted = AppHost(app: PreferencesApp(), storageDirectory: tempDir())
        let c = restarted.newScene()
        _ = c.document()
        #expect(c.text("Size 13 Ada"))
        #expect(FileManager.default.fileExists(atPath: PreferencesApp.suite + ".plist"))
    }
}

@Suite struct UniformTypeTests {
    @Test func systemTypesConformAndCarryTheirTags() throws {
        #expect(UTType.png.conforms(to: .image))
        #expect(UTType.png.conforms(to: .data))
        #expect(!UTType.png.conforms(to: .text))
        #expect(UTType.json.conforms(to: .text))
        #expect(UTType.plainText.preferredFilenameExtension == "txt")
        #expect(UTType.pdf.preferredMIMEType == "application/pdf")
        #expect(UTType(filenameExtension: "JPG") == .jpeg)
        #expect(UTType(mimeType: "image/svg+xml") == .svg)
        #expect(UTType("PUBLIC.PNG") == .png)
        #expect(UTType("com.example.never-declared") == nil)
        #expect(UTType.image.isSupertype(of: .png))
        #expect(UTType.png.isSubtype(of: .image))
        #expect(UTType(filenameExtension: "txt", conformingTo: .image) == nil)
    }

    @Test func appTypesAreDeclaredWhenExportedAndFoundByTheirExtension() throws {
        let shapes = UTType(exportedAs: "com.example.ShapeEdit.shapes")
        #expect(shapes.conforms(to: .data))
        #expect(shapes.preferredFilenameExtension == "shapes")
        #expect(UTType(filenameExtension: "shapes") == shapes)
        #expect(UTType("com.example.shapeedit.shapes") == shapes)
        let encoded = try JSONEncoder().encode([shapes])
        #expect(try JSONDecoder().decode([UTType].self, from: encoded) == [shapes])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([UTType].self, from: Data(#"["com.example.nothing"]"#.utf8))
        }
    }

    @Test func unknownTagsGiveDynamicTypes() throws {
        let type = try #require(UTType(filenameExtension: "orchardxyz"))
        #expect(type.isDynamic)
        #expect(!type.isDeclared)
        #expect(type.conforms(to: .data))
        #expect(type.preferredFilenameExtension == "orchardxyz")
    }
}

@Suite @MainActor struct UndoManagerTests {
    final class Counter { var value = 0 }

    func increment(_ counter: Counter, _ undo: UndoManager) {
        counter.value += 1
        undo.registerUndo(withTarget: counter) { c in
            c.value -= 1
            undo.registerUndo(withTarget: c) { c in self.increment(c, undo) }
        }
    }

    @Test func registrationsOfOneEventAreOneStep() {
        let undo = UndoManager()
        let counter = Counter()
        increment(counter, undo)
        increment(counter, undo)
        undo.endEventGroup()
        increment(counter, undo)
        undo.endEventGroup()
        #expect(counter.value == 3)
        undo.undo()
        #expect(counter.value == 2)
        undo.undo()
        #expect(counter.value == 0)
        #expect(!undo.canUndo)
        undo.redo()
        #expect(counter.value == 2)
        increment(counter, undo)
        undo.endEventGroup()
        #expect(!undo.canRedo)  // A new change clears the redo stack.
    }

    @Test func explicitGroupsNestAndNameTheStep() {
        let undo = UndoManager()
        let counter = Counter()
        undo.beginUndoGrouping()
        increment(counter, undo)
        undo.beginUndoGrouping()
        increment(counter, undo)
        undo.endUndoGrouping()
        undo.setActionName("Double")
        undo.endUndoGrouping()
        #expect(undo.undoMenuItemTitle == "Undo Double")
        undo.undo()
        #expect(counter.value == 0)
        #expect(undo.redoMenuItemTitle == "Redo Double")
        undo.levelsOfUndo = 1
        undo.disableUndoRegistration()
        increment(counter, undo)
        undo.enableUndoRegistration()
        #expect(!undo.canUndo)
    }
}

struct Recipe: Codable, Hashable { var name: String }

struct RecipeList: View {
    @Environment(\.openWindow) private var openWindow
    var body: some View {
        VStack {
            Button("Open Soup") { openWindow(value: Recipe(name: "Soup")) }
            Button("Open Bread") { openWindow(id: "recipe", value: Recipe(name: "Bread")) }
        }
    }
}

struct RecipeWindow: View {
    @Binding var recipe: Recipe?
    @Environment(\.dismissWindow) private var dismissWindow
    var body: some View {
        VStack {
            Text("Recipe: \(recipe?.name ?? "none")")
            Button("Rename") { recipe?.name += "!" }
            Button("Close") { dismissWindow() }
        }
    }
}

struct RecipesApp: App {
    var body: some Scene {
        WindowGroup { RecipeList() }
        WindowGroup(id: "recipe", for: Recipe.self) { recipe in RecipeWindow(recipe: recipe) }
    }
}

@Suite @MainActor struct WindowValueTests {
    @Test func openWindowWithAValueOpensAWindowThatKeepsIt() throws {
        let dir = tempDir()
        let host = AppHost(app: RecipesApp(), storageDirectory: dir)
        let list = host.newScene()
        _ = list.document()
        let patches = list.click("Open Soup")
        let url = try #require(patches.compactMap { if case .open(let u) = $0 { return u } else { return nil } }.first)
        let id = String(url.dropFirst("/?w=".count))
        let window = try #require(host.scene(id: id))
        _ = window.document()
        #expect(window.text("Recipe: Soup"))
        window.click("Rename")
        #expect(window.text("Recipe: Soup!"))
        #expect(window.click("Close").contains(.close))
        // The value is the window's: it survives a restart.
        host.saveStorage()
        let restarted = AppHost(app: RecipesApp(), storageDirectory: dir)
        let revived = try #require(restarted.scene(id: id))
        _ = revived.document()
        #expect(revived.text("Recipe: Soup!"))
    }
}
