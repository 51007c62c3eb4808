/// The size of controls: their text and padding.
public enum ControlSize: Hashable, Sendable, CaseIterable {
    case mini, small, regular, large, extraLarge
    var css: String {
        switch self {
        case .mini: "font-size:11px"
        case .small: "font-size:13px"
        case .regular: ""
        case .large: "font-size:17px"
        case .extraLarge: "font-size:20px"
        }
    }
}

/// The shape of a bordered button.
public struct ButtonBorderShape: Hashable, Sendable {
    let radius: String
    /// The platform's usual shape.
    public static let automatic = ButtonBorderShape(radius: "8px")
    /// Fully rounded ends.
    public static let capsule = ButtonBorderShape(radius: "9999px")
    /// A circle.
    public static let circle = ButtonBorderShape(radius: "50%")
    /// A rounded rectangle.
    public static let roundedRectangle = ButtonBorderShape(radius: "8px")
    /// A rounded rectangle with corners of `radius` points.
    public static func roundedRectangle(radius: Double) -> ButtonBorderShape {
        ButtonBorderShape(radius: Font.num(radius) + "px")
    }
}

/// Whether scroll indicators show.
public struct ScrollIndicatorVisibility: Hashable, Sendable {
    let shown: Bool
    /// The platform's usual behavior (shown).
    public static let automatic = ScrollIndicatorVisibility(shown: true)
    /// Shown.
    public static let visible = ScrollIndicatorVisibility(shown: true)
    /// Hidden (scrolling still works).
    public static let hidden = ScrollIndicatorVisibility(shown: false)
    /// Never shown.
    public static let never = ScrollIndicatorVisibility(shown: false)
}

/// Regions of a window's safe area (a browser window has none).
public struct SafeAreaRegions: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: Int
    /// A set from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The container's safe area.
    public static let container = SafeAreaRegions(rawValue: 1)
    /// The keyboard's.
    public static let keyboard = SafeAreaRegions(rawValue: 2)
    /// Both.
    public static let all: SafeAreaRegions = [.container, .keyboard]
}

extension View {
    /// Blurs the view by `radius` points.
    public func blur(radius: Double, opaque: Bool = false) -> some View {
        BoxView(content: self, style: "filter:blur(\(Font.num(radius))px)" + (opaque ? ";overflow:hidden" : ""))
    }
    /// Takes the view's color away, from 0 (none) to 1 (all).
    public func grayscale(_ amount: Double) -> some View {
        BoxView(content: self, style: "filter:grayscale(\(Font.num(amount)))")
    }
    /// Scales the view's color saturation (0 gray, 1 as it is).
    public func saturation(_ amount: Double) -> some View {
        BoxView(content: self, style: "filter:saturate(\(Font.num(amount)))")
    }
    /// Brightens the view (0 as it is, 1 white).
    public func brightness(_ amount: Double) -> some View {
        BoxView(content: self, style: "filter:brightness(\(Font.num(1 + amount)))")
    }
    /// Scales the view's contrast (1 as it is).
    public func contrast(_ amount: Double) -> some View {
        BoxView(content: self, style: "filter:contrast(\(Font.num(amount)))")
    }
    /// Turns the view's hues by an angle.
    public func hueRotation(_ angle: Angle) -> some View {
        BoxView(content: self, style: "filter:hue-rotate(\(Font.num(angle.degrees))deg)")
    }
    /// Draws the view above (higher) or below its siblings.
    public func zIndex(_ value: Double) -> some View {
        BoxView(content: self, style: "position:relative;z-index:\(Int(value.rounded()))")
    }
    /// Lets clicks and taps through the view (false) or not.
    public func allowsHitTesting(_ enabled: Bool) -> some View {
        BoxView(content: self, style: enabled ? "" : "pointer-events:none")
    }
    /// Cuts off what the view draws outside its frame.
    public func clipped(antialiased: Bool = false) -> some View { BoxView(content: self, style: "overflow:hidden") }
    /// Keeps the view at its ideal size (it neither grows nor shrinks with the space offered).
    public func fixedSize() -> some View { fixedSize(horizontal: true, vertical: true) }
    /// Keeps the view at its ideal size along the axes given.
    public func fixedSize(horizontal: Bool, vertical: Bool) -> some View {
        var css = "flex:none"
        if horizontal { css += ";width:max-content;max-width:none;white-space:nowrap" }
        if vertical { css += ";height:max-content" }
        return BoxView(content: self, style: css)
    }
    /// Gives the view priority for space in its stack: above 0 it does not shrink.
    public func layoutPriority(_ value: Double) -> some View {
        BoxView(content: self, style: value > 0 ? "flex-shrink:0" : "")
    }
    /// Makes the view as wide (or tall) as its container along the axes given.
    public func containerRelativeFrame(_ axes: Axis.Set, alignment: Alignment = .center) -> some View {
        var css = "display:flex;flex-direction:column;" + alignment.css
        if axes.contains(.horizontal) { css += ";width:100%;align-self:stretch" }
        if axes.contains(.vertical) { css += ";height:100%" }
        return BoxView(content: self, style: css)
    }
    /// Extends the view under the safe area: a browser window has none, so the view is already there.
    public func ignoresSafeArea(_ regions: SafeAreaRegions = .all, edges: Edge.Set = .all) -> some View { self }
    /// Sets the size of controls in this view.
    public func controlSize(_ size: ControlSize) -> some View { InheritedStyleView(content: self, style: size.css) }
    /// Sets the shape of bordered buttons in this view.
    public func buttonBorderShape(_ shape: ButtonBorderShape) -> some View {
        InheritedStyleView(content: self, style: "--sw-button-radius:" + shape.radius)
    }
    /// Shows or hides the scroll indicators of scroll views in this view.
    public func scrollIndicators(
        _ visibility: ScrollIndicatorVisibility, axes: Axis.Set = [.vertical, .horizontal]
    )
        -> some View
    {
        InheritedStyleView(content: self, style: visibility.shown ? "" : "--sw-scrollbar:none")
    }
    /// Lets a scroll view's content draw outside its bounds.
    public func scrollClipDisabled(_ disabled: Bool = true) -> some View {
        InheritedStyleView(content: self, style: disabled ? "--sw-scroll-clip:visible" : "")
    }
}

/// The background of a window or of its grouped content, as a shape style (`.background`).
public struct BackgroundStyle: ShapeStyle {
    /// The window's background color.
    public var cssColor: String { "var(--sw-surface)" }
    /// A background style.
    public init() {}
}

/// The accent color, as a shape style (`.tint`).
public struct TintShapeStyle: ShapeStyle {
    /// The accent color.
    public var cssColor: String { "var(--sw-accent)" }
    /// A tint style.
    public init() {}
}

/// The separator color, as a shape style (`.separator`).
public struct SeparatorShapeStyle: ShapeStyle {
    /// The separator color.
    public var cssColor: String { "var(--sw-separator)" }
    /// A separator style.
    public init() {}
}

extension ShapeStyle where Self == BackgroundStyle {
    /// The window's background.
    public static var background: BackgroundStyle { BackgroundStyle() }
}

extension ShapeStyle where Self == TintShapeStyle {
    /// The accent color.
    public static var tint: TintShapeStyle { TintShapeStyle() }
}

extension ShapeStyle where Self == SeparatorShapeStyle {
    /// The separator color.
    public static var separator: SeparatorShapeStyle { SeparatorShapeStyle() }
}

/// A view with content inset at one of its edges (`safeAreaInset`): the inset stays at that edge (sticky) while
/// the view scrolls under it.
struct SafeAreaInsetView<Content: View, Inset: View>: View, PrimitiveView {
    let content: Content
    let edge: String
    let spacing: Double?
    let inset: Inset
    var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let horizontal = edge == "leading" || edge == "trailing"
        let main = context.render(content, path: path + ".c", axis: horizontal ? .horizontal : .vertical)
        let bar = Node(
            "div", id: path + ".i", attributes: [("class", "sw-inset sw-inset-" + edge)],
            children: context.render(inset, path: path + ".iv", axis: horizontal ? .vertical : .horizontal))
        let first = edge == "top" || edge == "leading"
        return [
            Node(
                "div", id: path,
                attributes: [
                    ("class", horizontal ? "sw-insetted sw-insetted-h" : "sw-insetted"),
                    ("style", spacing.map { "gap:\(Font.num($0))px" } ?? ""),
                ], children: first ? [bar] + main : main + [bar])
        ]
    }
}

extension View {
    /// Puts `content` at the top or bottom edge of this view, staying there while the view scrolls.
    public func safeAreaInset<V: View>(
        edge: VerticalEdge, alignment: HorizontalAlignment = .center, spacing: Double? = nil,
        @ViewBuilder content: () -> V
    ) -> some View {
        SafeAreaInsetView(content: self, edge: edge == .top ? "top" : "bottom", spacing: spacing, inset: content())
    }
    /// Puts `content` at the leading or trailing edge of this view.
    public func safeAreaInset<V: View>(
        edge: HorizontalEdge, alignment: VerticalAlignment = .center, spacing: Double? = nil,
        @ViewBuilder content: () -> V
    ) -> some View {
        SafeAreaInsetView(
            content: self, edge: edge == .leading ? "leading" : "trailing", spacing: spacing, inset: content())
    }
    /// Sets the primary and secondary foreground styles (text, and what draws in the secondary style).
    public func foregroundStyle<S1: ShapeStyle, S2: ShapeStyle>(_ primary: S1, _ secondary: S2) -> some View {
        InheritedStyleView(content: self, style: "color:\(primary.cssColor);--sw-secondary:\(secondary.cssColor)")
    }
    /// Sets the primary, secondary and tertiary foreground styles.
    public func foregroundStyle<S1: ShapeStyle, S2: ShapeStyle, S3: ShapeStyle>(
        _ primary: S1, _ secondary: S2, _ tertiary: S3
    ) -> some View {
        InheritedStyleView(
            content: self,
            style: "color:\(primary.cssColor);--sw-secondary:\(secondary.cssColor);--sw-tertiary:\(tertiary.cssColor)")
    }
}
