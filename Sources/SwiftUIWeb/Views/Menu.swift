/// A button that shows a menu of buttons, toggles, pickers, dividers, sections and other menus (submenus).
///
/// In a window it is a button with a pop-up ARIA `menu` (arrow keys move between items, Escape closes it); inside
/// another menu it is a group of items under its title. With a `primaryAction` it is a split button: the button
/// runs the action, the arrow beside it shows the menu.
public struct Menu<Label: View, Content: View>: View, PrimitiveView {
    let label: Label
    let content: Content
    let primaryAction: (() -> Void)?
    /// A menu with a custom label.
    public init(@ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {
        self.content = content()
        self.label = label()
        primaryAction = nil
    }
    /// A menu whose button runs `primaryAction`; the menu opens from the arrow beside it.
    public init(
        @ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label, primaryAction: @escaping () -> Void
    ) {
        self.content = content()
        self.label = label()
        self.primaryAction = primaryAction
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        if context.environment.isInMenu {
            // A submenu: its items as a group under its title.
            let title = context.render(label, path: path + ".l", axis: .horizontal)
            return [
                Node(
                    "div", id: path, attributes: [("role", "group"), ("class", "sw-menu-group")],
                    children: [
                        Node("div", id: path + ".hd", attributes: [("class", "sw-menu-header")], children: title)
                    ]
                        + menuItems(context, path: path))
            ]
        }
        let style = "sw-button " + context.buttonStyle.cssClass
        let labelNodes = context.render(label, path: path + ".lv", axis: .horizontal)
        var children: [Node] = []
        let opener: [(String, String)] = [
            ("aria-haspopup", "menu"), ("aria-expanded", "false"), ("aria-controls", path + ".m"), ("data-menu", "1"),
        ]
        if let primaryAction {
            var attributes: [(String, String)] = [("class", style + " sw-menu-primary"), ("type", "button")]
            attributes.append(context.action(path + ".p", primaryAction) ? ("data-click", "1") : ("disabled", "true"))
            children.append(Node("button", id: path + ".p", attributes: attributes, children: labelNodes))
            children.append(
                Node(
                    "button", id: path + ".t",
                    attributes: [("class", style + " sw-menu-arrow"), ("type", "button"), ("aria-label", "More")]
                        + opener + context.disabledAttribute,
                    raw: Symbols.svg("chevron.down")))
        } else {
            children.append(
                Node(
                    "button", id: path + ".t",
                    attributes: [("class", style + " sw-menu-button"), ("type", "button")] + opener
                        + context.disabledAttribute,
                    children: labelNodes + [
                        Node(
                            "span", id: path + ".i", attributes: [("class", "sw-symbol sw-menu-chevron")],
                            raw: Symbols.svg("chevron.down"))
                    ]))
        }
        children.append(
            Node(
                "div", id: path + ".m", attributes: [("class", "sw-menu-items"), ("role", "menu")],
                children: menuItems(context, path: path)))
        return [Node("div", id: path, attributes: [("class", "sw-menu sw-inline-menu")], children: children)]
    }

    /// The content rendered as menu items.
    private func menuItems(_ context: RenderContext, path: String) -> [Node] {
        let saved = context.environment
        context.environment.isInMenu = true
        defer { context.environment = saved }
        return context.render(content, path: path + ".c", axis: .vertical)
    }
}

extension Menu where Label == Text {
    /// A menu titled with a string.
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {
        self.init(content: content) { Text(String(title)) }
    }
    /// A menu titled with a string whose button runs `primaryAction`.
    public init<S: StringProtocol>(
        _ title: S, @ViewBuilder content: () -> Content, primaryAction: @escaping () -> Void
    ) {
        self.init(content: content, label: { Text(String(title)) }, primaryAction: primaryAction)
    }
}

extension Menu where Label == SwiftUIWeb.Label<Text, Image> {
    /// A menu titled with a string and a symbol.
    public init<S: StringProtocol>(_ title: S, systemImage: String, @ViewBuilder content: () -> Content) {
        self.init(content: content) { SwiftUIWeb.Label(String(title), systemImage: systemImage) }
    }
}

/// A view with a context menu: its items show where the pointer right-clicks (or at the view, from the keyboard's
/// menu key or Shift+F10).
struct ContextMenuView<Content: View, MenuItems: View>: View, PrimitiveView {
    let content: Content
    let items: MenuItems
    var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let nodes = context.render(content, path: path + ".v")
        var node =
            nodes.count == 1
            ? nodes[0] : Node("div", id: path + ".g", attributes: [("class", "sw-inh")], children: nodes)
        let menuID = path + ".cm"
        node.attributes.append(("data-context", menuID))
        let saved = context.environment
        context.environment.isInMenu = true
        let itemNodes = context.render(items, path: menuID + ".c", axis: .vertical)
        context.environment = saved
        let menu = Node(
            "div", id: menuID, attributes: [("class", "sw-menu sw-context")],
            children: [
                Node(
                    "div", id: menuID + ".m", attributes: [("class", "sw-menu-items"), ("role", "menu")],
                    children: itemNodes)
            ])
        // One element, so that a list row holds the view and its menu together.
        return [Node("div", id: path, attributes: [("class", "sw-inh")], children: [node, menu])]
    }
}

extension View {
    /// Gives the view a context menu of `menuItems` (buttons, toggles, dividers, sections, submenus).
    public func contextMenu<MenuItems: View>(@ViewBuilder menuItems: () -> MenuItems) -> some View {
        ContextMenuView(content: self, items: menuItems())
    }
}
