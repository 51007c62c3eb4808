/// The kinds of views a lazy stack keeps in view while its content scrolls past them.
public struct PinnedScrollableViews: OptionSet, Sendable {
    /// The raw bits.
    public let rawValue: UInt32
    /// Creates a set from raw bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Section headers stay at the top of the scroll view while their section scrolls.
    public static let sectionHeaders = PinnedScrollableViews(rawValue: 1 << 0)
    /// Section footers stay at the bottom of the scroll view while their section scrolls.
    public static let sectionFooters = PinnedScrollableViews(rawValue: 1 << 1)

    /// The stack's CSS classes for pinned headers and footers (sticky positioning).
    var cssClasses: String {
        (contains(.sectionHeaders) ? " sw-pin-h" : "") + (contains(.sectionFooters) ? " sw-pin-f" : "")
    }
}

/// A vertical stack that renders only the rows of a long `ForEach` that the page shows: a `ForEach` of more
/// than 2,000 elements directly inside it (or inside its sections) is windowed as the page scrolls; shorter
/// content renders whole.
public struct LazyVStack<Content: View>: View, PrimitiveView {
    let content: Content
    let alignment: HorizontalAlignment
    let spacing: Double?
    let pinnedViews: PinnedScrollableViews
    /// Creates a lazy vertical stack; `pinnedViews` keeps section headers or footers in view while their section
    /// scrolls.
    public init(
        alignment: HorizontalAlignment = .center, spacing: Double? = nil, pinnedViews: PinnedScrollableViews = .init(),
        @ViewBuilder content: () -> Content
    ) {
        self.content = content()
        self.alignment = alignment
        self.spacing = spacing
        self.pinnedViews = pinnedViews
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [
            Node(
                "div", id: path,
                attributes: [
                    ("class", "sw-vstack sw-lazy" + pinnedViews.cssClasses),
                    ("style", stackStyle(alignment.css, spacing)),
                ],
                children: context.render(content, path: path + ".c", axis: .vertical, lazyRows: true))
        ]
    }
}

/// A horizontal stack for long rows of views. Unlike `LazyVStack` it renders all of its content: the page
/// windows vertical scrolling only.
public struct LazyHStack<Content: View>: View, PrimitiveView {
    let content: Content
    let alignment: VerticalAlignment
    let spacing: Double?
    let pinnedViews: PinnedScrollableViews
    /// Creates a horizontal stack; `pinnedViews` keeps section headers or footers in view while their section
    /// scrolls.
    public init(
        alignment: VerticalAlignment = .center, spacing: Double? = nil, pinnedViews: PinnedScrollableViews = .init(),
        @ViewBuilder content: () -> Content
    ) {
        self.content = content()
        self.alignment = alignment
        self.spacing = spacing
        self.pinnedViews = pinnedViews
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [
            Node(
                "div", id: path,
                attributes: [
                    ("class", "sw-hstack sw-lazy" + pinnedViews.cssClasses),
                    ("style", stackStyle(alignment.css, spacing)),
                ],
                children: context.render(content, path: path + ".c", axis: .horizontal))
        ]
    }
}
