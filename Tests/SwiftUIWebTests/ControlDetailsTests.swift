import Foundation
import Testing

@testable import SwiftUIWeb

/// Details that used to be accepted without effect: a slider's editing callback, an inline navigation title, a
/// template image.
@MainActor
@Suite("Control details")
struct ControlDetailsTests {
    struct Volume: View {
        @State private var level = 0.5
        @State private var edits: [Bool] = []
        var body: some View {
            VStack {
                Slider(value: $level, in: 0...1) { editing in edits.append(editing) }
                Text("Edits: " + edits.map { $0 ? "start" : "end" }.joined(separator: ","))
            }
        }
    }

    @Test func aSliderSaysWhenAnEditStartsAndEnds() throws {
        let scene = window { Volume() }
        let slider = try #require(scene.tree.first { $0.attr("type") == "range" })
        let editing = try #require(slider.attr("data-editing"))
        scene.handle(event: ClientEvent(t: "input", id: editing, v: "1"))
        scene.handle(event: ClientEvent(t: "input", id: slider.id, v: "0.8"))
        scene.handle(event: ClientEvent(t: "input", id: editing, v: "0"))
        scene.handle(event: ClientEvent(t: "input", id: editing, v: "maybe"))
        _ = scene.document()
        #expect(scene.text("Edits: start,end"))
        let off = window { Slider(value: .constant(0.2)).disabled(true) }
        #expect(off.tree.first { $0.attr("type") == "range" }?.attr("data-editing") == nil)
    }

    @Test func inlineTitlesAndTemplateImages() {
        let scene = window {
            NavigationStack {
                VStack {
                    Image("pill").renderingMode(.template).foregroundStyle(.red)
                    Image("pill").renderingMode(.original)
                }
                .navigationTitle("Doses")
                .navigationBarTitleDisplayMode(.inline)
            }
        }
        #expect(scene.tree.first { $0.cssClass.contains("sw-title-inline") }?.textContent == "Doses")
        let template = scene.tree.first { $0.cssClass.contains("sw-template") }
        #expect(template?.attr("style")?.contains("mask:url(\"/_swiftuiweb/images/pill\")") == true)
        #expect(template?.attr("aria-label") == "pill")
        #expect(scene.tree.first { $0.tag == "img" && $0.attr("src") == "/_swiftuiweb/images/pill" } != nil)
        let large = window {
            NavigationStack { Text("x").navigationTitle("Big").navigationBarTitleDisplayMode(.large) }
        }
        #expect(large.tree.first { $0.cssClass == "sw-title" }?.textContent == "Big")
    }
}
