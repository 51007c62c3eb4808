import Foundation
import Testing

@testable import Charts
@testable import SwiftUIWeb

private struct Sale: Identifiable {
    var id: String { day + "/" + product }
    let day: String
    let product: String
    let count: Int
}

private let sales = [
    Sale(day: "Mon", product: "A", count: 3), Sale(day: "Mon", product: "B", count: 2),
    Sale(day: "Tue", product: "A", count: 6), Sale(day: "Tue", product: "B", count: 1),
]

/// Swift Charts' API drawn as SVG: geometry, scales, axes, legends, accessibility and patches.
@MainActor
@Suite("Charts")
struct ChartTests {
    func marks(_ scene: SceneInstance, _ role: String) -> [Node] {
        scene.tree.all { $0.attr("aria-roledescription") == role }
    }

    func number(_ node: Node, _ name: String) -> Double { Double(node.attr(name) ?? "") ?? .nan }

    @Test func barsOfCategoriesAreProportionalAndReadAloud() {
        let scene = window {
            Chart(sales.filter { $0.product == "A" }) { sale in
                BarMark(x: .value("Day", sale.day), y: .value("Sales", sale.count))
            }
        }
        let svg = scene.tree.first { $0.tag == "svg" && $0.attr("role") == "graphics-document" }
        #expect(svg != nil)
        let bars = marks(scene, "bar")
        #expect(bars.count == 2)
        #expect(bars.map { $0.attr("aria-label") } == ["Day: Mon, Sales: 3", "Day: Tue, Sales: 6"])
        #expect(bars.allSatisfy { $0.attr("role") == "graphics-symbol" && $0.tag == "rect" })
        // Heights are proportional to the values, and both bars stand on the same baseline.
        let (mon, tue) = (bars[0], bars[1])
        #expect(abs(number(tue, "height") / number(mon, "height") - 2) < 0.02)
        #expect(abs((number(mon, "y") + number(mon, "height")) - (number(tue, "y") + number(tue, "height"))) < 0.01)
        #expect(number(mon, "x") < number(tue, "x"))
        // Category labels under the bars; the numeric axis starts at zero.
        let labels = scene.tree.all { $0.tag == "text" }.compactMap(\.text)
        #expect(labels.contains("Mon") && labels.contains("Tue") && labels.contains("0"))
        // The tooltip is the same text.
        #expect(mon.children.first { $0.tag == "title" }?.text == "Day: Mon, Sales: 3")
    }

    @Test func seriesStackWithALegendAndTheirOwnColors() {
        let scene = window {
            Chart(sales) { sale in
                BarMark(x: .value("Day", sale.day), y: .value("Sales", sale.count))
                    .foregroundStyle(by: .value("Product", sale.product))
            }
        }
        let bars = marks(scene, "bar")
        #expect(bars.count == 4)
        // B sits on A on each day.
        #expect(abs(number(bars[1], "y") + number(bars[1], "height") - number(bars[0], "y")) < 0.01)
        #expect(abs(number(bars[3], "y") + number(bars[3], "height") - number(bars[2], "y")) < 0.01)
        // Distinct colors from the palette, named in a legend.
        let fills = bars.map { $0.attr("style") ?? "" }
        #expect(fills[0] == fills[2] && fills[1] == fills[3] && fills[0] != fills[1])
        #expect(fills[0].contains(Color.blue.cssColor) && fills[1].contains(Color.green.cssColor))
        let legend = scene.tree.first { $0.attr("class") == "sw-chart-legend" }
        #expect(legend?.attr("role") == "list")
        #expect(legend?.all { $0.attr("role") == "listitem" }.map(\.textContent) == ["A", "B"])
        #expect(bars[0].attr("aria-label") == "Day: Mon, Sales: 3, Product: A")
    }

    @Test func aStyleScaleChoosesColorsAndTheLegendCanGo() {
        let scene = window {
            Chart(sales) { sale in
                BarMark(x: .value("Day", sale.day), y: .value("Sales", sale.count))
                    .foregroundStyle(by: .value("Product", sale.product))
            }
            .chartForegroundStyleScale(["B": Color.red, "A": Color.orange])
            .chartLegend(.hidden)
        }
        let bars = marks(scene, "bar")
        #expect(bars[0].attr("style")?.contains(Color.orange.cssColor) == true)
        #expect(bars[1].attr("style")?.contains(Color.red.cssColor) == true)
        #expect(scene.tree.first { $0.attr("class") == "sw-chart-legend" } == nil)
    }

    @Test func positionByPlacesBarsSideBySide() {
        let scene = window {
            Chart(sales) { sale in
                BarMark(x: .value("Day", sale.day), y: .value("Sales", sale.count))
                    .foregroundStyle(by: .value("Product", sale.product))
                    .position(by: .value("Product", sale.product))
            }
        }
        let bars = marks(scene, "bar")
        let (a, b) = (bars[0], bars[1])
        // Same baseline, no overlap, A left of B.
        #expect(abs(number(a, "y") + number(a, "height") - number(b, "y") - number(b, "height")) < 0.01)
        #expect(number(a, "x") + number(a, "width") <= number(b, "x") + 0.01)
        #expect(abs(number(a, "height") / number(b, "height") - 1.5) < 0.02)
    }

    @Test func horizontalBarsWhenTheCategoryIsOnY() {
        let scene = window {
            Chart(sales.filter { $0.day == "Mon" }) { sale in
                BarMark(x: .value("Sales", sale.count), y: .value("Product", sale.product))
            }
        }
        let bars = marks(scene, "bar")
        #expect(bars.count == 2)
        #expect(abs(number(bars[0], "width") / number(bars[1], "width") - 1.5) < 0.02)
        #expect(number(bars[0], "y") < number(bars[1], "y"))  // The first category on top.
        #expect(abs(number(bars[0], "x") - number(bars[1], "x")) < 0.01)
    }

    @Test func linesBySeriesOverDatesWithDateLabels() {
        let start = Date(timeIntervalSinceReferenceDate: 815_000_000)  // 2026-10-30
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        struct Point: Identifiable {
            let id: Int
            let date: Date
            let value: Double
            let series: String
        }
        var points: [Point] = []
        for day in 0..<6 {
            let date = start.addingTimeInterval(Double(day) * 86_400)
            points.append(Point(id: day * 2, date: date, value: Double(day), series: "X"))
            points.append(Point(id: day * 2 + 1, date: date, value: Double(day * 2), series: "Y"))
        }
        let scene = window {
            Chart(points) { p in
                LineMark(x: .value("Date", p.date), y: .value("Value", p.value))
                    .foregroundStyle(by: .value("Series", p.series))
                    .symbol(by: .value("Series", p.series))
            }
            .environment(\.calendar, calendar)
            .environment(\.timeZone, TimeZone(identifier: "UTC")!)
        }
        let lines = marks(scene, "line")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { ($0.attr("d") ?? "").hasPrefix("M") && ($0.attr("d") ?? "").contains("L") })
        #expect(lines[0].attr("aria-label")?.hasPrefix("X: line of 6 points") == true)
        // Symbols by series: circles for X, squares for Y.
        let points1 = marks(scene, "point")
        #expect(points1.count == 12)
        #expect(points1[0].attr("d") == BasicChartSymbolShape.circle._svgPath)
        #expect(points1[6].attr("d") == BasicChartSymbolShape.square._svgPath)
        let labels = scene.tree.all { $0.tag == "text" }.compactMap(\.text)
        #expect(labels.contains { $0.hasPrefix("Oct ") || $0.hasPrefix("Nov ") }, "date labels: \(labels)")
    }

    @Test func interpolationAndLineStyleReachTheSVG() {
        let scene = window {
            Chart(Array(0..<5), id: \.self) { n in
                LineMark(x: .value("X", n), y: .value("Y", Double(n * n)))
                    .interpolationMethod(.monotone)
                    .lineStyle(StrokeStyle(lineWidth: 3, dash: [4, 2]))
            }
        }
        let line = marks(scene, "line")[0]
        #expect(line.attr("d")?.contains("C") == true)
        #expect(line.attr("style")?.contains("stroke-width:3") == true)
        #expect(line.attr("style")?.contains("stroke-dasharray:4 2") == true)
    }

    @Test func areasStackAndRulesCrossThePlot() {
        let scene = window {
            Chart(sales) { sale in
                AreaMark(x: .value("Day", sale.day), y: .value("Sales", sale.count))
                    .foregroundStyle(by: .value("Product", sale.product))
                RuleMark(y: .value("Goal", 5))
            }
        }
        let areas = marks(scene, "area")
        #expect(areas.count == 2)
        #expect(areas.allSatisfy { ($0.attr("d") ?? "").hasSuffix("Z") })
        let rules = marks(scene, "rule")
        #expect(rules.count == 4)  // One per element of the data.
        let rule = rules[0]
        #expect(rule.attr("y1") == rule.attr("y2"))
        #expect(number(rule, "x2") - number(rule, "x1") > 400)
    }

    @Test func explicitDomainsAndAxisValues() {
        let scene = window {
            Chart(sales) { sale in
                PointMark(x: .value("Day", sale.day), y: .value("Sales", sale.count))
            }
            .chartYScale(domain: 0...100)
            .chartYAxis { AxisMarks(values: [0, 50, 100]) }
            .chartXAxisLabel("Weekday")
        }
        let labels = scene.tree.all { $0.tag == "text" }.compactMap(\.text)
        #expect(labels.contains("100") && labels.contains("50") && !labels.contains("20"))
        #expect(labels.contains("Weekday"))
        let points = marks(scene, "point")
        #expect(points.count == 4)
    }

    @Test func axisContentChoosesItsPieces() {
        let scene = window {
            Chart(sales) { sale in
                BarMark(x: .value("Day", sale.day), y: .value("Sales", sale.count))
            }
            .chartYAxis {
                AxisMarks(values: .stride(by: 2)) { value in
                    AxisGridLine(stroke: StrokeStyle(lineWidth: 1, dash: [2]))
                    AxisValueLabel("\(value.as(Int.self) ?? -1) items")
                }
            }
            .chartXAxis(.hidden)
        }
        let labels = scene.tree.all { $0.tag == "text" }.compactMap(\.text)
        #expect(labels.contains("0 items") && labels.contains("8 items"))
        #expect(!labels.contains("Mon"))
        let grid = scene.tree.all { $0.id.contains(".gy") }
        #expect(!grid.isEmpty && grid.allSatisfy { $0.attr("style")?.contains("stroke-dasharray:2") == true })
    }

    @Test func sectorsMakeADonutStartingAtTwelve() {
        let scene = window {
            Chart(["A", "B"], id: \.self) { name in
                SectorMark(angle: .value("Count", name == "A" ? 1 : 3), innerRadius: .ratio(0.5))
                    .foregroundStyle(by: .value("Name", name))
            }
        }
        let sectors = marks(scene, "sector")
        #expect(sectors.count == 2)
        // The first slice starts at 12 o'clock: the top of the circle (x at the centre).
        let d = sectors[0].attr("d") ?? ""
        #expect(d.hasPrefix("M300,"), "\(d)")
        #expect(d.contains("L"))  // Back along the inner radius: a donut, not a pie.
        #expect(scene.tree.first { $0.attr("class") == "sw-chart-legend" } != nil)
        #expect(scene.tree.first { $0.id.contains(".gy") } == nil)  // No axes on a pie.
    }

    @Test func accessibilityModifiersOverrideTheValues() {
        let scene = window {
            Chart(sales.prefix(2)) { sale in
                BarMark(x: .value("Day", sale.day), y: .value("Sales", sale.count))
                    .accessibilityLabel("Sales on \(sale.day)")
                    .accessibilityValue("\(sale.count) sold")
                    .foregroundStyle(by: .value("Product", sale.product))
            }
        }
        #expect(marks(scene, "bar").map { $0.attr("aria-label") } == ["Sales on Mon, 3 sold", "Sales on Mon, 2 sold"])
        let hidden = window {
            Chart(sales) { sale in
                PointMark(x: .value("Day", sale.day), y: .value("Sales", sale.count)).accessibilityHidden(true)
            }
        }
        #expect(marks(hidden, "point").isEmpty)
        #expect(hidden.tree.all { $0.attr("aria-hidden") == "true" && $0.tag == "path" }.count == 4)
    }

    @Test func aMixedAxisIsSaidNotDrawnBlank() {
        let scene = window {
            Chart {
                PointMark(x: .value("X", 1), y: .value("Y", 2))
                PointMark(x: .value("X", "one"), y: .value("Y", 3))
            }
        }
        let alert = scene.tree.first { $0.attr("role") == "alert" }
        #expect(alert?.text?.contains("x axis mixes") == true, "\(scene.html)")
    }

    @Test func labelsAreEscaped() {
        let scene = window {
            Chart {
                BarMark(x: .value("Name", "<script>alert(1)</script>"), y: .value("N", 1))
            }
        }
        #expect(!scene.html.contains("<script>alert"))
        #expect(scene.html.contains("&lt;script&gt;"))
    }

    @Test func customChartContentComposes() {
        struct Goal: ChartContent {
            let value: Int
            var body: some ChartContent {
                RuleMark(y: .value("Goal", value)).foregroundStyle(.red)
            }
        }
        let scene = window {
            Chart {
                BarMark(x: .value("Day", "Mon"), y: .value("N", 2))
                if sales.count > 1 { Goal(value: 4) }
                ForEach(sales) { sale in PointMark(x: .value("Day", sale.day), y: .value("N", sale.count)) }
            }
        }
        #expect(marks(scene, "bar").count == 1)
        #expect(marks(scene, "rule").first?.attr("style")?.contains(Color.red.cssColor) == true)
        #expect(marks(scene, "point").count == 4)
    }

    @Test func aMarkUsedTwiceKeepsEachUsesModifiersToItself() {
        // One mark value drawn twice: a modifier on one use changes that use only, in this render and the next.
        let point = PointMark(x: .value("X", 1), y: .value("Y", 2))
        let scene = window {
            Chart {
                point.foregroundStyle(Color.red).accessibilityLabel("Red one")
                point
            }
        }
        for _ in 0..<2 {
            let points = marks(scene, "point")
            #expect(points.count == 2)
            #expect(points.map { $0.attr("aria-label") } == ["Red one", "X: 1, Y: 2"])
            #expect(points[0].attr("style") != points[1].attr("style"))
            #expect(points[1].attr("style") == "fill:var(--sw-accent)")
            #expect(Set(points.map(\.id)).count == 2)
            scene.invalidate()
            _ = scene.flush()
        }
    }

    @Test func aNewPointIsAPatchNotAReload() {
        final class Model: ObservableObject {
            @Published var values: [Int] = [1, 2, 3]
        }
        struct Live: View {
            @StateObject var model = Model()
            var body: some View {
                VStack {
                    Button("Add") { model.values.append(2) }
                    Button("Change") { model.values[0] = 3 }
                    Chart(Array(model.values.enumerated()), id: \.offset) { item in
                        PointMark(x: .value("N", item.offset), y: .value("V", item.element))
                    }
                    .chartXScale(domain: 0...10)
                    .chartYScale(domain: 0...10)
                }
            }
        }
        let scene = window { Live() }
        let changed = scene.click("Change")
        // Only the changed point moves: its attributes and tooltip change, nothing is replaced.
        #expect(!changed.isEmpty)
        let inPlace = changed.allSatisfy {
            switch $0 {
            case .attribute(let id, _, _), .text(let id, _): return id.contains(".m[0]")
            default: return false
            }
        }
        #expect(inPlace, "\(changed.map(\.json))")
        #expect(changed.map(\.json).joined().utf8.count < 1_024)
        let added = scene.click("Add")
        let inserts = added.filter { if case .insert = $0 { return true } else { return false } }
        #expect(inserts.count == 1, "\(added)")
        #expect(!added.contains { if case .replace = $0 { return true } else { return false } })
    }

    @Test func aLongLineIsDrawnInPiecesSoAChangeIsSmall() {
        final class Model: ObservableObject {
            @Published var values: [Double] = (0..<1_000).map { 50 + 40 * sin(Double($0) / 50) }
        }
        struct Live: View {
            @StateObject var model = Model()
            var body: some View {
                VStack {
                    Button("Change") { model.values[999] = 10 }
                    Chart(Array(model.values.enumerated()), id: \.offset) { item in
                        LineMark(x: .value("N", item.offset), y: .value("V", item.element))
                            .interpolationMethod(.catmullRom)
                    }
                    .chartYScale(domain: 0...100)
                }
            }
        }
        let scene = window { Live() }
        let line = marks(scene, "line")
        #expect(line.count == 1 && line[0].tag == "g")
        let pieces = line[0].children.filter { $0.tag == "path" }
        #expect(pieces.count == 63)  // 999 segments, 16 a piece for a curve.
        // The pieces join: each starts where the one before it ends.
        for (a, b) in zip(pieces, pieces.dropFirst()) {
            let end = a.attr("d")!.split(separator: " ").last!.split(separator: "L").last!
            #expect(
                b.attr("d")!.hasPrefix("M" + end), "\(a.id) ends at \(end), \(b.id) starts \(b.attr("d")!.prefix(20))")
        }
        let patches = scene.click("Change")
        let bytes = patches.map(\.json).joined().utf8.count
        #expect(bytes < 1_024, "\(bytes) bytes: \(patches.map(\.json))")
        #expect(
            patches.allSatisfy {
                if case .attribute(let id, "d", _) = $0 { return id.hasSuffix(".c62") } else { return false }
            })
    }

    @Test func datesBinnedByDayMakeDayWideBars() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let friday = Date(timeIntervalSinceReferenceDate: 815_011_200)  // 2026-10-30 00:00 UTC
        let scene = window {
            Chart(Array(0..<3), id: \.self) { day in
                BarMark(
                    x: .value(
                        "Day", friday.addingTimeInterval(Double(day) * 86_400 + 3_600 * 9), unit: .day,
                        calendar: calendar),
                    y: .value("Doses", day + 1))
            }
            .environment(\.calendar, calendar)
            .environment(\.timeZone, TimeZone(identifier: "UTC")!)
        }
        let bars = marks(scene, "bar")
        #expect(bars.count == 3)
        // Each bar spans most of its day, and the days follow each other with equal steps.
        let widths = bars.map { number($0, "width") }
        #expect(widths.allSatisfy { abs($0 - widths[0]) < 0.01 } && widths[0] > 100)
        let step = number(bars[1], "x") - number(bars[0], "x")
        #expect(abs((number(bars[2], "x") - number(bars[1], "x")) - step) < 0.01)
        #expect(bars[0].attr("aria-label")?.hasPrefix("Day: Oct 30") == true, "\(bars[0].attr("aria-label") ?? "")")
    }

    /// The renderer looks calendars up by their bits (``CalendarIdentity``) before `Calendar.==`: a calendar equal
    /// to another but made on its own bins as that one does, and one in another zone is never taken for it.
    @Test func eachMarkIsBinnedInItsOwnCalendar() {
        let utcZone = TimeZone(identifier: "UTC")!
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = utcZone
        var separate = Calendar(identifier: .gregorian)
        separate.timeZone = utcZone
        var tokyo = utc
        tokyo.timeZone = TimeZone(identifier: "Asia/Tokyo")!
        #expect(separate == utc && !CalendarIdentity.same(separate, utc), "the test needs an equal, separate calendar")
        #expect(CalendarIdentity.same(utc, { $0 }(utc)) && !CalendarIdentity.same(utc, tokyo))
        // 2026-10-30 20:00 UTC: Oct 30 in UTC, Oct 31 in Tokyo.
        let moment = Date(timeIntervalSinceReferenceDate: 815_011_200 + 20 * 3_600)
        let scene = window {
            Chart {
                BarMark(x: .value("Day", moment, unit: .day, calendar: utc), y: .value("Doses", 1))
                BarMark(x: .value("Day", moment, unit: .day, calendar: separate), y: .value("Doses", 2))
                BarMark(x: .value("Day", moment, unit: .day, calendar: tokyo), y: .value("Doses", 4))
            }
            .environment(\.calendar, utc)
            .environment(\.timeZone, utcZone)
        }
        let bars = marks(scene, "bar")
        #expect(bars.count == 3)
        #expect(
            bars.compactMap { $0.attr("aria-label") } == [
                "Day: Oct 30, Doses: 1", "Day: Oct 30, Doses: 2", "Day: Oct 31, Doses: 4",
            ])
        // The two UTC bars share a day and stack. Tokyo's day is another: it starts 9 hours before UTC's ends, so its
        // bar's centre is 15 hours after theirs (a bar is 0.8 of its day).
        #expect(number(bars[0], "x") == number(bars[1], "x"))
        #expect(abs(number(bars[1], "y") + number(bars[1], "height") - number(bars[0], "y")) < 0.01)
        let day = number(bars[0], "width") / 0.8
        let centre = { (bar: Node) in self.number(bar, "x") + self.number(bar, "width") / 2 }
        #expect(abs(centre(bars[2]) - centre(bars[0]) - day * 15 / 24) < 0.05, "\(bars.map(\.attributes))")
    }

    @Test func negativeValuesStackBelowZeroAndNaNIsNotDrawn() {
        let scene = window {
            Chart {
                BarMark(x: .value("Day", "Mon"), y: .value("Change", -2))
                BarMark(x: .value("Day", "Mon"), y: .value("Change", 3))
                BarMark(x: .value("Day", "Tue"), y: .value("Change", Double.nan))
            }
        }
        let bars = marks(scene, "bar")
        #expect(bars.count == 2)
        #expect(!scene.html.contains("nan"))
        // The negative bar hangs from where the positive one starts (zero).
        let (down, up) = (bars[0], bars[1])
        #expect(abs(number(down, "y") - (number(up, "y") + number(up, "height"))) < 0.01)
        #expect(abs(number(down, "height") / number(up, "height") - 2.0 / 3.0) < 0.02)
        #expect(scene.tree.all { $0.tag == "text" }.compactMap(\.text).contains("-2"))
    }

    @Test func anEmptyChartDrawsItsAxesAndNoMarks() {
        let scene = window { Chart {} }
        #expect(scene.tree.first { $0.tag == "svg" } != nil)
        #expect(scene.tree.all { $0.attr("role") == "graphics-symbol" }.isEmpty)
        #expect(scene.tree.first { $0.attr("role") == "alert" } == nil)
    }

    @Test func formatStylesWriteAxisLabels() {
        let scene = window {
            Chart(Array(0..<5), id: \.self) { n in
                PointMark(x: .value("N", n), y: .value("Share", Double(n) / 4))
            }
            .chartYAxis {
                AxisMarks(values: [0.0, 0.5, 1.0]) { _ in
                    AxisValueLabel(format: FloatingPointFormatStyle<Double>.Percent())
                }
            }
        }
        let labels = scene.tree.all { $0.tag == "text" }.compactMap(\.text)
        #expect(labels.contains("50%") && labels.contains("100%"), "\(labels)")
    }
}

/// The hand-written number and escaping fast paths write what the plain forms wrote.
@Suite("Chart text fast paths")
struct ChartTextFastPathTests {
    @Test func coordinatesAreWrittenAsStringWroteThem() {
        func old(_ v: Double) -> String {
            let r = (v * 100).rounded() / 100
            if r == r.rounded() { return String(Int(r)) }
            return String(r)
        }
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [
            0, -0.0, 0.004, -0.004, 0.005, 0.05, -0.05, 0.1, 1.1, 12.5, 12.05, -12.34, 599.99, 1e6 + 0.25,
        ]
        for _ in 0..<20_000 { values.append(Double.random(in: -10_000...10_000, using: &generator)) }
        for value in values {
            #expect(CurvePath.num(value) == old(value), "\(value)")
        }
    }

    @Test func escapingKeepsTextAndReplacesTheFiveCharacters() {
        #expect(HTML.escape("plain") == "plain")
        #expect(HTML.escape("") == "")
        #expect(
            HTML.escape(#"<a href="x">Tom & Jerry's</a>"#)
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;")
        #expect(HTML.escape("é<ü>🙂&") == "é&lt;ü&gt;🙂&amp;")
        var out = Array("start:".utf8)
        HTML.escape("a<b", into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "start:a&lt;b")
    }
}
