import Foundation

/// A drag: a pointer (mouse, pen or finger) pressed on the view and moved at least `minimumDistance` points.
/// The page follows the pointer and sends its moves (at most one a frame) and its release; `onChanged` runs for
/// each move, `onEnded` once at the release, and `updating` states reset when it ends.
public struct DragGesture: _HandledGesture {
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
    /// The gesture's handlers.
    public var _handlers = _GestureHandlers<Value>()

    /// A drag that begins after `minimumDistance` points, measured in `coordinateSpace`.
    public init(minimumDistance: CGFloat = 10, coordinateSpace: CoordinateSpace = .local) {
        self.minimumDistance = minimumDistance
        self.coordinateSpace = coordinateSpace
    }

    /// The page follows a pointer pressed on the view (`data-drag` with the minimum distance).
    public var _recognizers: [_GestureRecognizer] {
        let handle = self.handle
        return [
            _GestureRecognizer(
                event: "drag",
                attribute: ("data-drag", Font.num(Double(minimumDistance)) + (coordinateSpace == .global ? ",g" : "")),
                handle: { handle($0) })
        ]
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
        if parts[0] == "c" { _handlers.change(value) } else { _handlers.end(value) }
    }
}
