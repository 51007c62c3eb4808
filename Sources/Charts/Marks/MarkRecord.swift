import Foundation
import SwiftUIWeb

/// One mark as the chart lays it out: what kind it is, its plotted values and what modifiers set on it.
///
/// A class: a chart of 10,000 marks hands its records through placement, stacking and drawing, and a copy of a
/// record this size (a retain per field) cost more than the drawing. A mark's record is collected as it is (its
/// key is kept beside it, in `MarkList`); a modifier copies a record before it changes it unless the list holds the
/// only reference, so modifiers never change a record a mark value or another render still reads.
final class MarkRecord {
    enum Kind: String { case bar, line, point, area, rule, rectangle, sector }

    var kind: Kind
    var x: PlotComponent?
    var y: PlotComponent?
    var xStart: PlotComponent?
    var xEnd: PlotComponent?
    var yStart: PlotComponent?
    var yEnd: PlotComponent?
    /// A sector's share.
    var angle: PlotComponent?
    /// A line's or area's series (`series:`), when given.
    var series: PlotComponent?
    var width: MarkDimension
    var height: MarkDimension
    var stacking: MarkStackingMethod
    var innerRadius: MarkDimension
    var outerRadius: MarkDimension
    var angularInset: CGFloat

    init(
        kind: Kind, x: PlotComponent? = nil, y: PlotComponent? = nil, xStart: PlotComponent? = nil,
        xEnd: PlotComponent? = nil, yStart: PlotComponent? = nil, yEnd: PlotComponent? = nil,
        angle: PlotComponent? = nil, series: PlotComponent? = nil, width: MarkDimension = .automatic,
        height: MarkDimension = .automatic, stacking: MarkStackingMethod = .standard,
        innerRadius: MarkDimension = .automatic, outerRadius: MarkDimension = .automatic, angularInset: CGFloat = 0
    ) {
        self.kind = kind
        self.x = x
        self.y = y
        self.xStart = xStart
        self.xEnd = xEnd
        self.yStart = yStart
        self.yEnd = yEnd
        self.angle = angle
        self.series = series
        self.width = width
        self.height = height
        self.stacking = stacking
        self.innerRadius = innerRadius
        self.outerRadius = outerRadius
        self.angularInset = angularInset
    }

    /// A record of its own with the same values.
    func copy() -> MarkRecord {
        let copy = MarkRecord(
            kind: kind, x: x, y: y, xStart: xStart, xEnd: xEnd, yStart: yStart, yEnd: yEnd, angle: angle,
            series: series, width: width, height: height, stacking: stacking, innerRadius: innerRadius,
            outerRadius: outerRadius, angularInset: angularInset)
        copy.style = style
        copy.styleBy = styleBy
        copy.symbolBy = symbolBy
        copy.symbol = symbol
        copy.positionBy = positionBy
        copy.opacity = opacity
        copy.lineStyle = lineStyle
        copy.interpolation = interpolation
        copy.cornerRadius = cornerRadius
        copy.symbolSize = symbolSize
        copy.accessibilityLabel = accessibilityLabel
        copy.accessibilityValue = accessibilityValue
        copy.accessibilityHidden = accessibilityHidden
        return copy
    }

    // Set by modifiers; the innermost modifier wins, as in SwiftUI.
    var style: (any ShapeStyle)? = nil
    var styleBy: PlotComponent? = nil
    var symbolBy: PlotComponent? = nil
    var symbol: BasicChartSymbolShape? = nil
    var positionBy: PlotComponent? = nil
    var opacity: Double = 1
    var lineStyle: StrokeStyle? = nil
    var interpolation: InterpolationMethod? = nil
    var cornerRadius: CGFloat? = nil
    var symbolSize: CGFloat? = nil
    var accessibilityLabel: String? = nil
    var accessibilityValue: String? = nil
    var accessibilityHidden = false

    /// Calls `body` with each plotted component (for the read-aloud label), in Apple's order, without building an
    /// array (a chart of 10,000 marks asks each mark twice).
    @inline(__always)
    func forEachComponent(_ body: (PlotComponent) -> Void) {
        if let x { body(x) }
        if let xStart { body(xStart) }
        if let xEnd { body(xEnd) }
        if let y { body(y) }
        if let yStart { body(yStart) }
        if let yEnd { body(yEnd) }
        if let angle { body(angle) }
        if let series { body(series) }
        if let styleBy { body(styleBy) }
        if let symbolBy { body(symbolBy) }
        if let positionBy { body(positionBy) }
    }

    /// Whether a plotted value is a number that is not finite (NaN, infinity): such a mark is not drawn.
    var hasNonFiniteNumber: Bool {
        var found = false
        forEachComponent { component in
            if let number = component.datum.number, !number.isFinite { found = true }
        }
        return found
    }

    /// The series the mark belongs to, for lines, areas, stacking and colors.
    var seriesKey: String? {
        (series ?? styleBy ?? symbolBy).map { $0.text }
    }
}

/// A chart's collected marks, in order, each with its key: the mark's structural identity in its chart (list
/// positions and `ForEach` identities), from which its element ids derive, so they survive data changes.
struct MarkList {
    private(set) var records: [MarkRecord] = []
    private(set) var keys: [String] = []

    /// How many marks were collected.
    var count: Int { records.count }

    /// Adds a mark's record (shared with the mark value until a modifier changes it).
    mutating func append(_ record: MarkRecord, key: String) {
        records.append(record)
        keys.append(key)
    }

    /// Changes the record at `index`, first giving it a record of its own if anything else holds it (the mark value
    /// it came from, or another place in this list).
    mutating func modify(at index: Int, _ change: (inout MarkRecord) -> Void) {
        if !isKnownUniquelyReferenced(&records[index]) { records[index] = records[index].copy() }
        change(&records[index])
    }
}

/// A width or height of a mark: automatic, a fixed size, an inset from its band, or a ratio of its band.
public struct MarkDimension: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, Sendable {
    enum Kind: Sendable {
        case automatic
        case fixed(CGFloat)
        case inset(CGFloat)
        case ratio(CGFloat)
    }
    let kind: Kind

    /// The chart decides.
    public static var automatic: MarkDimension { MarkDimension(kind: .automatic) }
    /// A fixed size in points.
    public static func fixed(_ value: CGFloat) -> MarkDimension { MarkDimension(kind: .fixed(value)) }
    /// The band less `value` points.
    public static func inset(_ value: CGFloat) -> MarkDimension { MarkDimension(kind: .inset(value)) }
    /// A ratio of the band (0…1).
    public static func ratio(_ value: CGFloat) -> MarkDimension { MarkDimension(kind: .ratio(value)) }
    /// A fixed size.
    public init(floatLiteral value: Double) { kind = .fixed(CGFloat(value)) }
    /// A fixed size.
    public init(integerLiteral value: Int) { kind = .fixed(CGFloat(value)) }
    init(kind: Kind) { self.kind = kind }

    /// The size within a band (`automatic` is the given share of it).
    func resolve(band: Double, automaticRatio: Double) -> Double {
        switch kind {
        case .automatic: return band * automaticRatio
        case .fixed(let value): return Double(value)
        case .inset(let value): return max(0, band - 2 * Double(value))
        case .ratio(let value): return band * Double(value)
        }
    }
}

/// How marks of one position stack: on each other (standard), as shares of 100% (normalized), centred
/// (streamgraph), or not at all.
public struct MarkStackingMethod: Equatable, Sendable {
    enum Kind: Sendable { case standard, normalized, center, unstacked }
    let kind: Kind
    /// Stacked from zero.
    public static let standard = MarkStackingMethod(kind: .standard)
    /// Stacked and scaled to fill 0…1.
    public static let normalized = MarkStackingMethod(kind: .normalized)
    /// Stacked around the middle.
    public static let center = MarkStackingMethod(kind: .center)
    /// Not stacked: marks of one position overlap.
    public static let unstacked = MarkStackingMethod(kind: .unstacked)
}

/// How a line or area runs between its points.
public struct InterpolationMethod: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        case linear, catmullRom
        case cardinal(Double)
        case monotone, stepStart, stepCenter, stepEnd
    }
    let kind: Kind
    /// Straight segments.
    public static let linear = InterpolationMethod(kind: .linear)
    /// A Catmull-Rom spline through the points.
    public static let catmullRom = InterpolationMethod(kind: .catmullRom)
    /// A cardinal spline (tension 0).
    public static let cardinal = InterpolationMethod(kind: .cardinal(0))
    /// A curve that keeps each segment's direction (no overshoot): Fritsch–Carlson monotone cubic.
    public static let monotone = InterpolationMethod(kind: .monotone)
    /// Steps that change at each point.
    public static let stepStart = InterpolationMethod(kind: .stepStart)
    /// Steps that change halfway between points.
    public static let stepCenter = InterpolationMethod(kind: .stepCenter)
    /// Steps that change at the next point.
    public static let stepEnd = InterpolationMethod(kind: .stepEnd)
    /// A cardinal spline with a tension in 0…1.
    public static func cardinal(tension: CGFloat) -> InterpolationMethod {
        InterpolationMethod(kind: .cardinal(Double(min(max(tension, 0), 1))))
    }
}

/// A symbol's shape for point marks and legends.
public protocol ChartSymbolShape {
    /// The SVG path of the symbol in a 2×2 box around the origin.
    var _svgPath: String { get }
}

/// The symbols Swift Charts draws for points.
public struct BasicChartSymbolShape: ChartSymbolShape, Hashable, Sendable {
    let name: String
    /// The SVG path of the symbol in a 2×2 box around the origin.
    public let _svgPath: String
    /// A circle.
    public static let circle = BasicChartSymbolShape(name: "circle", _svgPath: "M1,0A1,1 0 1,1 -1,0A1,1 0 1,1 1,0Z")
    /// A square.
    public static let square = BasicChartSymbolShape(name: "square", _svgPath: "M-0.9,-0.9H0.9V0.9H-0.9Z")
    /// A triangle.
    public static let triangle = BasicChartSymbolShape(name: "triangle", _svgPath: "M0,-1.1L1,0.8H-1Z")
    /// A diamond.
    public static let diamond = BasicChartSymbolShape(name: "diamond", _svgPath: "M0,-1.2L1.2,0L0,1.2L-1.2,0Z")
    /// A pentagon.
    public static let pentagon = BasicChartSymbolShape(
        name: "pentagon", _svgPath: "M0,-1L0.95,-0.31L0.59,0.81H-0.59L-0.95,-0.31Z")
    /// A plus.
    public static let plus = BasicChartSymbolShape(
        name: "plus", _svgPath: "M-0.3,-1H0.3V-0.3H1V0.3H0.3V1H-0.3V0.3H-1V-0.3H-0.3Z")
    /// A cross.
    public static let cross = BasicChartSymbolShape(
        name: "cross",
        _svgPath: "M-0.71,-1L0,-0.29L0.71,-1L1,-0.71L0.29,0L1,0.71L0.71,1L0,0.29L-0.71,1L-1,0.71L-0.29,0L-1,-0.71Z")
    /// An asterisk.
    public static let asterisk = BasicChartSymbolShape(
        name: "asterisk",
        _svgPath:
            "M-0.15,-1H0.15V-0.26L0.79,-0.63L0.94,-0.37L0.3,0L0.94,0.37L0.79,0.63L0.15,0.26V1H-0.15V0.26L-0.79,0.63L-0.94,0.37L-0.3,0L-0.94,-0.37L-0.79,-0.63L-0.15,-0.26Z"
    )

    /// The order `symbol(by:)` hands symbols out in.
    static let sequence: [BasicChartSymbolShape] = [
        .circle, .square, .triangle, .diamond, .pentagon, .plus, .cross, .asterisk,
    ]
}
