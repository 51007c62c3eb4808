import Foundation

/// A 2D shape: `path(in:)` gives its outline in a rectangle. A shape fills its frame with the foreground color, or
/// `fill`, `stroke` and `strokeBorder` paint it; `trim(from:to:)` draws part of its outline; `clipShape` and
/// `background(_:in:)` cut a view to it.
///
/// The built-in shapes (`Rectangle`, `RoundedRectangle`, `Capsule`, `Ellipse`, `Circle`) are drawn as CSS boxes,
/// exact at whatever size the page lays them out. A custom shape, a `Path` and a trimmed shape are drawn from their
/// path as SVG: the server does not know the size the page gives a view, so the path is made for the view's
/// `frame(width:height:)` when it has one (exact), else for a 100×100 box that the SVG stretches to the view's
/// size (exact for shapes made of proportions of the rectangle; lengths in points, a corner radius say, stretch
/// with it). Line widths stay in points either way.
public protocol Shape: View, Sendable {
    /// The shape's outline in `rect`.
    func path(in rect: CGRect) -> Path
    /// CSS that draws the shape as a box (`border-radius:50%`), or nil to draw its path as SVG.
    var _shapeCSS: String? { get }
    /// Whether the shape keeps its aspect ratio when drawn stretched (a circle stays round).
    var _keepsAspectRatio: Bool { get }
}

extension Shape {
    /// A custom shape is drawn from its path.
    public var _shapeCSS: String? { nil }
    /// A custom shape stretches with its view.
    public var _keepsAspectRatio: Bool { false }

    /// A custom shape's view: its path filled with the foreground color.
    public var body: _ShapeView<Self> { _ShapeView(shape: self, paint: .fill(nil)) }

    /// The shape as a view: filled with the foreground color.
    package func shapeNodes(_ context: RenderContext, path: String) -> [Node] {
        _ShapeView(shape: self, paint: .fill(nil)).makeNodes(context, path: path)
    }

    /// Fills the shape with the foreground color.
    public func fill() -> _ShapeView<Self> { _ShapeView(shape: self, paint: .fill(nil)) }

    /// Fills the shape with a style.
    public func fill<S: ShapeStyle>(_ style: S) -> _ShapeView<Self> {
        _ShapeView(shape: self, paint: .fill(PaintStyle(style)))
    }

    /// Strokes the shape's outline, centred on its edge, `lineWidth` points wide, in the foreground color.
    public func stroke(lineWidth: CGFloat = 1) -> _ShapeView<Self> {
        _ShapeView(shape: self, paint: .stroke(nil, StrokeStyle(lineWidth: lineWidth), inset: false))
    }

    /// Strokes the shape's outline, centred on its edge, `lineWidth` points wide.
    public func stroke<S: ShapeStyle>(_ style: S, lineWidth: CGFloat = 1) -> _ShapeView<Self> {
        _ShapeView(shape: self, paint: .stroke(PaintStyle(style), StrokeStyle(lineWidth: lineWidth), inset: false))
    }

    /// Strokes the shape's outline, centred on its edge, with a stroke style (width, ends, corners, dashes).
    public func stroke<S: ShapeStyle>(_ style: S, style strokeStyle: StrokeStyle) -> _ShapeView<Self> {
        _ShapeView(shape: self, paint: .stroke(PaintStyle(style), strokeStyle, inset: false))
    }

    /// Strokes the shape's outline in the foreground color with a stroke style.
    public func stroke(style strokeStyle: StrokeStyle) -> _ShapeView<Self> {
        _ShapeView(shape: self, paint: .stroke(nil, strokeStyle, inset: false))
    }

    /// Strokes the shape's outline inside its edge, `lineWidth` points wide.
    public func strokeBorder<S: ShapeStyle>(_ style: S, lineWidth: CGFloat = 1) -> _ShapeView<Self> {
        _ShapeView(shape: self, paint: .stroke(PaintStyle(style), StrokeStyle(lineWidth: lineWidth), inset: true))
    }

    /// Strokes the shape's outline inside its edge with a stroke style.
    public func strokeBorder<S: ShapeStyle>(_ style: S, style strokeStyle: StrokeStyle) -> _ShapeView<Self> {
        _ShapeView(shape: self, paint: .stroke(PaintStyle(style), strokeStyle, inset: true))
    }

    /// Strokes the shape's outline inside its edge, in the foreground color.
    public func strokeBorder(lineWidth: CGFloat = 1) -> _ShapeView<Self> {
        _ShapeView(shape: self, paint: .stroke(nil, StrokeStyle(lineWidth: lineWidth), inset: true))
    }

    /// The part of the shape's outline from `from` to `to` (fractions of its length); a stroke draws that part.
    public func trim(from: CGFloat = 0, to: CGFloat = 1) -> TrimmedShape<Self> {
        TrimmedShape(base: self, from: min(max(from, 0), 1), to: min(max(to, 0), 1))
    }
}

/// A shape style as the CSS a drawing needs: a color, and a background (a gradient's, or the color).
struct PaintStyle: Sendable {
    let color: String
    let background: String
    init<S: ShapeStyle>(_ style: S) {
        color = style.cssColor
        background = style.cssBackground
    }
}

/// How a shape is painted.
enum ShapePaint: Sendable {
    /// Filled, with the foreground color for nil.
    case fill(PaintStyle?)
    /// Stroked along its outline (centred on it, or inside it for `strokeBorder`).
    case stroke(PaintStyle?, StrokeStyle, inset: Bool)
}

/// A part of a shape's outline (`trim(from:to:)`): strokes draw only that part. Drawn as SVG, whatever its shape.
public struct TrimmedShape<Base: Shape>: Shape {
    let base: Base
    let from: CGFloat
    let to: CGFloat
    /// The whole outline; drawing trims it.
    public func path(in rect: CGRect) -> Path { base.path(in: rect) }
    /// As its shape's.
    public var _keepsAspectRatio: Bool { base._keepsAspectRatio }
}

/// A shape painted: a CSS box for the built-in shapes, an SVG path for the others.
public struct _ShapeView<S: Shape>: View, PrimitiveView {
    let shape: S
    let paint: ShapePaint
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        if let css = shape._shapeCSS { return [box(css, path: path)] }
        return [svg(context, path: path)]
    }

    private func box(_ css: String, path: String) -> Node {
        let style: String
        switch paint {
        case .fill(let paint): style = "background:" + (paint?.background ?? "currentColor")
        case .stroke(let paint, let stroke, let inset):
            let width = Font.num(Double(stroke.lineWidth))
            let line = (stroke.dash.isEmpty ? "solid " : "dashed ") + (paint?.color ?? "currentColor")
            style =
                inset
                ? "border:\(width)px " + line
                : "outline:\(width)px " + line + ";outline-offset:-\(Font.num(Double(stroke.lineWidth) / 2))px"
        }
        return Node("div", id: path, attributes: [("class", "sw-color sw-shape"), ("style", style + ";" + css)])
    }

    private func svg(_ context: RenderContext, path: String) -> Node {
        let isPath = shape is Path
        var rect: CGRect
        if isPath {
            let bounds = shape.path(in: .zero).boundingRect
            rect = CGRect(x: 0, y: 0, width: max(bounds.maxX, 1), height: max(bounds.maxY, 1))
        } else {
            let frame = context.environment.shapeFrame
            rect = CGRect(x: 0, y: 0, width: frame?.width ?? 100, height: frame?.height ?? 100)
        }
        var style: [String] = []
        switch paint {
        case .fill(let paint):
            style.append("fill:" + (paint?.color ?? "currentColor"))
        case .stroke(let paint, let stroke, let inset):
            if inset { rect = rect.insetBy(dx: stroke.lineWidth / 2, dy: stroke.lineWidth / 2) }
            style += ["fill:none", "stroke:" + (paint?.color ?? "currentColor"), stroke.css]
        }
        var extra = ""
        if let trimmed = shape as? any TrimmedShapeProtocol {
            let (from, to) = trimmed.range
            // Dashes measured in fractions of the outline (pathLength 1): one dash from `from` to `to`.
            extra = " pathLength=\"1\""
            style.removeAll { $0.hasPrefix("stroke-dasharray") }
            style.append(
                "stroke-dasharray:\(Font.num(Double(to - from))) 2;stroke-dashoffset:\(Font.num(Double(-from)))")
        }
        let outline = isPath ? shape.path(in: .zero) : shape.path(in: rect)
        let frame =
            isPath
            ? rect
            : CGRect(
                x: 0, y: 0, width: context.environment.shapeFrame?.width ?? 100,
                height: context.environment.shapeFrame?.height ?? 100)
        let box = "0 0 \(Font.num(Double(frame.width))) \(Font.num(Double(frame.height)))"
        let scaling = isPath ? "" : " vector-effect=\"non-scaling-stroke\""
        let markup =
            "<path d=\"" + outline.svgData + "\" style=\"" + HTML.escape(style.joined(separator: ";")) + "\""
            + extra + scaling + "/>"
        var attributes: [(String, String)] = [
            ("class", isPath ? "sw-path-svg" : "sw-shape-svg"), ("viewBox", box), ("aria-hidden", "true"),
        ]
        if isPath {
            attributes += [("width", Font.num(Double(frame.width))), ("height", Font.num(Double(frame.height)))]
        } else {
            attributes.append(("preserveAspectRatio", shape._keepsAspectRatio ? "xMidYMid meet" : "none"))
        }
        return Node("svg", id: path, attributes: attributes, raw: markup)
    }
}

/// A trimmed shape's range, for drawing.
@MainActor
protocol TrimmedShapeProtocol {
    var range: (CGFloat, CGFloat) { get }
}

extension TrimmedShape: TrimmedShapeProtocol {
    var range: (CGFloat, CGFloat) { (from, to) }
}

extension Path: Shape {
    /// The path itself, in its own coordinates (it does not stretch to a rectangle).
    public func path(in rect: CGRect) -> Path { self }
}

private struct ShapeFrameKey: EnvironmentKey { static var defaultValue: CGSize? { nil } }

extension EnvironmentValues {
    /// The size `frame(width:height:)` gives the view directly inside it (shapes drawn as SVG use it).
    var shapeFrame: CGSize? {
        get { self[ShapeFrameKey.self] }
        set { self[ShapeFrameKey.self] = newValue }
    }
}

/// A rectangle.
public struct Rectangle: Shape {
    /// A rectangle.
    public init() {}
    /// No rounding.
    public var _shapeCSS: String? { "border-radius:0" }
    /// The rectangle.
    public func path(in rect: CGRect) -> Path { Path(rect) }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] { shapeNodes(context, path: path) }
}

extension Rectangle: PrimitiveView {}

/// A rectangle with rounded corners.
public struct RoundedRectangle: Shape {
    /// The corners' radius.
    public let cornerRadius: Double
    /// A rounded rectangle.
    public init(cornerRadius: Double) { self.cornerRadius = cornerRadius }
    /// A rounded rectangle whose corners' radius is `cornerSize`'s width and height.
    public init(cornerSize: CGSize) { self.cornerRadius = Double(min(cornerSize.width, cornerSize.height)) }
    /// Rounded corners.
    public var _shapeCSS: String? { "border-radius:\(Font.num(cornerRadius))px" }
    /// The rounded rectangle.
    public func path(in rect: CGRect) -> Path { Path(roundedRect: rect, cornerRadius: CGFloat(cornerRadius)) }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] { shapeNodes(context, path: path) }
}

extension RoundedRectangle: PrimitiveView {}

/// A rectangle whose short sides are half circles.
public struct Capsule: Shape {
    /// A capsule.
    public init() {}
    /// Fully rounded ends.
    public var _shapeCSS: String? { "border-radius:9999px" }
    /// The capsule: a rounded rectangle whose corners are half its short side.
    public func path(in rect: CGRect) -> Path {
        Path(roundedRect: rect, cornerRadius: min(rect.width, rect.height) / 2)
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] { shapeNodes(context, path: path) }
}

extension Capsule: PrimitiveView {}

/// An ellipse filling its frame.
public struct Ellipse: Shape {
    /// An ellipse.
    public init() {}
    /// Elliptical corners.
    public var _shapeCSS: String? { "border-radius:50%" }
    /// The ellipse filling the rectangle.
    public func path(in rect: CGRect) -> Path { Path(ellipseIn: rect) }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] { shapeNodes(context, path: path) }
}

extension Ellipse: PrimitiveView {}

/// A circle centred in its frame.
public struct Circle: Shape {
    /// A circle.
    public init() {}
    /// A round, square box.
    public var _shapeCSS: String? { "border-radius:50%;aspect-ratio:1" }
    /// A circle stays round.
    public var _keepsAspectRatio: Bool { true }
    /// The circle centred in the rectangle, as wide as its short side.
    public func path(in rect: CGRect) -> Path {
        let side = min(rect.width, rect.height)
        return Path(ellipseIn: CGRect(x: rect.midX - side / 2, y: rect.midY - side / 2, width: side, height: side))
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] { shapeNodes(context, path: path) }
}

extension Circle: PrimitiveView {}

extension View {
    /// Cuts the view to a shape (a custom shape by its path, made for a 100×100 box and stretched).
    public func clipShape<S: Shape>(_ shape: S) -> some View {
        BoxView(content: self, style: shapeClip(shape) + ";overflow:hidden")
    }

    /// Fills the view's background with a style in a shape.
    public func background<B: ShapeStyle, S: Shape>(_ style: B, in shape: S) -> some View {
        BoxView(content: self, style: "background:" + style.cssBackground + ";" + shapeClip(shape))
    }
}

/// CSS that cuts a box to a shape: its box CSS, or for a custom shape a `clip-path` polygon through its path's
/// points in a 100×100 box, as percentages (curves by their end and control points).
@MainActor
func shapeClip<S: Shape>(_ shape: S) -> String {
    if let css = shape._shapeCSS { return css }
    var points: [String] = []
    for element in shape.path(in: CGRect(x: 0, y: 0, width: 100, height: 100)).elements {
        switch element {
        case .move(let p), .line(let p), .quadCurve(let p, _), .curve(let p, _, _), .arc(let p, _, _, _, _):
            points.append("\(Font.num(Double(p.x)))% \(Font.num(Double(p.y)))%")
        case .close: break
        }
    }
    return points.count < 3 ? "" : "clip-path:polygon(" + points.joined(separator: ",") + ")"
}
