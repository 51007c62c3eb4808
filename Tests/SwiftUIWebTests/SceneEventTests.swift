import Foundation
import Testing
@testable import SwiftUIWeb

final class Store: ObservableObject {
    @Published var items = ["A", "B", "C"]
}

struct Shared: App {
    @StateObject var store = Store()
    var body: some Scene { WindowGroup { Counter(store: store) } }
}

struct Counter: View {
    @ObservedObject var store: Store
    @State private var count = 0
    @SceneStorage("note") private var note: String?
    var body: some View {
        VStack {
            Text("Count \(count)")
            Button("Increment") { count += 1 }
            Button("Add") { store.items.append("<x>") }
            Button("Note") { note = "saved" }
            Text(note ?? "none")
            List(store.items, id: \.self) { Text($0) }
        }
        .navigationTitle("Count \(count)")
    }
}

func tempDir() -> String { NSTemporaryDirectory() + "swiftuiweb-" + UUID().uuidString }

@MainActor
func buttonID(_ scene: SceneInstance, _ label: String) -> String {
    func find(_ n: Node) -> String? {
        if n.tag == "button", n.children.first?.text == label { return n.id }
        for c in n.children { if let f = find(c) { return f } }
        return nil
    }
    return find(scene.lastTree!)!
}

@Suite @MainActor struct SceneEventTests {
    @Test func clickSendsMinimalTextPatchAndTitle() {
        let host = AppHost(app: Shared(), storageDirectory: tempDir())
        let scene = host.newScene()
        let html = scene.document()
        #expect(html.contains("Count 0"))
        #expect(html.contains("<title>Count 0</title>"))
        let patches = scene.handle(event: ClientEvent(t: "click", id: buttonID(scene, "Increment")))
        #expect(patches.contains(.title("Count 1")))
        #expect(patches.contains { if case .text(_, "Count 1") = $0 { return true }; return false })
        #expect(!patches.contains { if case .replace = $0 { return true }; return false })
    }

    @Test func windowsHaveOwnStateButShareAppState() async {
        let host = AppHost(app: Shared(), storageDirectory: tempDir())
        let a = host.newScene(), b = host.newScene()
        _ = a.document(); _ = b.document()
        a.handle(event: ClientEvent(t: "click", id: buttonID(a, "Increment")))
        #expect(b.flush().isEmpty)
        a.handle(event: ClientEvent(t: "click", id: buttonID(a, "Add")))
        let patchesB = b.flush()
        #expect(patchesB.contains { if case .insert(_, _, let html) = $0 { return html.contains("&lt;x&gt;") }; return false })
        #expect(b.lastTree!.html.contains("Count 0"))
        #expect(a.lastTree!.html.contains("Count 1"))
    }

    @Test func sceneStorageSurvivesRestart() {
        let dir = tempDir()
        let host = AppHost(app: Shared(), storageDirectory: dir)
        let scene = host.newScene()
        _ = scene.document()
        scene.handle(event: ClientEvent(t: "click", id: buttonID(scene, "Note")))
        let other = host.newScene()
        #expect(other.document().contains("none"))
        host.saveStorage()
        let restarted = AppHost(app: Shared(), storageDirectory: dir)
        #expect(restarted.scene(id: scene.id)?.document().contains("saved") == true)
        #expect(restarted.scene(id: "unknown") == nil)
    }

    @Test func textIsEscapedAndIdsAreUnguessable() {
        let host = AppHost(app: Shared(), storageDirectory: tempDir())
        let a = host.newScene(), b = host.newScene()
        #expect(a.id.count == 32 && a.id != b.id)
        _ = a.document()
        a.handle(event: ClientEvent(t: "click", id: buttonID(a, "Add")))
        #expect(!a.document().contains("<x>"))
        #expect(a.handle(event: ClientEvent(t: "click", id: "nonexistent")).isEmpty)
    }
}
