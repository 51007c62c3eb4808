import Foundation

/// A gesture a view recognizes with `gesture(_:)` or `simultaneousGesture(_:)`: a drag, a tap, a long press, a
/// pinch or a rotation, or several at once. The page recognizes each (see the client script) and reports it; the
/// gesture's handlers run on the server.
@MainActor
public protocol Gesture<Value> {
    /// What the gesture reports as it goes.
    associatedtype Value
    /// What the page is asked to recognize, with the handlers of its reports. SwiftUIWeb's gestures provide it;
    /// a gesture of an app's own is made of them.
    var _recognizers: [_GestureRecognizer] { get }
}

/// One thing the page recognizes on a view's element: the attribute that asks for it, and what to do with the
/// page's reports of it (`{"t": event, "id": element, "v": report}`).
public struct _GestureRecognizer {
    let event: String
    let attribute: (String, String)
    let handle: (String) -> Void
}

/// The handlers a gesture runs as it changes and when it ends, and the states it resets when it ends.
public struct _GestureHandlers<Value> {
    var changed: [(Value) -> Void] = []
    var ended: [(Value) -> Void] = []
    var resets: [() -> Void] = []
    init() {}

    func change(_ value: Value) { for action in changed { action(value) } }
    func end(_ value: Value) {
        for reset in resets { reset() }
        for action in ended { action(value) }
    }
    /// Ends without a value (a long press let go too early): `updating` states reset, nothing else runs.
    func cancel() { for reset in resets { reset() } }
}

/// A gesture with handlers: SwiftUIWeb's built-in gestures.
public protocol _HandledGesture: Gesture {
    /// The gesture's handlers (SwiftUIWeb's own).
    var _handlers: _GestureHandlers<Value> { get set }
}

extension _HandledGesture {
    /// Runs `action` when the gesture ends.
    public func onEnded(_ action: @escaping (Value) -> Void) -> Self {
        var copy = self
        copy._handlers.ended.append(action)
        return copy
    }

    /// Updates a gesture state as the gesture changes; the state returns to its initial value when it ends.
    public func updating<State>(
        _ state: GestureState<State>, body: @escaping (Value, inout State, inout Transaction) -> Void
    ) -> Self {
        var copy = self
        copy._handlers.changed.append { value in
            var current = state.wrappedValue
            var transaction = Transaction()
            body(value, &current, &transaction)
            state.set(current, animation: transaction.animation)
        }
        copy._handlers.resets.append { state.reset() }
        return copy
    }
}

extension _HandledGesture where Value: Equatable {
    /// Runs `action` every time the gesture's value changes.
    public func onChanged(_ action: @escaping (Value) -> Void) -> Self {
        var copy = self
        copy._handlers.changed.append(action)
        return copy
    }
}

/// Two gestures recognized at once (`simultaneously(with:)`): both run their own handlers.
public struct SimultaneousGesture<First: Gesture, Second: Gesture>: Gesture {
    /// The two gestures' values, each while it is recognized.
    public struct Value {
        /// The first gesture's value.
        public var first: First.Value?
        /// The second gesture's value.
        public var second: Second.Value?
    }
    /// The first gesture.
    public var first: First
    /// The second gesture.
    public var second: Second
    /// Both gestures.
    public init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }
    /// Both gestures' recognizers.
    public var _recognizers: [_GestureRecognizer] { first._recognizers + second._recognizers }
}

extension Gesture {
    /// This gesture and `other`, recognized at once.
    public func simultaneously<Other: Gesture>(with other: Other) -> SimultaneousGesture<Self, Other> {
        SimultaneousGesture(self, other)
    }
}

/// Which gestures of a view and its subviews are recognized.
public struct GestureMask: OptionSet, Sendable {
    /// The mask's bits.
    public let rawValue: UInt32
    /// A mask from its bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The gesture being added.
    public static let gesture = GestureMask(rawValue: 1)
    /// The gestures of the view's subviews.
    public static let subviews = GestureMask(rawValue: 2)
    /// Both.
    public static let all: GestureMask = [.gesture, .subviews]
    /// Neither.
    public static let none: GestureMask = []
}

/// Whether the views below may recognize gestures (`including:` without `.subviews` turns them off).
struct SubviewGesturesKey: EnvironmentKey {
    static let defaultValue = true
}

extension EnvironmentValues {
    var subviewGesturesEnabled: Bool {
        get { self[SubviewGesturesKey.self] }
        set { self[SubviewGesturesKey.self] = newValue }
    }
}

/// A view that recognizes gestures: their attributes go on its element, and the page's reports to their handlers.
struct GestureView<Content: View>: View, PrimitiveView {
    let content: Content
    let recognizers: [_GestureRecognizer]
    let mask: GestureMask
    var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let enabled = context.environment.isEnabled && context.environment.subviewGesturesEnabled
        let saved = context.environment.subviewGesturesEnabled
        if !mask.contains(.subviews) { context.environment.subviewGesturesEnabled = false }
        let nodes = context.render(content, path: path + ".g")
        context.environment.subviewGesturesEnabled = saved
        var node =
            nodes.count == 1 ? nodes[0] : Node("div", id: path, attributes: [("class", "sw-inh")], children: nodes)
        guard enabled, mask.contains(.gesture) else { return [node] }
        // Gestures of the same kind on one element (two drags at once) share the page's report.
        var byEvent: [String: [(String) -> Void]] = [:]
        for recognizer in recognizers {
            if byEvent[recognizer.event] == nil {
                node.attributes.removeAll { $0.0 == recognizer.attribute.0 }
                node.attributes.append(recognizer.attribute)
            }
            byEvent[recognizer.event, default: []].append(recognizer.handle)
        }
        // A tapped view the keyboard can reach as well (Return or Space taps it).
        let focusable = ["button", "a", "input", "select", "textarea"].contains(node.tag)
        if byEvent["tap"] != nil, !focusable, !node.attributes.contains(where: { $0.0 == "tabindex" }) {
            node.attributes.append(("tabindex", "0"))
        }
        for (event, handlers) in byEvent {
            let existing = context.inputs[node.id + "!" + event]
            context.addInput(node.id + "!" + event) { report in
                existing?(report)  // an inner gesture view's on the same element
                for handle in handlers { handle(report) }
            }
        }
        return [node]
    }
}

extension View {
    /// Recognizes a gesture on this view (`including:` says whether this gesture, its subviews' gestures, or both
    /// are recognized).
    public func gesture<G: Gesture>(_ gesture: G, including mask: GestureMask = .all) -> some View {
        GestureView(content: self, recognizers: gesture._recognizers, mask: mask)
    }

    /// Recognizes a gesture on this view at the same time as its subviews' gestures (in a browser every gesture of
    /// a view and its subviews is recognized at once, so this is `gesture(_:including:)`).
    public func simultaneousGesture<G: Gesture>(_ gesture: G, including mask: GestureMask = .all) -> some View {
        GestureView(content: self, recognizers: gesture._recognizers, mask: mask)
    }

    /// Runs `action` when the view is pressed for `minimumDuration` seconds without moving more than
    /// `maximumDistance` points; `onPressingChanged` hears when a press begins and ends.
    public func onLongPressGesture(
        minimumDuration: Double = 0.5, maximumDistance: CGFloat = 10, perform action: @escaping () -> Void,
        onPressingChanged: ((Bool) -> Void)? = nil
    ) -> some View {
        var press = LongPressGesture(minimumDuration: minimumDuration, maximumDistance: maximumDistance)
        press.pressing = onPressingChanged
        return gesture(press.onEnded { _ in action() })
    }
}
