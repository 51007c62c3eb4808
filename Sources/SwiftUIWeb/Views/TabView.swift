import Foundation

/// Views shown one at a time, chosen with a row of tabs (each view's `tabItem` is its tab).
public struct TabView<SelectionValue: Hashable, Content: View>: View, PrimitiveView {
    let selection: Binding<SelectionValue>?
    let content: Content

    /// Tabs whose selection is `selection`: a view's tab is selected when its `tag` equals it.
    public init(selection: Binding<SelectionValue>?, @TabContentBuilder<SelectionValue> content: () -> Content) {
        self.selection = selection
        self.content = content()
    }

    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        // First the tabs' labels and tags only (no tab's content runs), then the selected tab's content: a
        // tab that is not shown is not evaluated, and its onAppear and task do not run. The first pass renders
        // under a path of its own, so each pass keeps its own cached records and reuses them next time (a view
        // whose record one pass made never stands in for the other's).
        let saved = (context.wantsTags, context.shownTab)
        defer { (context.wantsTags, context.shownTab) = saved }
        context.wantsTags = true
        context.shownTab = ""
        let labels = context.render(content, path: path + ".tags", axis: .vertical)
        // Each child's identity: its tag (`TabItemView` records one given before `tabItem`), else its index.
        let tags: [AnyHashable] = labels.enumerated().map { index, panel in context.tags[panel.id] ?? AnyHashable(index)
        }
        let own = context.scene.slot(for: path + "/tab", context: context) { tags.first as Any }
        let current: AnyHashable? =
            selection.map { AnyHashable($0.wrappedValue) } ?? (own.value as? AnyHashable) ?? tags.first
        let selected = tags.firstIndex { $0 == current } ?? 0
        let panels: [Node]
        if labels.indices.contains(selected) {
            // The selected tab's path in the second pass: its first-pass path with this pass's prefix.
            let first = labels[selected].id
            context.shownTab = path + ".c" + first.dropFirst((path + ".tags").count)
            panels = context.render(content, path: path + ".c", axis: .vertical)
        } else {
            context.shownTab = nil
            panels = context.render(content, path: path + ".c", axis: .vertical)
        }
        let paging = context.environment.tabViewStyle._paging
        // A tab view's own style is not its tabs' content's.
        let savedStyle = context.environment.tabViewStyle
        context.environment.tabViewStyle = DefaultTabViewStyle()
        defer { context.environment.tabViewStyle = savedStyle }
        var tabs: [Node] = []
        for (index, panel) in panels.enumerated() {
            let id = "\(path).t\(index)"
            let label = panel.children.first { $0.attributes.first?.1 == "sw-tablabel" }?.children ?? []
            let tag = tags[index]
            let enabled = context.action(id) { [selection] in
                if let selection {
                    if let value = tag.base as? SelectionValue { selection.wrappedValue = value }
                } else {
                    own.value = tag
                    own.scene?.changed(own)
                }
            }
            var attributes: [(String, String)] = [
                ("class", index == selected ? "sw-tab sw-on" : "sw-tab"), ("role", "tab"),
                ("aria-selected", index == selected ? "true" : "false"), ("aria-controls", panel.id),
            ]
            if enabled { attributes.append(("data-click", "1")) }
            tabs.append(Node("button", id: id, attributes: attributes + context.disabledAttribute, children: label))
        }
        var shown: [Node] = []
        if panels.indices.contains(selected) {
            var panel = panels[selected]
            panel.children.removeAll { $0.attributes.first?.1 == "sw-tablabel" }
            panel.attributes.append(("aria-labelledby", "\(path).t\(selected)"))
            shown = [panel]
        }
        if let paging {
            return [pager(context, path: path, tabs: tabs, shown: shown, selected: selected, mode: paging)]
        }
        return [
            Node(
                "div", id: path, attributes: [("class", "sw-tabview")],
                children: [
                    Node(
                        "div", id: path + ".bar", attributes: [("class", "sw-tabbar"), ("role", "tablist")],
                        children: tabs)
                ]
                    + shown)
        ]
    }
}

extension TabView {
    /// The page style: the selected page, then Previous, the index of dots (the tabs, each named "Page N of M"),
    /// and Next.
    func pager(
        _ context: RenderContext, path: String, tabs: [Node], shown: [Node], selected: Int,
        mode: PageTabViewStyle.IndexDisplayMode
    ) -> Node {
        var dots = tabs
        for index in dots.indices {
            dots[index].children = []
            dots[index].attributes.removeAll { $0.0 == "class" }
            dots[index].attributes.insert(("class", index == selected ? "sw-page-dot sw-on" : "sw-page-dot"), at: 0)
            dots[index].attributes.append(("aria-label", "Page \(index + 1) of \(tabs.count)"))
        }
        func turn(_ offset: Int, _ name: String, _ symbol: String) -> Node {
            let target = selected + offset
            let id = path + (offset < 0 ? ".prev" : ".next")
            var attributes: [(String, String)] = [("class", "sw-page-turn"), ("aria-label", name)]
            if tabs.indices.contains(target),
                let click = tabs[target].attributes.first(where: { $0.0 == "data-click" }),
                let action = context.actions[tabs[target].id]
            {
                if context.action(id, action) { attributes.append(click) }
            } else {
                attributes.append(("disabled", "true"))
            }
            return Node("button", id: id, attributes: attributes, raw: Symbols.svg(symbol))
        }
        let showsDots = mode == .always || (mode == .automatic && tabs.count > 1)
        let index = Node(
            "div", id: path + ".bar",
            attributes: [("class", "sw-page-index"), ("role", "tablist")] + (showsDots ? [] : [("hidden", "true")]),
            children: dots)
        return Node(
            "div", id: path, attributes: [("class", "sw-tabview sw-paged")],
            children: shown + [
                Node(
                    "div", id: path + ".turn", attributes: [("class", "sw-page-controls")],
                    children: [turn(-1, "Previous page", "chevron.left"), index, turn(1, "Next page", "chevron.right")])
            ])
    }
}

extension TabView where SelectionValue == Int {
    /// Tabs that keep their own selection (the first tab at first).
    public init(@TabContentBuilder<SelectionValue> content: () -> Content) {
        self.selection = nil
        self.content = content()
    }
}

/// A view with the label of its tab in a `TabView`.
struct TabItemView<Content: View, Label: View>: View, PrimitiveView {
    let content: Content
    let label: Label
    /// The tab's value (`Tab(value:)`), else the content's `tag`.
    var value: AnyHashable? = nil
    /// A badge after the tab's label (`Tab.badge`).
    var badge: String? = nil
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        // `Text(…).tag(x).tabItem { … }`: the tag is the tab's, even while the content is not rendered.
        if let value {
            context.setTag(path, value)
        } else if let tagged = content as? TagCarrying {
            context.setTag(path, tagged.tag)
        }
        let shown = context.shownTab
        let wantsTags = context.wantsTags
        context.shownTab = nil  // A tab view inside this tab's content chooses its own tabs.
        context.wantsTags = false  // The tab's own tag is set above; what it contains is not a tab view's child.
        defer { (context.shownTab, context.wantsTags) = (shown, wantsTags) }
        var labelNodes = context.render(label, path: path + ".l", axis: .horizontal)
        if let badge {
            labelNodes.append(Node("span", id: path + ".n", attributes: [("class", "sw-badge")], text: badge))
        }
        let contentNodes =
            shown == nil || shown == path ? context.render(content, path: path + ".c", axis: .vertical) : []
        return [
            Node(
                "div", id: path, attributes: [("class", "sw-tabpanel"), ("role", "tabpanel")],
                children: [Node("div", id: path + ".tl", attributes: [("class", "sw-tablabel")], children: labelNodes)]
                    + contentNodes)
        ]
    }
}

extension View {
    /// The tab this view is shown under in a `TabView` (a `Label`, `Text` or `Image`).
    public func tabItem<V: View>(@ViewBuilder _ label: () -> V) -> some View {
        TabItemView(content: self, label: label())
    }
}

/// A tab of a `TabView` (iOS 18's form): its label, its content, and the value that selects it.
///
/// Apple's `Tab` is tab content, not a view; here it is a view that only a `TabView` gives meaning to.
public struct Tab<Value: Hashable, Content: View, Label: View>: View, PrimitiveView {
    let value: Value?
    let content: Content
    let label: Label
    var badgeText: String?
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    /// A tab selected by `value`, with a custom label.
    public init(value: Value, @ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {
        self.value = value
        self.content = content()
        self.label = label()
    }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        TabItemView(content: content, label: label, value: value.map { AnyHashable($0) }, badge: badgeText)
            .makeNodes(context, path: path)
    }

    /// A count after the tab's label (none for 0).
    public func badge(_ count: Int) -> Tab {
        var copy = self
        copy.badgeText = count == 0 ? nil : count.formatted()
        return copy
    }
    /// A short text after the tab's label (none for nil).
    public func badge(_ label: Text?) -> Tab {
        var copy = self
        copy.badgeText = label?.plainText
        return copy
    }
}

extension Tab where Label == SwiftUIWeb.Label<Text, Image> {
    /// A tab titled with a string and a symbol, selected by `value`.
    public init<S: StringProtocol>(
        _ title: S, systemImage: String, value: Value, @ViewBuilder content: () -> Content
    ) {
        self.init(value: value, content: content) { SwiftUIWeb.Label(String(title), systemImage: systemImage) }
    }
}

extension Tab where Value == Never, Label == SwiftUIWeb.Label<Text, Image> {
    /// A tab titled with a string and a symbol, identified by its place among the tabs.
    public init<S: StringProtocol>(_ title: S, systemImage: String, @ViewBuilder content: () -> Content) {
        self.value = nil
        self.content = content()
        self.label = SwiftUIWeb.Label(String(title), systemImage: systemImage)
    }
}

extension Tab where Label == Text {
    /// A tab titled with a string, selected by `value`.
    public init<S: StringProtocol>(_ title: S, value: Value, @ViewBuilder content: () -> Content) {
        self.init(value: value, content: content) { Text(String(title)) }
    }
}

/// Builds a `TabView`'s tabs: views (with `tabItem`) and `Tab`s, whose `value:` is of the tab view's selection type
/// (so `.today` is understood), as Apple's `TabContentBuilder` does.
@MainActor @resultBuilder
public enum TabContentBuilder<SelectionValue: Hashable> {
    /// A tab selected by a value of the tab view's selection type.
    public static func buildExpression<C: View, L: View>(_ tab: Tab<SelectionValue, C, L>) -> Tab<SelectionValue, C, L>
    {
        tab
    }
    /// A tab without a value.
    public static func buildExpression<C: View, L: View>(_ tab: Tab<Never, C, L>) -> Tab<Never, C, L> { tab }
    /// A view with a `tabItem`.
    public static func buildExpression<V: View>(_ view: V) -> V { view }
    /// An empty block.
    public static func buildBlock() -> EmptyView { EmptyView() }
    /// A single tab.
    public static func buildPartialBlock<V: View>(first: V) -> V { first }
    /// Accumulates the next tab.
    public static func buildPartialBlock<A: View, V: View>(accumulated: A, next: V) -> ViewList {
        ViewBuilder.buildPartialBlock(accumulated: accumulated, next: next)
    }
    /// An `if` without `else`.
    public static func buildOptional(_ component: (any View)?) -> ConditionalContent {
        ViewBuilder.buildOptional(component)
    }
    /// The true branch of an `if`.
    public static func buildEither<V: View>(first component: V) -> ConditionalContent {
        ViewBuilder.buildEither(first: component)
    }
    /// The false branch of an `if`.
    public static func buildEither<V: View>(second component: V) -> ConditionalContent {
        ViewBuilder.buildEither(second: component)
    }
    /// Availability checks.
    public static func buildLimitedAvailability<V: View>(_ component: V) -> AnyView { AnyView(component) }
}
