/// A popover attached to a view: while presented, a bubble beside the view (below it for the default arrow edge,
/// `.top`), not modal: a click outside it or Escape dismisses it. Its content gets a `dismiss` action.
struct PopoverView<Content: View, PopoverContent: View>: View, PrimitiveView {
    let content: Content
    let isPresented: @MainActor () -> Bool
    let dismiss: @MainActor () -> Void
    let arrowEdge: Edge
    let makeContent: @MainActor () -> PopoverContent
    var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        var children = context.render(content, path: path + ".p")
        if isPresented() {
            let dismiss = self.dismiss
            let saved = context.environment
            context.environment.dismiss = DismissAction { dismiss() }
            context.environment.isPresented = true
            let inner = context.render(makeContent(), path: path + ".pop.c", axis: .vertical)
            context.environment = saved
            let outside = path + ".bd"
            _ = context.action(outside) { dismiss() }
            _ = context.action(path + ".esc") { dismiss() }
            // The arrow is on `arrowEdge` of the bubble, so the bubble sits on the opposite side of the view.
            let side =
                switch arrowEdge {
                case .top: "below"
                case .bottom: "above"
                case .leading: "after"
                case .trailing: "before"
                }
            children.append(
                Node(
                    "div", id: outside,
                    attributes: [("class", "sw-popover-backdrop"), ("data-click", "1"), ("aria-hidden", "true")]))
            children.append(
                Node(
                    "div", id: path + ".pop",
                    attributes: [
                        ("class", "sw-popover sw-popover-" + side), ("role", "dialog"),
                        ("data-escape", path + ".esc"),
                    ], children: inner))
        }
        return [Node("span", id: path, attributes: [("class", "sw-popover-anchor")], children: children)]
    }
}

extension View {
    /// Shows a popover beside this view while `isPresented` is true; a click outside it or Escape sets it false.
    /// `arrowEdge` is the edge of the popover its arrow is on (`.top`: the popover is below the view).
    public func popover<Content: View>(
        isPresented: Binding<Bool>, arrowEdge: Edge = .top, @ViewBuilder content: @escaping () -> Content
    ) -> some View {
        PopoverView(
            content: self, isPresented: { isPresented.wrappedValue }, dismiss: { isPresented.wrappedValue = false },
            arrowEdge: arrowEdge, makeContent: { content() })
    }

    /// Shows a popover for `item` while it is not nil; dismissing sets it to nil.
    public func popover<Item: Identifiable, Content: View>(
        item: Binding<Item?>, arrowEdge: Edge = .top, @ViewBuilder content: @escaping (Item) -> Content
    ) -> some View {
        PopoverView(
            content: self, isPresented: { item.wrappedValue != nil }, dismiss: { item.wrappedValue = nil },
            arrowEdge: arrowEdge,
            makeContent: {
                if let value = item.wrappedValue {
                    ViewBuilder.buildEither(first: content(value))
                } else {
                    ViewBuilder.buildEither(second: EmptyView())
                }
            })
    }
}

/// Refreshes a view's content: `refreshable` puts it in the environment, and its Refresh button calls it.
public struct RefreshAction: Sendable {
    let action: @Sendable () async -> Void
    /// Runs the refresh and returns when it is done.
    public func callAsFunction() async { await action() }
}

private struct RefreshKey: EnvironmentKey { static var defaultValue: RefreshAction? { nil } }

extension EnvironmentValues {
    /// The refresh action of the nearest `refreshable` view, if any.
    public var refresh: RefreshAction? {
        get { self[RefreshKey.self] }
        set { self[RefreshKey.self] = newValue }
    }
}

/// A view with a Refresh button above it (the browser's form of pull-to-refresh): it runs the action, showing
/// progress until the action returns; a second click while it runs does nothing.
struct RefreshableView<Content: View>: View, PrimitiveView {
    let content: Content
    let action: @Sendable () async -> Void
    var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let slot = context.scene.slot(for: "refreshing:" + path, context: context) { false }
        let refreshing = slot.value as? Bool ?? false
        let action = self.action
        var attributes: [(String, String)] = [
            ("class", "sw-button sw-borderless sw-refresh"), ("type", "button"), ("aria-label", "Refresh"),
        ]
        if refreshing {
            attributes += [("disabled", "true"), ("aria-busy", "true")]
        } else if context.action(
            path + ".r",
            { [weak slot] in
                guard let slot, slot.value as? Bool != true else { return }
                slot.value = true
                slot.scene?.changed(slot)
                Task { @MainActor in
                    await action()
                    slot.value = false
                    slot.scene?.changed(slot)
                }
            })
        {
            attributes.append(("data-click", "1"))
        }
        let button = Node(
            "button", id: path + ".r", attributes: attributes,
            children: [
                Node(
                    "span", id: path + ".r.i", attributes: [("class", "sw-symbol")], raw: Symbols.svg("arrow.clockwise")
                ),
                Node("span", id: path + ".r.t", text: refreshing ? "Refreshing…" : "Refresh"),
            ])
        let saved = context.environment.refresh
        context.environment.refresh = RefreshAction(action: action)
        defer { context.environment.refresh = saved }
        let inner = context.render(content, path: path + ".c", axis: .vertical)
        return [Node("div", id: path, attributes: [("class", "sw-refreshable")], children: [button] + inner)]
    }
}

extension View {
    /// Makes the view refreshable: a Refresh button above it runs `action` (and `refresh` in the environment
    /// does too), showing progress until it returns.
    public func refreshable(action: @escaping @Sendable () async -> Void) -> some View {
        RefreshableView(content: self, action: action)
    }
}
