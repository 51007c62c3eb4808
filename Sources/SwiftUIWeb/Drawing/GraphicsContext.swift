import Foundation

/// The drawing context a ``Canvas`` renderer draws into: paths filled and stroked, text and images drawn, under
/// a transform, an opacity, a blend mode and clip paths, as SwiftUI's. What it draws becomes the canvas's SVG.
public struct GraphicsContext {
    /// The opacity of what is drawn next, 0…1 (multiplied into the layer's).
    public var opacity: Double = 1
    /// How what is drawn next blends with what is below it.
    public var blendMode: BlendMode = .normal
    /// The transform from the context's coordinates to the canvas's.
    public var transform: CGAffineTransform = .identity
    /// The environment of the canvas's view.
    public let environment: EnvironmentValues

    let recorder: CanvasRecorder
    /// The clip paths in force, by their ids in the canvas's `<defs>`.
    var clips: [String] = []

    init(recorder: CanvasRecorder, environment: EnvironmentValues) {
        self.recorder = recorder
        self.environment = environment
    }

    // MARK: Transform

    /// Moves the origin.
    public mutating func translateBy(x: CGFloat, y: CGFloat) { transform = transform.translatedBy(x: x, y: y) }
    /// Scales the coordinates.
    public mutating func scaleBy(x: CGFloat, y: CGFloat) { transform = transform.scaledBy(x: x, y: y) }
    /// Rotates the coordinates (clockwise on screen for a positive angle).
    public mutating func rotate(by angle: Angle) { transform = transform.rotated(by: CGFloat(angle.radians)) }
    /// Applies `matrix` before the current transform.
    public mutating func concatenate(_ matrix: CGAffineTransform) { transform = matrix.concatenating(transform) }

    // MARK: Clipping

    /// Clips what is drawn next to the inside of a path.
    public mutating func clip(to path: Path, style: FillStyle = FillStyle()) {
        clips.append(recorder.define(clip: path, style: style, transform: transform))
    }

    // MARK: Drawing

    /// Fills a path.
    public func fill(_ path: Path, with shading: Shading, style: FillStyle = FillStyle()) {
        var attributes = ["d": path.svgData]
        if style.isEOFilled { attributes["fill-rule"] = "evenodd" }
        if !style.isAntialiased { attributes["shape-rendering"] = "crispEdges" }
        recorder.add("path", attributes, paint: "fill:" + recorder.paint(shading, transform: transform), state: self)
    }

    /// Strokes a path with a line style.
    public func stroke(_ path: Path, with shading: Shading, style: StrokeStyle) {
        recorder.add(
            "path", ["d": path.svgData],
            paint: "fill:none;stroke:" + recorder.paint(shading, transform: transform) + ";" + style.css, state: self)
    }

    /// Strokes a path with a line of this width.
    public func stroke(_ path: Path, with shading: Shading, lineWidth: CGFloat = 1) {
        stroke(path, with: shading, style: StrokeStyle(lineWidth: lineWidth))
    }

    /// Draws text with its anchor (a unit point of the text's box) at a point.
    public func draw(_ text: Text, at point: CGPoint, anchor: UnitPoint = .center) {
        let horizontal = anchor.x < 0.25 ? "start" : anchor.x > 0.75 ? "end" : "middle"
        let vertical = anchor.y < 0.25 ? "text-before-edge" : anchor.y > 0.75 ? "text-after-edge" : "central"
        recorder.add(
            "text",
            [
                "x": Font.num(Double(point.x)), "y": Font.num(Double(point.y)), "text-anchor": horizontal,
                "dominant-baseline": vertical,
            ], paint: "fill:currentColor", state: self, inner: CanvasRecorder.spans(of: text))
    }

    /// Draws text starting at the top leading corner of a rectangle (it is not wrapped to the rectangle's width).
    public func draw(_ text: Text, in rect: CGRect) {
        draw(text, at: rect.origin, anchor: .topLeading)
    }

    /// Draws an image scaled to fill a rectangle.
    public func draw(_ image: Image, in rect: CGRect, style: FillStyle = FillStyle()) {
        guard let href = image.drawableURL else {
            recorder.problem("Canvas draws app images and web images; \(image.source) has no file to draw")
            return
        }
        recorder.add(
            "image",
            [
                "href": href, "x": Font.num(Double(rect.minX)), "y": Font.num(Double(rect.minY)),
                "width": Font.num(Double(rect.width)), "height": Font.num(Double(rect.height)),
                "preserveAspectRatio": "none",
            ], paint: "", state: self)
    }

    /// Draws a layer: what `content` draws is composited as one, with this context's opacity, blend mode and clip.
    public func drawLayer(content: (inout GraphicsContext) throws -> Void) rethrows {
        var layer = GraphicsContext(recorder: recorder, environment: environment)
        layer.transform = transform
        recorder.beginGroup(state: self)
        defer { recorder.endGroup() }
        try content(&layer)
    }

    // MARK: Shading

    /// What a fill or a stroke paints with.
    public struct Shading: Sendable {
        enum Kind: Sendable {
            case color(String)
            case linear(Gradient, start: CGPoint, end: CGPoint)
            case radial(Gradient, center: CGPoint, startRadius: CGFloat, endRadius: CGFloat)
        }
        let kind: Kind

        /// A color.
        public static func color(_ color: Color) -> Shading { Shading(kind: .color(color.cssColor)) }
        /// A color from components in 0…1.
        public static func color(red: Double, green: Double, blue: Double, opacity: Double = 1) -> Shading {
            .color(Color(red: red, green: green, blue: blue, opacity: opacity))
        }
        /// A style: its color (a gradient style paints as its CSS color, its first stop).
        public static func style(_ style: some ShapeStyle) -> Shading { Shading(kind: .color(style.cssColor)) }
        /// The view's foreground color.
        public static var foreground: Shading { Shading(kind: .color("currentColor")) }
        /// A linear gradient between two points of the context's coordinates.
        public static func linearGradient(_ gradient: Gradient, startPoint: CGPoint, endPoint: CGPoint) -> Shading {
            Shading(kind: .linear(gradient, start: startPoint, end: endPoint))
        }
        /// A radial gradient around a point of the context's coordinates.
        public static func radialGradient(
            _ gradient: Gradient, center: CGPoint, startRadius: CGFloat, endRadius: CGFloat
        ) -> Shading {
            Shading(kind: .radial(gradient, center: center, startRadius: startRadius, endRadius: endRadius))
        }
    }
}

/// How a fill decides what is inside a path.
public struct FillStyle: Equatable, Sendable {
    /// Even-odd (a point inside an odd number of outlines is inside) rather than non-zero winding.
    public var isEOFilled: Bool
    /// Whether edges are smoothed (`false`: crisp edges).
    public var isAntialiased: Bool
    /// A fill style.
    public init(eoFill: Bool = false, antialiased: Bool = true) {
        isEOFilled = eoFill
        isAntialiased = antialiased
    }
}

/// How a drawing blends with what is below it: the blend modes CSS has (`mix-blend-mode`). SwiftUI's
/// Porter-Duff modes (`sourceAtop`, `destinationOut`, …) have no CSS equivalent and are not here.
public enum BlendMode: String, Sendable, CaseIterable {
    case normal, multiply, screen, overlay, darken, lighten
    case colorDodge = "color-dodge"
    case colorBurn = "color-burn"
    case softLight = "soft-light"
    case hardLight = "hard-light"
    case difference, exclusion, hue, saturation, color, luminosity
    /// Adds the colors (CSS's `plus-lighter`).
    case plusLighter = "plus-lighter"
}

/// How a canvas's colors blend in gradients: `nonLinear` in sRGB, `linear` / `extendedLinear` in linear RGB.
public enum ColorRenderingMode: Sendable {
    case nonLinear, linear, extendedLinear
}

/// Collects what a renderer draws, as SVG markup, in order.
final class CanvasRecorder {
    private(set) var markup = ""
    private(set) var definitions = ""
    private(set) var problems: [String] = []
    private var nextID = 0
    let prefix: String

    init(prefix: String) { self.prefix = prefix }

    private func newID() -> String {
        nextID += 1
        return prefix + "-" + String(nextID)
    }

    func problem(_ message: String) { problems.append(message) }

    /// Adds an element with the context's state: its transform, opacity, blend mode and clips.
    func add(_ tag: String, _ attributes: [String: String], paint: String, state: GraphicsContext, inner: String = "") {
        var out = "<" + tag
        for key in attributes.keys.sorted() { out += " " + key + "=\"" + HTML.escape(attributes[key]!) + "\"" }
        if !state.transform.isIdentity { out += " transform=\"" + state.transform.svg + "\"" }
        var style = paint
        if state.opacity < 1 { style += ";opacity:" + Font.num(max(0, state.opacity)) }
        if state.blendMode != .normal { style += ";mix-blend-mode:" + state.blendMode.rawValue }
        if !style.isEmpty { out += " style=\"" + HTML.escape(style) + "\"" }
        out += ">"
        out += inner
        out += "</" + tag + ">"
        markup += wrapInClips(out, state.clips)
    }

    private var groups: [(clips: [String], opened: String)] = []

    /// Starts a layer: a group with the context's opacity, blend mode and clips.
    func beginGroup(state: GraphicsContext) {
        var style = ""
        if state.opacity < 1 { style += "opacity:" + Font.num(max(0, state.opacity)) }
        if state.blendMode != .normal { style += ";mix-blend-mode:" + state.blendMode.rawValue }
        let open =
            wrapInClips("", state.clips, closing: false) + "<g" + (style.isEmpty ? "" : " style=\"\(style)\"") + ">"
        groups.append((state.clips, open))
        markup += open
    }

    func endGroup() {
        let group = groups.removeLast()
        markup += "</g>" + String(repeating: "</g>", count: group.clips.count)
    }

    /// Wraps markup in one group per clip path (nested clips intersect).
    private func wrapInClips(_ inner: String, _ clips: [String], closing: Bool = true) -> String {
        var open = ""
        for clip in clips { open += "<g clip-path=\"url(#\(clip))\">" }
        return open + inner + (closing ? String(repeating: "</g>", count: clips.count) : "")
    }

    /// Defines a clip path (in the canvas's coordinates) and returns its id.
    func define(clip path: Path, style: FillStyle, transform: CGAffineTransform) -> String {
        let id = newID()
        var shape = "<path d=\"" + HTML.escape(path.svgData) + "\""
        if style.isEOFilled { shape += " clip-rule=\"evenodd\"" }
        if !transform.isIdentity { shape += " transform=\"" + transform.svg + "\"" }
        definitions += "<clipPath id=\"\(id)\">" + shape + "/></clipPath>"
        return id
    }

    /// The CSS paint for a shading: a color, or a gradient defined in the canvas (in the context's coordinates).
    func paint(_ shading: GraphicsContext.Shading, transform: CGAffineTransform) -> String {
        func stops(_ gradient: Gradient) -> String {
            gradient.stops.map {
                "<stop offset=\"\(Font.num($0.location))\" style=\"stop-color:\(HTML.escape($0.color.cssColor))\"/>"
            }.joined()
        }
        // The element's own transform applies to its gradient in user space, so the points are the context's.
        switch shading.kind {
        case .color(let css): return css
        case .linear(let gradient, let start, let end):
            let id = newID()
            definitions +=
                "<linearGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" x1=\"\(Font.num(Double(start.x)))\" "
                + "y1=\"\(Font.num(Double(start.y)))\" x2=\"\(Font.num(Double(end.x)))\" y2=\"\(Font.num(Double(end.y)))\">"
                + stops(gradient) + "</linearGradient>"
            return "url(#\(id))"
        case .radial(let gradient, let center, let startRadius, let endRadius):
            let id = newID()
            definitions +=
                "<radialGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" cx=\"\(Font.num(Double(center.x)))\" "
                + "cy=\"\(Font.num(Double(center.y)))\" fx=\"\(Font.num(Double(center.x)))\" "
                + "fy=\"\(Font.num(Double(center.y)))\" fr=\"\(Font.num(Double(startRadius)))\" "
                + "r=\"\(Font.num(Double(endRadius)))\">" + stops(gradient) + "</radialGradient>"
            return "url(#\(id))"
        }
    }

    /// A text's runs as `<tspan>`s with their own styles (a run's `color` paints it, through `currentColor`).
    static func spans(of text: Text) -> String {
        text.runs.map { run in
            (run.style.isEmpty ? "<tspan>" : "<tspan style=\"" + HTML.escape(run.style) + ";fill:currentColor\">")
                + HTML.escape(run.string) + "</tspan>"
        }.joined()
    }
}

extension Image {
    /// The address a canvas's `<image>` loads: an app image's route, or a web image's http(s) URL (`nil`: a symbol
    /// or a placeholder, which have no file).
    nonisolated var drawableURL: String? {
        switch source {
        case .named(let name):
            return "/_swiftuiweb/images/" + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "")
        case .remote(let url, _):
            return ["http", "https"].contains(url.scheme?.lowercased() ?? "") ? url.absoluteString : nil
        case .system, .placeholder:
            return nil
        }
    }
}
