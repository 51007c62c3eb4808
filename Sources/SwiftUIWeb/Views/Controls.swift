// Input controls. Each renders a native HTML control (usable before the script runs) marked
// `data-input`; the client sends its value on every input event and the binding is set on the server.

private struct LabelsHiddenKey: EnvironmentKey { static var defaultValue: Bool { false } }
extension EnvironmentValues {
    var labelsHidden: Bool {
        get { self[LabelsHiddenKey.self] }
        set { self[LabelsHiddenKey.self] = newValue }
    }
}
extension View {
    /// Hides the labels of controls in this view.
    public func labelsHidden() -> some View { environment(\.labelsHidden, true) }
}

extension RenderContext {
    /// A control row: its label (unless hidden) then the control.
    func controlRow(_ path: String, kind: String, label: (any View)?, control: [Node], tag: String = "div") -> [Node] {
        var children: [Node] = []
        if let label, !environment.labelsHidden {
            let l = render(label, path: path + ".lb", axis: .horizontal)
            if !l.isEmpty {
                children.append(
                    Node("span", id: path + ".lb~", attributes: [("class", "sw-control-label")], children: l))
            }
        }
        return [
            Node(tag, id: path + "~", attributes: [("class", "sw-control sw-c-" + kind)], children: children + control)
        ]
    }
}

/// The axis of a text field that grows (`.vertical` makes a multi-line field).
public enum Axis: Sendable { case horizontal, vertical }

/// A multi-line text editor bound to a string (a `textarea` filling its container).
public struct TextEditor: View, PrimitiveView {
    let text: Binding<String>
    /// Creates an editor for a string.
    public init(text: Binding<String>) { self.text = text }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let text = self.text
        _ = context.input(path) { text.wrappedValue = $0 }
        let value = text.wrappedValue
        return [
            Node(
                "textarea", id: path,
                attributes: [
                    ("class", "sw-field sw-editor"), ("data-input", "1"), ("data-splice", "1"), ("spellcheck", "false"),
                    ("value", value),
                ] + context.disabledAttribute)
        ]
    }
}

/// An editable text field bound to a string (or to a value through a parseable format).
public struct TextField<Label: View>: View, PrimitiveView {
    let label: Label
    let placeholder: String
    let get: @MainActor () -> String
    let set: @MainActor (String) -> Void
    var secure = false
    var multiline = false
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    init(
        label: Label, placeholder: String, get: @escaping @MainActor () -> String,
        set: @escaping @MainActor (String) -> Void
    ) {
        self.label = label
        self.placeholder = placeholder
        self.get = get
        self.set = set
    }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let set = self.set
        _ = context.input(path) { set($0) }
        if let submit = context.onSubmit { _ = context.action(path + "!submit", submit) }
        let value = get()
        let traits = context.environment.textInputTraits
        let attrs: [(String, String)] =
            [("class", traits.styleClass.isEmpty ? "sw-field" : "sw-field " + traits.styleClass), ("data-input", "1")]
            + traits.attributes
        let node: Node
        if multiline {
            node = Node(
                "textarea", id: path,
                attributes: attrs + [("placeholder", placeholder), ("rows", "3"), ("value", value)]
                    + context.disabledAttribute)
        } else {
            node = Node(
                "input", id: path,
                attributes: attrs + [
                    ("type", secure ? "password" : "text"), ("placeholder", placeholder),
                    ("value", value), ("autocomplete", secure ? "current-password" : "off"),
                ] + context.disabledAttribute
                    + (context.onSubmit == nil ? [] : [("data-submit", "1")]))
        }
        // In forms and elsewhere, a text field shows its title as placeholder, like SwiftUI on iOS.
        return [node]
    }
}

extension TextField where Label == Text {
    /// A text field with a title (a string, shown as it is, as its placeholder).
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) {
        self.init(
            label: Text(title), placeholder: String(title), get: { text.wrappedValue }, set: { text.wrappedValue = $0 })
    }
    /// A text field with a localized title (shown as its placeholder).
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {
        let title = Text(titleKey)
        self.init(
            label: title, placeholder: title.plainText, get: { text.wrappedValue }, set: { text.wrappedValue = $0 })
    }
    /// A text field with a title and a prompt.
    public init<S: StringProtocol>(_ title: S, text: Binding<String>, prompt: Text?) {
        self.init(
            label: Text(title), placeholder: prompt?.plainText ?? String(title), get: { text.wrappedValue },
            set: { text.wrappedValue = $0 })
    }
    /// A text field that grows along an axis (`.vertical`: several lines).
    public init<S: StringProtocol>(_ title: S, text: Binding<String>, axis: Axis) {
        self.init(
            label: Text(title), placeholder: String(title), get: { text.wrappedValue }, set: { text.wrappedValue = $0 })
        multiline = axis == .vertical
    }
    /// A text field editing a value through a format; input that does not parse leaves the value as it is.
    public init<S: StringProtocol, F: ParseableFormatStyle>(_ title: S, value: Binding<F.FormatInput>, format: F)
    where F.FormatOutput == String {
        self.init(
            label: Text(title), placeholder: String(title), get: { format.format(value.wrappedValue) },
            set: { if let v = try? format.parseStrategy.parse($0) { value.wrappedValue = v } })
    }
}

extension TextField {
    /// A text field with a custom label.
    public init(text: Binding<String>, prompt: Text? = nil, @ViewBuilder label: () -> Label) {
        self.init(
            label: label(), placeholder: prompt?.plainText ?? "", get: { text.wrappedValue },
            set: { text.wrappedValue = $0 })
    }
}

/// A text field whose text is hidden.
public struct SecureField<Label: View>: View, PrimitiveView {
    let field: TextField<Label>
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] { field.makeNodes(context, path: path) }
}

extension SecureField where Label == Text {
    /// A secure field with a title (shown as its placeholder).
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) {
        var f = TextField(title, text: text)
        f.secure = true
        field = f
    }
    /// A secure field with a title and a prompt.
    public init<S: StringProtocol>(_ title: S, text: Binding<String>, prompt: Text?) {
        var f = TextField(title, text: text, prompt: prompt)
        f.secure = true
        field = f
    }
}

/// How toggles look.
public struct ToggleStyle: Hashable, Sendable {
    let name: String
    public static let automatic = ToggleStyle(name: "switch"), `switch` = ToggleStyle(name: "switch")
    public static let checkbox = ToggleStyle(name: "checkbox"), button = ToggleStyle(name: "button")
}
private struct ToggleStyleKey: EnvironmentKey { static var defaultValue: ToggleStyle { .automatic } }
extension EnvironmentValues {
    var toggleStyle: ToggleStyle {
        get { self[ToggleStyleKey.self] }
        set { self[ToggleStyleKey.self] = newValue }
    }
}
extension View {
    /// Sets how toggles in this view look.
    public func toggleStyle(_ style: ToggleStyle) -> some View { environment(\.toggleStyle, style) }
}

/// A control that toggles between on and off.
public struct Toggle<Label: View>: View, PrimitiveView {
    let label: Label
    let isOn: Binding<Bool>
    /// A toggle with a custom label.
    public init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label) {
        self.isOn = isOn
        self.label = label()
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let isOn = self.isOn
        if context.environment.isInMenu {
            // In a menu: a checkable item that flips the value when chosen.
            let enabled = context.action(path) { isOn.wrappedValue.toggle() }
            var attributes: [(String, String)] = [
                ("class", "sw-menuitem"), ("role", "menuitemcheckbox"),
                ("aria-checked", isOn.wrappedValue ? "true" : "false"), ("data-click", "1"),
            ]
            if let shortcut = context.environment.keyboardShortcut, enabled {
                attributes.append(("data-shortcut", shortcut.code))
            }
            return [
                Node(
                    "button", id: path, attributes: attributes + context.disabledAttribute,
                    children: [
                        Node(
                            "span", id: path + ".c", attributes: [("class", "sw-check")],
                            text: isOn.wrappedValue ? "✓" : ""),
                        Node(
                            "span", id: path + ".l", attributes: [("class", "sw-menuitem-label")],
                            children: context.render(label, path: path + ".lv", axis: .horizontal)),
                    ])
            ]
        }
        _ = context.input(path) { isOn.wrappedValue = ($0 == "true") }
        let style = context.environment.toggleStyle.name
        let box = Node(
            "input", id: path,
            attributes: [
                ("class", "sw-" + style), ("type", "checkbox"), ("data-input", "1"),
                ("checked", isOn.wrappedValue ? "true" : "false"),
            ] + context.disabledAttribute)
        return context.controlRow(path, kind: "toggle sw-toggle-" + style, label: label, control: [box], tag: "label")
    }
}

extension Toggle where Label == Text {
    /// A toggle with a title (a string, shown as it is).
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) { self.init(isOn: isOn) { Text(title) } }
    /// A toggle with a localized title.
    public init(_ titleKey: LocalizedStringKey, isOn: Binding<Bool>) { self.init(isOn: isOn) { Text(titleKey) } }
}

extension Toggle where Label == SwiftUIWeb.Label<Text, Image> {
    /// A toggle with a title and a symbol.
    public init<S: StringProtocol>(_ title: S, systemImage: String, isOn: Binding<Bool>) {
        self.init(isOn: isOn) { SwiftUIWeb.Label(title, systemImage: systemImage) }
    }
}

/// A control for choosing a value from a bounded range.
public struct Slider<Label: View>: View, PrimitiveView {
    let label: Label?
    let get: @MainActor () -> Double
    let set: @MainActor (Double) -> Void
    let bounds: ClosedRange<Double>
    let step: Double?
    /// `onEditingChanged`: true when a drag (or a key) starts changing the value, false when it is let go.
    let editingChanged: (Bool) -> Void
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let set = self.set
        let bounds = self.bounds
        _ = context.input(path) {
            if let v = Double($0), v.isFinite { set(min(max(v, bounds.lowerBound), bounds.upperBound)) }
        }
        // The page reports the start ("1") and end ("0") of an edit under the slider's id and ".editing".
        let editingChanged = self.editingChanged
        let editing = context.input(path + ".editing") { report in
            if report == "1" || report == "0" { editingChanged(report == "1") }
        }
        let input = Node(
            "input", id: path,
            attributes: [
                ("class", "sw-slider"), ("type", "range"), ("data-input", "1"),
                ("min", Font.num(bounds.lowerBound)), ("max", Font.num(bounds.upperBound)),
                ("step", step.map(Font.num) ?? "any"), ("value", Font.num(get())),
            ] + (editing ? [("data-editing", path + ".editing")] : []) + context.disabledAttribute)
        return context.controlRow(path, kind: "slider", label: label, control: [input])
    }
}

extension Slider where Label == EmptyView {
    /// A slider over a range.
    public init<V: BinaryFloatingPoint>(
        value: Binding<V>, in bounds: ClosedRange<V> = 0...1, step: V.Stride? = nil,
        onEditingChanged: @escaping (Bool) -> Void = { _ in }
    ) where V.Stride: BinaryFloatingPoint {
        label = nil
        get = { Double(value.wrappedValue) }
        set = { value.wrappedValue = V($0) }
        self.bounds = Double(bounds.lowerBound)...Double(bounds.upperBound)
        self.step = step.map { Double($0) }
        editingChanged = onEditingChanged
    }
}

extension Slider {
    /// A slider with a label.
    public init<V: BinaryFloatingPoint>(
        value: Binding<V>, in bounds: ClosedRange<V> = 0...1, step: V.Stride? = nil,
        @ViewBuilder label: () -> Label, onEditingChanged: @escaping (Bool) -> Void = { _ in }
    ) where V.Stride: BinaryFloatingPoint {
        self.label = label()
        get = { Double(value.wrappedValue) }
        set = { value.wrappedValue = V($0) }
        self.bounds = Double(bounds.lowerBound)...Double(bounds.upperBound)
        self.step = step.map { Double($0) }
        editingChanged = onEditingChanged
    }
}

/// A control with increment and decrement buttons.
public struct Stepper<Label: View>: View, PrimitiveView {
    let label: Label
    let increment: (() -> Void)?
    let decrement: (() -> Void)?
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    /// A stepper calling actions.
    public init(@ViewBuilder label: () -> Label, onIncrement: (() -> Void)?, onDecrement: (() -> Void)?) {
        self.label = label()
        increment = onIncrement
        decrement = onDecrement
    }
    /// A stepper over a value in a range.
    public init<V: Strideable>(
        value: Binding<V>, in bounds: ClosedRange<V>, step: V.Stride = 1, @ViewBuilder label: () -> Label
    ) {
        self.label = label()
        increment =
            value.wrappedValue < bounds.upperBound
            ? { value.wrappedValue = min(value.wrappedValue.advanced(by: step), bounds.upperBound) } : nil
        decrement =
            value.wrappedValue > bounds.lowerBound
            ? { value.wrappedValue = max(value.wrappedValue.advanced(by: -step), bounds.lowerBound) } : nil
    }
    /// A stepper over an unbounded value.
    public init<V: Strideable>(value: Binding<V>, step: V.Stride = 1, @ViewBuilder label: () -> Label) {
        self.label = label()
        increment = { value.wrappedValue = value.wrappedValue.advanced(by: step) }
        decrement = { value.wrappedValue = value.wrappedValue.advanced(by: -step) }
    }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        func button(_ suffix: String, _ symbol: String, _ action: (() -> Void)?) -> Node {
            let enabled = action.map { context.action(path + suffix, $0) } ?? false
            return Node(
                "button", id: path + suffix,
                attributes: [
                    ("class", "sw-step"), ("data-click", "1"),
                    ("aria-label", suffix == ".dec" ? "Decrement" : "Increment"),
                    ("disabled", enabled ? "false" : "true"),
                ], raw: Symbols.svg(symbol))
        }
        let control = Node(
            "span", id: path, attributes: [("class", "sw-stepper-buttons")],
            children: [button(".dec", "minus", decrement), button(".inc", "plus", increment)])
        return context.controlRow(path, kind: "stepper", label: label, control: [control])
    }
}

extension Stepper where Label == Text {
    /// A stepper with a title over a value in a range.
    public init<S: StringProtocol, V: Strideable>(
        _ title: S, value: Binding<V>, in bounds: ClosedRange<V>, step: V.Stride = 1
    ) {
        self.init(value: value, in: bounds, step: step) { Text(title) }
    }
    /// A stepper with a title over an unbounded value.
    public init<S: StringProtocol, V: Strideable>(_ title: S, value: Binding<V>, step: V.Stride = 1) {
        self.init(value: value, step: step) { Text(title) }
    }
    /// A stepper with a title calling actions.
    public init<S: StringProtocol>(_ title: S, onIncrement: (() -> Void)?, onDecrement: (() -> Void)?) {
        self.init(label: { Text(title) }, onIncrement: onIncrement, onDecrement: onDecrement)
    }
}

/// Which parts of a date a ``DatePicker`` shows.
public struct DatePickerComponents: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let date = DatePickerComponents(rawValue: 1), hourAndMinute = DatePickerComponents(rawValue: 2)
}

/// A control for picking a date, a time, or both.
public struct DatePicker<Label: View>: View, PrimitiveView {
    /// Which parts of a date the picker shows.
    public typealias Components = DatePickerComponents
    let label: Label
    let selection: Binding<Date>
    let components: Components
    let range: ClosedRange<Date>?
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    /// A date picker with a custom label.
    public init(
        selection: Binding<Date>, displayedComponents: Components = [.date, .hourAndMinute],
        @ViewBuilder label: () -> Label
    ) {
        self.label = label()
        self.selection = selection
        components = displayedComponents
        range = nil
    }
    /// A date picker limited to a range, with a custom label.
    public init(
        selection: Binding<Date>, in range: ClosedRange<Date>,
        displayedComponents: Components = [.date, .hourAndMinute], @ViewBuilder label: () -> Label
    ) {
        self.label = label()
        self.selection = selection
        components = displayedComponents
        self.range = range
    }

    var format: (type: String, pattern: String) {
        if components == .date { return ("date", "yyyy-MM-dd") }
        if components == .hourAndMinute { return ("time", "HH:mm") }
        return ("datetime-local", "yyyy-MM-dd'T'HH:mm")
    }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let (type, pattern) = format
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = context.environment.timeZone
        f.dateFormat = pattern
        let selection = self.selection
        let components = self.components
        let range = self.range
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = context.environment.timeZone
        _ = context.input(path) { text in
            guard let parsed = f.date(from: text) else { return }
            let old = selection.wrappedValue
            var merged = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: old)
            let new = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: parsed)
            if components.contains(.date) {
                merged.year = new.year
                merged.month = new.month
                merged.day = new.day
            }
            if components.contains(.hourAndMinute) {
                merged.hour = new.hour
                merged.minute = new.minute
                merged.second = 0
            }
            guard var date = calendar.date(from: merged) else { return }
            if let range { date = min(max(date, range.lowerBound), range.upperBound) }
            selection.wrappedValue = date
        }
        var attrs: [(String, String)] = [
            ("class", "sw-date"), ("type", type), ("data-input", "1"),
            ("value", f.string(from: selection.wrappedValue)),
        ]
        if let range {
            attrs += [("min", f.string(from: range.lowerBound)), ("max", f.string(from: range.upperBound))]
        }
        let input = Node("input", id: path, attributes: attrs + context.disabledAttribute)
        return context.controlRow(path, kind: "datepicker", label: label, control: [input])
    }
}

extension DatePicker where Label == Text {
    /// A date picker with a title.
    public init<S: StringProtocol>(
        _ title: S, selection: Binding<Date>, displayedComponents: Components = [.date, .hourAndMinute]
    ) {
        self.init(selection: selection, displayedComponents: displayedComponents) { Text(title) }
    }
    /// A date picker with a title, limited to a range.
    public init<S: StringProtocol>(
        _ title: S, selection: Binding<Date>, in range: ClosedRange<Date>,
        displayedComponents: Components = [.date, .hourAndMinute]
    ) {
        self.init(selection: selection, in: range, displayedComponents: displayedComponents) { Text(title) }
    }
}

/// How pickers look.
public struct PickerStyle: Hashable, Sendable {
    let name: String
    /// A pop-up menu (`.automatic`, `.menu`, and `.navigationLink`, whose pushed list a browser window shows as a
    /// menu), the options as radio buttons (`.inline`, `.radioGroup`), a list box showing several options
    /// (`.wheel`, the browser's nearest to a spinning wheel), or buttons side by side (`.segmented`, `.palette`).
    public static let automatic = PickerStyle(name: "menu"), menu = PickerStyle(name: "menu"),
        inline = PickerStyle(name: "radio")
    public static let wheel = PickerStyle(name: "wheel"), navigationLink = PickerStyle(name: "menu"),
        radioGroup = PickerStyle(name: "radio")
    public static let segmented = PickerStyle(name: "segmented"), palette = PickerStyle(name: "segmented")
}
private struct PickerStyleKey: EnvironmentKey { static var defaultValue: PickerStyle { .automatic } }
extension EnvironmentValues {
    var pickerStyle: PickerStyle {
        get { self[PickerStyleKey.self] }
        set { self[PickerStyleKey.self] = newValue }
    }
}
extension View {
    /// Sets how pickers in this view look.
    public func pickerStyle(_ style: PickerStyle) -> some View { environment(\.pickerStyle, style) }
}

/// A control for choosing one of a set of tagged values.
public struct Picker<Label: View, SelectionValue: Hashable, Content: View>: View, PrimitiveView {
    let label: Label
    let selection: Binding<SelectionValue>
    let content: Content
    /// A picker with a custom label.
    public init(
        selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label
    ) {
        self.selection = selection
        self.content = content()
        self.label = label()
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        // Render the options to learn their tags and titles.
        let savedWants = context.wantsTags
        context.wantsTags = true
        let items = context.render(content, path: path + ".o")
        context.wantsTags = savedWants
        let options: [(tag: AnyHashable?, node: Node)] = items.map { (context.tags[$0.id], $0) }
        let current = AnyHashable(selection.wrappedValue)
        let selection = self.selection
        func choose(_ tag: AnyHashable?) { if let v = tag?.base as? SelectionValue { selection.wrappedValue = v } }
        let control: Node
        if context.environment.pickerStyle.name == "segmented" {
            var buttons: [Node] = []
            for (i, o) in options.enumerated() {
                let id = path + ".s" + String(i)
                _ = context.action(id) { choose(o.tag) }
                let on = o.tag == current
                buttons.append(
                    Node(
                        "button", id: id,
                        attributes: [
                            ("class", on ? "sw-segment sw-on" : "sw-segment"), ("data-click", "1"),
                            ("aria-pressed", on ? "true" : "false"),
                        ] + context.disabledAttribute, children: [o.node]))
            }
            control = Node(
                "span", id: path, attributes: [("class", "sw-segmented"), ("role", "radiogroup")], children: buttons)
        } else if context.environment.pickerStyle.name == "radio" {
            var radios: [Node] = []
            for (i, o) in options.enumerated() {
                let id = path + ".r" + String(i)
                let enabled = context.action(id) { choose(o.tag) }
                radios.append(
                    Node(
                        "label", id: id + "l", attributes: [("class", "sw-radio")],
                        children: [
                            Node(
                                "input", id: id,
                                attributes: [
                                    ("type", "radio"), ("name", path), ("checked", o.tag == current ? "true" : "false"),
                                ] + (enabled ? [("data-click", "1")] : []) + context.disabledAttribute),
                            o.node,
                        ]))
            }
            control = Node(
                "div", id: path, attributes: [("class", "sw-radiogroup"), ("role", "radiogroup")], children: radios)
        } else {
            _ = context.input(path) { v in if let i = Int(v), options.indices.contains(i) { choose(options[i].tag) } }
            let index = options.firstIndex { $0.tag == current }
            let optionNodes = options.enumerated().map { i, o in
                Node(
                    "option", id: path + ".v" + String(i),
                    attributes: [("value", String(i)), ("selected", i == index ? "true" : "false")],
                    text: o.node.textContent)
            }
            let wheel = context.environment.pickerStyle.name == "wheel"
            control = Node(
                "select", id: path,
                attributes: [
                    ("class", wheel ? "sw-picker sw-wheel" : "sw-picker"), ("data-input", "1"),
                    ("value", index.map(String.init) ?? ""),
                ] + (wheel ? [("size", String(min(5, max(2, options.count))))] : []) + context.disabledAttribute,
                children: optionNodes)
        }
        return context.controlRow(path, kind: "picker", label: label, control: [control])
    }
}

extension Picker where Label == Text {
    /// A picker with a title (a string, shown as it is).
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content)
    {
        self.init(selection: selection, content: content) { Text(title) }
    }
    /// A picker with a localized title.
    public init(
        _ titleKey: LocalizedStringKey, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content
    ) {
        self.init(selection: selection, content: content) { Text(titleKey) }
    }
}
