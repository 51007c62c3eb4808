import Foundation
import Testing

@testable import SwiftUIWeb

/// `ColorPicker`: the browser's color chooser and an opacity slider, bound to a `Color`.
@MainActor
@Suite("Color picker")
struct ColorPickerTests {
    struct Tint: View {
        @State var color = Color.blue
        var body: some View {
            VStack {
                ColorPicker("Pill color", selection: $color)
                ColorPicker("No opacity", selection: $color, supportsOpacity: false)
                Text("Color: \(color.cssColor)")
            }
        }
    }

    @Test func picksAColorAndAnOpacity() throws {
        let scene = window { Tint() }
        let wells = scene.tree.all { $0.attr("type") == "color" }
        #expect(wells.count == 2 && wells[0].attr("value") == "#007aff")
        #expect(scene.tree.all { $0.attr("aria-label") == "Opacity" }.count == 1)
        scene.handle(event: ClientEvent(t: "input", id: wells[0].id, v: "#ff8000"))
        _ = scene.document()
        #expect(scene.text("Color: rgba(255,128,0,1)"))
        let opacity = try #require(scene.tree.first { $0.attr("aria-label") == "Opacity" })
        scene.handle(event: ClientEvent(t: "input", id: opacity.id, v: "0.5"))
        _ = scene.document()
        #expect(scene.text("Color: rgba(255,128,0,0.5)"))
        // A new color keeps the opacity; input that is not a color changes nothing.
        scene.handle(event: ClientEvent(t: "input", id: wells[1].id, v: "#000000"))
        _ = scene.document()
        #expect(scene.text("Color: rgba(0,0,0,0.5)"))
        for bad in ["red", "#12", "#gggggg", "", "javascript:1"] {
            scene.handle(event: ClientEvent(t: "input", id: wells[0].id, v: bad))
        }
        _ = scene.document()
        #expect(scene.text("Color: rgba(0,0,0,0.5)"))
        #expect(scene.tree.first { $0.attr("type") == "color" }?.attr("value") == "#000000")
    }

    @Test func componentsAreReadFromEveryColorForm() {
        #expect(RGBA(css: "#fff").hex == "#ffffff")
        #expect(RGBA(css: "rgba(255,128,0,0.25)") == RGBA(red: 1, green: 128 / 255, blue: 0, alpha: 0.25))
        #expect(RGBA(css: Color.accentColor.cssColor).hex == "#007aff")
        #expect(RGBA(css: "linear-gradient(red,blue)").hex == "#000000")
    }
}
