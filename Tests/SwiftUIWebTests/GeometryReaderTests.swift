import Foundation
import Testing

@testable import SwiftUIWeb

/// `GeometryReader`: the content renders for the size and place the page measured.
@MainActor
@Suite("Geometry reader")
struct GeometryReaderTests {
    @Test func contentFollowsThePagesMeasurements() throws {
        let scene = window {
            GeometryReader { proxy in
                Text("Size \(Int(proxy.size.width))×\(Int(proxy.size.height))")
                Text("At \(Int(proxy.frame(in: .global).minX)),\(Int(proxy.frame(in: .global).minY))")
                Text("Local \(Int(proxy.frame(in: .local).minX))")
            }
        }
        // Before the page has measured: zero.
        #expect(scene.text("Size 0×0"))
        let reader = try #require(scene.tree.first { $0.attr("data-geometry") != nil })
        #expect(reader.attr("class") == "sw-geometry")
        let patches = scene.handle(event: ClientEvent(t: "geometry", id: reader.id, v: "320,200,16,60"))
        #expect(!patches.isEmpty)
        #expect(scene.text("Size 320×200") && scene.text("At 16,60") && scene.text("Local 0"))
        // The same measurement again changes nothing.
        #expect(scene.handle(event: ClientEvent(t: "geometry", id: reader.id, v: "320,200,16,60")).isEmpty)
    }

    @Test func malformedReportsAreIgnored() throws {
        let scene = window { GeometryReader { Text("Width \(Int($0.size.width))") } }
        let reader = try #require(scene.tree.first { $0.attr("data-geometry") != nil })
        for bad in ["", "1,2,3", "a,b,c,d", "-5,10,0,0", "nan,1,1,1", "1e12,1,1,1", "1,2,3,4,5"] {
            scene.handle(event: ClientEvent(t: "geometry", id: reader.id, v: bad))
            #expect(scene.text("Width 0"), "\(bad)")
        }
        #expect(GeometryProxy.measured(report: "10.5,20,0,0")?.size == CGSize(width: 10.5, height: 20))
    }
}

/// `ViewThatFits` renders every candidate for the page to choose from.
@MainActor
@Suite("View that fits")
struct ViewThatFitsTests {
    @Test func everyCandidateIsRenderedForThePage() throws {
        let scene = window {
            ViewThatFits(in: .horizontal) {
                Text("A long description")
                Text("Short")
            }
        }
        let fits = try #require(scene.tree.first { $0.attr("data-fits") != nil })
        #expect(fits.attr("data-fits") == "h")
        #expect(fits.children.map(\.textContent) == ["A long description", "Short"])
        #expect(fits.children.allSatisfy { $0.attr("class") == "sw-fit-option" })
        let both = window { ViewThatFits { Text("One") } }
        #expect(both.tree.first { $0.attr("data-fits") != nil }?.attr("data-fits") == "hv")
    }
}
