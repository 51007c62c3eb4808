import Foundation

/// A column of a `LazyVGrid` (or a row of a `LazyHGrid`): its size, the space after it, and how its cells align.
public struct GridItem: Sendable {
    /// How big a grid track is.
    public enum Size: Sendable {
        /// A fixed size in points.
        case fixed(Double)
        /// A share of the free space, between a minimum and a maximum.
        case flexible(minimum: Double = 10, maximum: Double = .infinity)
        /// As many tracks as fit, each between a minimum and a maximum.
        case adaptive(minimum: Double, maximum: Double = .infinity)
    }
    /// The track's size.
    public var size: Size
    /// The space after this track (8 points when nil).
    public var spacing: Double?
    /// How the track's cells align within it.
    public var alignment: Alignment?

    /// A grid track.
    public init(_ size: Size = .flexible(), spacing: Double? = nil, alignment: Alignment? = nil) {
        self.size = size
        self.spacing = spacing
        self.alignment = alignment
    }

    /// The track as CSS (`120px`, `minmax(10px,1fr)`, `repeat(auto-fill,minmax(80px,1fr))`).
    var css: String {
        func limit(_ v: Double) -> String { v.isInfinite ? "1fr" : "\(Font.num(v))px" }
        switch size {
        case .fixed(let v): return "\(Font.num(v))px"
        case .flexible(let minimum, let maximum): return "minmax(\(Font.num(minimum))px,\(limit(maximum)))"
        case .adaptive(let minimum, let maximum):
            return "repeat(auto-fill,minmax(\(Font.num(minimum))px,\(limit(maximum))))"
        }
    }

    var isAdaptive: Bool {
        if case .adaptive = size { return true }
        return false
    }
}

/// Lays out tracks and cells for both grid directions (CSS grid).
@MainActor
enum GridTracks {
    /// The grid's node: `items` as tracks along the cross axis, the content's views as cells in order.
    static func grid(
        _ context: RenderContext, path: String, items: [GridItem], content: any View, vertical: Bool,
        lineSpacing: Double?, alignment: String
    ) -> Node {
        let cells = context.render(content, path: path + ".c", axis: .none)
        let spacings = items.map { $0.spacing ?? 8 }
        let uniform = Set(spacings.dropLast()).count <= 1 || items.contains(where: \.isAdaptive)
        var template: [String] = []
        for (index, item) in items.enumerated() {
            template.append(item.css)
            // Different spacings after tracks become tracks of their own between them.
            if !uniform && index < items.count - 1 { template.append("\(Font.num(spacings[index]))px") }
        }
        let trackCount = max(1, items.count)
        var wrapped: [Node] = []
        for (index, cell) in cells.enumerated() {
            var style = ""
            let track = index % trackCount
            if !uniform {
                style += (vertical ? "grid-column:" : "grid-row:") + String(track * 2 + 1)
            }
            let item = items.isEmpty ? nil : items[items.contains(where: \.isAdaptive) ? 0 : track]
            if let a = item?.alignment {
                style +=
                    (style.isEmpty ? "" : ";") + "justify-self:\(a.horizontal.gridCSS);align-self:\(a.vertical.gridCSS)"
            }
            wrapped.append(
                style.isEmpty
                    ? cell
                    : Node(
                        "div", id: cell.id + "~", attributes: [("class", "sw-cell"), ("style", style)], children: [cell]
                    ))
        }
        let crossGap = uniform ? Font.num(spacings.first ?? 8) : "0"
        let lineGap = Font.num(lineSpacing ?? 8)
        let style =
            vertical
            ? "grid-template-columns:\(template.joined(separator: " "));column-gap:\(crossGap)px;row-gap:\(lineGap)px;justify-content:\(alignment)"
            : "grid-template-rows:\(template.joined(separator: " "));grid-auto-flow:column;row-gap:\(crossGap)px;column-gap:\(lineGap)px;align-content:\(alignment)"
        return Node(
            "div", id: path, attributes: [("class", "sw-grid sw-lazygrid"), ("style", style + ";align-self:stretch")],
            children: wrapped)
    }
}

extension HorizontalAlignment {
    var gridCSS: String {
        switch self {
        case .leading: "start"
        case .center: "center"
        case .trailing: "end"
        }
    }
}

extension VerticalAlignment {
    var gridCSS: String {
        switch self {
        case .top: "start"
        case .center: "center"
        case .bottom: "end"
        case .firstTextBaseline, .lastTextBaseline: "baseline"
        }
    }
}

/// A grid that grows downward: `columns` across, its views filling rows in order.
///
/// Not lazy yet: every cell is rendered, whether or not it is on screen.
public struct LazyVGrid<Content: View>: View, PrimitiveView {
    let columns: [GridItem]
    let alignment: HorizontalAlignment
    let spacing: Double?
    let content: Content

    /// A grid with these columns; `spacing` is the space between rows.
    public init(
        columns: [GridItem], alignment: HorizontalAlignment = .center, spacing: Double? = nil,
        @ViewBuilder content: () -> Content
    ) {
        self.columns = columns
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [
            GridTracks.grid(
                context, path: path, items: columns, content: content, vertical: true, lineSpacing: spacing,
                alignment: alignment.gridCSS)
        ]
    }
}

/// A grid that grows sideways: `rows` down, its views filling columns in order.
///
/// Not lazy yet: every cell is rendered.
public struct LazyHGrid<Content: View>: View, PrimitiveView {
    let rows: [GridItem]
    let alignment: VerticalAlignment
    let spacing: Double?
    let content: Content

    /// A grid with these rows; `spacing` is the space between columns.
    public init(
        rows: [GridItem], alignment: VerticalAlignment = .center, spacing: Double? = nil,
        @ViewBuilder content: () -> Content
    ) {
        self.rows = rows
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [
            GridTracks.grid(
                context, path: path, items: rows, content: content, vertical: false, lineSpacing: spacing,
                alignment: alignment.gridCSS)
        ]
    }
}
