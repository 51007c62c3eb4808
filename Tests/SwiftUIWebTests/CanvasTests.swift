import Foundation
import Testing

@testable import SwiftUIWeb

/// `Canvas` and its `GraphicsContext`: what a renderer draws becomes the canvas's SVG, for the size the page
/// measured.
@MainActor
@Suite("Canvas")
struct CanvasTests {
    /// A window with a canvas, measured by the page at `width` × `height`; returns the scene and the SVG markup.
    func drawn(
        width: Int = 200, height: Int = 100, _ renderer: @escaping (inout GraphicsContext, CGSize) -> Void
    ) throws -> (SceneInstance, String) {
        let scene = window { Canvas(renderer: renderer).frame(height: 100) }
        let box = try #require(scene.tree.first { $0.attr("data-geometry") != nil })
        #expect(box.cssClass.contains("sw-canvas-box"))
        // Before the page measures, nothing is drawn.
        #expect(scene.tree.first { $0.tag == "svg" }?.raw == "")
        scene.handle(event: ClientEvent(t: "geometry", id: box.id, v: "\(width),\(height),0,0"))
        _ = scene.document()
        let svg = try #require(scene.tree.first { $0.tag == "svg" })
        #expect(svg.attr("viewBox") == "0 0 \(width) \(height)" && svg.attr("role") == "img")
        return (scene, svg.raw ?? "")
    }

    @Test func fillsStrokesAndTextForTheMeasuredSize() throws {
        let sizes = Box<[CGSize]>([])
        let (_, svg) = try drawn { context, size in
            sizes.value.append(size)
            context.fill(Path(ellipseIn: CGRect(origin: .zero, size: size)), with: .color(.red))
            context.stroke(
                Path {
                    $0.move(to: .zero)
                    $0.addLine(to: CGPoint(x: size.width, y: size.height))
                },
                with: .color(.blue), style: StrokeStyle(lineWidth: 3, lineCap: .round, dash: [4, 2]))
            context.draw(Text("Dose <8:00>").bold(), at: CGPoint(x: 100, y: 50))
            context.draw(Text("Corner"), at: .zero, anchor: .topLeading)
        }
        #expect(!sizes.value.isEmpty && sizes.value.allSatisfy { $0 == CGSize(width: 200, height: 100) })
        #expect(svg.contains("<path d=\"M200 50") && svg.contains("style=\"fill:#ff3b30\""))
        #expect(svg.contains("fill:none;stroke:#007aff;stroke-width:3;stroke-linecap:round;stroke-dasharray:4 2"))
        // Text is escaped, keeps its style, and is anchored as asked.
        #expect(svg.contains("Dose &lt;8:00&gt;") && !svg.contains("<8:00>"))
        #expect(svg.contains("font-weight:700;fill:currentColor"))
        #expect(svg.contains("text-anchor=\"middle\"") && svg.contains("text-anchor=\"start\""))
        #expect(svg.contains("dominant-baseline=\"text-before-edge\""))
    }

    @Test func transformsOpacityBlendingClipsAndLayers() throws {
        let (_, svg) = try drawn { context, size in
            var moved = context
            moved.translateBy(x: 10, y: 20)
            moved.rotate(by: .degrees(90))
            moved.opacity = 0.5
            moved.blendMode = .multiply
            moved.fill(Path(CGRect(x: 0, y: 0, width: 5, height: 5)), with: .color(.green))
            var clipped = context
            clipped.clip(to: Path(ellipseIn: CGRect(x: 0, y: 0, width: 50, height: 50)), style: FillStyle(eoFill: true))
            clipped.fill(Path(CGRect(x: 0, y: 0, width: 100, height: 100)), with: .color(.orange))
            context.drawLayer { layer in
                layer.fill(Path(CGRect(x: 1, y: 1, width: 2, height: 2)), with: .color(.purple))
            }
        }
        // A rotation by 90° after a translation by (10, 20).
        #expect(svg.contains("transform=\"matrix(0 1 -1 0 10 20)\""))
        #expect(svg.contains("opacity:0.5") && svg.contains("mix-blend-mode:multiply"))
        #expect(svg.contains("<clipPath id=") && svg.contains("clip-rule=\"evenodd\""))
        #expect(svg.contains("<g clip-path=\"url(#"))
        #expect(svg.contains("<g><path d=\"M1 1"))
    }

    @Test func gradientsAreDefinedInTheCanvas() throws {
        let (_, svg) = try drawn { context, size in
            let gradient = Gradient(colors: [.red, .blue])
            context.fill(
                Path(CGRect(origin: .zero, size: size)),
                with: .linearGradient(gradient, startPoint: .zero, endPoint: CGPoint(x: size.width, y: 0)))
            context.fill(
                Path(ellipseIn: CGRect(x: 0, y: 0, width: 40, height: 40)),
                with: .radialGradient(gradient, center: CGPoint(x: 20, y: 20), startRadius: 0, endRadius: 20))
        }
        #expect(svg.contains("<linearGradient") && svg.contains("x2=\"200\"") && svg.contains("userSpaceOnUse"))
        #expect(svg.contains("<radialGradient") && svg.contains("r=\"20\""))
        #expect(svg.contains("stop-color:#ff3b30") && svg.contains("fill:url(#"))
    }

    @Test func aNewSizeDrawsAgainAndImagesLoadFromTheirRoutes() throws {
        let (scene, _) = try drawn { context, size in
            context.draw(Image("pill"), in: CGRect(x: 0, y: 0, width: size.width, height: 10))
            context.draw(Image(systemName: "heart"), in: CGRect(x: 0, y: 0, width: 10, height: 10))
        }
        let box = try #require(scene.tree.first { $0.attr("data-geometry") != nil })
        let patches = scene.handle(event: ClientEvent(t: "geometry", id: box.id, v: "300,100,0,0"))
        #expect(!patches.isEmpty)
        _ = scene.document()
        let svg = scene.tree.first { $0.tag == "svg" }?.raw ?? ""
        #expect(svg.contains("href=\"/_swiftuiweb/images/pill\"") && svg.contains("width=\"300\""))
        // A symbol has no file to draw: said, not silently skipped.
        #expect(svg.contains("class=\"sw-missing\"") && svg.contains("heart") && svg.contains("no file to draw"))
    }
}
