import Foundation

/// How a line's ends are drawn (Core Graphics' type, which Linux lacks).
public enum CGLineCap: Int32, Sendable {
    /// Square ends at the end point.
    case butt
    /// Round ends.
    case round
    /// Square ends past the end point by half the width.
    case square
}

/// How a line's corners are drawn (Core Graphics' type, which Linux lacks).
public enum CGLineJoin: Int32, Sendable {
    /// Sharp corners, up to the miter limit.
    case miter
    /// Round corners.
    case round
    /// Cut corners.
    case bevel
}

/// The width, ends, corners and dashes of a stroked line.
public struct StrokeStyle: Equatable, Sendable {
    /// The line's width in points.
    public var lineWidth: CGFloat
    /// How the line's ends are drawn.
    public var lineCap: CGLineCap
    /// How the line's corners are drawn.
    public var lineJoin: CGLineJoin
    /// How far a mitered corner may reach, in widths.
    public var miterLimit: CGFloat
    /// Dash and gap lengths, in turn (empty: a solid line).
    public var dash: [CGFloat]
    /// Where in the dash pattern the line starts.
    public var dashPhase: CGFloat

    /// A stroke style.
    public init(
        lineWidth: CGFloat = 1, lineCap: CGLineCap = .butt, lineJoin: CGLineJoin = .miter, miterLimit: CGFloat = 10,
        dash: [CGFloat] = [CGFloat](), dashPhase: CGFloat = 0
    ) {
        self.lineWidth = lineWidth
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.miterLimit = miterLimit
        self.dash = dash
        self.dashPhase = dashPhase
    }

    /// The style as SVG/CSS stroke properties (`stroke-width:2;stroke-dasharray:4 2`).
    package var css: String {
        var parts = ["stroke-width:\(Self.number(lineWidth))"]
        switch lineCap {
        case .butt: break
        case .round: parts.append("stroke-linecap:round")
        case .square: parts.append("stroke-linecap:square")
        }
        switch lineJoin {
        case .miter: if miterLimit != 10 { parts.append("stroke-miterlimit:\(Self.number(miterLimit))") }
        case .round: parts.append("stroke-linejoin:round")
        case .bevel: parts.append("stroke-linejoin:bevel")
        }
        if !dash.isEmpty {
            parts.append("stroke-dasharray:" + dash.map(Self.number).joined(separator: " "))
            if dashPhase != 0 { parts.append("stroke-dashoffset:\(Self.number(dashPhase))") }
        }
        return parts.joined(separator: ";")
    }

    private static func number(_ value: CGFloat) -> String {
        value == value.rounded() ? String(Int(value)) : String(Double(value))
    }
}
