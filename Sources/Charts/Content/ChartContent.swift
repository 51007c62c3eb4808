import Foundation
import SwiftUIWeb

/// The content of a chart: marks, groups of marks and custom compositions of them.
///
/// As with `View`, a custom type composes marks in `body`; the marks themselves are primitive.
@MainActor @preconcurrency
public protocol ChartContent {
    /// The type of content of `body`.
    associatedtype Body: ChartContent
    /// The marks this content is made of.
    @ChartContentBuilder var body: Body { get }
}

extension Never: ChartContent {}

/// Content that hands its marks to the chart directly (marks, groups, modifiers).
@MainActor
protocol PrimitiveChartContent {
    /// Appends this content's marks; `key` is the content's structural identity (list positions and
    /// `ForEach` element identities), which becomes its marks' element ids.
    func collect(into marks: inout MarkList, key: String)
}

extension ChartContent {
    /// This content's marks, in order.
    func marks() -> MarkList {
        var marks = MarkList()
        ChartContentCollector.collect(self, into: &marks, key: "")
        return marks
    }
}

/// Walks any chart content down to its primitive marks.
@MainActor
enum ChartContentCollector {
    static func collect(_ content: any ChartContent, into marks: inout MarkList, key: String) {
        if let primitive = content as? any PrimitiveChartContent {
            primitive.collect(into: &marks, key: key)
        } else {
            collect(content.body, into: &marks, key: key)
        }
    }
}

/// Several pieces of chart content in a row (a builder block).
public struct ChartContentList: ChartContent, PrimitiveChartContent {
    let items: [any ChartContent]
    /// Primitive: no body.
    public var body: Never { fatalError("primitive chart content") }
    func collect(into marks: inout MarkList, key: String) {
        for (index, item) in items.enumerated() {
            ChartContentCollector.collect(item, into: &marks, key: key + "." + String(index))
        }
    }
}

/// No marks.
public struct EmptyChartContent: ChartContent, PrimitiveChartContent {
    /// Primitive: no body.
    public var body: Never { fatalError("primitive chart content") }
    func collect(into marks: inout MarkList, key: String) {}
}

/// Builds chart content from closures, as Apple's `ChartContentBuilder` does.
@MainActor @resultBuilder
public enum ChartContentBuilder {
    /// An empty block.
    public static func buildBlock() -> EmptyChartContent { EmptyChartContent() }
    /// Any number of pieces of content.
    public static func buildBlock(_ content: any ChartContent...) -> ChartContentList {
        ChartContentList(items: content)
    }
    /// One piece of content.
    public static func buildBlock<C: ChartContent>(_ content: C) -> C { content }
    /// An `if` without `else`.
    public static func buildOptional(_ content: (any ChartContent)?) -> ChartContentList {
        ChartContentList(items: content.map { [$0] } ?? [])
    }
    /// The true branch of an `if`.
    public static func buildEither(first content: any ChartContent) -> ChartContentList {
        ChartContentList(items: [content])
    }
    /// The false branch of an `if`.
    public static func buildEither(second content: any ChartContent) -> ChartContentList {
        ChartContentList(items: [content])
    }
    /// A `for` loop's content.
    public static func buildArray(_ content: [any ChartContent]) -> ChartContentList {
        ChartContentList(items: content)
    }
    /// Availability checks.
    public static func buildLimitedAvailability(_ content: any ChartContent) -> ChartContentList {
        ChartContentList(items: [content])
    }
}

extension ForEach: ChartContent where Content: ChartContent {
    /// Primitive: no body.
    public var body: Never { fatalError("primitive chart content") }
}

extension ForEach: PrimitiveChartContent where Content: ChartContent {
    func collect(into marks: inout MarkList, key: String) {
        forEachElement { id, content in
            // An Int or String identity written directly (String(describing:) reflects, and a chart has many marks).
            let name = (id as? Int).map { String($0) } ?? (id as? String) ?? String(describing: id)
            ChartContentCollector.collect(content, into: &marks, key: key + "[" + name + "]")
        }
    }
}

extension ForEach where Content: ChartContent, Data.Element: Identifiable, ID == Data.Element.ID {
    /// Marks for each identifiable element.
    public init(_ data: Data, @ChartContentBuilder content: @escaping (Data.Element) -> Content) {
        self.init(chartData: data, id: { $0.id }, content: content)
    }
}

extension ForEach where Content: ChartContent {
    /// Marks for each element, identified by a key path.
    public init(
        _ data: Data, id: KeyPath<Data.Element, ID>, @ChartContentBuilder content: @escaping (Data.Element) -> Content
    ) {
        self.init(chartData: data, id: { $0[keyPath: id] }, content: content)
    }
}
