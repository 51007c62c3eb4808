/// A view that displays text (always escaped).
public struct Text: View, PrimitiveView {
    let content: String
    /// Creates text from a string (not localized on Linux).
    public init<S: StringProtocol>(_ content: S) { self.content = String(content) }
    /// Creates text from a literal string.
    public init(verbatim content: String) { self.content = content }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [Node("span", id: path, attributes: [("class", "sw-text")], text: content)]
    }
}

/// A control that performs an action when clicked.
public struct Button<Label: View>: View, PrimitiveView {
    let label: Label
    let action: () -> Void
    /// Creates a button with a custom label.
    public init(action: @escaping () -> Void, @ViewBuilder label: () -> Label) { self.action = action; self.label = label() }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        context.actions[path] = action
        return [Node("button", id: path, attributes: [("class", "sw-button"), ("data-click", "1")],
                     children: context.render(label, path: path + ".l"))]
    }
}

extension Button where Label == Text {
    /// Creates a button with a text label.
    public init<S: StringProtocol>(_ title: S, action: @escaping () -> Void) { self.init(action: action) { Text(title) } }
}

/// Arranges children vertically.
public struct VStack<Content: View>: View, PrimitiveView {
    let content: Content
    /// Creates a vertical stack.
    public init(alignment: HorizontalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> Content) { self.content = content() }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [Node("div", id: path, attributes: [("class", "sw-vstack")], children: context.render(content, path: path + ".c"))]
    }
}

/// Arranges children horizontally.
public struct HStack<Content: View>: View, PrimitiveView {
    let content: Content
    /// Creates a horizontal stack.
    public init(alignment: VerticalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> Content) { self.content = content() }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [Node("div", id: path, attributes: [("class", "sw-hstack")], children: context.render(content, path: path + ".c"))]
    }
}

/// Horizontal alignment of a stack.
public enum HorizontalAlignment: Sendable { case leading, center, trailing }
/// Vertical alignment of a stack.
public enum VerticalAlignment: Sendable { case top, center, bottom }

/// Fills free space in a stack.
public struct Spacer: View, PrimitiveView {
    /// Creates a spacer.
    public init(minLength: Double? = nil) {}
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    func makeNodes(_ context: RenderContext, path: String) -> [Node] { [Node("div", id: path, attributes: [("class", "sw-spacer")])] }
}
