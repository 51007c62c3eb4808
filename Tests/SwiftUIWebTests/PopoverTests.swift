import Foundation
import Testing

@testable import SwiftUIWeb

/// `popover` beside its view, and `refreshable` with its Refresh button and environment action.
@MainActor
@Suite("Popovers and refresh")
struct PopoverTests {
    struct Info: View {
        @State private var shown = false
        var body: some View {
            VStack {
                Button("Details") { shown = true }
                    .popover(isPresented: $shown, arrowEdge: .bottom) {
                        Text("Take with food")
                        DismissButton()
                    }
                Text(shown ? "Open" : "Closed")
            }
        }
    }

    struct DismissButton: View {
        @Environment(\.dismiss) private var dismiss
        var body: some View { Button("Got it") { dismiss() } }
    }

    @Test func aPopoverShowsBesideItsViewAndDismisses() throws {
        let scene = window { Info() }
        #expect(scene.tree.first { $0.attr("role") == "dialog" } == nil)
        scene.click("Details")
        let bubble = try #require(scene.tree.first { $0.attr("role") == "dialog" })
        #expect(bubble.attr("class") == "sw-popover sw-popover-above")
        #expect(bubble.textContent.contains("Take with food"))
        // A click outside (the backdrop) dismisses it.
        let backdrop = try #require(scene.tree.first { $0.attr("class") == "sw-popover-backdrop" })
        scene.handle(event: ClientEvent(t: "click", id: backdrop.id))
        #expect(scene.text("Closed") && scene.tree.first { $0.attr("role") == "dialog" } == nil)
        // Escape (the page clicks the last data-escape target) and the content's dismiss do too.
        scene.click("Details")
        let escape = try #require(scene.tree.first { $0.attr("role") == "dialog" }?.attr("data-escape"))
        scene.handle(event: ClientEvent(t: "click", id: escape))
        #expect(scene.text("Closed"))
        scene.click("Details")
        scene.click("Got it")
        #expect(scene.text("Closed"))
    }

    final class Feed: @unchecked Sendable {
        let lock = NSLock()
        var loads = 0
        let gate = AsyncStream<Void>.makeStream()
    }

    struct Doses: View {
        let feed: Feed
        @State private var version = 0
        var body: some View {
            List { Text("Version \(version)") }
                .refreshable {
                    for await _ in feed.gate.stream { break }
                    feed.lock.withLock { feed.loads += 1 }
                }
        }
    }

    @Test func refreshRunsTheActionOnceAtATime() async throws {
        let feed = Feed()
        let scene = window { Doses(feed: feed) }
        let button = try #require(scene.tree.first { $0.attr("aria-label") == "Refresh" })
        scene.handle(event: ClientEvent(t: "click", id: button.id))
        let busy = scene.tree.first { $0.attr("aria-label") == "Refresh" }
        #expect(busy?.attr("aria-busy") == "true" && busy?.attr("disabled") == "true")
        #expect(scene.text("Refreshing…"))
        // A second click while it runs is not registered.
        scene.handle(event: ClientEvent(t: "click", id: button.id))
        feed.gate.continuation.yield()
        for _ in 0..<200 where !scene.text("Refresh") || scene.text("Refreshing") {
            try await Task.sleep(for: .milliseconds(10))
            scene.flush()
        }
        #expect(feed.lock.withLock { feed.loads } == 1)
        #expect(scene.tree.first { $0.attr("aria-label") == "Refresh" }?.attr("data-click") == "1")
    }
}

/// `swipeActions` on list rows.
@MainActor
@Suite("Swipe actions")
struct SwipeActionsTests {
    struct Inbox: View {
        @State private var log: [String] = []
        var body: some View {
            VStack {
                List(["Aspirin", "Ibuprofen"], id: \.self) { name in
                    Text(name)
                        .swipeActions(edge: .leading, allowsFullSwipe: false) {
                            Button("Taken") { log.append("taken " + name) }
                        }
                        .swipeActions {
                            Button("Skip", role: .destructive) { log.append("skip " + name) }
                        }
                }
                Text("Log: " + log.joined(separator: ","))
            }
        }
    }

    @Test func swipeActionsSitAtTheirEdgeAndRun() throws {
        let scene = window { Inbox() }
        let rows = scene.tree.all { $0.attr("data-swipe") == "trailing" }
        #expect(rows.count == 2)
        #expect(rows[0].attr("data-full") == "1")
        // The trailing actions come after the row's content; the leading ones (no full swipe) before it.
        #expect(rows[0].children.last?.attr("class") == "sw-swipe-actions")
        #expect(rows[0].children.last?.attr("role") == "group")
        let leading = try #require(rows[0].first { $0.attr("data-swipe") == "leading" })
        #expect(leading.attr("data-full") == "0" && leading.children.first?.attr("class") == "sw-swipe-actions")
        scene.click("Skip")
        #expect(scene.text("Log: skip Aspirin"))
        scene.click("Taken")
        #expect(scene.text("Log: skip Aspirin,taken Aspirin"))
    }
}

/// Sheet heights and widths.
@MainActor
@Suite("Presentation sizes")
struct PresentationSizeTests {
    @Test func detentsAndSizing() throws {
        let scene = window {
            VStack {
                Text("A").presentationDetents([.large, .medium])
                Text("B").presentationDetents([.fraction(0.25), .height(600)])
                Text("C").presentationSizing(.page)
            }
        }
        let styles = scene.tree.all { $0.attr("class") == "sw-box sw-detent" }.compactMap { $0.attr("style") }
        #expect(
            styles == [
                "height:50vh;max-height:86vh;overflow:auto;align-self:stretch",
                "height:25vh;max-height:86vh;overflow:auto;align-self:stretch",
            ])
        #expect(scene.tree.first { $0.attr("class") == "sw-box sw-sizing-page" } != nil)
    }
}
