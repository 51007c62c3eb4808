import Foundation

/// An outline of lines, curves, arcs, rectangles and ellipses, in points with y growing downwards, as SwiftUI's.
/// Drawn as an SVG path.
public struct Path: Equatable, Sendable {
    /// One drawing command.
    enum Element: Equatable, Sendable {
        case move(CGPoint)
        case line(CGPoint)
        case quadCurve(to: CGPoint, control: CGPoint)
        case curve(to: CGPoint, control1: CGPoint, control2: CGPoint)
        /// An elliptical arc to a point (SVG's arc: radii, large-arc and sweep flags).
        case arc(to: CGPoint, rx: CGFloat, ry: CGFloat, large: Bool, sweep: Bool)
        case close
    }
    var elements: [Element] = []
    /// Where the next segment starts.
    private(set) var currentPoint: CGPoint?
    private var subpathStart: CGPoint?

    /// An empty path.
    public init() {}
    /// A path built by `build`.
    public init(_ build: (inout Path) -> Void) { build(&self) }
    /// A rectangle.
    public init(_ rect: CGRect) { addRect(rect) }
    /// A rounded rectangle.
    public init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        addRoundedRect(in: rect, cornerSize: CGSize(width: cornerRadius, height: cornerRadius))
    }
    /// A rounded rectangle with elliptical corners.
    public init(roundedRect rect: CGRect, cornerSize: CGSize) { addRoundedRect(in: rect, cornerSize: cornerSize) }
    /// An ellipse filling a rectangle.
    public init(ellipseIn rect: CGRect) { addEllipse(in: rect) }

    /// Whether the path draws nothing.
    public var isEmpty: Bool { elements.isEmpty }

    /// Starts a new subpath at `point`.
    public mutating func move(to point: CGPoint) {
        elements.append(.move(point))
        currentPoint = point
        subpathStart = point
    }
    /// A straight line to `point`.
    public mutating func addLine(to point: CGPoint) {
        if currentPoint == nil { move(to: point) }
        elements.append(.line(point))
        currentPoint = point
    }
    /// Straight lines through `points`, starting a subpath at the first.
    public mutating func addLines(_ points: [CGPoint]) {
        guard let first = points.first else { return }
        move(to: first)
        for point in points.dropFirst() { addLine(to: point) }
    }
    /// A quadratic Bézier curve to `point`.
    public mutating func addQuadCurve(to point: CGPoint, control: CGPoint) {
        if currentPoint == nil { move(to: control) }
        elements.append(.quadCurve(to: point, control: control))
        currentPoint = point
    }
    /// A cubic Bézier curve to `point`.
    public mutating func addCurve(to point: CGPoint, control1: CGPoint, control2: CGPoint) {
        if currentPoint == nil { move(to: control1) }
        elements.append(.curve(to: point, control1: control1, control2: control2))
        currentPoint = point
    }
    /// A circular arc around `center` from `startAngle` to `endAngle` (0 points along +x; angles grow towards +y,
    /// down the screen). `clockwise` is Core Graphics' sense in a y-up space, so `true` turns counterclockwise on
    /// the screen, as in SwiftUI. A line joins the current point to the arc's start.
    public mutating func addArc(
        center: CGPoint, radius: CGFloat, startAngle: Angle, endAngle: Angle, clockwise: Bool
    ) {
        let start = CGPoint(
            x: center.x + radius * CGFloat(cos(startAngle.radians)),
            y: center.y + radius * CGFloat(sin(startAngle.radians)))
        if currentPoint == nil { move(to: start) } else { addLine(to: start) }
        // The turn, in the screen's angle direction (positive: towards +y).
        var turn = endAngle.radians - startAngle.radians
        if clockwise {
            while turn > 0 { turn -= 2 * .pi }
            while turn < -2 * .pi { turn += 2 * .pi }
        } else {
            while turn < 0 { turn += 2 * .pi }
            while turn > 2 * .pi { turn -= 2 * .pi }
        }
        guard radius > 0, turn != 0 else { return }
        // SVG cannot draw a whole circle in one arc: pieces of at most half a turn.
        let pieces = max(1, Int((abs(turn) / .pi).rounded(.up)))
        for piece in 1...pieces {
            let angle = startAngle.radians + turn * Double(piece) / Double(pieces)
            let point = CGPoint(
                x: center.x + radius * CGFloat(cos(angle)), y: center.y + radius * CGFloat(sin(angle)))
            elements.append(.arc(to: point, rx: radius, ry: radius, large: false, sweep: turn > 0))
            currentPoint = point
        }
    }
    /// A rectangle as a closed subpath.
    public mutating func addRect(_ rect: CGRect) {
        move(to: CGPoint(x: rect.minX, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX, y: rect.maxY))
        addLine(to: CGPoint(x: rect.minX, y: rect.maxY))
        closeSubpath()
    }
    /// Rectangles as closed subpaths.
    public mutating func addRects(_ rects: [CGRect]) {
        for rect in rects { addRect(rect) }
    }
    /// A rounded rectangle (corners no larger than half its sides) as a closed subpath.
    public mutating func addRoundedRect(in rect: CGRect, cornerSize: CGSize) {
        let rx = min(max(cornerSize.width, 0), rect.width / 2)
        let ry = min(max(cornerSize.height, 0), rect.height / 2)
        guard rx > 0, ry > 0 else { return addRect(rect) }
        move(to: CGPoint(x: rect.minX + rx, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX - rx, y: rect.minY))
        corner(to: CGPoint(x: rect.maxX, y: rect.minY + ry), rx, ry)
        addLine(to: CGPoint(x: rect.maxX, y: rect.maxY - ry))
        corner(to: CGPoint(x: rect.maxX - rx, y: rect.maxY), rx, ry)
        addLine(to: CGPoint(x: rect.minX + rx, y: rect.maxY))
        corner(to: CGPoint(x: rect.minX, y: rect.maxY - ry), rx, ry)
        addLine(to: CGPoint(x: rect.minX, y: rect.minY + ry))
        corner(to: CGPoint(x: rect.minX + rx, y: rect.minY), rx, ry)
        closeSubpath()
    }
    private mutating func corner(to point: CGPoint, _ rx: CGFloat, _ ry: CGFloat) {
        elements.append(.arc(to: point, rx: rx, ry: ry, large: false, sweep: true))
        currentPoint = point
    }
    /// An ellipse filling `rect`, as a closed subpath.
    public mutating func addEllipse(in rect: CGRect) {
        let rx = rect.width / 2
        let ry = rect.height / 2
        move(to: CGPoint(x: rect.maxX, y: rect.midY))
        elements.append(.arc(to: CGPoint(x: rect.minX, y: rect.midY), rx: rx, ry: ry, large: false, sweep: true))
        elements.append(.arc(to: CGPoint(x: rect.maxX, y: rect.midY), rx: rx, ry: ry, large: false, sweep: true))
        currentPoint = CGPoint(x: rect.maxX, y: rect.midY)
        closeSubpath()
    }
    /// Another path's subpaths.
    public mutating func addPath(_ path: Path) {
        elements += path.elements
        currentPoint = path.currentPoint
    }
    /// Closes the subpath with a line to its start.
    public mutating func closeSubpath() {
        elements.append(.close)
        currentPoint = subpathStart
    }

    /// The smallest rectangle holding every point and control point.
    public var boundingRect: CGRect {
        var xs: [CGFloat] = []
        var ys: [CGFloat] = []
        func add(_ p: CGPoint) {
            xs.append(p.x)
            ys.append(p.y)
        }
        for element in elements {
            switch element {
            case .move(let p), .line(let p): add(p)
            case .quadCurve(let p, let c):
                add(p)
                add(c)
            case .curve(let p, let c1, let c2):
                add(p)
                add(c1)
                add(c2)
            case .arc(let p, let rx, let ry, _, _):
                add(p)
                add(CGPoint(x: p.x + rx, y: p.y + ry))
                add(CGPoint(x: p.x - rx, y: p.y - ry))
            case .close: break
            }
        }
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return .zero }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The SVG path data (`M0 0L10 0Z`).
    var svgData: String {
        func n(_ v: CGFloat) -> String {
            let rounded = (Double(v) * 100).rounded() / 100
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
        func p(_ point: CGPoint) -> String { n(point.x) + " " + n(point.y) }
        var out = ""
        for element in elements {
            switch element {
            case .move(let point): out += "M" + p(point)
            case .line(let point): out += "L" + p(point)
            case .quadCurve(let point, let control): out += "Q" + p(control) + " " + p(point)
            case .curve(let point, let c1, let c2): out += "C" + p(c1) + " " + p(c2) + " " + p(point)
            case .arc(let point, let rx, let ry, let large, let sweep):
                out += "A" + n(rx) + " " + n(ry) + " 0 " + (large ? "1 " : "0 ") + (sweep ? "1 " : "0 ") + p(point)
            case .close: out += "Z"
            }
        }
        return out
    }
}
