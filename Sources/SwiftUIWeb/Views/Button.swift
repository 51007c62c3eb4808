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
    /// Creates a button with a text label (a string, shown as it is).
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, action: @escaping () -> Void) {
        self.init(action: action) { Text(title) }
    }
    /// Creates a button with a role and a text label (a string, shown as it is).
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, role: ButtonRole?, action: @escaping () -> Void) {
        self.init(role: role, action: action) { Text(title) }
    }
    /// Creates a button with a localized text label.
    public init(_ titleKey: LocalizedStringKey, action: @escaping () -> Void) {
        self.init(action: action) { Text(titleKey) }
    }
    /// Creates a button with a role and a localized text label.
    public init(_ titleKey: LocalizedStringKey, role: ButtonRole?, action: @escaping () -> Void) {
        self.init(role: role, action: action) { Text(titleKey) }
    }
}

extension Button where Label == SwiftUIWeb.Label<Text, Image> {
    /// Creates a button with a localized title and a system symbol.
    public init(_ titleKey: LocalizedStringKey, systemImage: String, action: @escaping () -> Void) {
        self.init(action: action) { SwiftUIWeb.Label(titleKey, systemImage: systemImage) }
    }
    /// Creates a button with a title (a string, shown as it is) and a system symbol.
    @_disfavoredOverload
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
