import Foundation
import Testing

@testable import SwiftUIWeb

/// `dynamicTypeSize`: the environment's text size, and a subtree zoomed to it.
@MainActor
@Suite("Dynamic type size")
struct DynamicTypeSizeTests {
    struct SizeLabel: View {
        @Environment(\.dynamicTypeSize) var size
        var body: some View { Text("Size \(String(describing: size)) \(size.isAccessibilitySize ? "a11y" : "")") }
    }

    @Test func aSubtreeTakesItsSizeAndZooms() throws {
        let scene = window {
            VStack {
                SizeLabel()
                SizeLabel().dynamicTypeSize(.accessibility1)
                SizeLabel().dynamicTypeSize(.xSmall)
                VStack { SizeLabel().dynamicTypeSize(...DynamicTypeSize.xxLarge) }.dynamicTypeSize(.accessibility3)
                SizeLabel().dynamicTypeSize(.large)
            }
        }
        #expect(scene.text("Size large ") && scene.text("Size accessibility1 a11y") && scene.text("Size xSmall "))
        let zooms = scene.tree.all { $0.cssClass.contains("sw-type-size") }.compactMap { $0.attr("style") }
        // 28 / 17 and 14 / 17 of the body size; accessibility3 is 40 / 17, and the range below it clamps its
        // label back to xxLarge, 21 / 40 of that.
        #expect(zooms.contains("zoom:1.647") && zooms.contains("zoom:0.824"))
        #expect(zooms.contains("zoom:2.353") && zooms.contains("zoom:0.525"))
        #expect(scene.text("Size xxLarge "))
        // The same size as around it: no zoom element at all.
        #expect(zooms.count == 4)
    }
}
