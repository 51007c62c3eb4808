import Foundation

/// A view masked by another: a gradient or color masks by its opacity (CSS `mask-image`), a shape cuts the view
/// to itself (`clip-path`). Any other mask view can't be a CSS mask: the view is shown unmasked with a note in
/// orange and a log line, not silently.
struct MaskView<Content: View, Mask: View>: View, PrimitiveView {
    let content: Content
    let mask: Mask
    var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let style: String?
        if let shape = mask as? any Shape {
            style = clip(shape)
        } else if let paint = mask as? any ShapeStyle {
            let image =
                paint.cssBackground.contains("gradient(")
                ? paint.cssBackground
                : "linear-gradient(\(paint.cssColor),\(paint.cssColor))"
            style = "-webkit-mask-image:\(image);mask-image:\(image);mask-size:100% 100%"
        } else {
            style = nil
        }
        let inner = context.render(content, path: path + ".m", axis: context.axis)
        guard let style else {
            let message = "mask(_:) takes a gradient, a color or a shape here; \(Mask.self) can't be a CSS mask"
            context.scene.host.logger.warning("\(message)")
            return inner + [Node("div", id: path + ".x", attributes: [("class", "sw-missing")], text: message)]
        }
        return [Node("div", id: path, attributes: [("class", "sw-box"), ("style", style)], children: inner)]
    }

    private func clip<S: Shape>(_ shape: S) -> String { shapeClip(shape) + ";overflow:hidden" }
}

extension View {
    /// Masks this view with another: where the mask is opaque the view shows, where it is clear it doesn't.
    /// A gradient or color masks by its opacity, a shape by its outline; both fill the view, so `alignment`
    /// (which places a smaller mask) has nothing to place.
    public func mask<M: View>(alignment: Alignment = .center, @ViewBuilder _ mask: () -> M) -> some View {
        MaskView(content: self, mask: mask())
    }

    /// Masks this view with another (the iOS 13 form).
    public func mask<M: View>(_ mask: M) -> some View { MaskView(content: self, mask: mask) }
}

/// What a content shape is for (a browser hit-tests, previews and highlights a view by its box alike).
public struct ContentShapeKinds: OptionSet, Sendable {
    /// The kinds' bits.
    public let rawValue: Int
    /// Kinds from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Hit testing.
    public static let interaction = ContentShapeKinds(rawValue: 1)
    /// A drag's preview.
    public static let dragPreview = ContentShapeKinds(rawValue: 2)
    /// A context menu's preview.
    public static let contextMenuPreview = ContentShapeKinds(rawValue: 4)
    /// The hover effect.
    public static let hoverEffect = ContentShapeKinds(rawValue: 8)
    /// The focus ring.
    public static let focusEffect = ContentShapeKinds(rawValue: 16)
    /// Assistive technologies' frame.
    public static let accessibility = ContentShapeKinds(rawValue: 32)
}

extension View {
    /// The shape that takes this view's clicks and taps: its whole rectangle, empty parts (a `Spacer`'s) included.
    /// In a browser an element's whole box takes its clicks, so a view here already behaves as SwiftUI's does with
    /// `contentShape(Rectangle())`; other shapes are not offered, as a browser can't hit-test by them.
    public func contentShape(_ shape: Rectangle, eoFill: Bool = false) -> some View { self }

    /// The shape of this view for `kinds` (hit testing, previews, effects): its rectangle, as above.
    public func contentShape(_ kinds: ContentShapeKinds, _ shape: Rectangle, eoFill: Bool = false) -> some View {
        self
    }
}
