/// Wraps content in a styled element.
struct StyledView<Content: View>: View, PrimitiveView {
    let content: Content
    let style: String
    var body: Never { fatalError("primitive view") }
    func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [Node("div", id: path, attributes: [("class", "sw-mod"), ("style", style)], children: context.render(content, path: path + ".m"))]
    }
}

struct TitleView<Content: View>: View, PrimitiveView {
    let content: Content
    let title: String
    var body: Never { fatalError("primitive view") }
    func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        if context.title == nil { context.title = title }
        return context.render(content, path: path)
    }
}

extension View {
    /// Adds padding on all edges (16 px by default).
    public func padding(_ length: Double? = nil) -> some View {
        StyledView(content: self, style: "padding:\(Int(length ?? 16))px")
    }
    /// Sets the navigation title, which also becomes the window's title.
    public func navigationTitle<S: StringProtocol>(_ title: S) -> some View { TitleView(content: self, title: String(title)) }
    /// Sets the navigation title from text.
    public func navigationTitle(_ title: Text) -> some View { TitleView(content: self, title: title.content) }
}
