/// A view with a badge after it: a count or a short text, as SwiftUI shows on list rows.
struct BadgeView<Content: View>: View, PrimitiveView {
    let content: Content
    let text: String?
    var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let nodes = context.render(content, path: path + ".b")
        guard let text else { return nodes }
        return [
            Node(
                "div", id: path, attributes: [("class", "sw-badged")],
                children: nodes + [Node("span", id: path + ".n", attributes: [("class", "sw-badge")], text: text)])
        ]
    }
}

extension View {
    /// A count after the view (none for 0).
    public func badge(_ count: Int) -> some View {
        BadgeView(content: self, text: count == 0 ? nil : count.formatted())
    }
    /// A short text after the view (none for nil).
    public func badge(_ label: Text?) -> some View { BadgeView(content: self, text: label?.plainText) }
    /// A short text after the view (none for nil).
    public func badge<S: StringProtocol>(_ label: S?) -> some View {
        BadgeView(content: self, text: label.map { String($0) })
    }
}
