import Foundation
import Testing
@testable import SwiftUIWeb

@Observable final class Library {
    var books = ["Dune"]
    var note = "none"
}

struct AccentKey: EnvironmentKey { static var defaultValue: String { "blue" } }
extension EnvironmentValues {
    var accentName: String { get { self[AccentKey.self] } set { self[AccentKey.self] = newValue } }
}

struct ObservingView: View {
    @Environment(Library.self) private var library
    @Environment(\.accentName) private var accent
    var body: some View {
        VStack {
            Text("Accent \(accent)")
            ForEach(library.books, id: \.self) { Text($0) }
            Button("Add") { library.books.append("Emma") }
            EditNote(library: library)
        }
    }
}

struct EditNote: View {
    @Bindable var library: Library
    var body: some View { TextField("Note", text: $library.note) }
}

struct LifecycleView: View {
    @State var shown = true
    @State var value = 0
    @State var log: [String] = []
    @State var ticks = 0
    var body: some View {
        VStack {
            if shown {
                Text("Child")
                    .onAppear { log.append("appear") }
                    .onDisappear { log.append("disappear") }
                    .task { ticks += 1 }
            }
            Button("Toggle") { shown.toggle() }
            Button("Bump") { value += 1 }
            Text(log.joined(separator: ","))
            Text("Ticks \(ticks)")
        }
        .onChange(of: value) { old, new in log.append("\(old)->\(new)") }
    }
}

struct WindowsView: View {
    @Environment(\.openWindow) private var openWindow
    var body: some View {
        Text("Main")
            .toolbar {
                ToolbarItem(placement: .primaryAction) { Button("Another") { openWindow() } }
                ToolbarItem(placement: .navigation) { Button("Inspector") { openWindow(id: "inspector") } }
            }
    }
}

struct TwoGroups: App {
    var body: some Scene {
        WindowGroup { WindowsView() }
        WindowGroup("Inspector", id: "inspector") { Text("Inspecting").navigationTitle("Inspector") }
    }
}

final class Rows: ObservableObject {
    @Published var names = (0..<1000).map { "Row \($0)" }
}

struct BigList: View {
    @ObservedObject var rows: Rows
    var body: some View { List(rows.names.indices, id: \.self) { i in Text(rows.names[i]) } }
}

final class SentBox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}

@Suite @MainActor struct DataFlowTests {
    @Test func observableEnvironmentAndBindable() async throws {
        let library = Library()
        let w = window { ObservingView().environment(library).environment(\.accentName, "green") }
        #expect(w.text("Accent green") && w.text("Dune"))
        w.click("Add")
        #expect(w.text("Emma"))
        // A change made outside any event (another window, a task) re-renders through Observation.
        w.sink = { _ in }
        var sent: [String] = []
        let box = SentBox()
        w.sink = { box.append($0) }
        library.books.append("Persuasion")
        for _ in 0..<100 where box.all.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        sent = box.all
        #expect(sent.count == 1 && sent[0].contains("Persuasion"))
        let field = try #require(w.tree.first { $0.attr("placeholder") == "Note" })
        w.input(field.id, "read soon")
        #expect(library.note == "read soon")
    }

    @Test func lifecycleHooks() async throws {
        let w = window { LifecycleView() }
        #expect(w.text("appear"))
        w.click("Bump")
        #expect(w.text("appear,0->1"))
        w.click("Toggle")
        #expect(w.text("appear,0->1,disappear"))
        w.click("Toggle")
        #expect(w.text("appear,0->1,disappear,appear"))
        for _ in 0..<50 where !w.text("Ticks 2") { try await Task.sleep(for: .milliseconds(10)); w.flush() }
        #expect(w.text("Ticks 2"))   // the task ran once per appearance
    }

    @Test func openWindowAndToolbar() throws {
        let host = AppHost(app: TwoGroups(), storageDirectory: tempDir())
        let w = host.newScene()
        _ = w.document()
        let bar = try #require(w.tree.first { $0.id == "bar" })
        #expect(bar.textContent.contains("Another") && bar.textContent.contains("Inspector"))
        #expect(bar.first { $0.id == "bar.new" }?.attr("href") == "/")
        #expect(w.click("Another").contains(.open(url: "/")))
        #expect(w.click("Inspector").contains(.open(url: "/?g=inspector")))
        let inspector = host.newScene(group: "inspector")
        #expect(inspector.document().contains("Inspecting"))
        #expect(inspector.title == "Inspector")
        // The group survives a restart through the scene's storage.
        host.saveStorage()
        let restarted = AppHost(app: TwoGroups(), storageDirectory: host.storageFile.deletingLastPathComponent().path)
        #expect(restarted.scene(id: inspector.id)?.document().contains("Inspecting") == true)
    }

    @Test func oneRowChangeOfAThousandIsASmallPatch() throws {
        let rows = Rows()
        let w = window { BigList(rows: rows) }
        rows.names[500] = "Changed"
        let patches = w.flush()
        #expect(patches.count == 1)
        let size = patches.map(\.json).joined().utf8.count
        #expect(size < 200)
        rows.names.append("Appended")
        let appended = w.flush()
        #expect(appended.count == 1)
        if case .insert(_, nil, let html) = appended[0] { #expect(html.contains("Appended")) } else { Issue.record("expected insert") }
        rows.names.removeFirst()
        let removed = w.flush()
        // Rows are identified by index here, so removing the first shifts every row's text; still no full replace of the list.
        #expect(!removed.contains { if case .replace = $0 { return true }; return false })
    }
}
