/// Arranges children vertically.
public struct VStack<Content: View>: View, PrimitiveView {
    let content: Content
    let alignment: HorizontalAlignment
    let spacing: Double?
    /// Creates a vertical stack.
    public init(alignment: HorizontalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        self.content = content()
        self.alignment = alignment
        self.spacing = spacing
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [
            Node(
                "div", id: path, attributes: [("class", "sw-vstack"), ("style", stackStyle(alignment.css, spacing))],
                children: context.render(content, path: path + ".c", axis: .vertical))
        ]
    }
}

func stackStyle(_ align: String, _ spacing: Double?) -> String {
    var s = align == "center" ? "" : "align-items:" + align
    if let spacing { s += (s.isEmpty ? "" : ";") + "gap:\(Font.num(spacing))px" }
    return s
}

/// Arranges children horizontally.
public struct HStack<Content: View>: View, PrimitiveView {
    let content: Content
    let alignment: VerticalAlignment
    let spacing: Double?
    /// Creates a horizontal stack.
    public init(alignment: VerticalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        self.content = content()
        self.alignment = alignment
        self.spacing = spacing
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [
            Node(
                "div", id: path, attributes: [("class", "sw-hstack"), ("style", stackStyle(alignment.css, spacing))],
                children: context.render(content, path: path + ".c", axis: .horizontal))
        ]
    }
}

/// Horizontal alignment of a stack.
public enum HorizontalAlignment: Sendable { case leading, center, trailing }
/// Vertical alignment of a stack.
public enum VerticalAlignment: Sendable { case top, center, bottom, firstTextBaseline, lastTextBaseline }

/// Fills free space in a stack.
public struct Spacer: View, PrimitiveView {
    let minLength: Double?
    /// Creates a spacer.
    public init(minLength: Double? = nil) { self.minLength = minLength }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let style = minLength.map { "min-width:\(Font.num($0))px;min-height:\(Font.num($0))px" }
        return [Node("div", id: path, attributes: [("class", "sw-spacer")] + (style.map { [("style", $0)] } ?? []))]
    }
}
