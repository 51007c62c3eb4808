import Foundation
import SwiftUIWebDriver
import Testing

extension InBrowser {
    /// The LiveCharts example in headless Chromium: charts draw as SVG with readable marks, and a reading added
    /// every second arrives as patches that insert SVG elements (not HTML ones) into the chart.
    @Suite(.serialized, .enabled(if: BrowserEnvironment.shouldRun), .timeLimit(.minutes(2)))
    struct ChartBrowserTests {
        @Test func liveChartsDrawAndGrow() async throws {
            let server = try ExampleServer("LiveCharts")
            try await server.start()
            defer { server.stop() }
            let driver = try await ChromeDriver()
            defer { driver.stop() }
            let browser = try await driver.session()
            try await browser.open(server.signInURL)
            try await waitUntil("the socket") { try await browser.connected() }

            let count = { @Sendable (selector: String) async throws -> Int in
                try await browser.run("return document.querySelectorAll(arguments[0]).length", [selector]) as? Int ?? -1
            }
            #expect(try await count("svg[role=graphics-document]") == 4)
            #expect(try await count("rect[aria-roledescription=bar]") == 20)
            #expect(try await count("path[aria-roledescription=sector]") == 2)
            #expect(try await count("path[aria-roledescription=line]") == 1)
            #expect(try await count(".sw-chart-legend [role=listitem]") == 6)
            let firstBar =
                try await browser.run(
                    "return document.querySelector('rect[aria-roledescription=bar]').getAttribute('aria-label')")
                as? String
            #expect(firstBar == "Day: Mon, Doses: 2, Medication: Ibuprofen")
            // Marks are laid out (the SVG has a size), not just present.
            let width =
                try await browser.run(
                    "return document.querySelector('rect[aria-roledescription=bar]').getBoundingClientRect().width")
                as? Double ?? 0
            #expect(width > 5)

            // Readings arrive every second: new points are inserted as SVG elements and the line is redrawn.
            let points = try await count("path[aria-roledescription=point]")
            #expect(points >= 10)
            try await waitUntil("two more readings", timeout: 10) {
                try await count("path[aria-roledescription=point]") >= points + 2
            }
            let foreign =
                try await browser.run(
                    """
                    return Array.from(document.querySelectorAll('[aria-roledescription=point]'))
                      .filter(function(e){return e.namespaceURI!=='http://www.w3.org/2000/svg'||!(e.getBBox().width>0);}).length
                    """) as? Int
            #expect(foreign == 0)
            let label =
                try await browser.run(
                    "return document.querySelector('path[aria-roledescription=line]').getAttribute('aria-label')")
                as? String ?? ""
            // The line has every point so far: at least the two awaited (more may have come in since, on a busy machine).
            let drawn = label.components(separatedBy: "line of ").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
            #expect(drawn >= points + 2, "\(label)")
            // Hovering the title shows the latest reading (the page sends hover events), leaving hides it again.
            let hoverScript = """
                var h=document.querySelector('[data-hover]');
                h.dispatchEvent(new MouseEvent(arguments[0],{bubbles:true,relatedTarget:document.body}));
                return h.getAttribute('title');
                """
            let title = try await browser.run(hoverScript, ["mouseover"]) as? String
            #expect(title == "The latest reading shows while the pointer is here")
            try await waitUntil("the title to show the reading") {
                try await browser.text("[data-hover]").hasSuffix("BPM")
            }
            _ = try await browser.run(hoverScript, ["mouseout"])
            try await waitUntil("the title back") { try await browser.text("[data-hover]") == "Heart rate" }
            let shot = try await browser.screenshot()
            try shot.write(to: artifactsDirectory.appendingPathComponent("livecharts.png"))
            await browser.quit()
        }
    }
}
