import Foundation
import Testing

@testable import SwiftUIWeb

/// `EditButton`, the window's edit mode, and `onDelete` / `onMove` on a list's rows.
@MainActor
@Suite("Edit mode")
struct EditModeTests {
    struct Doses: View {
        @State private var names = ["Aspirin", "Ibuprofen", "Paracetamol"]
        @Environment(\.editMode) private var editMode
        var body: some View {
            VStack {
                EditButton()
                Text(editMode?.wrappedValue.isEditing == true ? "Editing" : "Viewing")
                List {
                    ForEach(names, id: \.self) { Text($0) }
                        .onDelete { names.remove(atOffsets: $0) }
                        .onMove { names.move(fromOffsets: $0, toOffset: $1) }
                }
                Text(names.joined(separator: ","))
            }
        }
    }

    private func control(_ scene: SceneInstance, _ label: String, row: String) -> String? {
        scene.tree.first {
            $0.attr("class")?.contains("sw-editable") == true && $0.textContent.contains(row)
        }?.children.first { $0.attr("aria-label") == label }?.id
    }

    @Test func deleteWithoutEditing() throws {
        let scene = window { Doses() }
        #expect(scene.text("Viewing"))
        // Not editing: a trailing delete button per row (shown on hover or focus), no move buttons.
        let delete = try #require(control(scene, "Delete", row: "Ibuprofen"))
        #expect(control(scene, "Move up", row: "Ibuprofen") == nil)
        scene.handle(event: ClientEvent(t: "click", id: delete))
        #expect(scene.text("Aspirin,Paracetamol"))
    }

    @Test func editButtonShowsMoveControls() throws {
        let scene = window { Doses() }
        scene.click("Edit")
        #expect(scene.text("Editing"))
        #expect(scene.text("Done"))
        // The first row cannot move up, the last cannot move down.
        #expect(control(scene, "Move up", row: "Aspirin") == nil)
        #expect(control(scene, "Move down", row: "Paracetamol") == nil)
        let down = try #require(control(scene, "Move down", row: "Aspirin"))
        scene.handle(event: ClientEvent(t: "click", id: down))
        #expect(scene.text("Ibuprofen,Aspirin,Paracetamol"))
        let up = try #require(control(scene, "Move up", row: "Paracetamol"))
        scene.handle(event: ClientEvent(t: "click", id: up))
        #expect(scene.text("Ibuprofen,Paracetamol,Aspirin"))
        let delete = try #require(control(scene, "Delete", row: "Aspirin"))
        #expect(scene.tree.find(id: delete)?.attr("class")?.contains("sw-editing") == true)
        scene.handle(event: ClientEvent(t: "click", id: delete))
        #expect(scene.text("Ibuprofen,Paracetamol"))
        scene.click("Done")
        #expect(scene.text("Viewing"))
    }

    @Test func eachWindowHasItsOwnEditMode() {
        let host = AppHost(app: Harness { Doses() }, storageDirectory: tempDir())
        let one = host.newScene()
        let two = host.newScene()
        _ = one.document()
        _ = two.document()
        one.click("Edit")
        #expect(one.text("Editing"))
        two.flush()
        #expect(two.text("Viewing"))
    }

    @Test func outsideAListRowsHaveNoControls() {
        let scene = window {
            VStack { ForEach(["a", "b"], id: \.self) { Text($0) }.onDelete { _ in } }
        }
        #expect(scene.tree.first { $0.attr("aria-label") == "Delete" } == nil)
    }
}

/// `searchable`: a search field bound to the text a view filters by.
@MainActor
@Suite("Searchable")
struct SearchableTests {
    struct Catalog: View {
        @State private var query = ""
        let names = ["Aspirin", "Ibuprofen", "Paracetamol"]
        var body: some View {
            NavigationStack {
                List(names.filter { query.isEmpty || $0.localizedCaseInsensitiveContains(query) }, id: \.self) {
                    Text($0)
                }
                .searchable(text: $query, prompt: "Find a medication")
            }
        }
    }

    @Test func typingFilters() throws {
        let scene = window { Catalog() }
        let field = try #require(scene.tree.first { $0.attr("role") == "searchbox" })
        #expect(field.attr("placeholder") == "Find a medication" && field.attr("aria-label") == "Find a medication")
        #expect(scene.tree.first { $0.attr("role") == "search" } != nil)
        scene.handle(event: ClientEvent(t: "input", id: field.id, v: "pro"))
        #expect(scene.text("Ibuprofen") && !scene.text("Aspirin"))
        scene.handle(event: ClientEvent(t: "input", id: field.id, v: ""))
        #expect(scene.text("Aspirin"))
    }

    @Test func toolbarPlacementPutsTheFieldInTheWindowBar() throws {
        struct InToolbar: View {
            @State private var query = ""
            var body: some View {
                Text("Results for \(query)").searchable(text: $query, placement: .toolbar)
            }
        }
        let scene = window { InToolbar() }
        let bar = try #require(scene.tree.find(id: "bar.r"))
        #expect(bar.first { $0.attr("role") == "searchbox" }?.attr("placeholder") == "Search")
    }
}

/// The collection helpers SwiftUI gives `onDelete` and `onMove` handlers.
@Suite("Collection editing")
struct CollectionEditingTests {
    @Test func moveAndRemoveByOffsets() {
        var a = ["a", "b", "c", "d", "e"]
        a.move(fromOffsets: [1, 3], toOffset: 5)
        #expect(a == ["a", "c", "e", "b", "d"])
        a.move(fromOffsets: [4], toOffset: 0)
        #expect(a == ["d", "a", "c", "e", "b"])
        a.move(fromOffsets: [0], toOffset: 2)
        #expect(a == ["a", "d", "c", "e", "b"])
        a.remove(atOffsets: [0, 2, 4])
        #expect(a == ["d", "e"])
        var empty: [Int] = []
        empty.remove(atOffsets: [])
        #expect(empty.isEmpty)
    }
}
