/// Groups views without adding layout.
public struct Group<Content: View>: View, PrimitiveView {
    let content: Content
    /// Creates a group.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        context.render(content, path: path + ".g")
    }
}

/// Overlays its children, aligned in both axes.
public struct ZStack<Content: View>: View, PrimitiveView {
    let content: Content
    let alignment: Alignment
    /// Creates an overlaying stack.
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {
        self.content = content()
        self.alignment = alignment
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let place =
            "align-items:\(alignment.vertical.css);justify-items:\(alignment.horizontal.css == "flex-start" ? "start" : alignment.horizontal.css == "flex-end" ? "end" : "center")"
        return [
            Node(
                "div", id: path, attributes: [("class", "sw-zstack"), ("style", place)],
                children: context.render(content, path: path + ".c", axis: .none))
        ]
    }
}

/// A thin line separating content.
public struct Divider: View, PrimitiveView {
    /// Creates a divider.
    public init() {}
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        if context.environment.isInMenu {
            return [Node("div", id: path, attributes: [("role", "separator"), ("class", "sw-menu-sep")])]
        }
        return [
            Node(
                "hr", id: path,
                attributes: [("class", context.axis == .horizontal ? "sw-divider sw-vertical" : "sw-divider")])
        ]
    }
}

/// A scrollable region.
public struct ScrollView<Content: View>: View, PrimitiveView {
    let content: Content
    let axes: Axis.Set
    /// Creates a scroll view.
    /// Whether its scroll bars show (hidden ones still scroll).
    let showsIndicators: Bool
    public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content) {
        self.axes = axes
        self.content = content()
        self.showsIndicators = showsIndicators
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let horizontal = axes.contains(.horizontal) && !axes.contains(.vertical)
        let inner = Node(
            "div", id: path + ".i",
            attributes: [("class", horizontal ? "sw-hstack sw-scroll-content" : "sw-vstack sw-scroll-content")],
            children: context.render(content, path: path + ".c", axis: horizontal ? .horizontal : .vertical))
        return [
            Node(
                "div", id: path,
                attributes: [
                    (
                        "class",
                        (horizontal ? "sw-scroll sw-scroll-h" : "sw-scroll")
                            + (showsIndicators ? "" : " sw-no-indicators")
                    )
                ],
                children: [inner])
        ]
    }
}

extension Axis {
    /// A set of axes.
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let horizontal = Set(rawValue: 1), vertical = Set(rawValue: 2)
    }
}

/// A two-dimensional layout of ``GridRow``s; views outside rows span the whole width.
public struct Grid<Content: View>: View, PrimitiveView {
    let content: Content
    let alignment: Alignment
    let horizontalSpacing: Double?
    let verticalSpacing: Double?
    /// Creates a grid.
    public init(
        alignment: Alignment = .center, horizontalSpacing: Double? = nil, verticalSpacing: Double? = nil,
        @ViewBuilder content: () -> Content
    ) {
        self.content = content()
        self.alignment = alignment
        self.horizontalSpacing = horizontalSpacing
        self.verticalSpacing = verticalSpacing
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        func isRow(_ n: Node) -> Bool { n.attributes.first?.1 == "sw-gridrow" }
        var children = context.render(content, path: path + ".c", axis: .none)
        let columns = max(1, children.map { isRow($0) ? $0.children.count : 1 }.max() ?? 1)
        for i in children.indices where !isRow(children[i]) {
            children[i] = Node(
                "div", id: children[i].id + "~", attributes: [("class", "sw-cell"), ("style", "grid-column:1/-1")],
                children: [children[i]])
        }
        let h = alignment.horizontal == .leading ? "start" : alignment.horizontal == .trailing ? "end" : "center"
        let style =
            "grid-template-columns:repeat(\(columns),auto);column-gap:\(Font.num(horizontalSpacing ?? 8))px;row-gap:\(Font.num(verticalSpacing ?? 8))px;justify-items:\(h)"
        return [Node("div", id: path, attributes: [("class", "sw-grid"), ("style", style)], children: children)]
    }
}

/// A row of a ``Grid``: each child is one cell.
public struct GridRow<Content: View>: View, PrimitiveView {
    let content: Content
    let alignment: VerticalAlignment?
    /// Creates a row; `alignment` places its cells vertically (the grid's alignment when `nil`).
    public init(alignment: VerticalAlignment? = nil, @ViewBuilder content: () -> Content) {
        self.content = content()
        self.alignment = alignment
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        var cells = context.render(content, path: path + ".c", axis: .none)
        // The row is `display: contents`, so its alignment goes on each cell (`align-self` in the grid).
        if let alignment {
            let value: String
            switch alignment {
            case .top: value = "start"
            case .center: value = "center"
            case .bottom: value = "end"
            case .firstTextBaseline: value = "first baseline"
            case .lastTextBaseline: value = "last baseline"
            }
            for index in cells.indices {
                if let style = cells[index].attributes.firstIndex(where: { $0.0 == "style" }) {
                    cells[index].attributes[style].1 += ";align-self:" + value
                } else {
                    cells[index].attributes.append(("style", "align-self:" + value))
                }
            }
        }
        return [Node("div", id: path, attributes: [("class", "sw-gridrow")], children: cells)]
    }
}

extension View {
    /// Makes a grid cell span several columns.
    public func gridCellColumns(_ count: Int) -> some View {
        BoxView(content: self, style: "grid-column:span \(count)", cssClass: "sw-cell")
    }
}

/// A group of rows in a ``List`` or ``Form``, with an optional header and footer.
public struct Section<Parent: View, Content: View, Footer: View>: View, PrimitiveView {
    let header: Parent
    let content: Content
    let footer: Footer
    /// Creates a section with header and footer views.
    public init(
        @ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent, @ViewBuilder footer: () -> Footer
    ) {
        self.content = content()
        self.header = header()
        self.footer = footer()
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        if context.environment.isInMenu {
            // In a menu: a group of items between separators, under its header.
            let h = context.render(header, path: path + ".h")
            var children: [Node] = []
            if !h.isEmpty {
                children.append(Node("div", id: path + ".hd", attributes: [("class", "sw-menu-header")], children: h))
            }
            children += context.render(content, path: path + ".c", axis: .vertical)
            return [
                Node("div", id: path, attributes: [("role", "group"), ("class", "sw-menu-group")], children: children)
            ]
        }
        var children: [Node] = []
        let h = context.render(header, path: path + ".h")
        if !h.isEmpty {
            children.append(Node("div", id: path + ".hd", attributes: [("class", "sw-section-header")], children: h))
        }
        let rows = context.render(content, path: path + ".c", axis: .vertical, lazyRows: context.lazyRows)
        children.append(
            Node("div", id: path + ".rs", attributes: [("class", "sw-section-rows")], children: context.rows(rows)))
        let f = context.render(footer, path: path + ".f")
        if !f.isEmpty {
            children.append(Node("div", id: path + ".ft", attributes: [("class", "sw-section-footer")], children: f))
        }
        return [Node("section", id: path, attributes: [("class", "sw-section")], children: children)]
    }
}

extension Section where Parent == EmptyView, Footer == EmptyView {
    /// A section without header or footer.
    public init(@ViewBuilder content: () -> Content) {
        self.init(content: content, header: { EmptyView() }, footer: { EmptyView() })
    }
}
extension Section where Parent == Text, Footer == EmptyView {
    /// A section with a text header (a string, shown as it is).
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {
        self.init(content: content, header: { Text(title) }, footer: { EmptyView() })
    }
    /// A section with a localized text header.
    public init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content) {
        let title = Text(titleKey)
        self.init(content: content, header: { title }, footer: { EmptyView() })
    }
}
extension Section where Footer == EmptyView {
    /// A section with a header view.
    public init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent) {
        self.init(content: content, header: header, footer: { EmptyView() })
    }
    /// A section with a header view (header first).
    public init(@ViewBuilder header: () -> Parent, @ViewBuilder content: () -> Content) {
        self.init(content: content, header: header, footer: { EmptyView() })
    }
}
extension Section where Parent == EmptyView {
    /// A section with a footer view.
    public init(@ViewBuilder content: () -> Content, @ViewBuilder footer: () -> Footer) {
        self.init(content: content, header: { EmptyView() }, footer: footer)
    }
}

/// A container of grouped controls for data entry, in sections of rows.
public struct Form<Content: View>: View, PrimitiveView {
    let content: Content
    /// Creates a form.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let items = context.render(content, path: path + ".c", axis: .vertical)
        // Loose rows (outside sections) are gathered into implicit sections.
        var children: [Node] = []
        var loose: [Node] = []
        func flush() {
            guard !loose.isEmpty else { return }
            let id = loose[0].id + ".sec"
            children.append(
                Node(
                    "section", id: id, attributes: [("class", "sw-section")],
                    children: [
                        Node(
                            "div", id: id + ".rs", attributes: [("class", "sw-section-rows")],
                            children: context.rows(loose))
                    ]))
            loose = []
        }
        for n in items {
            if n.tag == "section" {
                flush()
                children.append(n)
            } else {
                loose.append(n)
            }
        }
        flush()
        return [Node("div", id: path, attributes: [("class", "sw-form"), ("role", "form")], children: children)]
    }
}

extension RenderContext {
    /// Wraps nodes as rows (a selectable row when a list selection is active and the node is tagged).
    func rows(_ nodes: [Node]) -> [Node] {
        nodes.map { original in
            if original.tag == "section" || original.isWindowPad { return original }
            // The row's background, separator and insets, carried by the view in it.
            let (classes, style, node) = ListRowTraits.lift(original)
            var attrs: [(String, String)] = [("class", "sw-row" + classes)] + (style.isEmpty ? [] : [("style", style)])
            if let selection = listSelection, let tag = tags[node.id] {
                let rowID = node.id + "~"
                if action(rowID, { selection.select(tag) }) { attrs.append(("data-click", "1")) }
                if selection.isSelected(tag) { attrs[0].1 += " sw-selected" }
                return Node("div", id: rowID, attributes: attrs + [("role", "option")], children: [node])
            }
            return Node("div", id: node.id + "~", attributes: attrs, children: [node])
        }
    }
}

/// The selection of a `List(selection:)`, in effect while its rows render.
struct ListSelection {
    let isSelected: @MainActor (AnyHashable) -> Bool
    let select: @MainActor (AnyHashable) -> Void
}
