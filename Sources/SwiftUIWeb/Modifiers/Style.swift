/// A font: a text style or a system font of a given size and weight, rendered as CSS.
public struct Font: Hashable, Sendable {
    let css: String

    /// The weight of a font.
    public struct Weight: Hashable, Sendable {
        let value: Int
        public static let ultraLight = Weight(value: 100), thin = Weight(value: 200), light = Weight(value: 300)
        public static let regular = Weight(value: 400), medium = Weight(value: 500), semibold = Weight(value: 600)
        public static let bold = Weight(value: 700), heavy = Weight(value: 800), black = Weight(value: 900)
    }
    /// A font design.
    public enum Design: Hashable, Sendable { case `default`, serif, rounded, monospaced }

    static func style(_ size: Double, _ weight: Weight = .regular) -> Font {
        Font(css: "font-size:\(Font.num(size))px;font-weight:\(weight.value)")
    }
    static func num(_ d: Double) -> String { d == d.rounded() ? String(Int(d)) : String(d) }

    public static let largeTitle = style(34, .bold), title = style(28, .bold), title2 = style(22, .bold),
        title3 = style(20, .semibold)
    public static let headline = style(15, .semibold), subheadline = style(13), body = style(15), callout = style(14)
    public static let footnote = style(12), caption = style(12), caption2 = style(11)

    /// A system font.
    public static func system(size: Double, weight: Weight = .regular, design: Design = .default) -> Font {
        var f = style(size, weight).css
        switch design {
        case .default: break
        case .serif: f += ";font-family:ui-serif,Georgia,serif"
        case .rounded: f += ";font-family:ui-rounded,system-ui,sans-serif"
        case .monospaced: f += ";font-family:ui-monospace,Menlo,monospace"
        }
        return Font(css: f)
    }
    /// A system text style with a design and weight.
    public static func system(_ style: Font, design: Design = .default, weight: Weight? = nil) -> Font {
        var f = style
        if let weight { f = f.weight(weight) }
        if design == .monospaced { f = f.monospaced() }
        return f
    }
    /// This font in a weight.
    public func weight(_ weight: Weight) -> Font { Font(css: css + ";font-weight:\(weight.value)") }
    /// This font, bold.
    public func bold() -> Font { weight(.bold) }
    /// This font, italic.
    public func italic() -> Font { Font(css: css + ";font-style:italic") }
    /// This font, monospaced.
    public func monospaced() -> Font { Font(css: css + ";font-family:ui-monospace,Menlo,monospace") }
    /// This font with monospaced digits.
    public func monospacedDigit() -> Font { Font(css: css + ";font-variant-numeric:tabular-nums") }
}

/// Something that can fill or color a view: a color or a hierarchical style.
public protocol ShapeStyle: Sendable {
    /// The CSS color value.
    var cssColor: String { get }
    /// The CSS background value (a gradient's `linear-gradient(…)`; a color's color).
    var cssBackground: String { get }
}

/// A color.
public struct Color: ShapeStyle, Hashable, View, PrimitiveView {
    /// CSS value.
    nonisolated public let cssColor: String
    nonisolated init(css: String) { cssColor = css }

    /// A color from components in 0…1.
    nonisolated public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        func c(_ v: Double) -> Int { Int((min(max(v, 0), 1) * 255).rounded()) }
        cssColor = "rgba(\(c(red)),\(c(green)),\(c(blue)),\(Font.num(min(max(opacity, 0), 1))))"
    }
    /// A gray.
    nonisolated public init(white: Double, opacity: Double = 1) {
        self.init(red: white, green: white, blue: white, opacity: opacity)
    }
    /// A named color from the app's assets: here a CSS custom property `--color-<name>`.
    nonisolated public init(_ name: String) {
        cssColor = "var(--color-" + name.filter { $0.isLetter || $0.isNumber || $0 == "-" } + ",#888)"
    }

    nonisolated public static let red = Color(css: "#ff3b30"), orange = Color(css: "#ff9500"),
        yellow = Color(css: "#ffcc00")
    nonisolated public static let green = Color(css: "#34c759"), mint = Color(css: "#00c7be"),
        teal = Color(css: "#30b0c7")
    nonisolated public static let cyan = Color(css: "#32ade6"), blue = Color(css: "#007aff"),
        indigo = Color(css: "#5856d6")
    nonisolated public static let purple = Color(css: "#af52de"), pink = Color(css: "#ff2d55"),
        brown = Color(css: "#a2845e")
    nonisolated public static let gray = Color(css: "#8e8e93"), black = Color(css: "#000"), white = Color(css: "#fff")
    nonisolated public static let clear = Color(css: "transparent")
    nonisolated public static let primary = Color(css: "var(--sw-label)"), secondary = Color(css: "var(--sw-secondary)")
    nonisolated public static let accentColor = Color(css: "var(--sw-accent)")

    /// This color with an opacity.
    nonisolated public func opacity(_ opacity: Double) -> Color {
        Color(css: "color-mix(in srgb," + cssColor + " \(Int(min(max(opacity, 0), 1) * 100))%,transparent)")
    }

    /// A color used as a view fills its frame.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [Node("div", id: path, attributes: [("class", "sw-color"), ("style", "background:" + cssColor)])]
    }
}

/// Hierarchical foreground styles.
public struct HierarchicalShapeStyle: ShapeStyle {
    public let cssColor: String
    public static let primary = HierarchicalShapeStyle(cssColor: "var(--sw-label)")
    public static let secondary = HierarchicalShapeStyle(cssColor: "var(--sw-secondary)")
    public static let tertiary = HierarchicalShapeStyle(cssColor: "var(--sw-tertiary)")
    public static let quaternary = HierarchicalShapeStyle(cssColor: "var(--sw-quaternary)")
}

/// A translucent material (rendered as a translucent fill).
public struct Material: ShapeStyle {
    public let cssColor: String
    public static let ultraThinMaterial = Material(cssColor: "rgba(255,255,255,.5)")
    public static let thinMaterial = Material(cssColor: "rgba(255,255,255,.65)")
    public static let regularMaterial = Material(cssColor: "rgba(255,255,255,.8)")
    public static let thickMaterial = Material(cssColor: "rgba(255,255,255,.9)")
}

extension ShapeStyle where Self == Color {
    public static var red: Color { .red }
    public static var orange: Color { .orange }
    public static var yellow: Color { .yellow }
    public static var green: Color { .green }
    public static var mint: Color { .mint }
    public static var teal: Color { .teal }
    public static var cyan: Color { .cyan }
    public static var blue: Color { .blue }
    public static var indigo: Color { .indigo }
    public static var purple: Color { .purple }
    public static var pink: Color { .pink }
    public static var brown: Color { .brown }
    public static var gray: Color { .gray }
    public static var black: Color { .black }
    public static var white: Color { .white }
    public static var clear: Color { .clear }
    public static var accentColor: Color { .accentColor }
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    public static var primary: HierarchicalShapeStyle { .primary }
    public static var secondary: HierarchicalShapeStyle { .secondary }
    public static var tertiary: HierarchicalShapeStyle { .tertiary }
    public static var quaternary: HierarchicalShapeStyle { .quaternary }
}

extension ShapeStyle where Self == Material {
    public static var ultraThinMaterial: Material { .ultraThinMaterial }
    public static var thinMaterial: Material { .thinMaterial }
    public static var regularMaterial: Material { .regularMaterial }
    public static var thickMaterial: Material { .thickMaterial }
}

/// Alignment of content inside a frame or stack.
public struct Alignment: Hashable, Sendable {
    public var horizontal: HorizontalAlignment
    public var vertical: VerticalAlignment
    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
    public static let center = Alignment(horizontal: .center, vertical: .center)
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    public static let top = Alignment(horizontal: .center, vertical: .top)
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
    public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
    public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
    public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)

    var css: String { "justify-content:\(vertical.css);align-items:\(horizontal.css)" }
}

extension HorizontalAlignment {
    var css: String {
        switch self {
        case .leading: "flex-start"
        case .center: "center"
        case .trailing: "flex-end"
        }
    }
}
extension VerticalAlignment {
    var css: String {
        switch self {
        case .top: "flex-start"
        case .center: "center"
        case .bottom: "flex-end"
        case .firstTextBaseline, .lastTextBaseline: "baseline"
        }
    }
}

/// An edge of a rectangle, for `padding(_:_:)`, `move(edge:)` and the like.
public enum Edge: Int8, CaseIterable, Hashable, Sendable {
    /// The top edge.
    case top
    /// The leading edge (left in a left-to-right layout).
    case leading
    /// The bottom edge.
    case bottom
    /// The trailing edge.
    case trailing

    /// A set of edges.
    public struct Set: OptionSet, Hashable, Sendable {
        /// The raw bits.
        public let rawValue: Int
        /// A set from raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The set of one edge.
        public init(_ edge: Edge) {
            switch edge {
            case .top: self = .top
            case .leading: self = .leading
            case .bottom: self = .bottom
            case .trailing: self = .trailing
            }
        }
        public static let top = Set(rawValue: 1), leading = Set(rawValue: 2), bottom = Set(rawValue: 4),
            trailing = Set(rawValue: 8)
        public static let horizontal: Set = [.leading, .trailing], vertical: Set = [.top, .bottom],
            all: Set = [.top, .leading, .bottom, .trailing]
    }
}

/// Wraps content in a box element with an inline style (padding, frame, background…).
struct BoxView<Content: View>: View, PrimitiveView {
    let content: Content
    let style: String
    var cssClass = "sw-box"
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let inner = context.render(content, path: path + ".m", axis: .vertical)
        var style = self.style
        if style.contains("max-width:100%") {
            style += context.axis == .horizontal ? ";flex:1 1 0" : ";align-self:stretch"
        }
        if style.contains("max-height:100%") {
            style += context.axis == .vertical ? ";flex:1 1 0" : ";align-self:stretch"
        }
        return [Node("div", id: path, attributes: [("class", cssClass), ("style", style)], children: inner)]
    }
}

/// Wraps content in a layout-neutral element whose inherited style (font, color) applies to it.
struct InheritedStyleView<Content: View>: View, PrimitiveView {
    let content: Content
    let style: String
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        [
            Node(
                "span", id: path, attributes: [("class", "sw-inh"), ("style", style)],
                children: context.render(content, path: path + ".m"))
        ]
    }
}

extension View {
    /// Adds padding on all edges (16 px by default).
    public func padding(_ length: Double? = nil) -> some View {
        BoxView(content: self, style: "padding:\(Font.num(length ?? 16))px")
    }
    /// Adds padding on some edges.
    public func padding(_ edges: Edge.Set, _ length: Double? = nil) -> some View {
        let l = Font.num(length ?? 16) + "px"
        func e(_ s: Edge.Set) -> String { edges.contains(s) ? l : "0" }
        return BoxView(content: self, style: "padding:\(e(.top)) \(e(.trailing)) \(e(.bottom)) \(e(.leading))")
    }
    /// Sets the font of text in this view.
    public func font(_ font: Font?) -> some View { InheritedStyleView(content: self, style: font?.css ?? "") }
    /// Makes text bold.
    public func bold(_ isActive: Bool = true) -> some View {
        InheritedStyleView(content: self, style: isActive ? "font-weight:700" : "")
    }
    /// Makes text italic.
    public func italic(_ isActive: Bool = true) -> some View {
        InheritedStyleView(content: self, style: isActive ? "font-style:italic" : "")
    }
    /// Sets the font weight.
    public func fontWeight(_ weight: Font.Weight?) -> some View {
        InheritedStyleView(content: self, style: weight.map { "font-weight:\($0.value)" } ?? "")
    }
    /// Sets the foreground style (text and symbol color).
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View {
        InheritedStyleView(content: self, style: style.cssTextColor)
    }
    /// Sets the foreground color.
    public func foregroundColor(_ color: Color?) -> some View {
        InheritedStyleView(content: self, style: color.map { "color:" + $0.cssColor } ?? "")
    }
    /// Sets the tint of controls.
    public func tint(_ color: Color?) -> some View {
        // A tint fills prominent buttons too (dark mode's default fill is a darker blue than its accent, so white
        // text on it keeps 4.5:1 contrast).
        InheritedStyleView(
            content: self,
            style: color.map { "--sw-accent:" + $0.cssColor + ";--sw-prominent-bg:" + $0.cssColor } ?? "")
    }
    /// Sets how text aligns across lines.
    public func multilineTextAlignment(_ alignment: TextAlignment) -> some View {
        InheritedStyleView(
            content: self,
            style: "text-align:" + (alignment == .leading ? "left" : alignment == .center ? "center" : "right"))
    }
    /// Limits the number of lines of text.
    public func lineLimit(_ number: Int?) -> some View {
        guard let number else { return InheritedStyleView(content: self, style: "") }
        return InheritedStyleView(content: self, style: "--sw-lines:\(number)")
    }
    /// Fills the view's background with a style.
    public func background<S: ShapeStyle>(_ style: S) -> some View {
        BoxView(content: self, style: "background:" + style.cssBackground)
    }
    /// Places a view behind this one.
    public func background<B: View>(alignment: Alignment = .center, @ViewBuilder content: () -> B) -> some View {
        ZStack(alignment: alignment) {
            content()
            self
        }
    }
    /// Places a view in front of this one.
    public func overlay<O: View>(alignment: Alignment = .center, @ViewBuilder content: () -> O) -> some View {
        ZStack(alignment: alignment) {
            self
            content()
        }
    }
    /// Rounds the corners.
    public func cornerRadius(_ radius: Double) -> some View {
        BoxView(content: self, style: "border-radius:\(Font.num(radius))px;overflow:hidden")
    }
    /// Draws a border.
    public func border<S: ShapeStyle>(_ content: S, width: Double = 1) -> some View {
        BoxView(content: self, style: "border:\(Font.num(width))px solid " + content.cssColor)
    }
    /// Sets the opacity.
    public func opacity(_ opacity: Double) -> some View {
        BoxView(content: self, style: "opacity:\(Font.num(opacity))")
    }
    /// Gives the view a fixed size.
    public func frame(width: Double? = nil, height: Double? = nil, alignment: Alignment = .center) -> some View {
        var s = "display:flex;flex-direction:column;" + alignment.css
        if let width { s += ";width:\(Font.num(width))px;flex:none" }
        if let height { s += ";height:\(Font.num(height))px" }
        // A shape drawn from its path is made for this size (the page gives it the same one).
        let size = width.flatMap { w in height.map { CGSize(width: w, height: $0) } }
        return BoxView(content: EnvironmentWriter(content: self) { $0.shapeFrame = size }, style: s)
    }
    /// Gives the view flexible bounds (`.infinity` fills the available space).
    public func frame(
        minWidth: Double? = nil, idealWidth: Double? = nil, maxWidth: Double? = nil,
        minHeight: Double? = nil, idealHeight: Double? = nil, maxHeight: Double? = nil,
        alignment: Alignment = .center
    ) -> some View {
        var s = "display:flex;flex-direction:column;" + alignment.css
        if let minWidth { s += ";min-width:\(Font.num(minWidth))px" }
        if let maxWidth {
            s += maxWidth.isInfinite ? ";max-width:100%;width:100%" : ";max-width:\(Font.num(maxWidth))px;width:100%"
        }
        if let minHeight { s += ";min-height:\(Font.num(minHeight))px" }
        if let maxHeight { s += maxHeight.isInfinite ? ";max-height:100%" : ";max-height:\(Font.num(maxHeight))px" }
        return BoxView(content: self, style: s)
    }
    /// Hides the view, keeping its space.
    public func hidden() -> some View {
        BoxView(content: self, style: "visibility:hidden", cssClass: "sw-box sw-hidden")
    }
    /// Disables (or enables) the controls in this view; disabled controls ignore their events on the server too.
    public func disabled(_ disabled: Bool) -> some View {
        EnvironmentWriter(content: self) { if disabled { $0.isEnabled = false } }
    }
}

/// Text alignment for multiline text.
public enum TextAlignment: Hashable, Sendable { case leading, center, trailing }
