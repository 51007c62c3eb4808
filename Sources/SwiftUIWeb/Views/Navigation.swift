/// A two-column navigation container: the content list on the left, the selected link's destination on the right.
public struct NavigationView<Content: View>: View, PrimitiveView {
    let content: Content
    /// Creates a navigation view.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let saved = context.detail
        context.detail = nil
        let sidebar = context.render(content, path: path + ".s")
        let titleNode = Node("h1", id: path + ".t", attributes: [("class", "sw-title")], text: context.title ?? "")
        let detail = context.detail.map { context.render($0, path: path + ".d") } ?? []
        context.detail = saved
        return [Node("div", id: path, attributes: [("class", "sw-navigation")], children: [
            Node("nav", id: path + ".sb", attributes: [("class", "sw-sidebar")], children: [titleNode] + sidebar),
            Node("section", id: path + ".dt", attributes: [("class", "sw-detail")], children: detail),
        ])]
    }
}

/// A navigation container for a stack of views (rendered like ``NavigationView``).
public typealias NavigationStack = NavigationView

/// A view that shows its destination in the enclosing navigation view when selected.
public struct NavigationLink<Label: View, Destination: View>: View, PrimitiveView {
    let label: Label
    let destination: Destination
    let isSelected: @MainActor () -> Bool
    let select: @MainActor () -> Void
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    /// Creates a link whose selection is driven by `selection` matching `tag`.
    public init<V: Hashable>(destination: Destination, tag: V, selection: Binding<V?>, @ViewBuilder label: () -> Label) {
        self.destination = destination; self.label = label()
        isSelected = { selection.wrappedValue == tag }
        select = { selection.wrappedValue = tag }
    }

    /// Creates a link that shows its destination when clicked (selection held by the link's scene).
    public init(destination: Destination, @ViewBuilder label: () -> Label) {
        self.destination = destination; self.label = label()
        let flag = LinkFlag()
        isSelected = { flag.on }
        select = { flag.on = true }
    }

    func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let selected = isSelected()
        if selected { context.detail = destination }
        let action = select
        context.actions[path] = { action() }
        return [Node("a", id: path, attributes: [("class", selected ? "sw-link sw-selected" : "sw-link"), ("href", "#"), ("data-click", "1")],
                     children: context.render(label, path: path + ".l"))]
    }
}

final class LinkFlag { var on = false }

extension NavigationLink where Label == Text {
    /// Creates a link with a text label.
    public init<S: StringProtocol>(_ title: S, destination: Destination) { self.init(destination: destination) { Text(title) } }
}
