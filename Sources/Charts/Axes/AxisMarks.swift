import Foundation
import SwiftUIWeb

/// The content of an axis: marks at values, each with grid lines, ticks and labels.
@MainActor @preconcurrency
public protocol AxisContent {}

/// The pieces an axis draws at one value.
struct AxisMarkParts {
    var gridLine = false
    var tick = false
    /// The label, or nil for none.
    var label: String? = nil
    var gridStyle: StrokeStyle? = nil
}

/// Content drawn at each axis value (grid line, tick, label).
@MainActor
protocol AxisPart {
    func apply(to parts: inout AxisMarkParts, value: AxisValue)
}

/// Builds axis content from closures.
@MainActor @resultBuilder
public enum AxisContentBuilder {
    /// An empty block.
    public static func buildBlock() -> AxisContentList { AxisContentList(items: []) }
    /// Any number of pieces of content.
    public static func buildBlock(_ content: any AxisContent...) -> AxisContentList { AxisContentList(items: content) }
    /// An `if` without `else`.
    public static func buildOptional(_ content: (any AxisContent)?) -> AxisContentList {
        AxisContentList(items: content.map { [$0] } ?? [])
    }
    /// The true branch of an `if`.
    public static func buildEither(first content: any AxisContent) -> AxisContentList {
        AxisContentList(items: [content])
    }
    /// The false branch of an `if`.
    public static func buildEither(second content: any AxisContent) -> AxisContentList {
        AxisContentList(items: [content])
    }
}

/// Several pieces of axis content.
public struct AxisContentList: AxisContent {
    let items: [any AxisContent]
}

/// A value an axis mark is drawn at, handed to `AxisMarks`' content.
public struct AxisValue {
    let datum: PlotDatum
    /// The value's position among the axis' values.
    public let index: Int
    /// How many values the axis has.
    public let count: Int
    let unit: Calendar.Component?

    /// The value as a plottable type (nil when it is of another kind).
    public func `as`<P: Plottable>(_ type: P.Type) -> P? {
        switch datum {
        case .number(let value):
            if let p = value as? P.PrimitivePlottable { return P(primitivePlottable: p) }
            if P.PrimitivePlottable.self == Int.self, let p = Int(exactly: value.rounded()) as? P.PrimitivePlottable {
                return P(primitivePlottable: p)
            }
            if P.PrimitivePlottable.self == Float.self, let p = Float(value) as? P.PrimitivePlottable {
                return P(primitivePlottable: p)
            }
            return nil
        case .date(let date): return (date as? P.PrimitivePlottable).flatMap(P.init(primitivePlottable:))
        case .category(let name): return (name as? P.PrimitivePlottable).flatMap(P.init(primitivePlottable:))
        }
    }
}

/// Where an axis' labels sit.
public struct AxisMarkPosition: Equatable, Sendable {
    enum Kind: Sendable { case automatic, leading, trailing, top, bottom }
    let kind: Kind
    /// The chart decides (y labels trailing, x labels at the bottom, as Swift Charts draws them).
    public static let automatic = AxisMarkPosition(kind: .automatic)
    /// Left of the plot.
    public static let leading = AxisMarkPosition(kind: .leading)
    /// Right of the plot.
    public static let trailing = AxisMarkPosition(kind: .trailing)
    /// Above the plot.
    public static let top = AxisMarkPosition(kind: .top)
    /// Below the plot.
    public static let bottom = AxisMarkPosition(kind: .bottom)
}

/// Which values an axis marks.
public struct AxisMarkValues {
    enum Kind {
        case automatic(desiredCount: Int?)
        case stride(Double)
        case calendarStride(Calendar.Component, Int, Calendar)
        case values([PlotDatum])
    }
    let kind: Kind

    /// Round values the chart picks (about five).
    public static var automatic: AxisMarkValues { AxisMarkValues(kind: .automatic(desiredCount: nil)) }
    /// Round values the chart picks, about `desiredCount` of them.
    public static func automatic(desiredCount: Int?) -> AxisMarkValues {
        AxisMarkValues(kind: .automatic(desiredCount: desiredCount))
    }
    /// Every multiple of `step` in the domain.
    public static func stride(by step: Double) -> AxisMarkValues { AxisMarkValues(kind: .stride(step)) }
    /// Every `count` calendar units (`.day`, `.month`...) in the domain.
    public static func stride(
        by component: Calendar.Component, count: Int = 1, calendar: Calendar = .current
    ) -> AxisMarkValues {
        AxisMarkValues(kind: .calendarStride(component, max(1, count), calendar))
    }
}

/// Marks along an axis: by default a grid line, a tick and a label at each value.
public struct AxisMarks: AxisContent {
    let position: AxisMarkPosition
    let values: AxisMarkValues
    let content: ((AxisValue) -> any AxisContent)?

    /// Marks at the values given (round values by default).
    public init(position: AxisMarkPosition = .automatic, values: AxisMarkValues = .automatic) {
        self.position = position
        self.values = values
        self.content = nil
    }

    /// Marks at the given values.
    public init<P: Plottable>(position: AxisMarkPosition = .automatic, values: [P]) {
        self.position = position
        self.values = AxisMarkValues(kind: .values(values.map { $0.primitivePlottable._plotDatum }))
        self.content = nil
    }

    /// Marks whose pieces `content` chooses for each value.
    public init<Content: AxisContent>(
        position: AxisMarkPosition = .automatic, values: AxisMarkValues = .automatic,
        @AxisContentBuilder content: @escaping (AxisValue) -> Content
    ) {
        self.position = position
        self.values = values
        self.content = { content($0) }
    }

    /// Marks at the given values whose pieces `content` chooses.
    public init<P: Plottable, Content: AxisContent>(
        position: AxisMarkPosition = .automatic, values: [P],
        @AxisContentBuilder content: @escaping (AxisValue) -> Content
    ) {
        self.position = position
        self.values = AxisMarkValues(kind: .values(values.map { $0.primitivePlottable._plotDatum }))
        self.content = { content($0) }
    }

    /// What is drawn at `value`.
    func parts(at value: AxisValue, defaultLabel: String, isXAxis: Bool) -> AxisMarkParts {
        guard let content else {
            return AxisMarkParts(gridLine: true, tick: isXAxis, label: defaultLabel)
        }
        var parts = AxisMarkParts()
        Self.apply(content(value), to: &parts, value: value, defaultLabel: defaultLabel)
        return parts
    }

    private static func apply(
        _ content: any AxisContent, to parts: inout AxisMarkParts, value: AxisValue, defaultLabel: String
    ) {
        if let list = content as? AxisContentList {
            for item in list.items { apply(item, to: &parts, value: value, defaultLabel: defaultLabel) }
        } else if let label = content as? AxisValueLabel {
            parts.label = label.text(value) ?? defaultLabel
        } else if let part = content as? any AxisPart {
            part.apply(to: &parts, value: value)
        }
    }
}

/// A grid line across the plot at an axis value.
public struct AxisGridLine: AxisContent, AxisPart {
    let stroke: StrokeStyle?
    /// A grid line (dashed or wider with `stroke`).
    public init(stroke: StrokeStyle? = nil) { self.stroke = stroke }
    func apply(to parts: inout AxisMarkParts, value: AxisValue) {
        parts.gridLine = true
        parts.gridStyle = stroke
    }
}

/// A short tick at an axis value.
public struct AxisTick: AxisContent, AxisPart {
    /// A tick.
    public init() {}
    func apply(to parts: inout AxisMarkParts, value: AxisValue) { parts.tick = true }
}

/// An axis value's label: the chart's own text for it, a format, or a string.
public struct AxisValueLabel: AxisContent {
    let text: (AxisValue) -> String?

    /// The value as the chart writes it.
    public init() { text = { _ in nil } }

    /// A fixed label.
    public init<S: StringProtocol>(_ label: S) {
        let string = String(label)
        text = { _ in string }
    }

    /// The value written with a format style (`.dateTime.weekday()`, `.number.precision(...)`, `.percent`).
    public init<F: FormatStyle>(format: F) where F.FormatInput: Plottable, F.FormatOutput == String {
        text = { value in
            switch value.datum {
            case .date(let date): return (date as? F.FormatInput).map(format.format)
            case .number(let number):
                if let input = number as? F.FormatInput { return format.format(input) }
                if let input = Int(exactly: number.rounded()) as? F.FormatInput { return format.format(input) }
                return nil
            case .category(let name): return (name as? F.FormatInput).map(format.format)
            }
        }
    }
}
