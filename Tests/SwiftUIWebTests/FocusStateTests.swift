import Foundation
import Testing

@testable import SwiftUIWeb

/// `@FocusState` with `focused(_:equals:)` and `focused(_:)`: the page's focus read as a value, and moved by
/// setting it.
@MainActor
@Suite("Focus state")
struct FocusStateTests {
    enum Field: Hashable { case name, password }

    struct SignIn: View {
        @State private var name = ""
        @State private var password = ""
        @FocusState private var field: Field?
        @FocusState private var notesFocused: Bool
        var body: some View {
            VStack {
                TextField("Name", text: $name).focused($field, equals: .name).onSubmit { field = .password }
                SecureField("Password", text: $password).focused($field, equals: .password)
                TextField("Notes", text: .constant("")).focused($notesFocused)
                Text("Focused: \(field.map { "\($0)" } ?? "none")")
                Text(notesFocused ? "Notes focused" : "Notes not focused")
                Button("Name first") { field = .name }
                Button("Done") { field = nil }
            }
        }
    }

    private func element(_ scene: SceneInstance, _ placeholder: String) -> String? {
        scene.tree.first { $0.attr("placeholder") == placeholder }?.id
    }

    @Test func readingFollowsThePage() throws {
        let scene = window { SignIn() }
        #expect(scene.text("Focused: none"))
        let name = try #require(element(scene, "Name"))
        scene.handle(event: ClientEvent(t: "focus", id: name))
        #expect(scene.text("Focused: name"))
        let notes = try #require(element(scene, "Notes"))
        scene.handle(event: ClientEvent(t: "focus", id: notes))
        #expect(scene.text("Focused: none") && scene.text("Notes focused"))
        // Focus left the page's controls.
        scene.handle(event: ClientEvent(t: "focus", id: ""))
        #expect(scene.text("Notes not focused"))
    }

    @Test func settingMovesThePagesFocus() throws {
        let scene = window { SignIn() }
        let name = try #require(element(scene, "Name"))
        let password = try #require(element(scene, "Password"))
        let patches = scene.click("Name first")
        #expect(patches.contains(.focus(id: name)))
        #expect(scene.text("Focused: name"))
        // Return in the name field moves on to the password, as the app's onSubmit says.
        let next = scene.handle(event: ClientEvent(t: "submit", id: name))
        #expect(next.contains(.focus(id: password)))
        #expect(next.last == .focus(id: password))  // After the patches that render the change.
        #expect(scene.text("Focused: password"))
        #expect(scene.click("Done").contains(.focus(id: "")))
        #expect(scene.text("Focused: none"))
        #expect(Patch.focus(id: "a").json == #"{"op":"focus","id":"a"}"#)
    }

    @Test func clearingAStateWhoseControlIsNotFocusedMovesNothing() throws {
        let scene = window { SignIn() }
        let notes = try #require(element(scene, "Notes"))
        scene.handle(event: ClientEvent(t: "focus", id: notes))
        let patches = scene.click("Done")
        #expect(!patches.contains(.focus(id: "")))
        #expect(scene.text("Notes focused"))
    }
}
