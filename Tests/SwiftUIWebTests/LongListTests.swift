import Foundation
import Testing

@testable import SwiftUIWeb

/// A row model for long lists.
private struct LongItem: Identifiable, Hashable {
    let id: Int
    var title: String { "Item \(id)" }
}

/// Counts the rows a list evaluated (from several windows, on the main actor).
@MainActor
private final class RowCounter {
    var evaluated: Set<Int> = []
}

/// Long lists render only a window of their rows, moved by the page's `window` events.
@MainActor
@Suite("Long lists")
struct LongListTests {
    private let items = (0..<100_000).map(LongItem.init(id:))

    /// The ids of the rows rendered (their text), in order.
    private func rows(_ scene: SceneInstance) -> [String] {
        scene.tree.all { $0.tag == "span" && ($0.text ?? "").hasPrefix("Item ") }.compactMap(\.text)
    }

    private func pads(_ scene: SceneInstance) -> (before: Node, after: Node)? {
        let all = scene.tree.all { $0.isWindowPad }
        guard all.count == 2 else { return nil }
        return (all[0], all[1])
    }

    @Test func aListOfOneHundredThousandRowsRendersAWindow() throws {
        let counter = RowCounter()
        let items = self.items
        let scene = window {
            List(items) { item in
                let _ = counter.evaluated.insert(item.id)
                Text(item.title)
            }
        }
        #expect(rows(scene).count == RowWindow.initial.shown)
        #expect(rows(scene).first == "Item 0")
        #expect(counter.evaluated.count == RowWindow.initial.shown)  // The other rows were never evaluated.
        let (before, after) = try #require(pads(scene))
        #expect(before.attr("data-count") == "100000")
        #expect(before.attr("data-first") == "0")
        #expect(before.attr("aria-hidden") == "true" && after.attr("aria-hidden") == "true")
        let id = try #require(before.attr("data-window"))

        // The page scrolled to the middle: it asks for rows 50,000 to 50,090.
        let patches = scene.handle(event: ClientEvent(t: "window", id: id, a: 50_000, d: 90))
        #expect(rows(scene).first == "Item 50000" && rows(scene).last == "Item 50089")
        #expect(counter.evaluated.count == RowWindow.initial.shown + 90)
        // The patches remove the old rows, insert the new ones and move the spacer's numbers; the list stays.
        #expect(!patches.contains { if case .replace = $0 { return true } else { return false } })
        #expect(patches.contains(.attribute(id: before.id, name: "data-first", value: "50000")))
        let removed = patches.filter { if case .remove = $0 { return true } else { return false } }
        #expect(removed.count == RowWindow.initial.shown)

        // Scrolling by a few rows sends only those rows.
        let step = scene.handle(event: ClientEvent(t: "window", id: id, a: 50_010, d: 90))
        #expect(step.filter { if case .remove = $0 { return true } else { return false } }.count == 10)
        #expect(step.filter { if case .insert = $0 { return true } else { return false } }.count == 10)

        // The last rows: a window past the end is moved back into the list.
        scene.handle(event: ClientEvent(t: "window", id: id, a: 99_990, d: 90))
        #expect(rows(scene).last == "Item 99999")
        #expect(rows(scene).count == 10)
    }

    @Test func hostileWindowRequestsAreBounded() throws {
        let items = self.items
        let scene = window { List(items) { Text($0.title) } }
        let id = try #require(pads(scene)?.before.attr("data-window"))
        // Asking for every row gets at most `maxShown`.
        scene.handle(event: ClientEvent(t: "window", id: id, a: 0, d: 100_000))
        #expect(rows(scene).count == RowWindow.maxShown)
        scene.handle(event: ClientEvent(t: "window", id: id, a: Int.max - 5, d: Int.max))
        #expect(rows(scene).last == "Item 99999")
        // Negative numbers are refused when the message is decoded.
        #expect(throws: EventError.self) {
            try ClientEvent.decode(Data(#"{"t":"window","id":"x","a":-1,"d":5}"#.utf8))
        }
        #expect(throws: EventError.self) { try ClientEvent.decode(Data(#"{"t":"window","id":"x"}"#.utf8)) }
        // A window event for an element that is not a long list changes nothing.
        #expect(scene.handle(event: ClientEvent(t: "window", id: "root", a: 5, d: 5)).isEmpty)
    }

    @Test func selectionSurvivesScrollingAway() throws {
        struct Picker: View {
            let items: [LongItem]
            @State private var selected: Int?
            var body: some View {
                VStack {
                    Text("Selected \(selected.map(String.init) ?? "none")")
                    List(items, selection: $selected) { Text($0.title) }
                }
            }
        }
        let items = self.items
        let scene = window { Picker(items: items) }
        scene.click("Item 3")
        #expect(scene.text("Selected 3"))
        let selectedRow = { scene.tree.first { ($0.attr("class") ?? "").contains("sw-selected") }?.textContent }
        #expect(selectedRow() == "Item 3")
        let id = try #require(pads(scene)?.before.attr("data-window"))
        scene.handle(event: ClientEvent(t: "window", id: id, a: 70_000, d: 60))
        #expect(selectedRow() == nil)
        #expect(scene.text("Selected 3"))
        scene.click("Item 70001")
        #expect(scene.text("Selected 70001"))
        scene.handle(event: ClientEvent(t: "window", id: id, a: 0, d: 60))
        #expect(selectedRow() == nil)
        scene.handle(event: ClientEvent(t: "window", id: id, a: 69_990, d: 60))
        #expect(selectedRow() == "Item 70001")
    }

    @Test func shortListsAndNestedStacksRenderWhole() {
        let short = (0..<2_000).map(LongItem.init(id:))
        let items = self.items
        let scene = window {
            VStack {
                List(short) { Text($0.title) }
                // Not directly in a lazy container: a plain stack renders all it is given (here a short slice).
                VStack { ForEach(items.prefix(1_500)) { Text($0.title) } }
            }
        }
        #expect(rows(scene).count == 3_500)
        #expect(scene.tree.all { $0.isWindowPad }.isEmpty)
    }

    @Test func lazyVStackWindowsInSectionsAndPinsHeaders() throws {
        let items = self.items
        let scene = window {
            ScrollView {
                LazyVStack(alignment: .leading, spacing: 4, pinnedViews: [.sectionHeaders]) {
                    Section("All") {
                        ForEach(items) { Text($0.title) }
                    }
                }
            }
        }
        #expect(rows(scene).count == RowWindow.initial.shown)
        let stack = scene.tree.first { ($0.attr("class") ?? "").contains("sw-lazy") }
        #expect(stack?.attr("class")?.contains("sw-pin-h") == true)
        #expect(stack?.attr("style")?.contains("gap:4px") == true)
        let id = try #require(pads(scene)?.before.attr("data-window"))
        scene.handle(event: ClientEvent(t: "window", id: id, a: 1_000, d: 30))
        #expect(rows(scene).first == "Item 1000")
        #expect(PinnedScrollableViews([.sectionHeaders, .sectionFooters]).cssClasses == " sw-pin-h sw-pin-f")
    }

    @Test func aChangedRowInTheWindowIsOnePatch() throws {
        final class Model: ObservableObject {
            @Published var titles = (0..<100_000).map { "Item \($0)" }
        }
        let model = Model()
        struct Rows: View {
            @ObservedObject var model: Model
            var body: some View { List(model.titles.indices, id: \.self) { Text(model.titles[$0]) } }
        }
        let scene = window { Rows(model: model) }
        model.titles[5] = "Item five"
        let patches = scene.flush()
        #expect(
            patches == [.text(id: try #require(scene.tree.first { $0.text == "Item five" }?.id), text: "Item five")])
        // A change outside the window sends nothing.
        model.titles[90_000] = "Item ninety thousand"
        #expect(scene.flush().isEmpty)
    }
}
