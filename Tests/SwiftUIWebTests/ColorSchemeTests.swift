import Foundation
import Testing

@testable import SwiftUIWeb

/// Light and dark: the system's appearance as the page reports it, and a window's `preferredColorScheme`.
@MainActor
@Suite("Color scheme")
struct ColorSchemeTests {
    struct SchemeLabel: View {
        @Environment(\.colorScheme) var scheme
        var body: some View { Text(scheme == .dark ? "Scheme: dark" : "Scheme: light") }
    }

    @Test func theSystemsAppearanceReachesTheEnvironment() {
        let scene = window { SchemeLabel() }
        #expect(scene.text("Scheme: light"))
        #expect(scene.tree.first { $0.id == "root" }?.attr("data-scheme") == "")
        let patches = scene.handle(event: ClientEvent(t: "scheme", id: "", v: "dark"))
        #expect(hasText(patches, "Scheme: dark"))
        // The same report again changes nothing.
        #expect(scene.handle(event: ClientEvent(t: "scheme", id: "", v: "dark")).isEmpty)
        #expect(hasText(scene.handle(event: ClientEvent(t: "scheme", id: "", v: "light")), "Scheme: light"))
    }

    struct Preferring: View {
        @State var dark = true
        var body: some View {
            VStack {
                SchemeLabel()
                Toggle("Dark", isOn: $dark)
            }
            .preferredColorScheme(dark ? .dark : nil)
        }
    }

    @Test func aWindowsPreferenceWinsOverTheSystemAndTurnsItsStylesheet() throws {
        let scene = window { Preferring() }
        // The first render learns the preference; the window renders again with it.
        _ = scene.document()
        #expect(scene.text("Scheme: dark"))
        #expect(scene.tree.first { $0.id == "root" }?.attr("data-scheme") == "dark")
        // The system turning light changes nothing while the window prefers dark.
        #expect(scene.handle(event: ClientEvent(t: "scheme", id: "", v: "light")).isEmpty)
        // Dropping the preference (nil) gives the system's back, with the root's attribute patched.
        let toggle = try #require(scene.tree.first { $0.tag == "input" && $0.attr("type") == "checkbox" })
        let patches = scene.handle(event: ClientEvent(t: "input", id: toggle.id, v: "false"))
        #expect(patches.contains(.attribute(id: "root", name: "data-scheme", value: "")))
        #expect(hasText(patches, "Scheme: light"))
    }

    @Test func theOutermostPreferenceWins() {
        let scene = window {
            VStack {
                Text("inner").preferredColorScheme(.light)
            }
            .preferredColorScheme(.dark)
        }
        _ = scene.document()
        #expect(scene.tree.first { $0.id == "root" }?.attr("data-scheme") == "dark")
    }

    @Test func theStylesheetHasADarkVariant() {
        #expect(ClientAssets.css.contains("html.sw-dark{color-scheme:dark;"))
        #expect(ClientAssets.script.contains("prefers-color-scheme: dark"))
    }
}
