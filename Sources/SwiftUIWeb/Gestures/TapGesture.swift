import Foundation

/// A tap (a click, or Return or Space on the focused view) repeated `count` times in a row.
public struct TapGesture: _HandledGesture {
    /// A tap has no value.
    public typealias Value = Void
    /// The taps in a row it takes (2: a double click).
    public var count: Int
    /// The gesture's handlers.
    public var _handlers = _GestureHandlers<Void>()

    /// A tap gesture of `count` taps.
    public init(count: Int = 1) {
        precondition(count >= 1, "TapGesture(count:) needs a count of at least 1, not \(count)")
        self.count = count
    }

    /// The page reports a click with its count (`data-tap`), and Return or Space as one tap.
    public var _recognizers: [_GestureRecognizer] {
        let (count, handlers) = (self.count, self._handlers)
        return [
            _GestureRecognizer(event: "tap", attribute: ("data-tap", String(count))) { report in
                guard let taps = report.split(separator: ",").first.flatMap({ Int($0) }), taps == count else { return }
                handlers.end(())
            }
        ]
    }
}

/// A tap that reports where it happened, in the view's coordinates (or the page's).
public struct SpatialTapGesture: _HandledGesture {
    /// Where a tap happened.
    public struct Value: Equatable, Sendable {
        /// The tap's location.
        public var location: CGPoint
    }
    /// The taps in a row it takes.
    public var count: Int
    /// Where locations are measured.
    public var coordinateSpace: CoordinateSpace
    /// The gesture's handlers.
    public var _handlers = _GestureHandlers<Value>()

    /// A spatial tap gesture of `count` taps, located in `coordinateSpace`.
    public init(count: Int = 1, coordinateSpace: CoordinateSpace = .local) {
        precondition(count >= 1, "SpatialTapGesture(count:) needs a count of at least 1, not \(count)")
        self.count = count
        self.coordinateSpace = coordinateSpace
    }

    /// The page reports a click with its count and location (`data-tap`).
    public var _recognizers: [_GestureRecognizer] {
        let (count, handlers) = (self.count, self._handlers)
        return [
            _GestureRecognizer(
                event: "tap", attribute: ("data-tap", String(count) + (coordinateSpace == .global ? ",g" : ""))
            ) { report in
                let numbers = report.split(separator: ",").compactMap { Double($0) }
                guard numbers.count == 3, Int(numbers[0]) == count, numbers.allSatisfy({ $0.isFinite && abs($0) < 1e7 })
                else { return }
                handlers.end(Value(location: CGPoint(x: numbers[1], y: numbers[2])))
            }
        ]
    }
}

/// A press held for `minimumDuration` seconds without moving more than `maximumDistance` points. Its value is
/// true while pressed: `onChanged` and `updating` hear the press begin, and `onEnded` runs once the duration is
/// reached (while the pointer is still down, as in SwiftUI). Letting go earlier or moving away resets `updating`
/// states and ends nothing.
public struct LongPressGesture: _HandledGesture {
    /// Whether the view is pressed.
    public typealias Value = Bool
    /// How long the press must last, in seconds.
    public var minimumDuration: Double
    /// How far the pointer may move during the press, in points.
    public var maximumDistance: CGFloat
    /// The gesture's handlers.
    public var _handlers = _GestureHandlers<Bool>()
    /// `onLongPressGesture`'s `onPressingChanged`.
    var pressing: ((Bool) -> Void)?

    /// A long press of at least `minimumDuration` seconds.
    public init(minimumDuration: Double = 0.5, maximumDistance: CGFloat = 10) {
        self.minimumDuration = minimumDuration
        self.maximumDistance = maximumDistance
    }

    /// The page times the press (`data-press`) and reports its beginning, its reaching the duration, and its end.
    public var _recognizers: [_GestureRecognizer] {
        let (handlers, pressing) = (self._handlers, self.pressing)
        return [
            _GestureRecognizer(
                event: "press",
                attribute: ("data-press", Font.num(max(0, minimumDuration)) + "," + Font.num(Double(maximumDistance)))
            ) { report in
                switch report {
                case "b":
                    pressing?(true)
                    handlers.change(true)
                case "e":
                    pressing?(false)
                    handlers.end(true)
                case "x":
                    pressing?(false)
                    handlers.cancel()
                default: return
                }
            }
        ]
    }
}
