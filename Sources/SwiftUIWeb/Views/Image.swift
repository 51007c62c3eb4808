/// An image: a system symbol (drawn as inline SVG from SwiftUIWeb's own symbol set, no network) or an
/// app image served from the app's `Images/` route.
public struct Image: View, PrimitiveView, Equatable {
    enum Source: Equatable {
        case system(String)
        case named(String)
        /// An image the browser loads from the web (`AsyncImage`).
        case remote(URL, scale: Double)
        /// The gray box `AsyncImage` shows while loading.
        case placeholder
    }
    let source: Source
    var isResizable = false
    /// `renderingMode(.template)`: an app image drawn as a silhouette in the foreground color.
    var template = false
    var label: String?

    init(remote url: URL, scale: Double) { source = .remote(url, scale: scale) }
    init(placeholder: ()) { source = .placeholder }

    /// A system symbol by SF Symbols name (see ``Symbols`` for the names drawn; others draw a placeholder).
    public init(systemName: String) { source = .system(systemName) }
    /// An image from the app's resources, served at `/_swiftuiweb/images/<name>`.
    public init(_ name: String) { source = .named(name) }
    /// An image with an accessibility label.
    public init(_ name: String, label: Text) {
        source = .named(name)
        self.label = label.plainText
    }

    /// Lets the image scale to its frame.
    public func resizable() -> Image {
        var i = self
        i.isResizable = true
        return i
    }
    /// `.template` draws an app image as a silhouette in the foreground color (its opacity as a mask over
    /// `currentColor`); `.original` (and `nil`) draws its own colors. System symbols are drawn in the foreground
    /// color either way: SwiftUIWeb's symbols have no colors of their own.
    public func renderingMode(_ mode: TemplateRenderingMode?) -> Image {
        var i = self
        i.template = mode == .template
        return i
    }
    /// How a symbol's layers are colored. SwiftUIWeb's symbols are drawn as one layer in the foreground color, so
    /// every mode draws them alike (`.hierarchical`, `.palette` and `.multicolor` differ only for layered symbols).
    public func symbolRenderingMode(_ mode: SymbolRenderingMode?) -> Image { self }
    /// How an image is rendered.
    public enum TemplateRenderingMode: Sendable { case template, original }

    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let cls = isResizable ? "sw-image sw-resizable" : "sw-image"
        switch source {
        case .system(let base):
            // `symbolVariant`: the variant's suffix, unless the name already has it.
            let suffix = context.environment.symbolVariants.suffix
            let name = suffix.isEmpty || base.hasSuffix(suffix) ? base : base + suffix
            return [
                Node(
                    "span", id: path,
                    attributes: [("class", cls + " sw-symbol"), ("role", "img"), ("aria-label", name)],
                    raw: Symbols.svg(name))
            ]
        case .remote(let url, let scale):
            return [
                Node(
                    "img", id: path,
                    attributes: [
                        ("class", cls), ("src", url.absoluteString), ("alt", label ?? ""), ("loading", "lazy"),
                        ("referrerpolicy", "no-referrer"), ("data-async", "1"),
                    ] + (scale == 1 || isResizable ? [] : [("data-scale", Font.num(scale))]))
            ]
        case .placeholder:
            return [Node("div", id: path, attributes: [("class", "sw-image-placeholder"), ("aria-hidden", "true")])]
        case .named(let name):
            let safe = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""
            if template {
                let mask = "url(\"/_swiftuiweb/images/\(safe)\") center/contain no-repeat"
                return [
                    Node(
                        "span", id: path,
                        attributes: [
                            ("class", cls + " sw-template"), ("role", "img"), ("aria-label", label ?? name),
                            ("style", "-webkit-mask:\(mask);mask:\(mask);background:currentColor"),
                        ])
                ]
            }
            return [
                Node(
                    "img", id: path,
                    attributes: [("class", cls), ("src", "/_swiftuiweb/images/" + safe), ("alt", label ?? name)])
            ]
        }
    }
}

/// How multicolor symbols are drawn (all symbols here are monochrome).
public struct SymbolRenderingMode: Sendable {
    public static let monochrome = SymbolRenderingMode(), hierarchical = SymbolRenderingMode()
    public static let palette = SymbolRenderingMode(), multicolor = SymbolRenderingMode()
}

/// The scale of images in this view.
public enum ImageScale: Sendable { case small, medium, large }

extension View {
    /// Scales symbol images.
    public func imageScale(_ scale: ImageScale) -> some View {
        InheritedStyleView(
            content: self, style: "--sw-symbol:" + (scale == .small ? ".8em" : scale == .large ? "1.35em" : "1.1em"))
    }
    /// Scales images in this view to fit their frame, keeping their aspect ratio (CSS `object-fit: contain`).
    public func scaledToFit() -> some View { aspectRatio(nil, contentMode: .fit) }
    /// Scales images in this view to fill their frame, keeping their aspect ratio and cropping what overflows.
    public func scaledToFill() -> some View { aspectRatio(nil, contentMode: .fill) }
    /// Scales images in this view to fit or fill their frame; with a ratio (width / height), the view takes that
    /// shape (CSS `aspect-ratio`).
    public func aspectRatio(_ ratio: Double? = nil, contentMode: ContentMode) -> some View {
        let fit = "--sw-fit:" + (contentMode == .fit ? "contain" : "cover")
        return BoxView(content: self, style: ratio.map { fit + ";aspect-ratio:\(Font.num($0))" } ?? fit)
    }
    /// Scales images in this view to fit or fill their frame, with the aspect ratio of `size`.
    public func aspectRatio(_ size: CGSize, contentMode: ContentMode) -> some View {
        aspectRatio(size.height > 0 ? Double(size.width / size.height) : nil, contentMode: contentMode)
    }
}

/// How content fills its frame.
public enum ContentMode: Sendable { case fit, fill }

/// A title with an icon.
public struct Label<Title: View, Icon: View>: View, PrimitiveView {
    let title: Title
    let icon: Icon
    /// Creates a label from views.
    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {
        self.title = title()
        self.icon = icon()
    }
    /// Primitive view.
    public var body: Never { fatalError("primitive view") }
    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let style = context.environment.labelStyle
        var children: [Node] = []
        if style != .titleOnly {
            children += [
                Node(
                    "span", id: path + ".i", attributes: [("class", "sw-label-icon")],
                    children: context.render(icon, path: path + ".i.c"))
            ]
        }
        let titleNodes = context.render(title, path: path + ".t.c")
        if style != .iconOnly {
            children += [Node("span", id: path + ".t", attributes: [("class", "sw-label-title")], children: titleNodes)]
            return [Node("span", id: path, attributes: [("class", "sw-label")], children: children)]
        }
        let name = titleNodes.map(\.textContent).joined()
        return [
            Node(
                "span", id: path, attributes: [("class", "sw-label"), ("title", name), ("aria-label", name)],
                children: children)
        ]
    }
}

extension Label where Title == Text, Icon == Image {
    /// A label with a localized title and a system symbol.
    public init(_ titleKey: LocalizedStringKey, systemImage name: String) {
        self.title = Text(titleKey)
        icon = Image(systemName: name)
    }
    /// A label with a title (a string, shown as it is) and a system symbol.
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, systemImage name: String) {
        self.title = Text(title)
        icon = Image(systemName: name)
    }
    /// A label with an app image.
    public init<S: StringProtocol>(_ title: S, image name: String) {
        self.title = Text(title)
        icon = Image(name)
    }
}

/// How labels show: title and icon, or one of them.
public struct LabelStyle: Hashable, Sendable {
    let kind: Int
    public static let automatic = LabelStyle(kind: 0), titleAndIcon = LabelStyle(kind: 0)
    public static let titleOnly = LabelStyle(kind: 1), iconOnly = LabelStyle(kind: 2)
}
private struct LabelStyleKey: EnvironmentKey { static var defaultValue: LabelStyle { .automatic } }
extension EnvironmentValues {
    var labelStyle: LabelStyle {
        get { self[LabelStyleKey.self] }
        set { self[LabelStyleKey.self] = newValue }
    }
}
extension View {
    /// Sets how labels in this view show.
    public func labelStyle(_ style: LabelStyle) -> some View { environment(\.labelStyle, style) }
}
