import Foundation
import Testing

@testable import SwiftUIWeb

/// `mask`, `minimumScaleFactor` and `contentShape(Rectangle())`.
@MainActor
@Suite("Masks and text fitting")
struct MaskTests {
    @Test func gradientsColorsAndShapesMask() throws {
        let scene = window {
            VStack {
                Text("Fading").mask {
                    LinearGradient(colors: [.black, .clear], startPoint: .top, endPoint: .bottom)
                }
                Text("Round").mask(Circle())
                Text("Half").mask(Color.black.opacity(0.5))
                Text("Masked by text").mask { Text("M") }
                HStack {
                    Text("Row")
                    Spacer()
                }
                .contentShape(Rectangle())
                .onTapGesture {}
            }
        }
        let styles = scene.tree.all { $0.cssClass == "sw-box" }.compactMap { $0.attr("style") }
        #expect(styles.contains { $0.contains("mask-image:linear-gradient(") })
        #expect(styles.contains { $0.contains("border-radius:50%") || $0.contains("clip-path") })
        #expect(styles.contains { $0.contains("mask-image:linear-gradient(color-mix(") })
        // A view that can't be a CSS mask: shown unmasked, and said.
        #expect(scene.text("Masked by text") && scene.text("can't be a CSS mask"))
        // The row with a Spacer takes taps on its whole box.
        #expect(scene.tree.first { $0.cssClass.contains("sw-hstack") && $0.attr("data-click") != nil } != nil)
    }

    @Test func minimumScaleFactorAsksThePageToFitTheText() {
        let scene = window { Text("A long name").minimumScaleFactor(0.4) }
        #expect(scene.tree.first { $0.attr("data-min-scale") == "0.4" }?.textContent == "A long name")
        #expect(ClientAssets.script.contains("data-min-scale"))
    }
}
