import Foundation
import SwiftUIWeb

/// A chart: marks laid out on scales with axes and a legend, drawn as accessible SVG.
///
/// Each mark is an element assistive technologies read ("Day: Mon, Doses: 3"); the SVG's elements keep their
/// identity from one render to the next, so a change to the data is sent to the browser as patches to the
/// marks it moved.
public struct Chart<Content: ChartContent>: View, PrimitiveView {
    let content: Content

    /// A chart of the marks `content` builds.
    public init(@ChartContentBuilder content: () -> Content) {
        self.content = content()
    }

    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        var calendar = context.environment.calendar
        calendar.timeZone = context.environment.timeZone
        let renderer = ChartRenderer(
            marks: content.marks(), config: context.environment.chartConfiguration, path: path, calendar: calendar)
        return renderer.render()
    }
}

extension Chart {
    /// A chart with marks for each identifiable element of `data`.
    public init<Data: RandomAccessCollection, C: ChartContent>(
        _ data: Data, @ChartContentBuilder content: @escaping (Data.Element) -> C
    ) where Content == ForEach<Data, Data.Element.ID, C>, Data.Element: Identifiable {
        self.content = ForEach(data, content: content)
    }

    /// A chart with marks for each element of `data`, identified by a key path.
    public init<Data: RandomAccessCollection, ID: Hashable, C: ChartContent>(
        _ data: Data, id: KeyPath<Data.Element, ID>, @ChartContentBuilder content: @escaping (Data.Element) -> C
    ) where Content == ForEach<Data, ID, C> {
        self.content = ForEach(data, id: id, content: content)
    }
}
