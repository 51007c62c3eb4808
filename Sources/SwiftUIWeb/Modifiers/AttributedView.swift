/// Puts HTML attributes on a view's element: on its one root element, or on a group around its elements when it
/// has several (accessibility, tooltips, tap actions).
struct AttributedView<Content: View>: View, PrimitiveView {
    let content: Content
    let attributes: [(String, String)]
    /// A tap action for the element (`onTapGesture`), registered under the element's id, and the clicks in a row
    /// it takes.
    var tap: (count: Int, action: () -> Void)? = nil
    /// A hover handler (`onHover`): true when the pointer enters the element, false when it leaves.
    var hover: ((Bool) -> Void)? = nil
    var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let nodes = context.render(content, path: path + ".a")
        var node =
            nodes.count == 1
            ? nodes[0] : Node("div", id: path, attributes: [("class", "sw-inh"), ("role", "group")], children: nodes)
        for (name, value) in attributes {
            if let index = node.attributes.firstIndex(where: { $0.0 == name }) {
                node.attributes[index].1 = value  // The outer modifier is applied last, as in SwiftUI's order.
            } else {
                node.attributes.append((name, value))
            }
        }
        // A tap is registered (and the page told to send it) only where controls are enabled.
        if let tap, context.action(node.id, tap.action) {
            node.attributes.removeAll { $0.0 == "data-click" }
            node.attributes.append(("data-click", String(tap.count)))
        }
        if let hover {
            context.addInput(node.id + "!hover") { hover($0 == "1") }
            node.attributes.append(("data-hover", "1"))
        }
        return [node]
    }
}

extension View {
    /// The label assistive technologies read for this view (`aria-label`).
    public func accessibilityLabel(_ label: String) -> some View {
        AttributedView(content: self, attributes: [("aria-label", label)])
    }

    /// The value assistive technologies read after the label (`aria-valuetext`).
    public func accessibilityValue(_ value: String) -> some View {
        AttributedView(content: self, attributes: [("aria-valuetext", value)])
    }

    /// What happens when the view is activated, read after its label (`aria-description`).
    public func accessibilityHint(_ hint: String) -> some View {
        AttributedView(content: self, attributes: [("aria-description", hint)])
    }

    /// Hides the view from assistive technologies (`aria-hidden`), or shows it again.
    public func accessibilityHidden(_ hidden: Bool) -> some View {
        AttributedView(content: self, attributes: [("aria-hidden", hidden ? "true" : "false")])
    }

    /// A tooltip: the text the browser shows when the pointer rests on the view (`title`).
    public func help(_ text: String) -> some View {
        AttributedView(content: self, attributes: [("title", text)])
    }

    /// Runs `action` with true when the pointer enters the view and false when it leaves.
    public func onHover(perform action: @escaping (Bool) -> Void) -> some View {
        AttributedView(content: self, attributes: [], hover: action)
    }

    /// Runs `action` when the view is clicked `count` times in a row (a double click for 2).
    public func onTapGesture(count: Int = 1, perform action: @escaping () -> Void) -> some View {
        precondition(count >= 1, "onTapGesture(count:) needs a count of at least 1, not \(count)")
        return AttributedView(content: self, attributes: [], tap: (count, action))
    }
}
