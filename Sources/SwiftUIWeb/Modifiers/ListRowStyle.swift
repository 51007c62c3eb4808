/// What a list row takes from the view in it: its background, separator and insets. The row is drawn by the list,
/// so the view carries these as attributes that `RenderContext.rows` lifts onto the row.
enum ListRowTraits {
    static let background = "data-row-bg"
    static let separator = "data-row-sep"
    static let insets = "data-row-insets"

    /// The row's CSS class additions and style for a row's view, and the view without the carried attributes.
    static func lift(_ node: Node) -> (classes: String, style: String, node: Node) {
        var node = node
        var classes = ""
        var style: [String] = []
        for (name, value) in node.attributes {
            switch name {
            case background: style.append("background:" + value)
            case separator: if value == "hidden" { classes += " sw-row-nosep" }
            case insets: style.append("padding:" + value)
            default: break
            }
        }
        node.attributes.removeAll { $0.0 == background || $0.0 == separator || $0.0 == insets }
        return (classes, style.joined(separator: ";"), node)
    }
}

extension View {
    /// The background of the list row this view is in (a color or other shape style, or a view's color).
    public func listRowBackground<S: ShapeStyle>(_ style: S?) -> some View {
        AttributedView(content: self, attributes: style.map { [(ListRowTraits.background, $0.cssBackground)] } ?? [])
    }
    /// The background of the list row this view is in, as a color.
    public func listRowBackground(_ color: Color?) -> some View {
        AttributedView(content: self, attributes: color.map { [(ListRowTraits.background, $0.cssColor)] } ?? [])
    }
    /// Shows or hides the separators of the list row this view is in.
    public func listRowSeparator(_ visibility: Visibility, edges: VerticalEdge.Set = .all) -> some View {
        AttributedView(
            content: self, attributes: [(ListRowTraits.separator, visibility == .hidden ? "hidden" : "visible")])
    }
    /// The padding of the list row this view is in (nil keeps the list's).
    public func listRowInsets(_ insets: EdgeInsets?) -> some View {
        let css = insets.map {
            "\(Font.num(Double($0.top)))px \(Font.num(Double($0.trailing)))px \(Font.num(Double($0.bottom)))px \(Font.num(Double($0.leading)))px"
        }
        return AttributedView(content: self, attributes: css.map { [(ListRowTraits.insets, $0)] } ?? [])
    }
}

/// The top or bottom edge.
public enum VerticalEdge: Int8, Hashable, Sendable, CaseIterable {
    case top, bottom
    /// A set of vertical edges.
    public struct Set: OptionSet, Hashable, Sendable {
        /// The raw bits.
        public let rawValue: Int8
        /// A set from raw bits.
        public init(rawValue: Int8) { self.rawValue = rawValue }
        /// The top edge.
        public static let top = Set(rawValue: 1)
        /// The bottom edge.
        public static let bottom = Set(rawValue: 2)
        /// Both.
        public static let all: Set = [.top, .bottom]
    }
}

/// How a symbol is drawn: filled, in a circle or square, slashed (`symbolVariant`, a suffix of its name).
public struct SymbolVariants: Hashable, Sendable {
    let suffix: String
    /// As named.
    public static let none = SymbolVariants(suffix: "")
    /// Filled.
    public static let fill = SymbolVariants(suffix: ".fill")
    /// In a circle.
    public static let circle = SymbolVariants(suffix: ".circle")
    /// In a square.
    public static let square = SymbolVariants(suffix: ".square")
    /// Slashed.
    public static let slash = SymbolVariants(suffix: ".slash")
    /// In a circle, filled.
    public var fill: SymbolVariants { SymbolVariants(suffix: suffix + ".fill") }
}

private struct SymbolVariantsKey: EnvironmentKey { static var defaultValue: SymbolVariants { .none } }

extension EnvironmentValues {
    /// The variant of symbols in this view.
    public var symbolVariants: SymbolVariants {
        get { self[SymbolVariantsKey.self] }
        set { self[SymbolVariantsKey.self] = newValue }
    }
}

extension View {
    /// Draws symbols in this view in a variant (`.fill`, `.circle`…), unless their name already has it.
    public func symbolVariant(_ variant: SymbolVariants) -> some View {
        EnvironmentWriter(content: self) { $0.symbolVariants = variant }
    }
}
