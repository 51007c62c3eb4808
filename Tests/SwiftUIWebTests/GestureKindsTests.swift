import Foundation
import Testing

@testable import SwiftUIWeb

/// Taps, long presses, pinches and rotations as `Gesture`s, together, and with `including:` masks.
@MainActor
@Suite("Gesture kinds")
struct GestureKindsTests {
    struct Pad: View {
        @State private var log: [String] = []
        @GestureState private var pressing = false
        @State private var scale: CGFloat = 1
        @State private var angle = Angle.zero
        var body: some View {
            VStack {
                Text("Tap me")
                    .gesture(TapGesture(count: 2).onEnded { log.append("double") })
                Text("Where")
                    .gesture(
                        SpatialTapGesture().onEnded { log.append("at \(Int($0.location.x)),\(Int($0.location.y))") })
                Text(pressing ? "Pressing" : "Press me")
                    .gesture(
                        LongPressGesture(minimumDuration: 1)
                            .updating($pressing) { value, state, _ in state = value }
                            .onEnded { _ in log.append("held") })
                Text("Photo")
                    .gesture(
                        MagnifyGesture().onChanged { scale = $0.magnification }
                            .simultaneously(with: RotateGesture().onEnded { angle = $0.rotation }))
                Text("Scale \(String(format: "%.1f", Double(scale))) angle \(Int(angle.degrees))")
                Text("Old pinch").gesture(MagnificationGesture().onEnded { log.append("pinched \($0)") })
                Text("Hold").onLongPressGesture(minimumDuration: 0.2) {
                    log.append("long")
                } onPressingChanged: {
                    log.append($0 ? "down" : "up")
                }
                Text("Log: " + log.joined(separator: ";"))
            }
        }
    }

    func element(_ scene: SceneInstance, _ attribute: String, _ text: String) throws -> Node {
        try #require(scene.tree.first { $0.attr(attribute) != nil && $0.textContent == text }, "\(attribute) \(text)")
    }

    @Test func tapsCountAndLocate() throws {
        let scene = window { Pad() }
        let double = try element(scene, "data-tap", "Tap me")
        #expect(double.attr("data-tap") == "2" && double.attr("tabindex") == "0")
        scene.handle(event: ClientEvent(t: "tap", id: double.id, v: "1,5,5"))  // a single click: not this gesture
        #expect(scene.text("Log: ") && !scene.text("double"))
        scene.handle(event: ClientEvent(t: "tap", id: double.id, v: "2,5,5"))
        #expect(scene.text("Log: double"))
        let spatial = try element(scene, "data-tap", "Where")
        scene.handle(event: ClientEvent(t: "tap", id: spatial.id, v: "1,12.5,7"))
        #expect(scene.text("Log: double;at 12,7"))
        for bad in ["", "1", "1,a,b", "1,inf,2", "x,1,2"] {
            scene.handle(event: ClientEvent(t: "tap", id: spatial.id, v: bad))
        }
        #expect(scene.text("Log: double;at 12,7"))
    }

    @Test func longPressesBeginLastOrAreLetGo() throws {
        let scene = window { Pad() }
        let press = try element(scene, "data-press", "Press me")
        #expect(press.attr("data-press") == "1,10")
        scene.handle(event: ClientEvent(t: "press", id: press.id, v: "b"))
        #expect(scene.text("Pressing"))
        // Let go early: the state resets, nothing ends.
        scene.handle(event: ClientEvent(t: "press", id: press.id, v: "x"))
        #expect(scene.text("Press me") && !scene.text("held"))
        scene.handle(event: ClientEvent(t: "press", id: press.id, v: "b"))
        scene.handle(event: ClientEvent(t: "press", id: press.id, v: "e"))
        #expect(scene.text("Press me") && scene.text("Log: held"))
        let hold = try element(scene, "data-press", "Hold")
        #expect(hold.attr("data-press") == "0.2,10")
        scene.handle(event: ClientEvent(t: "press", id: hold.id, v: "b"))
        scene.handle(event: ClientEvent(t: "press", id: hold.id, v: "e"))
        #expect(scene.text("Log: held;down;up;long"))
    }

    @Test func pinchesAndRotationsTogether() throws {
        let scene = window { Pad() }
        let photo = try element(scene, "data-magnify", "Photo")
        #expect(photo.attr("data-rotate") != nil)
        scene.handle(event: ClientEvent(t: "magnify", id: photo.id, v: "c,1.5,10,10"))
        #expect(scene.text("Scale 1.5 angle 0"))
        scene.handle(event: ClientEvent(t: "rotate", id: photo.id, v: "e,1.5707964,10,10"))
        #expect(scene.text("Scale 1.5 angle 90"))
        // A scale that is not positive, or a malformed report, changes nothing.
        for bad in ["c,0,1,1", "c,-2,1,1", "c,2", "q,2,1,1", "c,nan,1,1"] {
            scene.handle(event: ClientEvent(t: "magnify", id: photo.id, v: bad))
        }
        #expect(scene.text("Scale 1.5 angle 90"))
        let old = try element(scene, "data-magnify", "Old pinch")
        scene.handle(event: ClientEvent(t: "magnify", id: old.id, v: "e,2,0,0"))
        #expect(scene.text("pinched 2.0"))
    }

    @Test func masksAndDisabledViewsDecideWhatIsRecognized() {
        let scene = window {
            VStack {
                Text("Inner").gesture(TapGesture().onEnded {})
                Text("Own").gesture(TapGesture().onEnded {})
            }
            .gesture(LongPressGesture().onEnded { _ in }, including: .gesture)
        }
        // `.gesture` alone: the stack's long press is recognized, its subviews' taps are not.
        #expect(scene.tree.first { $0.attr("data-press") != nil } != nil)
        #expect(scene.tree.first { $0.attr("data-tap") != nil } == nil)
        let none = window { Text("Nothing").gesture(TapGesture().onEnded {}, including: .none) }
        #expect(none.tree.first { $0.attr("data-tap") != nil } == nil)
        let disabled = window { Text("Off").onLongPressGesture {}.disabled(true) }
        #expect(disabled.tree.first { $0.attr("data-press") != nil } == nil)
    }
}
