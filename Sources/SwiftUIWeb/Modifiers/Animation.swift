import Foundation

/// How a change animates: a duration and a timing curve, played by the browser as a CSS transition.
///
/// Springs become a cubic Bézier curve that overshoots by about the spring's bounce, over the spring's
/// settling duration; the browser has no spring physics of its own.
public struct Animation: Hashable, Sendable {
    /// Seconds the change takes.
    var duration: Double
    /// A CSS timing function.
    var curve: String
    /// Seconds before it starts.
    var delayTime: Double = 0

    init(duration: Double, curve: String) {
        self.duration = duration
        self.curve = curve
    }

    /// The system's default animation (a smooth spring of about a third of a second).
    public static let `default` = Animation.spring(response: 0.55, dampingFraction: 1)
    /// Constant speed, 0.35 s.
    public static let linear = Animation.linear(duration: 0.35)
    /// Starts slowly, 0.35 s.
    public static let easeIn = Animation.easeIn(duration: 0.35)
    /// Ends slowly, 0.35 s.
    public static let easeOut = Animation.easeOut(duration: 0.35)
    /// Starts and ends slowly, 0.35 s.
    public static let easeInOut = Animation.easeInOut(duration: 0.35)
    /// A spring with no bounce.
    public static let smooth = Animation.spring(duration: 0.5, bounce: 0)
    /// A quicker spring with a little bounce.
    public static let snappy = Animation.spring(duration: 0.4, bounce: 0.15)
    /// A spring with a visible bounce.
    public static let bouncy = Animation.spring(duration: 0.5, bounce: 0.3)
    /// The default spring.
    public static let spring = Animation.spring(response: 0.5, dampingFraction: 0.825)
    /// A quick spring for changes that follow the pointer.
    public static let interactiveSpring = Animation.interactiveSpring()

    /// Constant speed over `duration` seconds.
    public static func linear(duration: Double) -> Animation { Animation(duration: duration, curve: "linear") }
    /// Starts slowly, over `duration` seconds.
    public static func easeIn(duration: Double) -> Animation { Animation(duration: duration, curve: "ease-in") }
    /// Ends slowly, over `duration` seconds.
    public static func easeOut(duration: Double) -> Animation { Animation(duration: duration, curve: "ease-out") }
    /// Starts and ends slowly, over `duration` seconds.
    public static func easeInOut(duration: Double) -> Animation { Animation(duration: duration, curve: "ease-in-out") }
    /// A custom timing curve through two control points, over `duration` seconds.
    public static func timingCurve(
        _ c0x: Double, _ c0y: Double, _ c1x: Double, _ c1y: Double, duration: Double = 0.35
    )
        -> Animation
    {
        Animation(
            duration: duration,
            curve: "cubic-bezier(\(Font.num(c0x)),\(Font.num(c0y)),\(Font.num(c1x)),\(Font.num(c1y)))")
    }
    /// A spring that settles in about `duration` seconds; `bounce` from 0 (none) to 1 (much) sets the overshoot.
    @_disfavoredOverload
    public static func spring(duration: Double = 0.5, bounce: Double = 0, blendDuration: Double = 0) -> Animation {
        let overshoot = 1 + min(max(bounce, 0), 1) * 0.6
        return Animation(duration: duration, curve: "cubic-bezier(.3,\(Font.num(overshoot)),.5,1)")
    }
    /// A spring by response (seconds) and damping fraction (1 settles without bouncing).
    public static func spring(
        response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: Double = 0
    )
        -> Animation
    {
        spring(duration: response, bounce: 1 - min(max(dampingFraction, 0), 1))
    }
    /// A quick spring for changes that follow the pointer.
    public static func interactiveSpring(
        response: Double = 0.15, dampingFraction: Double = 0.86, blendDuration: Double = 0.25
    ) -> Animation {
        spring(response: response, dampingFraction: dampingFraction, blendDuration: blendDuration)
    }

    /// The same animation, started `delay` seconds later.
    public func delay(_ delay: Double) -> Animation {
        var copy = self
        copy.delayTime = max(0, delay)
        return copy
    }
    /// The same animation played `speed` times faster.
    public func speed(_ speed: Double) -> Animation {
        var copy = self
        if speed > 0 {
            copy.duration /= speed
            copy.delayTime /= speed
        }
        return copy
    }

    /// The CSS transition value for every property.
    var cssTransition: String {
        "all \(Font.num(duration))s \(curve)" + (delayTime > 0 ? " \(Font.num(delayTime))s" : "")
    }
}

/// The animation of a `withAnimation` block while it runs: each window whose state or observed objects the block
/// changes notes it (`SceneInstance.pendingAnimation`) and sends its next patches as an animated batch.
enum AnimationTransaction {
    /// The innermost running `withAnimation` block's animation, in the task that runs it (a task-local value:
    /// readable by the change handlers the block calls, whatever their isolation, and by no other task).
    @TaskLocal static var current: Animation?
}

/// Runs `body`; the views its changes update animate with `animation` (or not at all, for nil).
///
/// In the browser the changed elements' styles (opacity, transform, colors, sizes) move to their new values with
/// a CSS transition, and views inserted or removed with a `transition(_:)` play it.
@MainActor
public func withAnimation<Result>(
    _ animation: Animation? = Animation.default, _ body: () throws -> Result
) rethrows -> Result {
    try AnimationTransaction.$current.withValue(animation) { try body() }
}

/// How a view comes in and goes out when it is inserted or removed in an animated change.
public struct AnyTransition: Sendable {
    /// The style the view comes in from: opacity and a CSS transform.
    var insertion: (opacity: Double, transform: String)
    /// The style the view goes out to.
    var removal: (opacity: Double, transform: String)

    init(_ from: (opacity: Double, transform: String)) {
        insertion = from
        removal = from
    }

    /// Fades in and out.
    public static let opacity = AnyTransition((0, "none"))
    /// Grows from nothing and shrinks back.
    public static let scale = AnyTransition.scale(scale: 0)
    /// Comes in from the leading edge and goes out by the trailing edge.
    public static let slide = AnyTransition.asymmetric(
        insertion: .move(edge: .leading), removal: .move(edge: .trailing))
    /// No animation: the view appears and disappears at once.
    public static let identity = AnyTransition((1, "none"))

    /// Grows from `scale` around `anchor`.
    public static func scale(scale: Double, anchor: UnitPoint = .center) -> AnyTransition {
        AnyTransition((1, "scale(\(Font.num(scale)))"))
    }
    /// Comes in from, and goes out to, an edge of its own size.
    public static func move(edge: Edge) -> AnyTransition {
        switch edge {
        case .top: AnyTransition((1, "translateY(-100%)"))
        case .bottom: AnyTransition((1, "translateY(100%)"))
        case .leading: AnyTransition((1, "translateX(-100%)"))
        case .trailing: AnyTransition((1, "translateX(100%)"))
        }
    }
    /// Comes in from `edge` and goes out by the opposite edge.
    public static func push(from edge: Edge) -> AnyTransition {
        let opposite: Edge =
            switch edge {
            case .top: .bottom
            case .bottom: .top
            case .leading: .trailing
            case .trailing: .leading
            }
        return .asymmetric(insertion: .move(edge: edge), removal: .move(edge: opposite))
    }
    /// Comes in from, and goes out to, an offset.
    public static func offset(x: Double = 0, y: Double = 0) -> AnyTransition {
        AnyTransition((1, "translate(\(Font.num(x))px,\(Font.num(y))px)"))
    }
    /// One transition for insertion, another for removal.
    public static func asymmetric(insertion: AnyTransition, removal: AnyTransition) -> AnyTransition {
        var t = insertion
        t.removal = removal.removal
        return t
    }
    /// Both transitions at once.
    public func combined(with other: AnyTransition) -> AnyTransition {
        func join(
            _ a: (opacity: Double, transform: String), _ b: (opacity: Double, transform: String)
        ) -> (
            opacity: Double, transform: String
        ) {
            let transform = [a.transform, b.transform].filter { $0 != "none" }.joined(separator: " ")
            return (a.opacity * b.opacity, transform.isEmpty ? "none" : transform)
        }
        var t = self
        t.insertion = join(insertion, other.insertion)
        t.removal = join(removal, other.removal)
        return t
    }
    /// The same transition, played with `animation`.
    public func animation(_ animation: Animation?) -> AnyTransition {
        var t = self
        t.animation = animation
        return t
    }
    var animation: Animation?

    /// CSS custom properties the page's enter and exit keyframes read.
    var cssVariables: String {
        var s = "--sw-io:\(Font.num(insertion.opacity));--sw-it:\(insertion.transform);"
        s += "--sw-ro:\(Font.num(removal.opacity));--sw-rt:\(removal.transform)"
        if let animation {
            s += ";--sw-tr:\(Font.num(animation.duration))s;--sw-tc:\(animation.curve)"
        }
        return s
    }
}

/// Puts an animation attribute or style on a view's element, keeping the element's own style.
struct AnimatedView<Content: View>: View, PrimitiveView {
    let content: Content
    let style: String
    let attribute: (String, String)
    var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let nodes = context.render(content, path: path + ".t")
        var node =
            nodes.count == 1 ? nodes[0] : Node("div", id: path, attributes: [("class", "sw-inh")], children: nodes)
        // The element always has a style attribute, so that an animation coming and going changes its value
        // (one attribute patch) rather than the element's shape (a replacement, which would not animate).
        if let index = node.attributes.firstIndex(where: { $0.0 == "style" }) {
            let own = node.attributes[index].1
            node.attributes[index].1 = own.isEmpty || style.isEmpty ? own + style : own + ";" + style
        } else {
            node.attributes.append(("style", style))
        }
        node.attributes.removeAll { $0.0 == attribute.0 }
        node.attributes.append(attribute)
        return [node]
    }
}

/// `animation(_:value:)`: in the render where `value` changed since the last one, the element's style changes
/// animate (a CSS transition) and views inserted or removed inside it play their transitions.
struct ValueAnimatedView<Content: View, V: Equatable>: View, PrimitiveView {
    let content: Content
    let animation: Animation?
    let value: V
    var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let slot = context.scene.slot(for: "animation:" + path, context: context) { value }
        let changed = (slot.value as? V).map { $0 != value } ?? false
        slot.value = value  // Remembered without a new render: the next pass compares with it.
        let animated = changed ? animation : nil
        return AnimatedView(
            content: content, style: animated.map { "transition:" + $0.cssTransition } ?? "",
            attribute: ("data-animates", animated.map { "\(Font.num($0.duration)) \($0.curve)" } ?? "")
        ).makeNodes(context, path: path)
    }
}

extension View {
    /// Animates the changes that happen when `value` changes: the element's style (opacity, transform, colors,
    /// sizes) moves to its new value with a CSS transition, and views inserted or removed inside it play their
    /// `transition(_:)`.
    public func animation<V: Equatable>(_ animation: Animation?, value: V) -> some View {
        ValueAnimatedView(content: self, animation: animation, value: value)
    }

    /// How the view comes in and goes out when an animated change inserts or removes it.
    public func transition(_ transition: AnyTransition) -> some View {
        AnimatedView(content: self, style: transition.cssVariables, attribute: ("data-tr", "1"))
    }
}
