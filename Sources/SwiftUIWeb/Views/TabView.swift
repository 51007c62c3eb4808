import Foundation

/// Views shown one at a time, chosen with a row of tabs (each view's `tabItem` is its tab).
public struct TabView<SelectionValue: Hashable, Content: View>: View, PrimitiveView {
    let selection: Binding<SelectionValue>?
    let content: Content

    /// Tabs whose selection is `selection`: a view's tab is selected when its `tag` equals it.
    public init(selection: Binding<SelectionValue>?, @ViewBuilder content: () -> Content) {
        self.selection = selection
        self.content = content()
    }

    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        // First the tabs' labels and tags only (no tab's content runs), then the selected tab's content: a
        // tab that is not shown is not evaluated, and its onAppear and task do not run. Both passes evaluate
        // the tab view's content afresh, so no cached render of one pass stands in for the other.
        let saved = (context.wantsTags, context.shownTab, context.forcing)
        defer { (context.wantsTags, context.shownTab, context.forcing) = saved }
        context.wantsTags = true
        context.forcing = true
        context.shownTab = ""
        let labels = context.render(content, path: path + ".c", axis: .vertical)
        // Each child's identity: its tag (`TabItemView` records one given before `tabItem`), else its index.
        let tags: [AnyHashable] = labels.enumerated().map { index, panel in context.tags[panel.id] ?? AnyHashable(index)
        }
        let own = context.scene.slot(for: path + "/tab", context: context) { tags.first as Any }
        let current: AnyHashable? =
            selection.map { AnyHashable($0.wrappedValue) } ?? (own.value as? AnyHashable) ?? tags.first
        let selected = tags.firstIndex { $0 == current } ?? 0
        context.shownTab = labels.indices.contains(selected) ? labels[selected].id : nil
        let panels = context.render(content, path: path + ".c", axis: .vertical)
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

extension TabView where SelectionValue == Int {
    /// Tabs that keep their own selection (the first tab at first).
    public init(@ViewBuilder content: () -> Content) {
        self.selection = nil
        self.content = content()
    }
}

/// A view with the label of its tab in a `TabView`.
struct TabItemView<Content: View, Label: View>: View, PrimitiveView {
    let content: Content
    let label: Label
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        // `Text(…).tag(x).tabItem { … }`: the tag is the tab's, even while the content is not rendered.
        if let tagged = content as? TagCarrying { context.setTag(path, tagged.tag) }
        let shown = context.shownTab
        context.shownTab = nil  // A tab view inside this tab's content chooses its own tabs.
        defer { context.shownTab = shown }
        let labelNodes = context.render(label, path: path + ".l", axis: .horizontal)
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
