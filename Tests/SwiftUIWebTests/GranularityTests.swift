import Foundation
import Testing

@testable import SwiftUIWeb

struct TapRow: View {
    let index: Int
    @State private var taps = 0
    var body: some View {
        Button("Row \(index): \(taps)") { taps += 1 }
    }
}

final class Names: ObservableObject {
    @Published var first = "Ada"
}

struct NameBadge: View {
    @ObservedObject var names: Names
    var body: some View { Text("Name \(names.first)") }
}

struct RowsParent: View {
    let names: Names
    @State private var title = "Rows"
    var body: some View {
        VStack {
            Text(title)
            Button("Rename") { title = "Renamed" }
            NameBadge(names: names)
            ForEach(0..<50) { TapRow(index: $0) }
        }
        .navigationTitle(title)
    }
}

@Suite @MainActor struct GranularityTests {
    @Test func stateChangesReevaluateOnlyTheOwningView() throws {
        let names = Names()
        let w = window { RowsParent(names: names) }
        let start = w.bodyEvaluations
        #expect(start == 53)  // root, parent, badge, 50 rows
        let patches = w.click("Row 7: 0")
        #expect(w.bodyEvaluations - start == 1)  // only row 7's body ran
        #expect(patches.count == 1 && hasText(patches, "Row 7: 1"), "\(patches)")
        // Cached rows keep working: their actions and state are intact.
        w.click("Row 7: 1")
        #expect(w.text("Row 7: 2"))
        w.click("Row 8: 0")
        #expect(w.text("Row 8: 1") && w.text("Row 7: 2"))
        #expect(w.bodyEvaluations - start == 3)
        // An observed object re-evaluates the views observing it.
        names.first = "Grace"
        let before = w.bodyEvaluations
        #expect(hasText(w.flush(), "Name Grace"))
        #expect(w.bodyEvaluations - before == 1)
        // The parent's own state re-evaluates the parent and what it contains; row state survives.
        let beforeRename = w.bodyEvaluations
        let renamed = w.click("Rename")
        #expect(renamed.contains(.title("Renamed")))
        #expect(w.bodyEvaluations - beforeRename == 52)
        #expect(w.text("Row 7: 2") && w.text("Row 8: 1"))
        #expect(w.title == "Renamed")
    }
}
