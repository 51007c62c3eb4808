import Foundation

/// An angle, in degrees or radians.
public struct Angle: Hashable, Comparable, Sendable {
    /// The angle in radians.
    public var radians: Double
    /// The angle in degrees.
    public var degrees: Double {
        get { radians * 180 / .pi }
        set { radians = newValue * .pi / 180 }
    }
    /// A zero angle.
    public init() { radians = 0 }
    /// An angle in radians.
    public init(radians: Double) { self.radians = radians }
    /// An angle in degrees.
    public init(degrees: Double) { self.radians = degrees * .pi / 180 }
    /// An angle in radians.
    public static func radians(_ radians: Double) -> Angle { Angle(radians: radians) }
    /// An angle in degrees.
    public static func degrees(_ degrees: Double) -> Angle { Angle(degrees: degrees) }
    /// A zero angle.
    public static let zero = Angle()
    /// Orders angles by size.
    public static func < (a: Angle, b: Angle) -> Bool { a.radians < b.radians }
}

/// A point in a view's own unit square: (0, 0) is its top leading corner, (1, 1) its bottom trailing one.
public struct UnitPoint: Hashable, Sendable {
    /// The horizontal position, 0…1 from the leading edge.
    public var x: Double
    /// The vertical position, 0…1 from the top.
    public var y: Double
    /// A point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    /// The top leading corner.
    public init() { self.init(x: 0, y: 0) }
    public static let zero = UnitPoint(x: 0, y: 0)
    public static let center = UnitPoint(x: 0.5, y: 0.5)
    public static let leading = UnitPoint(x: 0, y: 0.5)
    public static let trailing = UnitPoint(x: 1, y: 0.5)
    public static let top = UnitPoint(x: 0.5, y: 0)
    public static let bottom = UnitPoint(x: 0.5, y: 1)
    public static let topLeading = UnitPoint(x: 0, y: 0)
    public static let topTrailing = UnitPoint(x: 1, y: 0)
    public static let bottomLeading = UnitPoint(x: 0, y: 1)
    public static let bottomTrailing = UnitPoint(x: 1, y: 1)

    /// The point as a CSS transform origin (`50% 50%`).
    var css: String { "\(Font.num(x * 100))% \(Font.num(y * 100))%" }
}

extension View {
    /// Rotates the view's drawing by `angle` around `anchor` (its layout does not change).
    public func rotationEffect(_ angle: Angle, anchor: UnitPoint = .center) -> some View {
        BoxView(
            content: self,
            style: "transform:rotate(\(Font.num(angle.degrees))deg);transform-origin:\(anchor.css)")
    }

    /// Scales the view's drawing by `scale` around `anchor` (its layout does not change).
    public func scaleEffect(_ scale: Double, anchor: UnitPoint = .center) -> some View {
        scaleEffect(x: scale, y: scale, anchor: anchor)
    }

    /// Scales the view's drawing horizontally and vertically around `anchor`.
    public func scaleEffect(x: Double = 1, y: Double = 1, anchor: UnitPoint = .center) -> some View {
        BoxView(
            content: self, style: "transform:scale(\(Font.num(x)),\(Font.num(y)));transform-origin:\(anchor.css)")
    }

    /// Moves the view's drawing by `x` and `y` points (its layout does not change).
    public func offset(x: Double = 0, y: Double = 0) -> some View {
        BoxView(content: self, style: "transform:translate(\(Font.num(x))px,\(Font.num(y))px)")
    }

    /// Moves the view's drawing by a size's width and height.
    public func offset(_ offset: CGSize) -> some View {
        self.offset(x: Double(offset.width), y: Double(offset.height))
    }

    /// Draws a shadow behind the view: `radius` is its blur, `x` and `y` its offset.
    public func shadow(
        color: Color = Color(white: 0, opacity: 0.33), radius: Double, x: Double = 0, y: Double = 0
    )
        -> some View
    {
        BoxView(
            content: self,
            style: "filter:drop-shadow(\(Font.num(x))px \(Font.num(y))px \(Font.num(radius))px \(color.cssColor))")
    }
}
