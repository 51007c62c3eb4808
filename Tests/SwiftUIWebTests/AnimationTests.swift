import Foundation
import Testing

@testable import SwiftUIWeb

/// Animations: `withAnimation` marks the patches of the change it wraps, `animation(_:value:)` animates an
/// element's style in the render where its value changed, `transition(_:)` tells the page how a view comes and goes.
@MainActor
@Suite("Animation")
struct AnimationTests {
    struct Toggler: View {
        @State private var shown = false
        @State private var big = false
        var body: some View {
            VStack {
                Button("Toggle") { withAnimation(.easeInOut(duration: 0.5)) { shown.toggle() } }
                Button("Plain") { shown.toggle() }
                Button("Grow") { big.toggle() }
                if shown {
                    Text("Hello").transition(.move(edge: .leading).combined(with: .opacity))
                }
                Text("Size").scaleEffect(big ? 2 : 1).animation(.linear(duration: 0.2), value: big)
            }
        }
    }

    @Test func withAnimationMarksItsPatches() {
        let scene = window { Toggler() }
        let patches = scene.click("Toggle")
        #expect(patches.first == .animate(seconds: 0.5, curve: "ease-in-out"))
        #expect(patches.first?.json == #"{"op":"animate","ms":500,"curve":"ease-in-out"}"#)
        let hello = scene.tree.first { $0.textContent == "Hello" && $0.attr("data-tr") != nil }
        let style = hello?.attr("style") ?? ""
        #expect(style.contains("--sw-it:translateX(-100%)") && style.contains("--sw-io:0"))
        // The transaction ends with the block: a later change is not animated.
        let plain = scene.click("Plain")
        #expect(!plain.isEmpty)
        #expect(!plain.contains { if case .animate = $0 { return true } else { return false } })
    }

    @Test func animationValueAnimatesTheRenderWhereItChanged() throws {
        let scene = window { Toggler() }
        let size = { scene.tree.first { $0.attr("data-animates") != nil } }
        #expect(size()?.attr("data-animates") == "")
        #expect(size()?.attr("style")?.contains("transition") == false)
        scene.click("Grow")
        #expect(size()?.attr("data-animates") == "0.2 linear")
        #expect(size()?.attr("style")?.contains("transition:all 0.2s linear") == true)
        // A render where the value did not change does not animate.
        scene.click("Plain")
        #expect(size()?.attr("data-animates") == "")
    }

    @Test func anObservedObjectChangedInWithAnimationAnimatesItsWindows() {
        final class Model: ObservableObject {
            @Published var count = 0
        }
        struct Counter: View {
            @ObservedObject var model: Model
            var body: some View { Text("Count \(model.count)") }
        }
        let model = Model()
        let scene = window { Counter(model: model) }
        withAnimation(.linear(duration: 0.3)) { model.count = 1 }
        #expect(scene.flush().first == .animate(seconds: 0.3, curve: "linear"))
        model.count = 2
        let plain = scene.flush()
        #expect(!plain.isEmpty && plain.first != .animate(seconds: 0.3, curve: "linear"))
    }

    @Test func animationsAndTransitionsAsCSS() {
        #expect(Animation.linear(duration: 1).delay(0.5).cssTransition == "all 1s linear 0.5s")
        #expect(Animation.easeIn.speed(2).duration == 0.175)
        #expect(Animation.spring(duration: 0.5, bounce: 0.5).curve == "cubic-bezier(.3,1.3,.5,1)")
        let slide = AnyTransition.slide
        #expect(slide.insertion.transform == "translateX(-100%)" && slide.removal.transform == "translateX(100%)")
        let both = AnyTransition.scale(scale: 0.5).combined(with: .opacity)
        #expect(both.insertion.opacity == 0 && both.insertion.transform == "scale(0.5)")
        #expect(AnyTransition.push(from: .top).removal.transform == "translateY(100%)")
        #expect(AnyTransition.opacity.animation(.easeOut).cssVariables.contains("--sw-tc:ease-out"))
        #expect(Edge.Set(.leading) == .leading && Edge.allCases.count == 4)
    }
}

/// Gradients as CSS backgrounds, and as text color clipped to the glyphs.
@MainActor
@Suite("Gradients")
struct GradientTests {
    @Test func linearGradientsFollowTheirPoints() {
        let down = LinearGradient(colors: [.red, .blue], startPoint: .top, endPoint: .bottom)
        #expect(down.cssBackground == "linear-gradient(180deg,#ff3b30 0%,#007aff 100%)")
        let across = LinearGradient(colors: [.red, .blue], startPoint: .leading, endPoint: .trailing)
        #expect(across.cssBackground == "linear-gradient(90deg,#ff3b30 0%,#007aff 100%)")
        // From the center down: the stops sit in the lower half of the CSS gradient line.
        let half = LinearGradient(colors: [.red, .blue], startPoint: .center, endPoint: .bottom)
        #expect(half.cssBackground == "linear-gradient(180deg,#ff3b30 50%,#007aff 100%)")
        let stops = LinearGradient(
            stops: [
                .init(color: .red, location: 0), .init(color: .green, location: 0.25), .init(color: .blue, location: 1),
            ],
            startPoint: .topLeading, endPoint: .bottomTrailing)
        #expect(stops.cssBackground == "linear-gradient(135deg,#ff3b30 0%,#34c759 25%,#007aff 100%)")
        #expect(down.cssColor == "#ff3b30")
    }

    @Test func radialAngularAndColorGradients() {
        let radial = RadialGradient(colors: [.white, .black], center: .center, startRadius: 10, endRadius: 110)
        #expect(radial.cssBackground == "radial-gradient(circle at 50% 50%,#fff 10px,#000 110px)")
        let angular = AngularGradient(colors: [.red, .blue], center: .center)
        #expect(angular.cssBackground == "conic-gradient(from 90deg at 50% 50%,#ff3b30 0deg,#007aff 360deg)")
        #expect(Color.blue.gradient.cssBackground.hasPrefix("linear-gradient(180deg,color-mix("))
    }

    @Test func gradientsInViews() {
        let scene = window {
            VStack {
                Text("Sunset").foregroundStyle(
                    LinearGradient(colors: [.orange, .red], startPoint: .leading, endPoint: .trailing))
                Rectangle().fill(Color.green.gradient).frame(width: 40, height: 40)
                Text("Card").padding().background(
                    RadialGradient(colors: [.yellow, .orange], center: .center, startRadius: 0, endRadius: 50))
                LinearGradient(colors: [.blue, .purple], startPoint: .top, endPoint: .bottom).frame(height: 20)
            }
        }
        let styles = scene.tree.all { $0.attr("style") != nil }.compactMap { $0.attr("style") }
        #expect(styles.contains { $0.contains("background-clip:text") && $0.contains("linear-gradient(90deg") })
        #expect(styles.contains { $0.contains("background:linear-gradient(180deg,color-mix(") })
        #expect(styles.contains { $0.contains("background:radial-gradient(circle at 50% 50%") })
        #expect(styles.contains { $0 == "background:linear-gradient(180deg,#007aff 0%,#af52de 100%)" })
    }
}
