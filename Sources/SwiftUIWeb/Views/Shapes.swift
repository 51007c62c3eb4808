import Foundation

/// A shape drawn by the browser: a box whose corners CSS rounds. Shapes fill their frame with the foreground
/// color, or `fill`, `stroke` and `strokeBorder` them; `clipShape` and `background(_:in:)` cut a view to them.
///
/// Linux difference: Apple's `Shape` draws a `Path` from `path(in:)`; the server does not know a view's size, so
/// Orchard's built-in shapes are CSS boxes, and a custom `Shape` with a `path(in:)` does not compile yet.
public protocol Shape: View, Sendable {
    /// The box's CSS for the shape (`border-radius:50%`).
    var _shapeCSS: String { get }
}

extension Shape {
    /// The shape as a view: filled with the foreground color.
    package func shapeNodes(path: String, style: String) -> [Node] {
        [Node("div", id: path, attributes: [("class", "sw-color sw-shape"), ("style", style + ";" + _shapeCSS)])]
    }

    /// Fills the shape with a style.
    public func fill<S: ShapeStyle>(_ style: S) -> some View {
        BoxView(
            content: EmptyView(), style: "background:" + style.cssBackground + ";" + _shapeCSS,
            cssClass: "sw-color sw-shape"
        )
    }

    /// Strokes the shape's outline, centred on its edge, `lineWidth` points wide.
    public func stroke<S: ShapeStyle>(_ style: S, lineWidth: Double = 1) -> some View {
        let half = Font.num(lineWidth / 2)
        return BoxView(
            content: EmptyView(),
            style: "outline:\(Font.num(lineWidth))px solid \(style.cssColor);outline-offset:-\(half)px;" + _shapeCSS,
            cssClass: "sw-color sw-shape")
    }

    /// Strokes the shape's outline inside its edge, `lineWidth` points wide.
    public func strokeBorder<S: ShapeStyle>(_ style: S, lineWidth: Double = 1) -> some View {
        BoxView(
            content: EmptyView(), style: "border:\(Font.num(lineWidth))px solid \(style.cssColor);" + _shapeCSS,
            cssClass: "sw-color sw-shape")
    }
}

/// A rectangle.
public struct Rectangle: Shape {
    /// A rectangle.
    public init() {}
    /// No rounding.
    public var _shapeCSS: String { "border-radius:0" }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        shapeNodes(path: path, style: "background:currentColor")
    }
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
    public var _shapeCSS: String { "border-radius:\(Font.num(cornerRadius))px" }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        shapeNodes(path: path, style: "background:currentColor")
    }
}

extension RoundedRectangle: PrimitiveView {}

/// A rectangle whose short sides are half circles.
public struct Capsule: Shape {
    /// A capsule.
    public init() {}
    /// Fully rounded ends.
    public var _shapeCSS: String { "border-radius:9999px" }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        shapeNodes(path: path, style: "background:currentColor")
    }
}

extension Capsule: PrimitiveView {}

/// An ellipse filling its frame.
public struct Ellipse: Shape {
    /// An ellipse.
    public init() {}
    /// Elliptical corners.
    public var _shapeCSS: String { "border-radius:50%" }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        shapeNodes(path: path, style: "background:currentColor")
    }
}

extension Ellipse: PrimitiveView {}

/// A circle centred in its frame.
public struct Circle: Shape {
    /// A circle.
    public init() {}
    /// A round, square box.
    public var _shapeCSS: String { "border-radius:50%;aspect-ratio:1" }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        shapeNodes(path: path, style: "background:currentColor")
    }
}

extension Circle: PrimitiveView {}

extension View {
    /// Cuts the view to a shape.
    public func clipShape<S: Shape>(_ shape: S) -> some View {
        BoxView(content: self, style: shape._shapeCSS + ";overflow:hidden")
    }

    /// Fills the view's background with a style in a shape.
    public func background<B: ShapeStyle, S: Shape>(_ style: B, in shape: S) -> some View {
        BoxView(content: self, style: "background:" + style.cssBackground + ";" + shape._shapeCSS)
    }
}
