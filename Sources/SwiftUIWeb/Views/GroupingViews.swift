/// A box around a group of views, with an optional label above them.
public struct GroupBox<Label: View, Content: View>: View, PrimitiveView {
    let label: Label?
    let content: Content
    /// A group box with a label view.
    public init(@ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {
        self.content = content()
        self.label = label()
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        var children: [Node] = []
        if let label {
            children.append(
                Node(
                    "div", id: path + ".l", attributes: [("class", "sw-groupbox-label")],
                    children: context.render(label, path: path + ".lv", axis: .horizontal)))
        }
        children.append(
            Node(
                "div", id: path + ".b", attributes: [("class", "sw-groupbox-body")],
                children: context.render(content, path: path + ".c", axis: .vertical)))
        return [Node("div", id: path, attributes: [("class", "sw-groupbox"), ("role", "group")], children: children)]
    }
}

extension GroupBox where Label == EmptyView {
    /// A group box without a label.
    public init(@ViewBuilder content: () -> Content) {
        self.content = content()
        self.label = nil
    }
}

extension GroupBox where Label == Text {
    /// A group box titled with a string.
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {
        self.content = content()
        self.label = Text(String(title))
    }
}

/// A label beside a value, as a form row shows it.
public struct LabeledContent<Label: View, Content: View>: View, PrimitiveView {
    let label: Label
    let content: Content
    /// A label view beside content.
    public init(@ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {
        self.content = content()
        self.label = label()
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [
            Node(
                "div", id: path, attributes: [("class", "sw-control sw-labeled")],
                children: [
                    Node(
                        "span", id: path + ".l", attributes: [("class", "sw-control-label")],
                        children: context.render(label, path: path + ".lv", axis: .horizontal)),
                    Node(
                        "span", id: path + ".v", attributes: [("class", "sw-labeled-value")],
                        children: context.render(content, path: path + ".c", axis: .horizontal)),
                ])
        ]
    }
}

extension LabeledContent where Label == Text, Content == Text {
    /// A title beside a value.
    public init<S: StringProtocol, V: StringProtocol>(_ title: S, value: V) {
        self.label = Text(String(title))
        self.content = Text(String(value))
    }
}

extension LabeledContent where Label == Text {
    /// A title beside content.
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {
        self.label = Text(String(title))
        self.content = content()
    }
}

/// Controls grouped side by side, as one unit.
public struct ControlGroup<Content: View>: View, PrimitiveView {
    let content: Content
    /// A group of controls.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [
            Node(
                "div", id: path, attributes: [("class", "sw-controlgroup"), ("role", "group")],
                children: context.render(content, path: path + ".c", axis: .horizontal))
        ]
    }
}

/// Content that shows and hides under a title (an HTML `<details>`).
public struct DisclosureGroup<Label: View, Content: View>: View, PrimitiveView {
    let label: Label
    let content: Content
    let isExpanded: Binding<Bool>?
    /// A disclosure group that keeps its own expansion (collapsed at first).
    public init(@ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {
        self.content = content()
        self.label = label()
        self.isExpanded = nil
    }
    /// A disclosure group whose expansion is `isExpanded`.
    public init(isExpanded: Binding<Bool>, @ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {
        self.content = content()
        self.label = label()
        self.isExpanded = isExpanded
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let own = context.scene.slot(for: "disclosure:" + path, context: context) { false }
        let binding =
            isExpanded
            ?? Binding(
                get: { own.value as? Bool ?? false },
                set: { [weak own] in
                    own?.value = $0
                    if let own { own.scene?.changed(own) }
                })
        let expanded = binding.wrappedValue
        var summary: [(String, String)] = [
            ("class", "sw-disclosure-title"), ("aria-expanded", expanded ? "true" : "false"),
        ]
        if context.action(path + ".t", { binding.wrappedValue.toggle() }) { summary.append(("data-click", "1")) }
        var children = [
            Node(
                "button", id: path + ".t", attributes: summary + [("type", "button")],
                children: [
                    Node(
                        "span", id: path + ".i", attributes: [("class", "sw-symbol sw-disclosure-chevron")],
                        raw: Symbols.svg(expanded ? "chevron.down" : "chevron.right"))
                ] + context.render(label, path: path + ".lv", axis: .horizontal))
        ]
        if expanded {
            children.append(
                Node(
                    "div", id: path + ".c", attributes: [("class", "sw-disclosure-content")],
                    children: context.render(content, path: path + ".cv", axis: .vertical)))
        }
        return [Node("div", id: path, attributes: [("class", "sw-disclosure")], children: children)]
    }
}

extension DisclosureGroup where Label == Text {
    /// A disclosure group titled with a string.
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {
        self.init(content: content) { Text(String(title)) }
    }
    /// A disclosure group titled with a string, whose expansion is `isExpanded`.
    public init<S: StringProtocol>(_ title: S, isExpanded: Binding<Bool>, @ViewBuilder content: () -> Content) {
        self.init(isExpanded: isExpanded, content: content) { Text(String(title)) }
    }
}

/// What to show when there is no content: an icon, a title and a description, centred.
public struct ContentUnavailableView<Label: View, Description: View, Actions: View>: View, PrimitiveView {
    let label: Label
    let description: Description
    let actions: Actions
    /// A custom unavailable-content view.
    public init(
        @ViewBuilder label: () -> Label, @ViewBuilder description: () -> Description = { EmptyView() },
        @ViewBuilder actions: () -> Actions = { EmptyView() }
    ) {
        self.label = label()
        self.description = description()
        self.actions = actions()
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [
            Node(
                "div", id: path, attributes: [("class", "sw-unavailable"), ("role", "status")],
                children: [
                    Node(
                        "div", id: path + ".l", attributes: [("class", "sw-unavailable-label")],
                        children: context.render(label, path: path + ".lv", axis: .vertical)),
                    Node(
                        "div", id: path + ".d", attributes: [("class", "sw-unavailable-description")],
                        children: context.render(description, path: path + ".dv", axis: .vertical)),
                ] + context.render(actions, path: path + ".a", axis: .vertical))
        ]
    }
}

extension ContentUnavailableView
where Label == SwiftUIWeb.Label<Text, Image>, Description == Text?, Actions == EmptyView {
    /// A title, a symbol and an optional description.
    public init<S: StringProtocol>(_ title: S, systemImage name: String, description: Text? = nil) {
        self.label = SwiftUIWeb.Label(String(title), systemImage: name)
        self.description = description
        self.actions = EmptyView()
    }
}

/// A value shown within a range (an HTML `<meter>`), with a label.
public struct Gauge<Label: View>: View, PrimitiveView {
    let value: Double
    let range: ClosedRange<Double>
    let label: Label
    /// A gauge of `value` in `bounds` (0…1 by default).
    public init<V: BinaryFloatingPoint>(value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label) {
        self.value = Double(value)
        self.range = Double(bounds.lowerBound)...Double(bounds.upperBound)
        self.label = label()
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let clamped = min(max(value, range.lowerBound), range.upperBound)
        return [
            Node(
                "div", id: path, attributes: [("class", "sw-gauge")],
                children: [
                    Node(
                        "span", id: path + ".l", attributes: [("class", "sw-gauge-label")],
                        children: context.render(label, path: path + ".lv", axis: .horizontal)),
                    Node(
                        "meter", id: path + ".m",
                        attributes: [
                            ("min", Font.num(range.lowerBound)), ("max", Font.num(range.upperBound)),
                            ("value", Font.num(clamped)), ("aria-labelledby", path + ".l"),
                        ]),
                ])
        ]
    }
}
