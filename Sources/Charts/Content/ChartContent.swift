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
    /// Hands this content's marks to the chart, `key` being the content's structural identity (list positions and
    /// `ForEach` element identities), which becomes its marks' element ids. An implementation detail, as SwiftUI's
    /// `_makeView`: custom content does not implement it (it composes marks in `body`); the marks, groups and
    /// modifiers do. A requirement, so a chart of thousands of marks walks its content without a dynamic cast per
    /// mark.
    func _collectMarks(into marks: inout _ChartMarks, key: String)
}

/// The marks a chart collects from its content, in order (opaque: see ``ChartContent/_collectMarks(into:key:)``).
public struct _ChartMarks {
    var list = MarkList()
}

extension ChartContent {
    /// Custom content: the marks of its `body`.
    public func _collectMarks(into marks: inout _ChartMarks, key: String) {
        body._collectMarks(into: &marks, key: key)
    }

    /// This content's marks, in order.
    func marks() -> MarkList {
        var marks = _ChartMarks()
        _collectMarks(into: &marks, key: "")
        return marks.list
    }
}

extension Never: ChartContent {}

/// Several pieces of chart content in a row (a builder block).
public struct ChartContentList: ChartContent {
    let items: [any ChartContent]
    /// Primitive: no body.
    public var body: Never { fatalError("primitive chart content") }
    /// Each item's marks, keyed by its position.
    public func _collectMarks(into marks: inout _ChartMarks, key: String) {
        for (index, item) in items.enumerated() {
            item._collectMarks(into: &marks, key: key + "." + String(index))
        }
    }
}

/// No marks.
public struct EmptyChartContent: ChartContent {
    /// Primitive: no body.
    public var body: Never { fatalError("primitive chart content") }
    /// No marks.
    public func _collectMarks(into marks: inout _ChartMarks, key: String) {}
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

@MainActor
extension ForEach where Content: ChartContent {
    /// Each element's marks, keyed by its identity.
    public func _collectMarks(into marks: inout _ChartMarks, key: String) {
        forEachElement { id, content in
            // An Int or String identity written directly (String(describing:) reflects, and a chart has many marks).
            let name = (id as? String) ?? (id as? Int).map { String($0) } ?? String(describing: id)
            content._collectMarks(into: &marks, key: key + "[" + name + "]")
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
