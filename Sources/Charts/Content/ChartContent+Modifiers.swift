import Foundation
import SwiftUIWeb

/// Content with a change applied to each of its marks (a modifier). A value an inner modifier set stays:
/// the innermost modifier wins, as in SwiftUI.
public struct ModifiedChartContent<Content: ChartContent>: ChartContent {
    let content: Content
    let apply: (inout MarkRecord) -> Void
    /// Primitive: no body.
    public var body: Never { fatalError("primitive chart content") }
    /// The content's marks, each changed.
    public func _collectMarks(into marks: inout _ChartMarks, key: String) {
        let start = marks.list.count
        content._collectMarks(into: &marks, key: key)
        for index in start..<marks.list.count { marks.list.modify(at: index, apply) }
    }
}

extension ChartContent {
    private func modified(_ apply: @escaping (inout MarkRecord) -> Void) -> ModifiedChartContent<Self> {
        ModifiedChartContent(content: self, apply: apply)
    }

    /// Colors the marks with a style (a color).
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some ChartContent {
        modified { if $0.style == nil && $0.styleBy == nil { $0.style = style } }
    }

    /// Colors the marks by a value: each distinct value gets a color of the chart's scale, shown in the legend.
    public func foregroundStyle<D: Plottable>(by value: PlottableValue<D>) -> some ChartContent {
        let component = value.component
        return modified { if $0.style == nil && $0.styleBy == nil { $0.styleBy = component } }
    }

    /// Gives points a symbol by a value: each distinct value gets its own shape.
    public func symbol<D: Plottable>(by value: PlottableValue<D>) -> some ChartContent {
        let component = value.component
        return modified { if $0.symbol == nil && $0.symbolBy == nil { $0.symbolBy = component } }
    }

    /// Draws points with a symbol.
    public func symbol(_ symbol: BasicChartSymbolShape) -> some ChartContent {
        modified { if $0.symbol == nil && $0.symbolBy == nil { $0.symbol = symbol } }
    }

    /// Places bars of one position side by side by a value (grouped bars) instead of stacking them.
    public func position<P: Plottable>(by value: PlottableValue<P>) -> some ChartContent {
        let component = value.component
        return modified { if $0.positionBy == nil { $0.positionBy = component } }
    }

    /// Makes the marks translucent (opacities multiply).
    public func opacity(_ opacity: Double) -> some ChartContent {
        modified { $0.opacity *= min(max(opacity, 0), 1) }
    }

    /// The width and dash of lines and rules.
    public func lineStyle(_ style: StrokeStyle) -> some ChartContent {
        modified { if $0.lineStyle == nil { $0.lineStyle = style } }
    }

    /// How lines and areas run between their points.
    public func interpolationMethod(_ method: InterpolationMethod) -> some ChartContent {
        modified { if $0.interpolation == nil { $0.interpolation = method } }
    }

    /// Rounds the corners of bars, rectangles and sectors.
    public func cornerRadius(_ radius: CGFloat) -> some ChartContent {
        modified { if $0.cornerRadius == nil { $0.cornerRadius = radius } }
    }

    /// The area of point symbols, in square points (Apple's default is about 30).
    public func symbolSize(_ size: CGFloat) -> some ChartContent {
        modified { if $0.symbolSize == nil { $0.symbolSize = size } }
    }

    /// What assistive technologies read for each mark, instead of its values.
    public func accessibilityLabel(_ label: String) -> some ChartContent {
        modified { if $0.accessibilityLabel == nil { $0.accessibilityLabel = label } }
    }

    /// The value assistive technologies read after each mark's label.
    public func accessibilityValue(_ value: String) -> some ChartContent {
        modified { if $0.accessibilityValue == nil { $0.accessibilityValue = value } }
    }

    /// Hides the marks from assistive technologies.
    public func accessibilityHidden(_ hidden: Bool) -> some ChartContent {
        modified { $0.accessibilityHidden = $0.accessibilityHidden || hidden }
    }
}
