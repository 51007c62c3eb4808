import Foundation

/// A view a renderer draws into with a ``GraphicsContext``, as SwiftUI's `Canvas`. It takes the space it is
/// offered; the page measures it (as for `GeometryReader`) and the renderer draws for that size, as an SVG.
/// Before the first measurement the canvas is empty.
public struct Canvas: View, PrimitiveView {
    let opaque: Bool
    let colorMode: ColorRenderingMode
    let renderer: (inout GraphicsContext, CGSize) -> Void

    /// A canvas. `opaque` paints the window's background under the drawing first; `colorMode` decides how
    /// gradients blend (`.linear` and `.extendedLinear`: in linear RGB).
    public init(
        opaque: Bool = false, colorMode: ColorRenderingMode = .nonLinear,
        renderer: @escaping (inout GraphicsContext, CGSize) -> Void
    ) {
        self.opaque = opaque
        self.colorMode = colorMode
        self.renderer = renderer
    }

    /// Primitive view.
    public var body: Never { fatalError("primitive view") }

    package func makeNodes(_ context: RenderContext, path: String) -> [Node] {
        let slot = context.scene.slot(for: "geometry:" + path, context: context) { GeometryProxy.unmeasured }
        let size = (slot.value as? GeometryProxy ?? .unmeasured).size
        context.addInput(path + "!geometry") { [weak slot] report in
            guard let slot, let measured = GeometryProxy.measured(report: report),
                measured.size != (slot.value as? GeometryProxy)?.size
            else { return }
            slot.value = measured
            slot.scene?.changed(slot)
        }
        var attributes: [(String, String)] = [
            ("class", "sw-canvas"), ("role", "img"), ("width", Font.num(Double(size.width))),
            ("height", Font.num(Double(size.height))),
            ("viewBox", "0 0 \(Font.num(Double(size.width))) \(Font.num(Double(size.height)))"),
        ]
        if colorMode != .nonLinear { attributes.append(("color-interpolation", "linearRGB")) }
        var markup = ""
        if size.width > 0 && size.height > 0 {
            let recorder = CanvasRecorder(prefix: HTML.escape(path).replacingOccurrences(of: ".", with: "_"))
            var graphics = GraphicsContext(recorder: recorder, environment: context.environment)
            renderer(&graphics, size)
            if opaque { markup += "<rect width=\"100%\" height=\"100%\" style=\"fill:var(--sw-bg)\"/>" }
            if !recorder.definitions.isEmpty { markup += "<defs>" + recorder.definitions + "</defs>" }
            markup += recorder.markup
            // What could not be drawn is said in the canvas (and the log), not skipped.
            for (index, problem) in recorder.problems.enumerated() {
                context.scene.host.logger.warning("Canvas at \(path): \(problem)")
                markup +=
                    "<text class=\"sw-missing\" x=\"4\" y=\"\(14 * (index + 1))\" style=\"fill:#b25000;font-size:12px\">"
                    + HTML.escape("Canvas: " + problem) + "</text>"
            }
        }
        return [
            Node(
                "div", id: path, attributes: [("class", "sw-geometry sw-canvas-box"), ("data-geometry", "1")],
                children: [Node("svg", id: path + ".s", attributes: attributes, raw: markup)])
        ]
    }
}
