/// How text's letters are cased (`textCase`).
public enum TextCase: Hashable, Sendable {
    /// All capitals.
    case uppercase
    /// All small letters.
    case lowercase
}

/// How truncated text shows what is left out (the browser can only truncate at the end: `.head` and `.middle`
/// truncate there too, with an ellipsis).
public enum TruncationMode: Hashable, Sendable {
    /// An ellipsis at the start.
    case head
    /// An ellipsis at the end.
    case tail
    /// An ellipsis in the middle.
    case middle
}

extension Font.Design {
    /// The design as a CSS font family.
    var css: String {
        switch self {
        case .default: "font-family:-apple-system,BlinkMacSystemFont,system-ui,sans-serif"
        case .rounded: "font-family:ui-rounded,'SF Pro Rounded','Nunito','Varela Round',system-ui,sans-serif"
        case .serif: "font-family:ui-serif,'New York',Georgia,serif"
        case .monospaced: "font-family:ui-monospace,Menlo,monospace"
        }
    }
}

/// Why a view is drawn as a placeholder (`redacted(reason:)`).
public struct RedactionReasons: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: Int
    /// A set from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Content not loaded yet: drawn as gray boxes.
    public static let placeholder = RedactionReasons(rawValue: 1 << 0)
    /// Private content (`privacySensitive`) hidden.
    public static let privacy = RedactionReasons(rawValue: 1 << 1)
}

private struct RedactionKey: EnvironmentKey { static var defaultValue: RedactionReasons { [] } }

extension EnvironmentValues {
    /// Why views here are drawn as placeholders.
    public var redactionReasons: RedactionReasons {
        get { self[RedactionKey.self] }
        set { self[RedactionKey.self] = newValue }
    }
}

/// CSS that draws content as a placeholder: gray boxes where the text and images are.
let redactedCSS = "color:transparent!important;background:var(--sw-fill);border-radius:4px;user-select:none"

/// A view drawn as a placeholder when the environment says so (`privacySensitive` under `redacted(.privacy)`).
struct PrivacySensitiveView<Content: View>: View, PrimitiveView {
    let content: Content
    let sensitive: Bool
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let hidden = sensitive && context.environment.redactionReasons.contains(.privacy)
        return InheritedStyleView(content: content, style: hidden ? redactedCSS : "").makeNodes(context, path: path)
    }
}

extension View {
    /// Shows text in capitals or small letters (nil leaves it as written).
    public func textCase(_ textCase: TextCase?) -> some View {
        let css =
            textCase.map { "text-transform:" + ($0 == .uppercase ? "uppercase" : "lowercase") } ?? "text-transform:none"
        return InheritedStyleView(content: self, style: css)
    }
    /// Gives digits equal widths, so numbers in columns or changing counts do not shift.
    public func monospacedDigit() -> some View {
        InheritedStyleView(content: self, style: "font-variant-numeric:tabular-nums")
    }
    /// Sets the design of the font (rounded, serif, monospaced).
    public func fontDesign(_ design: Font.Design?) -> some View {
        InheritedStyleView(content: self, style: design?.css ?? "")
    }
    /// Adds space between letters, in points.
    public func kerning(_ kerning: Double) -> some View {
        InheritedStyleView(content: self, style: "letter-spacing:\(Font.num(kerning))px")
    }
    /// Adds space between letters, in points.
    public func tracking(_ tracking: Double) -> some View { kerning(tracking) }
    /// Adds space between lines, in points.
    public func lineSpacing(_ lineSpacing: Double) -> some View {
        InheritedStyleView(content: self, style: "line-height:calc(1.45em + \(Font.num(lineSpacing))px)")
    }
    /// How text cut short by `lineLimit` shows it: with an ellipsis.
    public func truncationMode(_ mode: TruncationMode) -> some View {
        InheritedStyleView(content: self, style: "text-overflow:ellipsis")
    }
    /// Draws the view as a placeholder (gray boxes) for `reason`; an empty set draws it as it is.
    public func redacted(reason: RedactionReasons) -> some View {
        EnvironmentWriter(
            content: InheritedStyleView(content: self, style: reason.contains(.placeholder) ? redactedCSS : "")
        ) { $0.redactionReasons.formUnion(reason) }
    }
    /// Undoes `redacted` for this view.
    public func unredacted() -> some View {
        EnvironmentWriter(content: self) { $0.redactionReasons = [] }
    }
    /// Marks private content: drawn as a placeholder where `redacted(reason: .privacy)` applies.
    public func privacySensitive(_ sensitive: Bool = true) -> some View {
        PrivacySensitiveView(content: self, sensitive: sensitive)
    }
}

extension Text {
    /// Text whose digits have equal widths.
    public func monospacedDigit() -> Text { styled("font-variant-numeric:tabular-nums") }
    /// Text with space added between letters.
    public func kerning(_ kerning: Double) -> Text { styled("letter-spacing:\(Font.num(kerning))px") }
    /// Text with space added between letters.
    public func tracking(_ tracking: Double) -> Text { kerning(tracking) }
    /// Text in a font design.
    public func fontDesign(_ design: Font.Design?) -> Text { design.map { styled($0.css) } ?? self }
}

extension View {
    /// Lets the view's text shrink, down to `factor` of its size, to fit its container's width on one line (the
    /// page measures it, as SwiftUI's layout would, and scales its font; at the smallest it ends with an ellipsis).
    public func minimumScaleFactor(_ factor: CGFloat) -> some View {
        AttributedView(content: self, attributes: [("data-min-scale", Font.num(Double(min(max(factor, 0.01), 1))))])
    }
}
