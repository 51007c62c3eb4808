import Foundation
import Testing

@testable import SwiftUIWeb

/// `tabViewStyle(.page)`: pages one at a time, with Previous / Next and an index of dots.
@MainActor
@Suite("Paged tab views")
struct PagedTabViewTests {
    struct Onboarding: View {
        @State private var page = 0
        var body: some View {
            VStack {
                TabView(selection: $page) {
                    Text("Welcome").tag(0)
                    Text("Add your medications").tag(1)
                    Text("Get reminders").tag(2)
                }
                .tabViewStyle(.page)
                Text("On page \(page)")
            }
        }
    }

    @Test func pagesTurnWithTheButtonsAndTheDots() throws {
        let scene = window { Onboarding() }
        #expect(scene.text("Welcome") && !scene.text("Add your medications"))
        let dots = scene.tree.all { $0.cssClass.contains("sw-page-dot") }
        #expect(
            dots.count == 3 && dots[0].attr("aria-label") == "Page 1 of 3" && dots[0].attr("aria-selected") == "true")
        // No tab bar: the dots are the tabs.
        #expect(scene.tree.first { $0.cssClass == "sw-tabbar" } == nil)
        let previous = try #require(scene.tree.first { $0.attr("aria-label") == "Previous page" })
        #expect(previous.attr("disabled") == "true")
        let next = try #require(scene.tree.first { $0.attr("aria-label") == "Next page" })
        scene.handle(event: ClientEvent(t: "click", id: next.id))
        #expect(scene.text("Add your medications") && scene.text("On page 1"))
        scene.handle(event: ClientEvent(t: "click", id: dots[2].id))
        #expect(scene.text("Get reminders") && scene.text("On page 2"))
        #expect(scene.tree.first { $0.attr("aria-label") == "Next page" }?.attr("disabled") == "true")
        let back = try #require(scene.tree.first { $0.attr("aria-label") == "Previous page" })
        scene.handle(event: ClientEvent(t: "click", id: back.id))
        #expect(scene.text("On page 1"))
    }

    @Test func theIndexCanBeHiddenAndTheDefaultStyleKeepsTabs() {
        let hidden = window {
            TabView {
                Text("One")
                Text("Two")
            }
            .tabViewStyle(.page(indexDisplayMode: .never))
        }
        #expect(hidden.tree.first { $0.cssClass == "sw-page-index" }?.attr("hidden") == "true")
        let tabs = window {
            TabView {
                Text("One").tabItem { Text("First") }
                Text("Two").tabItem { Text("Second") }
            }
            .tabViewStyle(.automatic)
        }
        #expect(tabs.tree.first { $0.cssClass == "sw-tabbar" } != nil)
    }
}
