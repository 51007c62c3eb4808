import Foundation

/// A gesture a view recognizes with `gesture(_:)`.
@MainActor
public protocol Gesture {
    /// What the gesture reports as it goes.
    associatedtype Value
    /// The drag this gesture is, as the page recognizes it.
    var _drag: DragGesture { get }
}

/// A drag: a pointer (mouse, pen or finger) pressed on the view and moved at least `minimumDistance` points.
/// The page follows the pointer and sends its moves (at most one a frame) and its release; `onChanged` runs for
/// each move, `onEnded` once at the release, and `updating` states reset when it ends.
public struct DragGesture: Gesture {
    /// Where a drag is.
    public struct Value: Equatable, Sendable {
        /// When this event happened.
        public var time: Date
        /// Where the pointer is.
        public var location: CGPoint
        /// Where the drag started.
        public var startLocation: CGPoint
        /// How far the pointer moved from the start.
        public var translation: CGSize {
            CGSize(width: location.x - startLocation.x, height: location.y - startLocation.y)
        }
        /// Where the drag would end (the page does not predict momentum: the current location).
        public var predictedEndLocation: CGPoint { location }
        /// How far the drag would end from the start (the current translation).
        public var predictedEndTranslation: CGSize { translation }
    }

    /// The distance the pointer must move before the drag begins.
    public var minimumDistance: CGFloat
    /// Where locations are measured: `.local` (the view's top leading corner) or `.global` (the page).
    public var coordinateSpace: CoordinateSpace
    var changed: [(Value) -> Void] = []
    var ended: [(Value) -> Void] = []
    var resets: [() -> Void] = []

    /// A drag that begins after `minimumDistance` points, measured in `coordinateSpace`.
    public init(minimumDistance: CGFloat = 10, coordinateSpace: CoordinateSpace = .local) {
        self.minimumDistance = minimumDistance
        self.coordinateSpace = coordinateSpace
    }

    /// The drag itself.
    public var _drag: DragGesture { self }

    /// Runs `action` for every move of the drag.
    public func onChanged(_ action: @escaping (Value) -> Void) -> DragGesture {
        var copy = self
        copy.changed.append(action)
        return copy
    }

    /// Runs `action` when the drag ends.
    public func onEnded(_ action: @escaping (Value) -> Void) -> DragGesture {
        var copy = self
        copy.ended.append(action)
        return copy
    }

    /// Updates a gesture state as the drag moves; the state returns to its initial value when the drag ends.
    public func updating<State>(
        _ state: GestureState<State>, body: @escaping (Value, inout State, inout Transaction) -> Void
    ) -> DragGesture {
        var copy = self
        copy.changed.append { value in
            var current = state.wrappedValue
            var transaction = Transaction()
            body(value, &current, &transaction)
            state.set(current, animation: transaction.animation)
        }
        copy.resets.append { state.reset() }
        return copy
    }

    /// Handles the page's report: `"c|e,startX,startY,x,y"` (moved or ended, in the drag's coordinate space).
    func handle(_ report: String) {
        let parts = report.split(separator: ",")
        guard parts.count == 5, parts[0] == "c" || parts[0] == "e" else { return }
        let numbers = parts.dropFirst().compactMap { Double($0) }
        guard numbers.count == 4, numbers.allSatisfy({ $0.isFinite && abs($0) < 1e7 }) else { return }
        let value = Value(
            time: Date(), location: CGPoint(x: numbers[2], y: numbers[3]),
            startLocation: CGPoint(x: numbers[0], y: numbers[1]))
        if parts[0] == "c" {
            for action in changed { action(value) }
        } else {
            for reset in resets { reset() }
            for action in ended { action(value) }
        }
    }
}

/// A state that a gesture sets while it runs (`updating`) and that returns to its initial value when it ends.
@MainActor @propertyWrapper
public struct GestureState<Value>: DynamicProperty, SceneBindable {
    final class Box {
        var slot: StorageSlot?
        let initial: Value
        init(_ initial: Value) { self.initial = initial }
    }
    let box: Box
    /// A gesture state starting (and ending) at `wrappedValue`.
    public init(wrappedValue: Value) { box = Box(wrappedValue) }
    /// A gesture state starting (and ending) at `initialValue`.
    public init(initialValue: Value) { box = Box(initialValue) }
    /// The current value (set only by the gesture).
    public var wrappedValue: Value { (box.slot?.value as? Value) ?? box.initial }
    /// The state itself, for `updating`.
    public var projectedValue: GestureState<Value> { self }

    func set(_ value: Value, animation: Animation?) {
        guard let slot = box.slot else { return }
        slot.value = value
        if let animation {
            AnimationTransaction.$current.withValue(animation) { slot.scene?.changed(slot) }
        } else {
            slot.scene?.changed(slot)
        }
    }
    func reset() { set(box.initial, animation: nil) }

    func install(in scene: SceneInstance, key: String, context: RenderContext) {
        box.slot = scene.slot(for: key, context: context) { box.initial }
    }
}

extension GestureState where Value: ExpressibleByNilLiteral {
    /// A gesture state starting (and ending) at nil.
    public init() { self.init(wrappedValue: nil) }
}

/// A view that recognizes a drag.
struct DragGestureView<Content: View>: View, PrimitiveView {
    let content: Content
    let gesture: DragGesture
    var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let nodes = context.render(content, path: path + ".g")
        var node =
            nodes.count == 1 ? nodes[0] : Node("div", id: path, attributes: [("class", "sw-inh")], children: nodes)
        guard context.environment.isEnabled else { return [node] }
        let gesture = self.gesture
        context.addInput(node.id + "!drag") { gesture.handle($0) }
        node.attributes.append(("data-drag", Font.num(Double(gesture.minimumDistance))))
        if gesture.coordinateSpace == .global { node.attributes.append(("data-drag-space", "global")) }
        return [node]
    }
}

extension View {
    /// Recognizes a gesture on this view (a `DragGesture`, with its `onChanged`, `onEnded` and `updating`).
    public func gesture<G: Gesture>(_ gesture: G) -> some View {
        DragGestureView(content: self, gesture: gesture._drag)
    }
}
