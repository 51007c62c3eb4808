import Foundation

/// Colors at locations along a gradient.
public struct Gradient: Hashable, Sendable {
    /// A color at a location from 0 (the start) to 1 (the end).
    public struct Stop: Hashable, Sendable {
        /// The color.
        public var color: Color
        /// Where it is, 0…1.
        public var location: Double
        /// A stop.
        public init(color: Color, location: Double) {
            self.color = color
            self.location = location
        }
    }
    /// The stops, in order.
    public var stops: [Stop]
    /// A gradient through `stops`.
    nonisolated public init(stops: [Stop]) { self.stops = stops }
    /// A gradient through `colors`, evenly spaced.
    nonisolated public init(colors: [Color]) {
        let last = Double(max(colors.count - 1, 1))
        stops = colors.enumerated().map { Stop(color: $0.element, location: Double($0.offset) / last) }
    }

    /// The CSS color stops, each location mapped through `position` (a CSS length or percentage).
    func cssStops(_ position: (Double) -> String) -> String {
        stops.map { $0.color.cssColor + " " + position($0.location) }.joined(separator: ",")
    }
    /// The first color (where a gradient cannot be drawn: text color, outlines).
    var firstColor: String { stops.first?.color.cssColor ?? "transparent" }
}

/// A gradient along a line from `startPoint` to `endPoint` (unit points of the view's box).
public struct LinearGradient: ShapeStyle, View, PrimitiveView {
    let gradient: Gradient
    let startPoint: UnitPoint
    let endPoint: UnitPoint
    /// A linear gradient.
    nonisolated public init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) {
        self.gradient = gradient
        self.startPoint = startPoint
        self.endPoint = endPoint
    }
    /// A linear gradient through evenly spaced colors.
    nonisolated public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(colors: colors), startPoint: startPoint, endPoint: endPoint)
    }
    /// A linear gradient through stops.
    nonisolated public init(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(stops: stops), startPoint: startPoint, endPoint: endPoint)
    }

    /// The first color.
    nonisolated public var cssColor: String { gradient.firstColor }
    /// `linear-gradient(…)`: the CSS angle of the line from start to end, and each stop's place on the CSS
    /// gradient line (which runs corner to corner through the box's center), found for a square box.
    nonisolated public var cssBackground: String {
        let dx = endPoint.x - startPoint.x
        let dy = endPoint.y - startPoint.y
        let angle = atan2(dx, -dy)  // CSS: 0deg points up, 90deg to the right.
        let ux = sin(angle)
        let uy = -cos(angle)
        let length = abs(ux) + abs(uy)  // The CSS gradient line's length in a unit square.
        func place(_ p: UnitPoint) -> Double { 0.5 + ((p.x - 0.5) * ux + (p.y - 0.5) * uy) / max(length, 1e-9) }
        let from = place(startPoint)
        let to = place(endPoint)
        let degrees = angle * 180 / .pi
        return "linear-gradient(\(Font.num((degrees * 100).rounded() / 100))deg,"
            + gradient.cssStops { Font.num(((from + $0 * (to - from)) * 10_000).rounded() / 100) + "%" } + ")"
    }
    /// Primitive view: the gradient fills the space it is offered.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [Node("div", id: path, attributes: [("class", "sw-color"), ("style", "background:" + cssBackground)])]
    }
}

/// A gradient in circles around `center`, from `startRadius` to `endRadius` points.
public struct RadialGradient: ShapeStyle, View, PrimitiveView {
    let gradient: Gradient
    let center: UnitPoint
    let startRadius: Double
    let endRadius: Double
    /// A radial gradient.
    nonisolated public init(gradient: Gradient, center: UnitPoint, startRadius: Double, endRadius: Double) {
        self.gradient = gradient
        self.center = center
        self.startRadius = startRadius
        self.endRadius = endRadius
    }
    /// A radial gradient through evenly spaced colors.
    nonisolated public init(colors: [Color], center: UnitPoint, startRadius: Double, endRadius: Double) {
        self.init(gradient: Gradient(colors: colors), center: center, startRadius: startRadius, endRadius: endRadius)
    }
    /// A radial gradient through stops.
    nonisolated public init(stops: [Gradient.Stop], center: UnitPoint, startRadius: Double, endRadius: Double) {
        self.init(gradient: Gradient(stops: stops), center: center, startRadius: startRadius, endRadius: endRadius)
    }
    /// The first color.
    nonisolated public var cssColor: String { gradient.firstColor }
    /// `radial-gradient(circle at …, …)` with stops in points between the two radii.
    nonisolated public var cssBackground: String {
        "radial-gradient(circle at \(center.css),"
            + gradient.cssStops { Font.num(startRadius + $0 * (endRadius - startRadius)) + "px" } + ")"
    }
    /// Primitive view: the gradient fills the space it is offered.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [Node("div", id: path, attributes: [("class", "sw-color"), ("style", "background:" + cssBackground)])]
    }
}

/// A gradient that sweeps around `center` from `startAngle` to `endAngle` (0 points to the trailing edge, angles
/// grow clockwise).
public struct AngularGradient: ShapeStyle, View, PrimitiveView {
    let gradient: Gradient
    let center: UnitPoint
    let startAngle: Angle
    let endAngle: Angle
    /// An angular gradient.
    nonisolated public init(
        gradient: Gradient, center: UnitPoint, startAngle: Angle = .zero, endAngle: Angle = .degrees(360)
    ) {
        self.gradient = gradient
        self.center = center
        self.startAngle = startAngle
        self.endAngle = endAngle
    }
    /// An angular gradient through evenly spaced colors.
    nonisolated public init(
        colors: [Color], center: UnitPoint, startAngle: Angle = .zero, endAngle: Angle = .degrees(360)
    ) {
        self.init(gradient: Gradient(colors: colors), center: center, startAngle: startAngle, endAngle: endAngle)
    }
    /// A full turn starting at `angle`.
    nonisolated public init(gradient: Gradient, center: UnitPoint, angle: Angle = .zero) {
        self.init(gradient: gradient, center: center, startAngle: angle, endAngle: .degrees(angle.degrees + 360))
    }
    /// The first color.
    nonisolated public var cssColor: String { gradient.firstColor }
    /// `conic-gradient(from …)`: CSS starts at the top, SwiftUI at the trailing edge, a quarter turn later.
    nonisolated public var cssBackground: String {
        let sweep = endAngle.degrees - startAngle.degrees
        return "conic-gradient(from \(Font.num(startAngle.degrees + 90))deg at \(center.css),"
            + gradient.cssStops { Font.num($0 * sweep) + "deg" } + ")"
    }
    /// Primitive view: the gradient fills the space it is offered.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [Node("div", id: path, attributes: [("class", "sw-color"), ("style", "background:" + cssBackground)])]
    }
}

/// A color's standard gradient (`Color.blue.gradient`): the color a little lighter at the top.
public struct AnyGradient: ShapeStyle {
    let base: Color
    /// The color.
    public var cssColor: String { base.cssColor }
    /// A vertical gradient from the color mixed with white to the color.
    nonisolated public var cssBackground: String {
        "linear-gradient(180deg,color-mix(in srgb,\(base.cssColor) 80%,white),\(base.cssColor))"
    }
}

extension Color {
    /// The color's standard gradient.
    public var gradient: AnyGradient { AnyGradient(base: self) }
}

extension ShapeStyle {
    /// The style as a CSS background: the color itself, unless the style is a gradient.
    nonisolated public var cssBackground: String { cssColor }
    /// CSS that colors text with the style: its color, or a gradient clipped to the glyphs.
    var cssTextColor: String {
        let background = cssBackground
        if background == cssColor { return "color:" + cssColor }
        return "background:\(background);-webkit-background-clip:text;background-clip:text;color:transparent"
    }
}
