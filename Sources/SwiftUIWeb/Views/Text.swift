/// A view that displays text (always escaped).
public struct Text: View, PrimitiveView, Equatable {
    struct Run: Equatable {
        var string: String
        var style: String
    }
    var runs: [Run]
    /// Creates text from a string (not localized on Linux).
    public init<S: StringProtocol>(_ content: S) { runs = [Run(string: String(content), style: "")] }
    /// Creates text from a literal string.
    public init(verbatim content: String) { runs = [Run(string: content, style: "")] }
    /// Creates text showing a value in a format.
    public init<F: FormatStyle>(_ input: F.FormatInput, format: F) where F.FormatOutput == String {
        self.init(format.format(input))
    }
    /// Creates text showing a date in a style.
    public init(_ date: Date, style: DateStyle) {
        let f = DateFormatter()
        switch style.kind {
        case 0:
            f.dateStyle = .none
            f.timeStyle = .short
        default:
            f.dateStyle = .long
            f.timeStyle = .none
        }
        self.init(f.string(from: date))
    }
    /// How `Text(_:style:)` shows a date.
    public struct DateStyle: Sendable {
        let kind: Int
        public static let time = DateStyle(kind: 0), date = DateStyle(kind: 1)
    }

    /// The unstyled string.
    var plainText: String { runs.map(\.string).joined() }
    var content: String { plainText }

    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        if runs.count == 1 {
            let style = runs[0].style
            return [
                Node(
                    "span", id: path,
                    attributes: style.isEmpty ? [("class", "sw-text")] : [("class", "sw-text"), ("style", style)],
                    text: runs[0].string)
            ]
        }
        let children = runs.enumerated().map { i, r in
            Node(
                "span", id: path + "." + String(i), attributes: r.style.isEmpty ? [] : [("style", r.style)],
                text: r.string)
        }
        return [Node("span", id: path, attributes: [("class", "sw-text")], children: children)]
    }

    private func styled(_ css: String) -> Text {
        var t = self
        for i in t.runs.indices { t.runs[i].style += (t.runs[i].style.isEmpty ? "" : ";") + css }
        return t
    }
    /// Text in a font.
    public func font(_ font: Font?) -> Text { font.map { styled($0.css) } ?? self }
    /// Bold text.
    public func bold(_ isActive: Bool = true) -> Text { isActive ? styled("font-weight:700") : self }
    /// Italic text.
    public func italic(_ isActive: Bool = true) -> Text { isActive ? styled("font-style:italic") : self }
    /// Text in a weight.
    public func fontWeight(_ weight: Font.Weight?) -> Text { weight.map { styled("font-weight:\($0.value)") } ?? self }
    /// Colored text.
    public func foregroundColor(_ color: Color?) -> Text { color.map { styled("color:" + $0.cssColor) } ?? self }
    /// Styled text.
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> Text { styled(style.cssTextColor) }
    /// Monospaced text.
    public func monospaced(_ isActive: Bool = true) -> Text {
        isActive ? styled("font-family:ui-monospace,Menlo,monospace") : self
    }
    /// Struck-through text.
    public func strikethrough(_ isActive: Bool = true, color: Color? = nil) -> Text {
        isActive ? styled("text-decoration:line-through") : self
    }
    /// Underlined text.
    public func underline(_ isActive: Bool = true, color: Color? = nil) -> Text {
        isActive ? styled("text-decoration:underline") : self
    }
    /// Concatenates two texts, keeping their styles.
    public static func + (lhs: Text, rhs: Text) -> Text {
        var t = lhs
        t.runs += rhs.runs
        return t
    }
}

/// The purpose of a button.
public struct ButtonRole: Hashable, Sendable {
    let name: String
    public static let destructive = ButtonRole(name: "destructive"), cancel = ButtonRole(name: "cancel")
}

/// A control that performs an action when clicked.
public struct Button<Label: View>: View, PrimitiveView {
    let label: Label
    let action: () -> Void
    let role: ButtonRole?
    /// Creates a button with a custom label.
    public init(action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        self.action = action
        self.label = label()
        role = nil
    }
    /// Creates a button with a role and a custom label.
    public init(role: ButtonRole?, action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        self.action = action
        self.label = label()
        self.role = role
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        var action = self.action
        if let dismiss = context.alertDismiss {
            let a = action
            action = {
                a()
                dismiss()
            }
        }
        let enabled = context.action(path, action)
        let shortcut = context.environment.keyboardShortcut
        var shortcutAttributes: [(String, String)] = []
        if let shortcut, enabled { shortcutAttributes.append(("data-shortcut", shortcut.code)) }
        if context.environment.isInMenu {
            // A menu item: its label, then its shortcut as the menu shows it.
            var children = [
                Node(
                    "span", id: path + ".l", attributes: [("class", "sw-menuitem-label")],
                    children: context.render(label, path: path + ".lv", axis: .horizontal))
            ]
            if let shortcut {
                children.append(
                    Node("span", id: path + ".k", attributes: [("class", "sw-shortcut")], text: shortcut.label))
            }
            var cls = "sw-menuitem"
            if let role { cls += " sw-role-" + role.name }
            return [
                Node(
                    "button", id: path,
                    attributes: [("class", cls), ("role", "menuitem"), ("data-click", "1")]
                        + shortcutAttributes + context.disabledAttribute, children: children)
            ]
        }
        var cls = "sw-button " + context.buttonStyle.cssClass
        if let role { cls += " sw-role-" + role.name }
        var attributes: [(String, String)] = [("class", cls), ("data-click", "1")] + shortcutAttributes
        if let shortcut {
            attributes.append(("aria-keyshortcuts", shortcut.label.replacingOccurrences(of: "Ctrl", with: "Control")))
        }
        let savedShortcut = context.environment.keyboardShortcut
        context.environment.keyboardShortcut = nil
        defer { context.environment.keyboardShortcut = savedShortcut }
        return [
            Node(
                "button", id: path, attributes: attributes + context.disabledAttribute,
                children: context.render(label, path: path + ".l", axis: .horizontal))
        ]
    }
}

extension Button where Label == Text {
    /// Creates a button with a text label.
    public init<S: StringProtocol>(_ title: S, action: @escaping () -> Void) {
        self.init(action: action) { Text(title) }
    }
    /// Creates a button with a role and a text label.
    public init<S: StringProtocol>(_ title: S, role: ButtonRole?, action: @escaping () -> Void) {
        self.init(role: role, action: action) { Text(title) }
    }
}

extension Button where Label == SwiftUIWeb.Label<Text, Image> {
    /// Creates a button with a title and a system symbol.
    public init<S: StringProtocol>(_ title: S, systemImage: String, action: @escaping () -> Void) {
        self.init(action: action) { SwiftUIWeb.Label(title, systemImage: systemImage) }
    }
    /// Creates a button with a role, a title and a system symbol.
    public init<S: StringProtocol>(_ title: S, systemImage: String, role: ButtonRole?, action: @escaping () -> Void) {
        self.init(role: role, action: action) { SwiftUIWeb.Label(title, systemImage: systemImage) }
    }
}

/// How buttons look.
public protocol PrimitiveButtonStyle: Sendable {
    /// CSS class of the style.
    var cssClass: String { get }
}
/// The default style (bordered in the default stylesheet).
public struct DefaultButtonStyle: PrimitiveButtonStyle {
    public var cssClass: String { "sw-bordered" }
    public init() {}
}
/// A bordered button.
public struct BorderedButtonStyle: PrimitiveButtonStyle {
    public var cssClass: String { "sw-bordered" }
    public init() {}
}
/// A prominent, filled button.
public struct BorderedProminentButtonStyle: PrimitiveButtonStyle {
    public var cssClass: String { "sw-prominent" }
    public init() {}
}
/// A button without border (accent-colored text).
public struct BorderlessButtonStyle: PrimitiveButtonStyle {
    public var cssClass: String { "sw-borderless" }
    public init() {}
}
/// A button that looks like its label.
public struct PlainButtonStyle: PrimitiveButtonStyle {
    public var cssClass: String { "sw-plain" }
    public init() {}
}

extension PrimitiveButtonStyle where Self == DefaultButtonStyle {
    public static var automatic: DefaultButtonStyle { .init() }
}
extension PrimitiveButtonStyle where Self == BorderedButtonStyle {
    public static var bordered: BorderedButtonStyle { .init() }
}
extension PrimitiveButtonStyle where Self == BorderedProminentButtonStyle {
    public static var borderedProminent: BorderedProminentButtonStyle { .init() }
}
extension PrimitiveButtonStyle where Self == BorderlessButtonStyle {
    public static var borderless: BorderlessButtonStyle { .init() }
}
extension PrimitiveButtonStyle where Self == PlainButtonStyle { public static var plain: PlainButtonStyle { .init() } }

private struct ButtonStyleKey: EnvironmentKey {
    static var defaultValue: any PrimitiveButtonStyle { DefaultButtonStyle() }
}
extension EnvironmentValues {
    var buttonStyle: any PrimitiveButtonStyle {
        get { self[ButtonStyleKey.self] }
        set { self[ButtonStyleKey.self] = newValue }
    }
}
extension RenderContext { var buttonStyle: any PrimitiveButtonStyle { environment.buttonStyle } }

extension View {
    /// Sets the style of buttons in this view.
    public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> some View { environment(\.buttonStyle, style) }
}

/// Arranges children vertically.
public struct VStack<Content: View>: View, PrimitiveView {
    let content: Content
    let alignment: HorizontalAlignment
    let spacing: Double?
    /// Creates a vertical stack.
    public init(alignment: HorizontalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        self.content = content()
        self.alignment = alignment
        self.spacing = spacing
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [
            Node(
                "div", id: path, attributes: [("class", "sw-vstack"), ("style", stackStyle(alignment.css, spacing))],
                children: context.render(content, path: path + ".c", axis: .vertical))
        ]
    }
}

func stackStyle(_ align: String, _ spacing: Double?) -> String {
    var s = align == "center" ? "" : "align-items:" + align
    if let spacing { s += (s.isEmpty ? "" : ";") + "gap:\(Font.num(spacing))px" }
    return s
}

/// Arranges children horizontally.
public struct HStack<Content: View>: View, PrimitiveView {
    let content: Content
    let alignment: VerticalAlignment
    let spacing: Double?
    /// Creates a horizontal stack.
    public init(alignment: VerticalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        self.content = content()
        self.alignment = alignment
        self.spacing = spacing
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [
            Node(
                "div", id: path, attributes: [("class", "sw-hstack"), ("style", stackStyle(alignment.css, spacing))],
                children: context.render(content, path: path + ".c", axis: .horizontal))
        ]
    }
}

/// Horizontal alignment of a stack.
public enum HorizontalAlignment: Sendable { case leading, center, trailing }
/// Vertical alignment of a stack.
public enum VerticalAlignment: Sendable { case top, center, bottom, firstTextBaseline, lastTextBaseline }

/// Fills free space in a stack.
public struct Spacer: View, PrimitiveView {
    let minLength: Double?
    /// Creates a spacer.
    public init(minLength: Double? = nil) { self.minLength = minLength }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let style = minLength.map { "min-width:\(Font.num($0))px;min-height:\(Font.num($0))px" }
        return [Node("div", id: path, attributes: [("class", "sw-spacer")] + (style.map { [("style", $0)] } ?? []))]
    }
}
