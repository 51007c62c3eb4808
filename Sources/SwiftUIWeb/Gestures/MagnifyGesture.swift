import Foundation

/// Parses a pinch or rotation report, `"c|e,amount,x,y"`: whether it ended, the amount, and where it started.
private func twoFingerReport(_ report: String) -> (ended: Bool, amount: Double, start: CGPoint)? {
    let parts = report.split(separator: ",")
    guard parts.count == 4, parts[0] == "c" || parts[0] == "e" else { return nil }
    let numbers = parts.dropFirst().compactMap { Double($0) }
    guard numbers.count == 3, numbers.allSatisfy({ $0.isFinite && abs($0) < 1e7 }) else { return nil }
    return (parts[0] == "e", numbers[0], CGPoint(x: numbers[1], y: numbers[2]))
}

/// A pinch: two fingers moving apart or together on a touch screen, or a trackpad's pinch (which a browser reports
/// as a wheel with Control held, as does Control and the mouse wheel).
public struct MagnifyGesture: _HandledGesture {
    /// How far a pinch has magnified.
    public struct Value: Equatable, Sendable {
        /// When this event happened.
        public var time: Date
        /// The scale since the pinch began (1: unchanged).
        public var magnification: CGFloat
        /// How fast the scale changes, per second (the page does not measure it: 0).
        public var velocity: CGFloat
        /// Where the pinch began, in the view's coordinates, as a unit point of the view.
        public var startAnchor: UnitPoint
        /// Where the pinch began, in the view's coordinates.
        public var startLocation: CGPoint
    }
    /// The scale change the pinch must reach before it begins.
    public var minimumScaleDelta: CGFloat
    /// The gesture's handlers.
    public var _handlers = _GestureHandlers<Value>()

    /// A pinch that begins once the scale changes by `minimumScaleDelta`.
    public init(minimumScaleDelta: CGFloat = 0.01) { self.minimumScaleDelta = minimumScaleDelta }

    /// The page follows pinches on the view (`data-magnify`).
    public var _recognizers: [_GestureRecognizer] {
        let handlers = self._handlers
        return [
            _GestureRecognizer(event: "magnify", attribute: ("data-magnify", Font.num(Double(minimumScaleDelta)))) {
                guard let report = twoFingerReport($0), report.amount > 0 else { return }
                let value = Value(
                    time: Date(), magnification: report.amount, velocity: 0, startAnchor: .center,
                    startLocation: report.start)
                if report.ended { handlers.end(value) } else { handlers.change(value) }
            }
        ]
    }
}

/// The iOS 13 pinch, whose value is the scale alone (`MagnifyGesture` replaces it).
public struct MagnificationGesture: _HandledGesture {
    /// The scale since the pinch began.
    public typealias Value = CGFloat
    /// The scale change the pinch must reach before it begins.
    public var minimumScaleDelta: CGFloat
    /// The gesture's handlers.
    public var _handlers = _GestureHandlers<CGFloat>()
    /// A pinch that begins once the scale changes by `minimumScaleDelta`.
    public init(minimumScaleDelta: CGFloat = 0.01) { self.minimumScaleDelta = minimumScaleDelta }

    /// The page follows pinches on the view (`data-magnify`).
    public var _recognizers: [_GestureRecognizer] {
        let handlers = self._handlers
        return [
            _GestureRecognizer(event: "magnify", attribute: ("data-magnify", Font.num(Double(minimumScaleDelta)))) {
                guard let report = twoFingerReport($0), report.amount > 0 else { return }
                if report.ended { handlers.end(report.amount) } else { handlers.change(report.amount) }
            }
        ]
    }
}

/// A rotation of two fingers on a touch screen (a mouse or a trackpad has no rotation a browser reports).
public struct RotateGesture: _HandledGesture {
    /// How far two fingers have turned.
    public struct Value: Equatable, Sendable {
        /// When this event happened.
        public var time: Date
        /// The angle turned since the rotation began (clockwise positive).
        public var rotation: Angle
        /// How fast the angle changes (the page does not measure it: zero).
        public var velocity: Angle
        /// Where the rotation began, as a unit point of the view.
        public var startAnchor: UnitPoint
        /// Where the rotation began, in the view's coordinates.
        public var startLocation: CGPoint
    }
    /// The angle the fingers must turn before the rotation begins.
    public var minimumAngleDelta: Angle
    /// The gesture's handlers.
    public var _handlers = _GestureHandlers<Value>()
    /// A rotation that begins once the fingers turn by `minimumAngleDelta`.
    public init(minimumAngleDelta: Angle = .degrees(1)) { self.minimumAngleDelta = minimumAngleDelta }

    /// The page follows two-finger rotations on the view (`data-rotate`).
    public var _recognizers: [_GestureRecognizer] {
        let handlers = self._handlers
        return [
            _GestureRecognizer(event: "rotate", attribute: ("data-rotate", Font.num(minimumAngleDelta.radians))) {
                guard let report = twoFingerReport($0) else { return }
                let value = Value(
                    time: Date(), rotation: .radians(report.amount), velocity: .zero, startAnchor: .center,
                    startLocation: report.start)
                if report.ended { handlers.end(value) } else { handlers.change(value) }
            }
        ]
    }
}

/// The iOS 13 rotation, whose value is the angle alone (`RotateGesture` replaces it).
public struct RotationGesture: _HandledGesture {
    /// The angle turned since the rotation began.
    public typealias Value = Angle
    /// The angle the fingers must turn before the rotation begins.
    public var minimumAngleDelta: Angle
    /// The gesture's handlers.
    public var _handlers = _GestureHandlers<Angle>()
    /// A rotation that begins once the fingers turn by `minimumAngleDelta`.
    public init(minimumAngleDelta: Angle = .degrees(1)) { self.minimumAngleDelta = minimumAngleDelta }

    /// The page follows two-finger rotations on the view (`data-rotate`).
    public var _recognizers: [_GestureRecognizer] {
        let handlers = self._handlers
        return [
            _GestureRecognizer(event: "rotate", attribute: ("data-rotate", Font.num(minimumAngleDelta.radians))) {
                guard let report = twoFingerReport($0) else { return }
                let angle = Angle.radians(report.amount)
                if report.ended { handlers.end(angle) } else { handlers.change(angle) }
            }
        ]
    }
}
