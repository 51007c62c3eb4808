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

struct ScoreRow: View, Equatable {
    let name: String
    let score: Int
    @State private var taps = 0
    @Environment(\.isEnabled) private var isEnabled
    nonisolated static func == (a: ScoreRow, b: ScoreRow) -> Bool { a.name == b.name && a.score == b.score }
    var body: some View {
        Button("\(name) \(score) taps \(taps)\(isEnabled ? "" : " (off)")") { taps += 1 }
    }
}

struct ScoreBoard: View {
    @State private var scores = ["Ada": 1, "Grace": 2, "Hedy": 3]
    @State private var bumps = 0
    @State private var locked = false
    var body: some View {
        VStack {
            Text("Bumps \(bumps)")
            Button("Bump") { bumps += 1 }
            Button("Score Ada") {
                scores["Ada", default: 0] += 10
                bumps += 1
            }
            Button("Lock") { locked.toggle() }
            ForEach(scores.keys.sorted(), id: \.self) { name in
                ScoreRow(name: name, score: scores[name] ?? 0).equatable()
            }
            .disabled(locked)
        }
    }
}

@Suite @MainActor struct EquatableViewTests {
    @Test func anEqualRowIsNotEvaluatedAgainWhenItsParentIs() throws {
        let w = window { ScoreBoard() }
        #expect(w.text("Ada 1 taps 0") && w.text("Hedy 3 taps 0"))
        // The parent's own state changed: its body runs again, the three equal rows do not.
        var start = w.bodyEvaluations
        #expect(hasText(w.click("Bump"), "Bumps 1"))
        #expect(w.bodyEvaluations - start == 1)
        // Their buttons, replayed, still work; a row's own state still updates it.
        start = w.bodyEvaluations
        #expect(hasText(w.click("Grace 2 taps 0"), "Grace 2 taps 1"))
        #expect(w.bodyEvaluations - start == 1)
        // One row's value changed: that row runs again, the other two do not.
        start = w.bodyEvaluations
        let scored = w.click("Score Ada")
        #expect(hasText(scored, "Ada 11 taps 0") && hasText(scored, "Bumps 2"))
        #expect(w.bodyEvaluations - start == 2)
        #expect(w.text("Grace 2 taps 1"))
        // The environment changed (the rows are disabled): every row runs again, though equal.
        start = w.bodyEvaluations
        w.click("Lock")
        #expect(w.bodyEvaluations - start == 4)
        #expect(w.text("Ada 11 taps 0 (off)") && w.text("Grace 2 taps 1 (off)") && w.text("Hedy 3 taps 0 (off)"))
    }

    @Test func environmentsCompareBySettingOrByValue() {
        var a = EnvironmentValues()
        a.isEnabled = false
        var b = a
        #expect(a.isEquivalent(to: b))  // a copy: the same write
        b.isEnabled = false
        #expect(a.isEquivalent(to: b))  // written again with an equal value
        b.isEnabled = true
        #expect(!a.isEquivalent(to: b))
        var c = EnvironmentValues()
        #expect(!a.isEquivalent(to: c))  // a key only one of them has
        c.dismiss = DismissAction {}
        var d = EnvironmentValues()
        d.dismiss = DismissAction {}
        #expect(!c.isEquivalent(to: d))  // not Equatable and set by two writes: different
    }
}

/// A model a parent and its child view both observe, each reading a property of its own.
@Observable @MainActor final class SplitModel {
    var parentText = "p"
    var childText = "c"
}

@MainActor struct SplitChild: View {
    let model: SplitModel
    var body: some View { Text("child \(model.childText)") }
}

@MainActor struct SplitParent: View {
    let model: SplitModel
    var body: some View {
        VStack {
            Text("parent \(model.parentText)")
            SplitChild(model: model)
        }
    }
}

/// Swift's observation merges what a nested `withObservationTracking` reads into the enclosing call's reads; a
/// parent view must still not run again when only what its child reads changes.
@MainActor @Suite struct NestedObservationTests {
    @Test func aChildsReadDoesNotMakeItsParentRunAgain() async throws {
        let model = SplitModel()
        let scene = window { SplitParent(model: model) }
        var before = scene.bodyEvaluations
        model.childText = "c2"
        try await Task.sleep(for: .milliseconds(50))
        scene.flush()
        #expect(scene.text("child c2"))
        #expect(scene.bodyEvaluations - before == 1, "\(scene.bodyEvaluations - before) bodies ran")
        before = scene.bodyEvaluations
        model.parentText = "p2"
        try await Task.sleep(for: .milliseconds(50))
        scene.flush()
        #expect(scene.text("parent p2") && scene.text("child c2"))
    }
}
