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

/// Picker styles that draw what they name.
@MainActor
@Suite("Picker styles")
struct PickerStyleTests {
    struct Form1: View {
        @State private var dose = "Morning"
        var body: some View {
            VStack {
                Picker("When", selection: $dose) {
                    Text("Morning").tag("Morning")
                    Text("Evening").tag("Evening")
                }
                .pickerStyle(.radioGroup)
                Picker("Again", selection: $dose) {
                    Text("Morning").tag("Morning")
                    Text("Evening").tag("Evening")
                    Text("Night").tag("Night")
                }
                .pickerStyle(.wheel)
                Text("Chosen: \(dose)")
            }
        }
    }

    @Test func radioGroupsAndWheels() throws {
        let scene = window { Form1() }
        let radios = scene.tree.all { $0.attr("type") == "radio" }
        #expect(radios.count == 2 && radios[0].attr("checked") == "true" && radios[1].attr("checked") == "false")
        #expect(scene.tree.first { $0.attr("role") == "radiogroup" } != nil)
        scene.handle(event: ClientEvent(t: "click", id: radios[1].id))
        _ = scene.document()
        #expect(scene.text("Chosen: Evening"))
        #expect(scene.tree.all { $0.attr("type") == "radio" }[1].attr("checked") == "true")
        let wheel = try #require(scene.tree.first { $0.cssClass.contains("sw-wheel") })
        #expect(wheel.tag == "select" && wheel.attr("size") == "3")
        scene.handle(event: ClientEvent(t: "input", id: wheel.id, v: "2"))
        _ = scene.document()
        #expect(scene.text("Chosen: Night"))
    }
}

@MainActor
@Suite("Grid rows")
struct GridRowAlignmentTests {
    @Test func aRowsAlignmentGoesOnItsCells() {
        let scene = window {
            Grid {
                GridRow(alignment: .bottom) {
                    Text("Dose")
                    Text("Time").padding()
                }
                GridRow {
                    Text("One")
                }
            }
        }
        let rows = scene.tree.all { $0.cssClass == "sw-gridrow" }
        #expect(rows.count == 2)
        #expect(rows[0].children.allSatisfy { $0.attr("style")?.contains("align-self:end") == true })
        #expect(rows[1].children.allSatisfy { $0.attr("style")?.contains("align-self") != true })
    }
}
