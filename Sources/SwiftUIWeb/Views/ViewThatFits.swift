/// The first of its views that fits the space it is offered, along the axes given (the last one when none fits).
///
/// The page decides, as it lays out: every candidate is rendered, and the page shows the first whose size fits
/// the container's width (and height, for `.vertical`), checking again when the container's size changes.
public struct ViewThatFits<Content: View>: View, PrimitiveView {
    let axes: Axis.Set
    let content: Content
    /// The first view of `content` that fits along `axes`.
    public init(in axes: Axis.Set = [.horizontal, .vertical], @ViewBuilder content: () -> Content) {
        self.axes = axes
        self.content = content()
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let candidates = context.render(content, path: path + ".c", axis: .none)
        var axisNames: [String] = []
        if axes.contains(.horizontal) { axisNames.append("h") }
        if axes.contains(.vertical) { axisNames.append("v") }
        let options = candidates.enumerated().map { index, node in
            Node("div", id: "\(path).o\(index)", attributes: [("class", "sw-fit-option")], children: [node])
        }
        return [
            Node(
                "div", id: path, attributes: [("class", "sw-fits"), ("data-fits", axisNames.joined())],
                children: options)
        ]
    }
}
