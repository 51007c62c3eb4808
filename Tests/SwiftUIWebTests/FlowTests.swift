import Foundation
import Testing
@testable import SwiftUIWeb

struct SheetView: View {
    @State var showSheet = false
    @State var showAlert = false
    @State var log: [String] = []
    var body: some View {
        VStack {
            Button("Open") { showSheet = true }
            Button("Warn") { showAlert = true }
            Text(log.joined(separator: ","))
        }
        .sheet(isPresented: $showSheet, onDismiss: { log.append("dismissed") }) { SheetContent() }
        .alert("Delete?", isPresented: $showAlert) {
            Button("Delete", role: .destructive) { log.append("deleted") }
            Button("Cancel", role: .cancel) {}
        } message: { Text("This cannot be undone.") }
    }
}

struct SheetContent: View {
    @Environment(\.dismiss) private var dismiss
    @State private var text = "draft"
    var body: some View {
        VStack { Text("In sheet: \(text)"); Button("Done") { dismiss() } }
    }
}

struct Item: Identifiable, Hashable { let id: Int; let name: String }

struct SplitView: View {
    let items = [Item(id: 1, name: "One"), Item(id: 2, name: "Two")]
    @State var selection: Int?
    var body: some View {
        NavigationSplitView {
            List(items, selection: $selection) { item in Text(item.name) }
                .navigationTitle("Items")
        } detail: {
            if let selection { Text("Detail \(selection)") } else { Text("Nothing selected") }
        }
    }
}

struct StackView: View {
    var body: some View {
        NavigationStack {
            List {
                NavigationLink("Show 7", value: 7)
                NavigationLink("Plain", destination: Text("Plain destination").navigationTitle("Plain"))
            }
            .navigationTitle("Root")
            .navigationDestination(for: Int.self) { n in Text("Number \(n)").navigationTitle("N\(n)") }
        }
    }
}

@Suite @MainActor struct FlowTests {
    @Test func sheetPresentsDismissesAndCallsOnDismiss() throws {
        let w = window { SheetView() }
        #expect(w.element("div", class: "sw-overlay") == nil)
        let opened = w.click("Open")
        #expect(hasText(opened, "In sheet: draft"))
        #expect(w.element("div", class: "sw-sheet")?.attr("role") == "dialog")
        w.click("Done")   // @Environment(\.dismiss)
        #expect(w.element("div", class: "sw-overlay") == nil)
        #expect(w.text("dismissed"))
        // Escape (the client sends the overlay's escape id) dismisses too.
        w.click("Open")
        let esc = try #require(w.element("div", class: "sw-overlay")?.attr("data-escape"))
        w.handle(event: ClientEvent(t: "click", id: esc))
        #expect(w.element("div", class: "sw-overlay") == nil)
        #expect(w.text("dismissed,dismissed"))
    }

    @Test func alertButtonsRunAndDismiss() throws {
        let w = window { SheetView() }
        w.click("Warn")
        let alert = try #require(w.element("div", class: "sw-alert"))
        #expect(alert.textContent.contains("Delete?") && alert.textContent.contains("This cannot be undone."))
        #expect(alert.first { $0.cssClass.contains("sw-role-destructive") }?.textContent == "Delete")
        w.click("Delete")
        #expect(w.element("div", class: "sw-alert") == nil)
        #expect(w.text("deleted"))
    }

    @Test func splitViewSelectionShowsDetail() throws {
        let w = window { SplitView() }
        #expect(w.text("Nothing selected"))
        #expect(w.title == "Items")
        let patches = w.click("Two")
        #expect(hasText(patches, "Detail 2"))
        let row = try #require(w.tree.first { $0.cssClass.contains("sw-row") && $0.textContent == "Two" })
        #expect(row.cssClass.contains("sw-selected"))
    }

    @Test func stackPushesValuesAndViewsAndGoesBack() throws {
        let w = window { StackView() }
        #expect(w.title == "Root")
        w.click("Show 7")
        #expect(w.text("Number 7") && !w.text("Show 7"))
        #expect(w.title == "N7")
        let back = try #require(w.tree.first { $0.attr("aria-label") == "Back" })
        w.handle(event: ClientEvent(t: "click", id: back.id))
        #expect(w.text("Show 7") && w.title == "Root")
        w.click("Plain")
        #expect(w.text("Plain destination") && w.title == "Plain")
    }
}
