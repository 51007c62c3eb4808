/// The leading or trailing edge.
public enum HorizontalEdge: Int8, CaseIterable, Hashable, Sendable {
    /// The leading edge (left in a left-to-right layout).
    case leading
    /// The trailing edge.
    case trailing
}

/// A list row with swipe actions: buttons at one edge of the row. A pointer (mouse or keyboard focus) on the row
/// shows them; on a touch screen a swipe towards the other edge reveals them, and with `allowsFullSwipe` a swipe
/// across most of the row runs the first action.
struct SwipeActionsView<Content: View, Actions: View>: View, PrimitiveView {
    let content: Content
    let edge: HorizontalEdge
    let allowsFullSwipe: Bool
    let actions: Actions
    var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let nodes = context.render(content, path: path + ".v")
        let buttons = context.render(actions, path: path + ".a", axis: .horizontal)
        let bar = Node(
            "div", id: path + ".acts",
            attributes: [("class", "sw-swipe-actions"), ("role", "group"), ("aria-label", "Actions")],
            children: buttons)
        let edgeName = edge == .leading ? "leading" : "trailing"
        return [
            Node(
                "div", id: path,
                attributes: [
                    ("class", "sw-swipe sw-swipe-" + edgeName), ("data-swipe", edgeName),
                    ("data-full", allowsFullSwipe ? "1" : "0"),
                ],
                children: edge == .leading ? [bar] + nodes : nodes + [bar])
        ]
    }
}

extension View {
    /// Buttons at an edge of this list row, shown on hover or keyboard focus and by a swipe on a touch screen;
    /// with `allowsFullSwipe`, a swipe across most of the row runs the first button.
    public func swipeActions<T: View>(
        edge: HorizontalEdge = .trailing, allowsFullSwipe: Bool = true, @ViewBuilder content: () -> T
    ) -> some View {
        SwipeActionsView(content: self, edge: edge, allowsFullSwipe: allowsFullSwipe, actions: content())
    }
}
