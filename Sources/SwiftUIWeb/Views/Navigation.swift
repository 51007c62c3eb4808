/// A two-column navigation container: the content list on the left, the selected link's destination on the right.
public struct NavigationView<Content: View>: View, PrimitiveView {
    let content: Content
    /// Creates a navigation view.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let saved = context.detail
        let savedLinks = context.linkSelection
        context.resetDetail()
        context.linkSelection = context.scene.slot(for: path + "/links", context: context) { "" }
        defer { context.linkSelection = savedLinks }
        let sidebar = context.column(content, path: path + ".s")
        let detail = context.detail.map { context.render($0, path: path + ".d", axis: .vertical) } ?? []
        context.consumeDetail(restoring: saved)
        return [
            Node(
                "div", id: path, attributes: [("class", "sw-navigation")],
                children: [
                    Node("nav", id: path + ".sb", attributes: [("class", "sw-sidebar")], children: sidebar),
                    Node("section", id: path + ".dt", attributes: [("class", "sw-detail")], children: detail),
                ])
        ]
    }
}

extension RenderContext {
    /// Renders a navigation column: its title (from its `navigationTitle`) as a header, then its content.
    func column(_ view: any View, path: String) -> [Node] {
        let outer = title
        title = nil
        let nodes = render(view, path: path, axis: .vertical)
        let own = title
        title = outer ?? own
        guard let own else { return nodes }
        titleShown = true
        return [Node("h1", id: path + ".t", attributes: [("class", "sw-title")], text: own)] + nodes
    }
}

/// Visibility of the columns of a ``NavigationSplitView``.
public enum NavigationSplitViewVisibility: Hashable, Sendable { case automatic, all, doubleColumn, detailOnly }

/// A two- or three-column navigation: sidebar, optional content, detail. A link or a list selection in the
/// sidebar decides what the detail shows.
public struct NavigationSplitView<Sidebar: View, Content: View, Detail: View>: View, PrimitiveView {
    let sidebar: Sidebar
    let content: Content?
    let detail: Detail
    /// A two-column split view.
    public init(@ViewBuilder sidebar: () -> Sidebar, @ViewBuilder detail: () -> Detail) where Content == EmptyView {
        self.sidebar = sidebar()
        content = nil
        self.detail = detail()
    }
    /// A two-column split view with column visibility.
    public init(
        columnVisibility: Binding<NavigationSplitViewVisibility>, @ViewBuilder sidebar: () -> Sidebar,
        @ViewBuilder detail: () -> Detail
    ) where Content == EmptyView {
        self.sidebar = sidebar()
        content = nil
        self.detail = detail()
    }
    /// A three-column split view.
    public init(
        @ViewBuilder sidebar: () -> Sidebar, @ViewBuilder content: () -> Content, @ViewBuilder detail: () -> Detail
    ) {
        self.sidebar = sidebar()
        self.content = content()
        self.detail = detail()
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let saved = context.detail
        let savedLinks = context.linkSelection
        context.resetDetail()
        context.linkSelection = context.scene.slot(for: path + "/links", context: context) { "" }
        defer { context.linkSelection = savedLinks }
        var columns = [
            Node(
                "nav", id: path + ".sb", attributes: [("class", "sw-sidebar")],
                children: context.column(sidebar, path: path + ".s"))
        ]
        if let content {
            columns.append(
                Node(
                    "div", id: path + ".ct", attributes: [("class", "sw-content-column")],
                    children: context.column(content, path: path + ".c")))
        }
        let linked = context.detail
        context.consumeDetail(restoring: saved)
        let detailNodes =
            linked.map { context.column($0, path: path + ".l") } ?? context.column(detail, path: path + ".d")
        columns.append(Node("section", id: path + ".dt", attributes: [("class", "sw-detail")], children: detailNodes))
        return [Node("div", id: path, attributes: [("class", "sw-navigation sw-split")], children: columns)]
    }
}

/// One entry pushed on a ``NavigationStack``: a value (shown by `navigationDestination(for:)`) or a view.
enum StackEntry {
    case value(AnyHashable)
    case view(any View)
}

/// A type-erased list of values pushed on a ``NavigationStack``.
public struct NavigationPath: Equatable {
    var elements: [AnyHashable] = []
    /// An empty path.
    public init() {}
    /// A path of values.
    public init<S: Sequence>(_ elements: S) where S.Element: Hashable {
        self.elements = elements.map { AnyHashable($0) }
    }
    /// The number of values.
    public var count: Int { elements.count }
    /// Whether the path is empty.
    public var isEmpty: Bool { elements.isEmpty }
    /// Pushes a value.
    public mutating func append<V: Hashable>(_ value: V) { elements.append(AnyHashable(value)) }
    /// Pops values.
    public mutating func removeLast(_ k: Int = 1) { elements.removeLast(k) }
}

/// A stack of views: the root, then each pushed value's destination (or pushed view) on top, with a back button.
public struct NavigationStack<Root: View>: View, PrimitiveView {
    let root: Root
    let external: (get: @MainActor () -> [AnyHashable], set: @MainActor ([AnyHashable]) -> Void)?
    /// A stack whose path SwiftUIWeb keeps per window.
    public init(@ViewBuilder root: () -> Root) {
        self.root = root()
        external = nil
    }
    /// A stack driven by a ``NavigationPath``.
    public init(path: Binding<NavigationPath>, @ViewBuilder root: () -> Root) {
        self.root = root()
        external = ({ path.wrappedValue.elements }, { path.wrappedValue.elements = $0 })
    }
    /// A stack driven by an array of values.
    public init<Data: Hashable>(path: Binding<[Data]>, @ViewBuilder root: () -> Root) {
        self.root = root()
        external = (
            { path.wrappedValue.map { AnyHashable($0) } }, { path.wrappedValue = $0.compactMap { $0.base as? Data } }
        )
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    final class Pushed {
        var views: [Int: any View] = [:]
        var internalPath: [StackEntry] = []
    }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let slot = context.scene.slot(for: path + "/stack", context: context) { Pushed() }
        let pushed = slot.value as! Pushed
        var entries: [StackEntry]
        if let external {
            entries = external.get().map { .value($0) }
            // Views pushed by `NavigationLink(destination:)` ride along at their index.
            for (i, v) in pushed.views where i < entries.count { entries[i] = .view(v) }
        } else {
            entries = pushed.internalPath
        }
        let scene = context.scene
        let setEntries: @MainActor ([StackEntry]) -> Void = { new in
            if let external {
                pushed.views = [:]
                for (i, e) in new.enumerated() { if case .view(let v) = e { pushed.views[i] = v } }
                external.set(new.map { if case .value(let v) = $0 { return v } else { return AnyHashable(UUID()) } })
            } else {
                pushed.internalPath = new
                scene.changed(slot)
            }
        }
        let savedPush = context.push
        let savedDestinations = context.destinations
        let outerTitle = context.title
        defer {
            context.push = savedPush
            context.consumeDestinations(restoring: savedDestinations)
        }
        context.resetDestinations()
        let current = entries
        context.push = { setEntries(current + [$0]) }
        // Render the root (it registers the destinations), then each pushed level; the top one shows.
        context.title = nil
        var nodes = context.render(root, path: path + ".r", axis: .vertical)
        var levelTitle = context.title
        for (i, entry) in entries.enumerated() {
            let prefix = Array(entries.prefix(i + 1))
            context.push = { setEntries(prefix + [$0]) }
            context.title = nil
            let levelPath = path + ".p" + String(i)
            switch entry {
            case .view(let v): nodes = context.render(v, path: levelPath, axis: .vertical)
            case .value(let value):
                if let make = context.destinations[ObjectIdentifier(type(of: value.base))] {
                    nodes = context.render(make(value.base), path: levelPath, axis: .vertical)
                } else {
                    nodes = [
                        Node(
                            "div", id: levelPath, attributes: [("class", "sw-missing")],
                            text: "No navigationDestination for \(type(of: value.base))")
                    ]
                }
            }
            levelTitle = context.title
        }
        context.title = outerTitle ?? levelTitle
        var bar: [Node] = []
        // The top level's `navigationBarBackButtonHidden()` marks its element; the stack then draws no Back button
        // (the level itself offers a way back, or none).
        if !entries.isEmpty, !nodes.contains(where: { $0.hasAttribute(NavigationBackButton.hiddenAttribute) }) {
            let back = path + ".back"
            _ = context.action(back) { setEntries(Array(current.dropLast())) }
            bar.append(
                Node(
                    "button", id: back,
                    attributes: [("class", "sw-back"), ("data-click", "1"), ("aria-label", "Back")],
                    raw: Symbols.svg("chevron.left")))
        }
        if let levelTitle {
            context.titleShown = true
            let inline = nodes.contains { $0.hasAttribute(NavigationBackButton.inlineTitleAttribute) }
            bar.append(
                Node(
                    "h1", id: path + ".t", attributes: [("class", inline ? "sw-title sw-title-inline" : "sw-title")],
                    text: levelTitle))
        }
        return [
            Node(
                "div", id: path, attributes: [("class", "sw-stack")],
                children: [
                    Node("header", id: path + ".bar", attributes: [("class", "sw-stack-bar")], children: bar),
                    Node("div", id: path + ".top", attributes: [("class", "sw-stack-content")], children: nodes),
                ])
        ]
    }
}

struct DestinationView<Content: View, D: Hashable, Dest: View>: View, PrimitiveView {
    let content: Content
    let make: (D) -> Dest
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let make = self.make
        context.addDestination(ObjectIdentifier(D.self)) { make($0 as! D) }
        return context.render(content, path: path)
    }
}

extension View {
    /// Declares the view a ``NavigationStack`` shows for pushed values of a type.
    public func navigationDestination<D: Hashable, C: View>(
        for data: D.Type, @ViewBuilder destination: @escaping (D) -> C
    ) -> some View {
        DestinationView(content: self, make: destination)
    }
}

/// A view that navigates when selected: in a split view or navigation view it shows its destination in
/// the detail column; in a stack it pushes its value (or destination); in a selectable list it selects its value.
public struct NavigationLink<Label: View, Destination: View>: View, PrimitiveView {
    let label: Label
    let destination: Destination?
    let value: AnyHashable?
    let isSelected: @MainActor () -> Bool
    let select: (@MainActor () -> Void)?
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    /// Creates a link whose selection is driven by `selection` matching `tag`.
    public init<V: Hashable>(destination: Destination, tag: V, selection: Binding<V?>, @ViewBuilder label: () -> Label)
    {
        self.destination = destination
        self.label = label()
        value = nil
        isSelected = { selection.wrappedValue == tag }
        select = { selection.wrappedValue = tag }
    }

    /// Creates a link that shows its destination when clicked (selection held by the link's scene).
    public init(destination: Destination, @ViewBuilder label: () -> Label) {
        self.destination = destination
        self.label = label()
        value = nil
        isSelected = { false }
        select = nil
    }

    /// Creates a link that shows the view its destination closure builds when clicked (the iOS 16 form).
    public init(@ViewBuilder destination: () -> Destination, @ViewBuilder label: () -> Label) {
        self.init(destination: destination(), label: label)
    }

    /// Creates a link that shows its destination while `isActive` is true.
    public init(destination: Destination, isActive: Binding<Bool>, @ViewBuilder label: () -> Label) {
        self.destination = destination
        self.label = label()
        value = nil
        isSelected = { isActive.wrappedValue }
        select = { isActive.wrappedValue = true }
    }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        var selected = isSelected()
        var action: (() -> Void)?
        if let value {
            context.setTag(path, value)
            if let sel = context.listSelection {
                selected = sel.isSelected(value)
                action = nil  // the row selects
            } else if let push = context.push {
                action = { push(.value(value)) }
            }
        } else if let select {
            action = select
        } else if let destination, let push = context.push {
            action = { push(.view(destination)) }
        } else if let slot = context.linkSelection {
            // Selection held by the enclosing navigation view for plain destination links.
            selected = slot.value as? String == path
            action = { [weak scene = context.scene] in
                slot.value = path
                scene?.changed(slot)
            }
        }
        if selected, let destination { context.setDetail(destination) }
        var attrs: [(String, String)] = [("class", selected ? "sw-link sw-selected" : "sw-link"), ("href", "#")]
        if let action, context.action(path, action) { attrs.append(("data-click", "1")) }
        return [
            Node(
                "a", id: path, attributes: attrs + [("aria-current", selected ? "true" : "false")],
                children: context.render(label, path: path + ".l", axis: .horizontal))
        ]
    }
}

extension NavigationLink where Destination == Never {
    /// A link presenting a value: pushed on a stack (shown by `navigationDestination(for:)`), or selected in a list.
    public init<P: Hashable>(value: P?, @ViewBuilder label: () -> Label) {
        self.label = label()
        destination = nil
        self.value = value.map { AnyHashable($0) }
        isSelected = { false }
        select = nil
    }
}

extension NavigationLink where Label == Text {
    /// Creates a link with a text label.
    public init<S: StringProtocol>(_ title: S, destination: Destination) {
        self.init(destination: destination) { Text(title) }
    }

    /// Creates a link with a text label to the view its destination closure builds (the iOS 16 form).
    public init<S: StringProtocol>(_ title: S, @ViewBuilder destination: () -> Destination) {
        self.init(destination: destination()) { Text(title) }
    }
}

extension NavigationLink where Label == Text, Destination == Never {
    /// A link with a text label presenting a value.
    public init<S: StringProtocol, P: Hashable>(_ title: S, value: P?) { self.init(value: value) { Text(title) } }
}

/// `navigationBarBackButtonHidden`: the attribute a level's element carries, and the modifier.
enum NavigationBackButton {
    static let hiddenAttribute = "data-no-back"
    /// `navigationBarTitleDisplayMode(.inline)`: the level's title is shown small, in the bar.
    static let inlineTitleAttribute = "data-inline-title"
}

extension View {
    /// Hides the Back button of the navigation stack level this view is the top of (`false`: shows it).
    public func navigationBarBackButtonHidden(_ hidesBackButton: Bool = true) -> some View {
        AttributedView(content: self, attributes: hidesBackButton ? [(NavigationBackButton.hiddenAttribute, "1")] : [])
    }
}
