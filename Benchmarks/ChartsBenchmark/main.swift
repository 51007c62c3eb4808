// Charts benchmark, server side (no browser): a 10,000-point chart rendered into a window's HTML, and the patch a
// one-point change sends. The baseline for rendering is the floor for the same markup: the same marks, at the
// same coordinates, with the same accessible names and tooltips, appended to one string by hand-written code
// (no views, no scales chosen, no diffing). The baseline for the update is re-sending the chart's SVG whole
// (what a page without diffing sends). One warm-up run per side, then the sides alternate (BenchmarkKit).
//
//   scripts/bench charts            # or: swift run -c release ChartsBenchmark [--quick] [--runs N]
import BenchmarkKit
import Charts
import Foundation
import SwiftUIWeb

let bench = Bench(module: "charts", title: "Charts benchmark")
let count = bench.quick ? 1_000 : 10_000

/// The app-owned series the chart windows draw.
final class Series: ObservableObject {
    @Published var values: [Double] = []
    @Published var lineValues: [Double] = []
}

struct ScatterWindow: View {
    @EnvironmentObject var series: Series
    var body: some View {
        Chart(Array(series.values.enumerated()), id: \.offset) { point in
            PointMark(x: .value("Index", point.offset), y: .value("Value", point.element))
        }
        .chartXScale(domain: 0...count)
        .chartYScale(domain: 0...100)
    }
}

struct LineWindow: View {
    @EnvironmentObject var series: Series
    var body: some View {
        Chart(Array(series.lineValues.enumerated()), id: \.offset) { point in
            LineMark(x: .value("Index", point.offset), y: .value("Value", point.element))
        }
        .chartXScale(domain: 0...count)
        .chartYScale(domain: 0...100)
    }
}

struct ChartsBenchApp: App {
    @StateObject private var series = Series()
    var body: some Scene {
        WindowGroup(id: "scatter") { ScatterWindow().environmentObject(series) }
        WindowGroup(id: "line") { LineWindow().environmentObject(series) }
    }
}

/// A value per index, different each round (so every render has new data).
func values(round: Int) -> [Double] {
    (0..<count).map { 50 + 40 * sin(Double($0 + round) / 97) }
}

let host = AppHost(app: ChartsBenchApp(), storageDirectory: try bench.temporaryDirectory("charts-bench").path)
let series = host.appObject(Series.self)!

/// The chart's plot box as the chart lays it out (0…count on x, 0…100 on y, y labels on the trailing side).
/// The hand-written side uses the same box, so both draw the same marks at the same places.
struct PlotBox {
    var left = 4.0
    var top = 8.0
    var right: Double
    var bottom = 278.0
    func x(_ i: Int) -> Double { left + (right - left) * Double(i) / Double(count) }
    func y(_ v: Double) -> Double { bottom + (top - bottom) * v / 100 }
}

func num(_ v: Double) -> String {
    let r = (v * 100).rounded() / 100
    return r == r.rounded() ? String(Int(r)) : String(r)
}

/// Hand-written SVG of the scatter: one path per point with its accessible name and tooltip.
func handWrittenScatter(_ values: [Double], box: PlotBox) -> String {
    var out = "<svg viewBox=\"0 0 600 300\" role=\"graphics-document\">"
    out.reserveCapacity(values.count * 260)
    let circle = BasicChartSymbolShape.circle._svgPath
    for (i, v) in values.enumerated() {
        let label = "Index: \(i), Value: \(num(v))"
        out +=
            "<path id=\"p\(i)\" d=\"\(circle)\" transform=\"translate(\(num(box.x(i))) \(num(box.y(v)))) scale(3.54)\""
        out += " style=\"fill:var(--sw-accent)\" role=\"graphics-symbol\" aria-roledescription=\"point\""
        out += " aria-label=\"\(label)\"><title id=\"p\(i).t\">\(label)</title></path>"
    }
    return out + "</svg>"
}

/// Hand-written SVG of the line, in the same pieces of 48 segments ours draws (so a change can be one piece's
/// patch): one group named for assistive technologies, a path per piece.
func handWrittenLine(_ values: [Double], box: PlotBox) -> String {
    var out = "<svg viewBox=\"0 0 600 300\" role=\"graphics-document\"><g role=\"graphics-symbol\""
    out += " aria-roledescription=\"line\" aria-label=\"line of \(values.count) points\">"
    out.reserveCapacity(values.count * 16)
    var start = 0
    while start < values.count - 1 {
        let end = min(start + 48, values.count - 1)
        out += "<path id=\"c\(start / 48)\" d=\"M" + num(box.x(start)) + "," + num(box.y(values[start]))
        for i in (start + 1)...end { out += "L" + num(box.x(i)) + "," + num(box.y(values[i])) }
        out += "\" style=\"fill:none;stroke:var(--sw-accent);stroke-width:2;stroke-linecap:round\"></path>"
        start = end
    }
    return out + "</g></svg>"
}

/// How many marks of a role the HTML names (a byte scan: the check runs outside the timed part, but a slow one would
/// make a profile of the benchmark mostly about itself).
func marks(_ html: String, _ role: String) -> Int {
    let needle = Array("aria-roledescription=\"\(role)\"".utf8)
    var html = html
    return html.withUTF8 { bytes in
        var found = 0
        var i = 0
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) {
                found += 1
                i += needle.count
            } else {
                i += 1
            }
        }
        return found
    }
}

/// The `<svg …>…</svg>` of a window's HTML.
func svg(in html: String) -> String {
    guard let start = html.range(of: "<svg "), let end = html.range(of: "</svg>", options: .backwards) else {
        return html
    }
    return String(html[start.lowerBound..<end.upperBound])
}

// The plot's right edge: read from the chart's own first render (the trailing y labels' width decides it).
series.values = values(round: 0)
series.lineValues = values(round: 0)
let probe = host.newScene(group: "scatter")
let probeHTML = probe.document()
host.remove(probe)
let rightEdge: Double = {
    // The x baseline runs from the plot's left to its right edge.
    guard let r = probeHTML.range(of: "id=\"v.bx\""), let x2 = probeHTML[r.upperBound...].range(of: "x2=\"") else {
        return 562
    }
    return Double(probeHTML[x2.upperBound...].prefix { $0 != "\"" }) ?? 562
}()
let box = PlotBox(right: rightEdge)

// MARK: 1. A 10,000-point scatter chart rendered into a window's HTML

do {
    var round = 0
    let scene = host.newScene(group: "scatter")
    _ = scene.document()
    try await bench.compare(
        "\(count)-point scatter chart rendered (server)", unit: .time, target: "< 50 ms (issue 18)",
        note:
            "ours: new data, then the window's whole page as the server sends it (UTF-8 bytes: views, scales, axes, ARIA names, tooltips); the hand-written side builds the same point elements in one string",
        ours: Contender("SwiftUIWeb + Charts") {
            round += 1
            series.values = values(round: round)
            let (page, timing) = timed { scene.documentUTF8() }
            return .time(timing, check: "\(marks(String(decoding: page, as: UTF8.self), "point")) points")
        },
        baselines: [
            Contender("hand-written SVG string") {
                round += 1
                let data = values(round: round)
                let (html, timing) = timed { handWrittenScatter(data, box: box) }
                return .time(timing, check: "\(marks(html, "point")) points")
            }
        ])
    host.remove(scene)
}

// MARK: 2. A 10,000-point line chart rendered

do {
    var round = 0
    let scene = host.newScene(group: "line")
    _ = scene.document()
    try await bench.compare(
        "\(count)-point line chart rendered (server)", unit: .time, target: "< 50 ms (issue 18)",
        note:
            "both sides draw the line in pieces of 48 segments (so a change re-sends one piece); ours renders the whole window",
        ours: Contender("SwiftUIWeb + Charts") {
            round += 1
            series.lineValues = values(round: round)
            let (page, timing) = timed { scene.documentUTF8() }
            return .time(timing, check: "\(marks(String(decoding: page, as: UTF8.self), "line")) line")
        },
        baselines: [
            Contender("hand-written SVG string") {
                round += 1
                let data = values(round: round)
                let (html, timing) = timed { handWrittenLine(data, box: box) }
                return .time(timing, check: "\(marks(html, "line")) line")
            }
        ])
    host.remove(scene)
}

// MARK: 3–4. One point of the 10,000-point line changed: bytes sent and server time

do {
    series.lineValues = values(round: 0)
    let scene = host.newScene(group: "line")
    _ = scene.document()
    var round = 0
    func change() {
        round += 1
        series.lineValues[(round * 7_919) % count] = Double(round % 100)
    }
    try await bench.compare(
        "one point of a \(count)-point line changed: bytes sent", unit: .bytes, target: "< 1 KiB patch (issue 18)",
        note: "the baseline re-sends the chart's SVG whole (what a page without diffing would get)",
        ours: Contender("SwiftUIWeb patch") {
            change()
            let patches = scene.flush()
            return Measured(values: [Double(("[" + patches.map(\.json).joined(separator: ",") + "]").utf8.count)])
        },
        baselines: [
            Contender("whole chart SVG") {
                change()
                _ = scene.flush()
                return Measured(values: [Double(svg(in: scene.document()).utf8.count)])
            }
        ])
    try await bench.compare(
        "one point of a \(count)-point line changed: server time", unit: .time,
        note:
            "ours renders the window and diffs it (the patch above); the baseline writes the whole line again by hand",
        ours: Contender("SwiftUIWeb render + diff") {
            change()
            let (_, timing) = timed { scene.flush() }
            return .time(timing)
        },
        baselines: [
            Contender("hand-written SVG string") {
                change()
                let data = series.lineValues
                let (_, timing) = timed { handWrittenLine(data, box: box) }
                return .time(timing)
            }
        ])
    host.remove(scene)
}

try bench.finish()
