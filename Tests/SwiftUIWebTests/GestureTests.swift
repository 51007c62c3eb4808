import Foundation
import Testing

@testable import SwiftUIWeb

/// `DragGesture` with `onChanged`, `onEnded` and `@GestureState`.
@MainActor
@Suite("Drag gestures")
struct GestureTests {
    struct Card: View {
        @State private var offset = CGSize.zero
        @State private var drops = 0
        @GestureState private var dragging = CGSize.zero
        var body: some View {
            VStack {
                Text("Card")
                    .offset(x: offset.width + dragging.width, y: offset.height + dragging.height)
                    .gesture(
                        DragGesture(minimumDistance: 5)
                            .updating($dragging) { value, state, _ in state = value.translation }
                            .onEnded { value in
                                offset.width += value.translation.width
                                offset.height += value.translation.height
                                drops += 1
                            })
                Text("Dragging \(Int(dragging.width)),\(Int(dragging.height))")
                Text("Offset \(Int(offset.width)),\(Int(offset.height)) after \(drops)")
            }
        }
    }

    @Test func dragsMoveAndEnd() throws {
        let scene = window { Card() }
        let card = try #require(scene.tree.first { $0.attr("data-drag") != nil })
        #expect(card.attr("data-drag") == "5")
        scene.handle(event: ClientEvent(t: "drag", id: card.id, v: "c,10,10,40,30"))
        #expect(scene.text("Dragging 30,20") && scene.text("Offset 0,0 after 0"))
        // The release: the gesture state resets, onEnded moves the card.
        scene.handle(event: ClientEvent(t: "drag", id: card.id, v: "e,10,10,50,30"))
        #expect(scene.text("Dragging 0,0") && scene.text("Offset 40,20 after 1"))
        // A report that is not two kinds and four numbers changes nothing.
        for bad in ["x,1,2,3,4", "c,1,2,3", "c,a,b,c,d", "e,1,2,3,inf", ""] {
            scene.handle(event: ClientEvent(t: "drag", id: card.id, v: bad))
        }
        #expect(scene.text("Offset 40,20 after 1") && scene.text("Dragging 0,0"))
    }

    @Test func aDisabledViewTakesNoDrag() {
        let scene = window {
            Text("Fixed").gesture(DragGesture().onEnded { _ in fatalError("a disabled view was dragged") })
                .disabled(true)
        }
        #expect(scene.tree.first { $0.attr("data-drag") != nil } == nil)
    }
}
