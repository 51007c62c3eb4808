/// A view that displays text (always escaped).
public struct Text: View, PrimitiveView, Equatable {
    struct Run: Equatable, Sendable {
        var string: String
        var style: String
        /// A symbol drawn inline (`Text("\(Image(systemName: "star")) Favorites")`).
        var symbol: String? = nil
    }
    var runs: [Run]
    /// Creates text from a string, shown as it is (not looked up as a localized key, as in SwiftUI).
    @_disfavoredOverload
    public init<S: StringProtocol>(_ content: S) { runs = [Run(string: String(content), style: "")] }
    /// Creates text from a localized key (a literal, with its interpolations formatted): the key's translation in
    /// `tableName` (default `Localizable`) of `bundle` (default the app's), or the literal when there is none.
    /// `comment` is for translators.
    public init(
        _ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil
    ) {
        runs = key.resolve(table: tableName, bundle: bundle)
    }
    /// Creates text from a literal string.
    public init(verbatim content: String) { runs = [Run(string: content, style: "")] }
    /// Creates text showing a value in a format.
    public init<F: FormatStyle>(_ input: F.FormatInput, format: F) where F.FormatOutput == String {
        self.init(format.format(input))
    }
    /// Creates text showing a date in a style.
    public init(_ date: Date, style: DateStyle) { self.init(Text.string(from: date, style: style)) }

    /// A date as `Text(_:style:)` shows it.
    nonisolated static func string(from date: Date, style: DateStyle) -> String {
        let f = DateFormatter()
        switch style.kind {
        case 0:
            f.dateStyle = .none
            f.timeStyle = .short
        default:
            f.dateStyle = .long
            f.timeStyle = .none
        }
        return f.string(from: date)
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
        if runs.count == 1 && runs[0].symbol == nil {
            let style = runs[0].style
            return [
                Node(
                    "span", id: path,
                    attributes: style.isEmpty ? [("class", "sw-text")] : [("class", "sw-text"), ("style", style)],
                    text: runs[0].string)
            ]
        }
        let children = runs.enumerated().map { i, r in
            if let symbol = r.symbol {
                return Node(
                    "span", id: path + "." + String(i),
                    attributes: [("class", "sw-symbol"), ("role", "img"), ("aria-label", symbol)],
                    raw: Symbols.svg(symbol))
            }
            return Node(
                "span", id: path + "." + String(i), attributes: r.style.isEmpty ? [] : [("style", r.style)],
                text: r.string)
        }
        return [Node("span", id: path, attributes: [("class", "sw-text")], children: children)]
    }

    func styled(_ css: String) -> Text {
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
