import Foundation
import Testing
@testable import SwiftUIWeb

struct FieldView: View {
    @State var name = ""
    @State var password = ""
    @State var submitted = 0
    var body: some View {
        VStack {
            TextField("Name", text: $name).onSubmit { submitted += 1 }
            SecureField("Password", text: $password)
            Text("Hello \(name)")
            Text("Submitted \(submitted)")
            Button("Clear") { name = "" }
        }
    }
}

struct ToggleView: View {
    @State var on = false
    @State var level = 0.25
    @State var count = 1
    var body: some View {
        VStack {
            Toggle("Notifications", isOn: $on)
            Text(on ? "On" : "Off")
            Button("Flip") { on.toggle() }
            Slider(value: $level, in: 0...1, step: 0.05)
            Text("Level \(level)")
            Stepper("Count", value: $count, in: 0...2)
            Text("Count \(count)")
        }
    }
}

enum Flavor: String, CaseIterable, Identifiable { case vanilla, chocolate, mint; var id: Self { self } }

struct PickerView: View {
    @State var flavor = Flavor.chocolate
    @State var size = 1
    var body: some View {
        VStack {
            Picker("Flavor", selection: $flavor) {
                ForEach(Flavor.allCases) { Text($0.rawValue.capitalized) }
            }
            Picker("Size", selection: $size) {
                Text("Small").tag(0)
                Text("Medium").tag(1)
                Text("Large").tag(2)
            }
            .pickerStyle(.segmented)
            Text("\(flavor.rawValue) \(size)")
        }
    }
}

struct DateView: View {
    @State var date = Date(timeIntervalSince1970: 0)
    var body: some View {
        VStack {
            DatePicker("Day", selection: $date, displayedComponents: .date)
            Text(String(Int(date.timeIntervalSince1970)))
        }
        .environment(\.timeZone, TimeZone(identifier: "UTC")!)
    }
}

@Suite @MainActor struct ControlTests {
    @Test func textFieldIsTwoWayAndDoesNotEchoTyping() throws {
        let w = window { FieldView() }
        let field = try #require(w.tree.first { $0.tag == "input" && $0.attr("placeholder") == "Name" })
        #expect(field.attr("data-input") == "1" && field.attr("value") == "")
        let patches = w.input(field.id, "Ada")
        #expect(hasText(patches, "Hello Ada"))
        // The field already shows what was typed: no value patch goes back to it.
        #expect(!patches.contains { if case .attribute(field.id, "value", _) = $0 { return true }; return false })
        // A change made on the server does reach the field.
        let cleared = w.click("Clear")
        #expect(cleared.contains(.attribute(id: field.id, name: "value", value: "")))
        // Return in the field runs onSubmit.
        w.input(field.id, "Grace")
        let submitted = w.handle(event: ClientEvent(t: "submit", id: field.id))
        #expect(hasText(submitted, "Submitted 1"))
        let secure = try #require(w.tree.first { $0.attr("type") == "password" })
        #expect(secure.attr("placeholder") == "Password")
    }

    @Test func toggleSliderStepper() throws {
        let w = window { ToggleView() }
        let box = try #require(w.tree.first { $0.attr("type") == "checkbox" })
        #expect(box.attr("checked") == "false")
        #expect(hasText(w.input(box.id, "true"), "On"))
        // Changed on the server: the checkbox follows.
        #expect(w.click("Flip").contains(.attribute(id: box.id, name: "checked", value: "false")))
        let slider = try #require(w.tree.first { $0.attr("type") == "range" })
        #expect(slider.attr("min") == "0" && slider.attr("max") == "1" && slider.attr("step") == "0.05")
        #expect(hasText(w.input(slider.id, "0.5"), "Level 0.5"))
        #expect(hasText(w.input(slider.id, "7"), "Level 1.0"))   // clamped
        w.input(slider.id, "not a number")
        #expect(w.text("Level 1.0"))
        let inc = try #require(w.tree.first { $0.attr("aria-label") == "Increment" })
        w.handle(event: ClientEvent(t: "click", id: inc.id))
        #expect(w.text("Count 2"))
        // At the upper bound the increment button is disabled and its event ignored.
        let incAfter = try #require(w.tree.first { $0.attr("aria-label") == "Increment" })
        #expect(incAfter.attr("disabled") == "true")
        #expect(w.handle(event: ClientEvent(t: "click", id: inc.id)).isEmpty)
        #expect(w.text("Count 2"))
        #expect(w.html.contains("<svg"))
    }

    @Test func pickerMenuAndSegmented() throws {
        let w = window { PickerView() }
        let select = try #require(w.element("select"))
        let options = select.children
        #expect(options.map(\.textContent) == ["Vanilla", "Chocolate", "Mint"])
        #expect(options[1].attr("selected") == "true")
        #expect(hasText(w.input(select.id, "2"), "mint 1"))
        #expect(w.element("select")!.children[2].attr("selected") == "true")
        w.input(select.id, "99")   // out of range: ignored
        #expect(w.text("mint 1"))
        let on = try #require(w.tree.first { $0.cssClass.contains("sw-on") })
        #expect(on.textContent == "Medium")
        #expect(hasText(w.click("Large"), "mint 2"))
    }

    @Test func datePickerParsesDays() throws {
        let w = window { DateView() }
        let input = try #require(w.tree.first { $0.attr("type") == "date" })
        #expect(input.attr("value") == "1970-01-01")
        w.input(input.id, "2024-03-05")
        #expect(w.text("1709596800"))
        w.input(input.id, "garbage")
        #expect(w.text("1709596800"))
    }
}
