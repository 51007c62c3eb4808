import Foundation
import Testing

@testable import SwiftUIWeb

/// Views and modifiers real apps use: progress, accessibility, tooltips, taps, transforms.
@MainActor
@Suite("View additions")
struct ViewAdditionsTests {
    @Test func progressViewsDeterminateAndNot() {
        let scene = window {
            VStack {
                ProgressView()
                ProgressView(value: 3.0, total: 4.0)
                ProgressView("Uploading", value: 0.25)
                ProgressView(value: 7.0, total: 10.0) {
                    Text("Doses")
                } currentValueLabel: {
                    Text("7 of 10")
                }
                ProgressView(value: 12.0, total: 10.0)
            }
        }
        let bars = scene.tree.all { $0.tag == "progress" }
        #expect(bars.count == 5)
        #expect(bars[0].attr("value") == nil)  // Indeterminate: the browser animates it.
        #expect(bars[1].attr("value") == "0.75" && bars[1].attr("max") == "1")
        #expect(bars[2].attr("aria-labelledby") != nil)
        #expect(scene.text("Uploading"))
        #expect(bars[3].attr("aria-valuetext") == "7 of 10")
        #expect(scene.text("7 of 10"))
        #expect(bars[4].attr("value") == "1")  // Clamped to the total.
    }

    @Test func accessibilityModifiersBecomeARIA() {
        let scene = window {
            VStack {
                Image(systemName: "heart.fill").accessibilityLabel("Favorite")
                Text("72").accessibilityLabel("Heart rate").accessibilityValue("72 beats per minute")
                    .accessibilityHint("Opens the history")
                Text("decoration").accessibilityHidden(true)
                HStack {
                    Text("A")
                    Text("B")
                }
                .help("Two letters")
            }
        }
        #expect(scene.tree.first { $0.attr("aria-label") == "Favorite" } != nil)
        let rate = scene.tree.first { $0.attr("aria-label") == "Heart rate" }
        #expect(rate?.attr("aria-valuetext") == "72 beats per minute")
        #expect(rate?.attr("aria-description") == "Opens the history")
        #expect(rate?.textContent == "72")
        #expect(scene.tree.first { $0.attr("aria-hidden") == "true" }?.textContent == "decoration")
        #expect(scene.tree.first { $0.attr("title") == "Two letters" }?.textContent == "AB")
    }

    @Test func tapGesturesRunTheirActions() {
        struct Tapper: View {
            @State private var taps = 0
            @State private var doubles = 0
            var body: some View {
                VStack {
                    Text("Taps \(taps)").onTapGesture { taps += 1 }
                    Text("Doubles \(doubles)").onTapGesture(count: 2) { doubles += 1 }
                    Text("Off \(taps)").onTapGesture { taps += 100 }.disabled(true)
                }
            }
        }
        let scene = window { Tapper() }
        let single = scene.tree.first { $0.textContent == "Taps 0" && $0.attr("data-click") != nil }
        #expect(single?.attr("data-click") == "1")
        scene.handle(event: ClientEvent(t: "click", id: single!.id))
        #expect(scene.text("Taps 1"))
        let double = scene.tree.first { $0.textContent == "Doubles 0" && $0.attr("data-click") != nil }
        #expect(double?.attr("data-click") == "2")  // The page sends it on a double click only.
        scene.handle(event: ClientEvent(t: "click", id: double!.id))
        #expect(scene.text("Doubles 1"))
        // A disabled view's tap is not registered: a forged click does nothing.
        let off = scene.tree.first { $0.textContent.hasPrefix("Off") }
        #expect(off?.attr("data-click") == nil)
        scene.handle(event: ClientEvent(t: "click", id: off!.id))
        #expect(scene.text("Taps 1"))
    }

    @Test func transformsAreCSS() {
        let scene = window {
            VStack {
                Text("Turned").rotationEffect(.degrees(90), anchor: .topLeading)
                Text("Big").scaleEffect(1.5)
                Text("Wide").scaleEffect(x: 2, y: 1, anchor: .bottom)
            }
        }
        let styles = scene.tree.all { ($0.attr("style") ?? "").contains("transform:") }.compactMap { $0.attr("style") }
        #expect(styles.contains { $0.contains("rotate(90deg)") && $0.contains("transform-origin:0% 0%") })
        #expect(styles.contains { $0.contains("scale(1.5,1.5)") && $0.contains("transform-origin:50% 50%") })
        #expect(styles.contains { $0.contains("scale(2,1)") && $0.contains("transform-origin:50% 100%") })
        #expect(Angle.radians(.pi).degrees == 180)
    }
}
