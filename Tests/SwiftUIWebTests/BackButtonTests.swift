import Foundation
import Testing

@testable import SwiftUIWeb

/// `navigationBarBackButtonHidden`: a pushed level without the stack's Back button.
@MainActor
@Suite("Back button")
struct BackButtonTests {
    struct Flow: View {
        @State private var path: [Int] = []
        var body: some View {
            NavigationStack(path: $path) {
                Button("Start") { path = [1] }
                    .navigationDestination(for: Int.self) { step in
                        if step == 1 {
                            Button("Finish") { path = [1, 2] }.navigationBarBackButtonHidden()
                        } else {
                            Text("Done").navigationBarBackButtonHidden(false)
                        }
                    }
            }
        }
    }

    @Test func aLevelCanHideItsBackButton() {
        let scene = window { Flow() }
        #expect(scene.tree.first { $0.attr("aria-label") == "Back" } == nil)
        scene.click("Start")
        _ = scene.document()
        #expect(scene.text("Finish") && scene.tree.first { $0.attr("aria-label") == "Back" } == nil)
        scene.click("Finish")
        _ = scene.document()
        #expect(scene.text("Done") && scene.tree.first { $0.attr("aria-label") == "Back" } != nil)
    }
}
