import Foundation
import Testing

@testable import SwiftUIWeb

/// A custom shape for the tests: a triangle pointing up, made of proportions of its rectangle.
struct Triangle: Shape {
    func path(in rect: CGRect) -> Path {
        var path = Path()
        path.move(to: CGPoint(x: rect.midX, y: rect.minY))
        path.addLine(to: CGPoint(x: rect.maxX, y: rect.maxY))
        path.addLine(to: CGPoint(x: rect.minX, y: rect.maxY))
        path.closeSubpath()
        return path
    }
}

/// `Path`, custom shapes, `trim(from:to:)` and stroke styles, drawn as SVG.
@MainActor
@Suite("Paths and custom shapes")
struct PathShapeTests {
    @Test func pathDataFollowsSwiftUIsGeometry() {
        let rect = Path(CGRect(x: 0, y: 0, width: 10, height: 5))
        #expect(rect.svgData == "M0 0L10 0L10 5L0 5Z")
        // A quarter turn with clockwise: false turns down the screen (positive angles), as in SwiftUI.
        var arc = Path()
        arc.addArc(
            center: CGPoint(x: 50, y: 50), radius: 10, startAngle: .zero, endAngle: .degrees(90), clockwise: false)
        #expect(arc.svgData == "M60 50A10 10 0 0 1 50 60")
        var back = Path()
        back.addArc(
            center: CGPoint(x: 50, y: 50), radius: 10, startAngle: .zero, endAngle: .degrees(90), clockwise: true)
        #expect(back.svgData.hasPrefix("M60 50A10 10 0 0 0 "))
        #expect(back.svgData.components(separatedBy: "A").count == 3)  // Three quarters: two pieces.
        // A whole circle is drawn in two half turns.
        var circle = Path()
        circle.addArc(
            center: .zero, radius: 5, startAngle: .zero, endAngle: .degrees(360), clockwise: false)
        #expect(circle.svgData == "M5 0A5 5 0 0 1 -5 0A5 5 0 0 1 5 0")
        let curve = Path { p in
            p.move(to: .zero)
            p.addQuadCurve(to: CGPoint(x: 10, y: 0), control: CGPoint(x: 5, y: 5))
            p.addCurve(to: CGPoint(x: 20, y: 0), control1: CGPoint(x: 12, y: 5), control2: CGPoint(x: 18, y: 5))
        }
        #expect(curve.svgData == "M0 0Q5 5 10 0C12 5 18 5 20 0")
        #expect(curve.boundingRect == CGRect(x: 0, y: 0, width: 20, height: 5))
        #expect(
            Path(roundedRect: CGRect(x: 0, y: 0, width: 20, height: 10), cornerRadius: 4).svgData
                == "M4 0L16 0A4 4 0 0 1 20 4L20 6A4 4 0 0 1 16 10L4 10A4 4 0 0 1 0 6L0 4A4 4 0 0 1 4 0Z")
    }

    @Test func customShapesDrawTheirPathForTheirFrame() throws {
        let scene = window {
            VStack {
                Triangle().fill(.red).frame(width: 40, height: 20)
                Triangle().stroke(.blue, lineWidth: 3)
                Triangle()
            }
        }
        let svgs = scene.tree.all { $0.tag == "svg" && $0.attr("class") == "sw-shape-svg" }
        #expect(svgs.count == 3)
        // Framed: made for 40×20, exact.
        #expect(svgs[0].attr("viewBox") == "0 0 40 20")
        #expect(svgs[0].raw?.contains(#"d="M20 0L40 20L0 20Z""#) == true)
        #expect(svgs[0].raw?.contains("fill:#ff3b30") == true)
        // Unframed: made for 100×100 and stretched; the line keeps its width in points.
        #expect(svgs[1].attr("viewBox") == "0 0 100 100" && svgs[1].attr("preserveAspectRatio") == "none")
        #expect(svgs[1].raw?.contains("stroke:#007aff;stroke-width:3") == true)
        #expect(svgs[1].raw?.contains(#"vector-effect="non-scaling-stroke""#) == true)
        #expect(svgs[2].raw?.contains("fill:currentColor") == true)
    }

    @Test func trimmedStrokesDrawPartOfTheOutline() throws {
        let scene = window {
            Circle()
                .trim(from: 0.25, to: 0.75)
                .stroke(.green, style: StrokeStyle(lineWidth: 8, lineCap: .round))
                .frame(width: 60, height: 60)
        }
        let ring = try #require(scene.tree.first { $0.tag == "svg" })
        let markup = try #require(ring.raw)
        #expect(markup.contains(#"pathLength="1""#))
        #expect(markup.contains("stroke-dasharray:0.5 2;stroke-dashoffset:-0.25"))
        #expect(markup.contains("stroke-linecap:round"))
        #expect(markup.contains(#"d="M60 30A30 30 0 0 1 0 30A30 30 0 0 1 60 30Z""#))
    }

    @Test func pathsKeepTheirCoordinatesAndBuiltInsStayCSS() throws {
        let scene = window {
            VStack {
                Path { p in
                    p.move(to: CGPoint(x: 0, y: 0))
                    p.addLine(to: CGPoint(x: 30, y: 12))
                }
                .stroke(.black, lineWidth: 2)
                Circle().fill(.blue).frame(width: 20, height: 20)
                Capsule().stroke(style: StrokeStyle(lineWidth: 2, dash: [4, 2]))
                Text("Clipped").clipShape(Triangle())
            }
        }
        let path = try #require(scene.tree.first { $0.attr("class") == "sw-path-svg" })
        #expect(path.attr("width") == "30" && path.attr("height") == "12" && path.attr("preserveAspectRatio") == nil)
        // Built-in shapes remain CSS boxes, exact at any size.
        let styles = scene.tree.all { $0.attr("class") == "sw-color sw-shape" }.compactMap { $0.attr("style") }
        #expect(styles.contains("background:#007aff;border-radius:50%;aspect-ratio:1"))
        #expect(styles.contains { $0.hasPrefix("outline:2px dashed currentColor") })
        #expect(
            scene.tree.first { $0.attr("style")?.contains("clip-path:polygon(50% 0%,100% 100%,0% 100%)") == true }
                != nil)
    }
}
