import Foundation
import SwiftUIWeb

/// What the chart modifiers (`chartXAxis`, `chartYScale`, `chartLegend`...) set for the charts inside a view.
struct ChartConfiguration {
    var xAxis = AxisConfiguration()
    var yAxis = AxisConfiguration()
    var xDomain: DomainSpec? = nil
    var yDomain: DomainSpec? = nil
    var legendVisibility: Visibility = .automatic
    var legendPosition: AnnotationPosition = .automatic
    var legendSpacing: CGFloat? = nil
    /// Colors for `foregroundStyle(by:)` values, in the scale's order.
    var styleScale: [(PlotDatum, String)]? = nil
    var xLabel: String? = nil
    var yLabel: String? = nil
}

/// An axis' visibility and marks.
struct AxisConfiguration {
    var visibility: Visibility = .automatic
    var marks: [AxisMarks]? = nil
}

struct ChartConfigurationKey: EnvironmentKey {
    static let defaultValue = ChartConfiguration()
}

extension EnvironmentValues {
    var chartConfiguration: ChartConfiguration {
        get { self[ChartConfigurationKey.self] }
        set { self[ChartConfigurationKey.self] = newValue }
    }
}

/// A scale's domain as given to `chartXScale(domain:)` / `chartYScale(domain:)`.
enum DomainSpec {
    /// From `lower` to `upper` (numbers or dates as numbers), possibly reversed.
    case range(PlotDatum, PlotDatum)
    /// These categories (or values), in this order.
    case values([PlotDatum])
    /// The data's own, with or without zero, possibly reversed.
    case automatic(includesZero: Bool?, reversed: Bool)
}

/// A scale's domain: a closed range of numbers or dates, an array of categories, or `.automatic(...)`.
public protocol ScaleDomain {
    /// The domain as the chart reads it.
    var _domainSpec: _ChartDomain { get }
}

/// A scale domain as the chart reads it (opaque).
public struct _ChartDomain {
    let spec: DomainSpec
}

extension ClosedRange: ScaleDomain where Bound: PrimitivePlottableProtocol {
    /// The range.
    public var _domainSpec: _ChartDomain {
        _ChartDomain(spec: .range(lowerBound._plotDatum, upperBound._plotDatum))
    }
}

extension Array: ScaleDomain where Element: Plottable {
    /// These values, in order.
    public var _domainSpec: _ChartDomain {
        _ChartDomain(spec: .values(map { $0.primitivePlottable._plotDatum }))
    }
}

/// The data's own domain, adjusted.
public struct AutomaticScaleDomain: ScaleDomain {
    let includesZero: Bool?
    let reversed: Bool
    /// The domain as the chart reads it.
    public var _domainSpec: _ChartDomain {
        _ChartDomain(spec: .automatic(includesZero: includesZero, reversed: reversed))
    }
}

extension ScaleDomain where Self == AutomaticScaleDomain {
    /// The data's own domain (zero included for bars and areas).
    public static var automatic: AutomaticScaleDomain { AutomaticScaleDomain(includesZero: nil, reversed: false) }
    /// The data's own domain, with or without zero, and possibly reversed.
    public static func automatic(includesZero: Bool? = nil, reversed: Bool? = nil) -> AutomaticScaleDomain {
        AutomaticScaleDomain(includesZero: includesZero, reversed: reversed ?? false)
    }
}

/// Where a legend or axis label sits around the plot.
public struct AnnotationPosition: Equatable, Sendable {
    enum Kind: Sendable { case automatic, top, bottom, leading, trailing }
    let kind: Kind
    /// The chart decides (below the plot).
    public static let automatic = AnnotationPosition(kind: .automatic)
    /// Above.
    public static let top = AnnotationPosition(kind: .top)
    /// Below.
    public static let bottom = AnnotationPosition(kind: .bottom)
    /// Left.
    public static let leading = AnnotationPosition(kind: .leading)
    /// Right.
    public static let trailing = AnnotationPosition(kind: .trailing)
}

extension View {
    private func chartConfiguration(_ change: @escaping (inout ChartConfiguration) -> Void) -> some View {
        transformEnvironment(\.chartConfiguration, transform: change)
    }

    /// Shows or hides the charts' x axis.
    public func chartXAxis(_ visibility: Visibility) -> some View {
        chartConfiguration { $0.xAxis.visibility = visibility }
    }

    /// The charts' x axis marks.
    public func chartXAxis<Content: AxisContent>(@AxisContentBuilder content: () -> Content) -> some View {
        let marks = Self.axisMarks(content())
        return chartConfiguration { $0.xAxis.marks = marks }
    }

    /// Shows or hides the charts' y axis.
    public func chartYAxis(_ visibility: Visibility) -> some View {
        chartConfiguration { $0.yAxis.visibility = visibility }
    }

    /// The charts' y axis marks.
    public func chartYAxis<Content: AxisContent>(@AxisContentBuilder content: () -> Content) -> some View {
        let marks = Self.axisMarks(content())
        return chartConfiguration { $0.yAxis.marks = marks }
    }

    /// The x scale's domain: a range (`0...100`, dates), categories in order, or `.automatic(...)`.
    public func chartXScale<Domain: ScaleDomain>(domain: Domain) -> some View {
        let spec = domain._domainSpec.spec
        return chartConfiguration { $0.xDomain = spec }
    }

    /// The y scale's domain: a range (`0...100`, dates), categories in order, or `.automatic(...)`.
    public func chartYScale<Domain: ScaleDomain>(domain: Domain) -> some View {
        let spec = domain._domainSpec.spec
        return chartConfiguration { $0.yDomain = spec }
    }

    /// Shows or hides the charts' legends.
    public func chartLegend(_ visibility: Visibility) -> some View {
        chartConfiguration { $0.legendVisibility = visibility }
    }

    /// Places the charts' legends (below the plot by default), `spacing` points from it.
    public func chartLegend(position: AnnotationPosition = .automatic, spacing: CGFloat? = nil) -> some View {
        chartConfiguration {
            $0.legendPosition = position
            $0.legendSpacing = spacing
        }
    }

    /// The colors `foregroundStyle(by:)` gives each value: `["Taken": .green, "Skipped": .orange]`.
    public func chartForegroundStyleScale<DataValue: Plottable, S: ShapeStyle>(
        _ mapping: KeyValuePairs<DataValue, S>
    ) -> some View {
        let scale = mapping.map { ($0.key.primitivePlottable._plotDatum, $0.value.cssColor) }
        return chartConfiguration { $0.styleScale = scale }
    }

    /// The colors `foregroundStyle(by:)` gives each value of `domain`, in order.
    public func chartForegroundStyleScale<DataValue: Plottable, S: ShapeStyle>(
        domain: [DataValue], range: [S]
    ) -> some View {
        precondition(!range.isEmpty, "chartForegroundStyleScale(domain:range:) needs at least one style")
        let scale = domain.enumerated().map {
            ($0.element.primitivePlottable._plotDatum, range[$0.offset % range.count].cssColor)
        }
        return chartConfiguration { $0.styleScale = scale }
    }

    /// A title for the x axis.
    public func chartXAxisLabel(_ label: String) -> some View {
        chartConfiguration { $0.xLabel = label }
    }

    /// A title for the y axis.
    public func chartYAxisLabel(_ label: String) -> some View {
        chartConfiguration { $0.yLabel = label }
    }

    private static func axisMarks(_ content: any AxisContent) -> [AxisMarks] {
        if let marks = content as? AxisMarks { return [marks] }
        if let list = content as? AxisContentList { return list.items.flatMap { axisMarks($0) } }
        return []
    }
}
