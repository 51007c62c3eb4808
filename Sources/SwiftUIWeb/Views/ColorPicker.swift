import Foundation

/// A control that picks a color: the browser's color chooser (`<input type="color">`), and an opacity slider
/// when `supportsOpacity` (the browser's chooser has no opacity of its own).
public struct ColorPicker<Label: View>: View, PrimitiveView {
    let label: Label
    let selection: Binding<Color>
    let supportsOpacity: Bool

    /// A color picker with a label.
    public init(selection: Binding<Color>, supportsOpacity: Bool = true, @ViewBuilder label: () -> Label) {
        self.label = label()
        self.selection = selection
        self.supportsOpacity = supportsOpacity
    }

    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let selection = self.selection
        let current = RGBA(css: selection.wrappedValue.cssColor)
        _ = context.input(path) { hex in
            guard let picked = RGBA(hex: hex) else { return }  // Not a "#rrggbb": not what the chooser sends.
            let opacity = RGBA(css: selection.wrappedValue.cssColor).alpha
            selection.wrappedValue = Color(red: picked.red, green: picked.green, blue: picked.blue, opacity: opacity)
        }
        var control = [
            Node(
                "input", id: path,
                attributes: [
                    ("class", "sw-color-well"), ("type", "color"), ("data-input", "1"), ("value", current.hex),
                ] + context.disabledAttribute)
        ]
        if supportsOpacity {
            _ = context.input(path + ".o") { text in
                guard let opacity = Double(text), opacity.isFinite else { return }
                let color = RGBA(css: selection.wrappedValue.cssColor)
                selection.wrappedValue = Color(
                    red: color.red, green: color.green, blue: color.blue, opacity: min(max(opacity, 0), 1))
            }
            control.append(
                Node(
                    "input", id: path + ".o",
                    attributes: [
                        ("class", "sw-slider sw-opacity"), ("type", "range"), ("data-input", "1"), ("min", "0"),
                        ("max", "1"), ("step", "0.01"), ("value", Font.num(current.alpha)), ("aria-label", "Opacity"),
                    ] + context.disabledAttribute))
        }
        return context.controlRow(path, kind: "colorpicker", label: label, control: control)
    }
}

extension ColorPicker where Label == Text {
    /// A color picker with a localized title.
    public init(_ titleKey: LocalizedStringKey, selection: Binding<Color>, supportsOpacity: Bool = true) {
        self.init(selection: selection, supportsOpacity: supportsOpacity) { Text(titleKey) }
    }
    /// A color picker with a title (a string, shown as it is).
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, selection: Binding<Color>, supportsOpacity: Bool = true) {
        self.init(selection: selection, supportsOpacity: supportsOpacity) { Text(title) }
    }
}

/// A color's components, read from the CSS a `Color` holds (`#rgb`, `#rrggbb`, `rgba(…)`, and the system colors'
/// custom properties by their light values).
struct RGBA: Equatable {
    var red: Double, green: Double, blue: Double, alpha: Double

    /// The light appearance's values of the stylesheet's colors.
    private static let named: [String: String] = [
        "var(--sw-accent)": "#007aff", "var(--sw-label)": "#1d1d1f", "var(--sw-secondary)": "#6e6e73",
        "var(--sw-surface)": "#ffffff", "var(--sw-separator)": "#e3e3e8", "transparent": "rgba(0,0,0,0)",
    ]

    init(red: Double, green: Double, blue: Double, alpha: Double) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    /// A color from CSS; black when the CSS is none of the forms above (a gradient's or a mix's).
    init(css: String) {
        let text = RGBA.named[css] ?? css
        if let hex = RGBA(hex: text) {
            self = hex
        } else if text.hasPrefix("rgba(") || text.hasPrefix("rgb("), let open = text.firstIndex(of: "("),
            let close = text.lastIndex(of: ")")
        {
            let parts = text[text.index(after: open)..<close].split(separator: ",").compactMap {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            if parts.count >= 3 {
                self.init(
                    red: parts[0] / 255, green: parts[1] / 255, blue: parts[2] / 255,
                    alpha: parts.count > 3 ? parts[3] : 1)
                return
            }
            self.init(red: 0, green: 0, blue: 0, alpha: 1)
        } else {
            self.init(red: 0, green: 0, blue: 0, alpha: 1)
        }
    }

    /// `#rgb` or `#rrggbb`; nil for anything else.
    init?(hex: String) {
        guard hex.hasPrefix("#") else { return nil }
        var digits = String(hex.dropFirst())
        if digits.count == 3 { digits = digits.map { "\($0)\($0)" }.joined() }
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        self.init(
            red: Double((value >> 16) & 0xFF) / 255, green: Double((value >> 8) & 0xFF) / 255,
            blue: Double(value & 0xFF) / 255, alpha: 1)
    }

    /// `#rrggbb`, as the color chooser takes it.
    var hex: String {
        func byte(_ v: Double) -> String {
            let text = String(Int((min(max(v, 0), 1) * 255).rounded()), radix: 16)
            return text.count == 1 ? "0" + text : text
        }
        return "#" + byte(red) + byte(green) + byte(blue)
    }
}
