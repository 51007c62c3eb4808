import Foundation
import SwiftUIWeb

/// A mark that is one record (every mark type).
protocol SingleMark: ChartContent {
    var record: MarkRecord { get }
}

/// Bars: a value's length from zero (stacked with the other bars of its position), or a range.
public struct BarMark: SingleMark {
    let record: MarkRecord
    /// This mark's record.
    public func _collectMarks(into marks: inout _ChartMarks, key: String) { marks.list.append(record, key: key) }
    /// Primitive: no body.
    public var body: Never { fatalError("primitive chart content") }

    /// A bar at `x` of length `y` (vertical) or at `y` of length `x` (horizontal, when `y` is a category).
    public init<X: Plottable, Y: Plottable>(
        x: PlottableValue<X>, y: PlottableValue<Y>, width: MarkDimension = .automatic,
        height: MarkDimension = .automatic, stacking: MarkStackingMethod = .standard
    ) {
        record = MarkRecord(
            kind: .bar, x: x.component, y: y.component, width: width, height: height, stacking: stacking)
    }

    /// A horizontal bar from `xStart` to `xEnd` at `y` (a Gantt chart's span).
    public init<X: Plottable, Y: Plottable>(
        xStart: PlottableValue<X>, xEnd: PlottableValue<X>, y: PlottableValue<Y>, height: MarkDimension = .automatic
    ) {
        record = MarkRecord(kind: .bar, y: y.component, xStart: xStart.component, xEnd: xEnd.component, height: height)
    }

    /// A vertical bar from `yStart` to `yEnd` at `x`.
    public init<X: Plottable, Y: Plottable>(
        x: PlottableValue<X>, yStart: PlottableValue<Y>, yEnd: PlottableValue<Y>, width: MarkDimension = .automatic
    ) {
        record = MarkRecord(kind: .bar, x: x.component, yStart: yStart.component, yEnd: yEnd.component, width: width)
    }

    /// A bar spanning both ranges.
    public init<X: Plottable, Y: Plottable>(
        xStart: PlottableValue<X>, xEnd: PlottableValue<X>, yStart: PlottableValue<Y>, yEnd: PlottableValue<Y>
    ) {
        record = MarkRecord(
            kind: .bar, xStart: xStart.component, xEnd: xEnd.component, yStart: yStart.component,
            yEnd: yEnd.component)
    }
}

/// A line through the points of a series, in the order they come.
public struct LineMark: SingleMark {
    let record: MarkRecord
    /// This mark's record.
    public func _collectMarks(into marks: inout _ChartMarks, key: String) { marks.list.append(record, key: key) }
    /// Primitive: no body.
    public var body: Never { fatalError("primitive chart content") }

    /// A point of a line (the series is the one `foregroundStyle(by:)` or `symbol(by:)` names, or the only one).
    public init<X: Plottable, Y: Plottable>(x: PlottableValue<X>, y: PlottableValue<Y>) {
        record = MarkRecord(kind: .line, x: x.component, y: y.component)
    }

    /// A point of the line of `series`.
    public init<X: Plottable, Y: Plottable, S: Plottable>(
        x: PlottableValue<X>, y: PlottableValue<Y>, series: PlottableValue<S>
    ) {
        record = MarkRecord(kind: .line, x: x.component, y: y.component, series: series.component)
    }
}

/// A symbol at a point.
public struct PointMark: SingleMark {
    let record: MarkRecord
    /// This mark's record.
    public func _collectMarks(into marks: inout _ChartMarks, key: String) { marks.list.append(record, key: key) }
    /// Primitive: no body.
    public var body: Never { fatalError("primitive chart content") }

    /// A point at `x`, `y`.
    public init<X: Plottable, Y: Plottable>(x: PlottableValue<X>, y: PlottableValue<Y>) {
        record = MarkRecord(kind: .point, x: x.component, y: y.component)
    }

    /// A point on the x axis (a strip plot).
    public init<X: Plottable>(x: PlottableValue<X>) {
        record = MarkRecord(kind: .point, x: x.component)
    }

    /// A point on the y axis.
    public init<Y: Plottable>(y: PlottableValue<Y>) {
        record = MarkRecord(kind: .point, y: y.component)
    }
}

/// The area under a line (stacked with the other series at each `x`), or between two values.
public struct AreaMark: SingleMark {
    let record: MarkRecord
    /// This mark's record.
    public func _collectMarks(into marks: inout _ChartMarks, key: String) { marks.list.append(record, key: key) }
    /// Primitive: no body.
    public var body: Never { fatalError("primitive chart content") }

    /// The area from zero to `y` at `x`.
    public init<X: Plottable, Y: Plottable>(
        x: PlottableValue<X>, y: PlottableValue<Y>, stacking: MarkStackingMethod = .standard
    ) {
        record = MarkRecord(kind: .area, x: x.component, y: y.component, stacking: stacking)
    }

    /// The area of `series` from zero to `y` at `x`.
    public init<X: Plottable, Y: Plottable, S: Plottable>(
        x: PlottableValue<X>, y: PlottableValue<Y>, series: PlottableValue<S>, stacking: MarkStackingMethod = .standard
    ) {
        record = MarkRecord(kind: .area, x: x.component, y: y.component, series: series.component, stacking: stacking)
    }

    /// The band from `yStart` to `yEnd` at `x`.
    public init<X: Plottable, Y: Plottable>(x: PlottableValue<X>, yStart: PlottableValue<Y>, yEnd: PlottableValue<Y>) {
        record = MarkRecord(kind: .area, x: x.component, yStart: yStart.component, yEnd: yEnd.component)
    }
}

/// A straight line across the plot at a value, or between two values.
public struct RuleMark: SingleMark {
    let record: MarkRecord
    /// This mark's record.
    public func _collectMarks(into marks: inout _ChartMarks, key: String) { marks.list.append(record, key: key) }
    /// Primitive: no body.
    public var body: Never { fatalError("primitive chart content") }

    /// A vertical line at `x`.
    public init<X: Plottable>(x: PlottableValue<X>) {
        record = MarkRecord(kind: .rule, x: x.component)
    }

    /// A horizontal line at `y`.
    public init<Y: Plottable>(y: PlottableValue<Y>) {
        record = MarkRecord(kind: .rule, y: y.component)
    }

    /// A horizontal line at `y` from `xStart` to `xEnd`.
    public init<X: Plottable, Y: Plottable>(
        xStart: PlottableValue<X>, xEnd: PlottableValue<X>, y: PlottableValue<Y>
    ) {
        record = MarkRecord(kind: .rule, y: y.component, xStart: xStart.component, xEnd: xEnd.component)
    }

    /// A vertical line at `x` from `yStart` to `yEnd`.
    public init<X: Plottable, Y: Plottable>(
        x: PlottableValue<X>, yStart: PlottableValue<Y>, yEnd: PlottableValue<Y>
    ) {
        record = MarkRecord(kind: .rule, x: x.component, yStart: yStart.component, yEnd: yEnd.component)
    }
}

/// A rectangle: a cell of a heat map, or a region between ranges.
public struct RectangleMark: SingleMark {
    let record: MarkRecord
    /// This mark's record.
    public func _collectMarks(into marks: inout _ChartMarks, key: String) { marks.list.append(record, key: key) }
    /// Primitive: no body.
    public var body: Never { fatalError("primitive chart content") }

    /// A rectangle centred on `x`, `y` (a band's cell when they are categories).
    public init<X: Plottable, Y: Plottable>(
        x: PlottableValue<X>, y: PlottableValue<Y>, width: MarkDimension = .automatic,
        height: MarkDimension = .automatic
    ) {
        record = MarkRecord(kind: .rectangle, x: x.component, y: y.component, width: width, height: height)
    }

    /// A rectangle spanning both ranges.
    public init<X: Plottable, Y: Plottable>(
        xStart: PlottableValue<X>, xEnd: PlottableValue<X>, yStart: PlottableValue<Y>, yEnd: PlottableValue<Y>
    ) {
        record = MarkRecord(
            kind: .rectangle, xStart: xStart.component, xEnd: xEnd.component, yStart: yStart.component,
            yEnd: yEnd.component)
    }

    /// A rectangle at `x` from `yStart` to `yEnd`.
    public init<X: Plottable, Y: Plottable>(
        x: PlottableValue<X>, yStart: PlottableValue<Y>, yEnd: PlottableValue<Y>, width: MarkDimension = .automatic
    ) {
        record = MarkRecord(
            kind: .rectangle, x: x.component, yStart: yStart.component, yEnd: yEnd.component, width: width)
    }

    /// A rectangle at `y` from `xStart` to `xEnd`.
    public init<X: Plottable, Y: Plottable>(
        xStart: PlottableValue<X>, xEnd: PlottableValue<X>, y: PlottableValue<Y>, height: MarkDimension = .automatic
    ) {
        record = MarkRecord(
            kind: .rectangle, y: y.component, xStart: xStart.component, xEnd: xEnd.component, height: height)
    }
}

/// A slice of a pie or donut chart, its angle its value's share of the total.
public struct SectorMark: SingleMark {
    let record: MarkRecord
    /// This mark's record.
    public func _collectMarks(into marks: inout _ChartMarks, key: String) { marks.list.append(record, key: key) }
    /// Primitive: no body.
    public var body: Never { fatalError("primitive chart content") }

    /// A slice whose angle is `angle`'s share; `innerRadius` makes a donut (`.ratio(0.6)`).
    public init<A: Plottable>(
        angle: PlottableValue<A>, innerRadius: MarkDimension = .automatic, outerRadius: MarkDimension = .automatic,
        angularInset: CGFloat? = nil
    ) {
        record = MarkRecord(
            kind: .sector, angle: angle.component, innerRadius: innerRadius, outerRadius: outerRadius,
            angularInset: angularInset ?? 0)
    }
}
