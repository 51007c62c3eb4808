import Foundation
import Testing
@testable import SwiftUIWeb

struct LayoutView: View {
    @State var show = false
    var body: some View {
        Form {
            Section("Profile") {
                Label("Favorites", systemImage: "star.fill")
                Label("Unknown", systemImage: "no.such.symbol")
            }
            Section {
                ZStack { Color.blue; Text("Over") }
                Divider()
                ScrollView { Text("Scrolled") }
                Grid {
                    GridRow { Text("a"); Text("b"); Text("c") }
                    GridRow { Text("d"); Text("e") }
                    Divider()
                }
            } footer: { Text("Footer") }
            Text("Loose row")
        }
    }
}

struct StyleView: View {
    @State var taps = 0
    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text("Big").font(.largeTitle).foregroundStyle(.secondary)
            Text("Boxed").padding(8).background(.yellow).frame(width: 120, height: 40)
            Text("Wide").frame(maxWidth: .infinity, alignment: .leading)
            Text("Ghost").hidden()
            Button("Tap") { taps += 1 }.disabled(true)
            Button("Go") { taps += 10 }.buttonStyle(.borderedProminent)
            Text("Taps \(taps)")
            Text("Bold").bold() + Text(" plain")
        }
    }
}

@Suite @MainActor struct LayoutTests {
    @Test func formSectionsLabelsImagesContainers() throws {
        let w = window { LayoutView() }
        let form = try #require(w.element("div", class: "sw-form"))
        let sections = form.children
        #expect(sections.count == 3)   // two sections + the implicit one for the loose row
        #expect(sections[0].first { $0.cssClass == "sw-section-header" }?.textContent == "Profile")
        #expect(sections[1].first { $0.cssClass == "sw-section-footer" }?.textContent == "Footer")
        #expect(sections[2].textContent == "Loose row")
        let rows = try #require(sections[0].first { $0.cssClass == "sw-section-rows" })
        #expect(rows.children.count == 2 && rows.children.allSatisfy { $0.cssClass == "sw-row" })
        // Symbols are inline SVG; an unknown name draws a placeholder, never a network request.
        let symbols = form.all { $0.cssClass.contains("sw-symbol") }
        #expect(symbols.count == 2)
        #expect(symbols[0].raw?.contains("fill=\"currentColor\"") == true)
        #expect(symbols[1].raw?.contains("stroke-dasharray") == true)
        #expect(!w.html.contains("http"))
        #expect(w.element("div", class: "sw-zstack")?.children.count == 2)
        #expect(w.element("hr") != nil)
        #expect(w.element("div", class: "sw-scroll")?.textContent == "Scrolled")
        let grid = try #require(w.element("div", class: "sw-grid"))
        #expect(grid.attr("style")?.contains("repeat(3,auto)") == true)
        #expect(grid.children.last?.attr("style") == "grid-column:1/-1")
    }

    @Test func styleModifiersAndDisabled() throws {
        let w = window { StyleView() }
        // Text's own modifiers style the text run itself.
        let big = try #require(w.tree.first { $0.textContent == "Big" && $0.tag == "span" })
        #expect(big.attr("style") == "font-size:34px;font-weight:700;color:var(--sw-secondary)")
        #expect(w.html.contains("padding:8px") && w.html.contains("background:#ffcc00") && w.html.contains("width:120px"))
        #expect(w.html.contains("visibility:hidden"))
        let stack = try #require(w.element("div", class: "sw-vstack"))
        #expect(stack.attr("style") == "align-items:flex-start;gap:4px")
        // A disabled button renders disabled and its action never runs, whatever the client sends.
        let tap = try #require(w.tree.first { $0.tag == "button" && $0.textContent == "Tap" })
        #expect(tap.attr("disabled") == "true" && tap.attr("data-click") == "1")
        #expect(w.handle(event: ClientEvent(t: "click", id: tap.id)).isEmpty)
        #expect(w.text("Taps 0"))
        #expect(w.tree.first { $0.textContent == "Go" && $0.tag == "button" }?.cssClass.contains("sw-prominent") == true)
        w.click("Go")
        #expect(w.text("Taps 10"))
        #expect(w.html.contains("font-weight:700\">Bold</span>"))
    }
}
