import Foundation
import SwiftUIWeb

/// Lays a chart's marks out on scales and draws them as SVG nodes (with an HTML legend beside them).
@MainActor
struct ChartRenderer {
    /// The SVG's coordinate box; the SVG scales to its container's width, keeping this aspect.
    static let width = 600.0
    static let height = 300.0
    /// Segments per piece of a long line (see `series`): a piece's path data stays under about 700 bytes.
    static func lineChunk(_ method: InterpolationMethod.Kind) -> Int {
        switch method {
        case .linear: return 48
        case .stepStart, .stepEnd: return 24
        case .stepCenter: return 16
        case .catmullRom, .cardinal, .monotone: return 16
        }
    }

    let marks: [MarkRecord]
    /// Each mark's key (its element ids derive from it), by the mark's index.
    let keys: [String]
    let config: ChartConfiguration
    let path: String
    let calendar: Calendar
    /// This render's binned dates' intervals and values' texts, each worked out once.
    let memo = ComponentMemo()

    /// A mark's place along one axis.
    enum Placement {
        /// At a value (a band's centre for categories; a unit's interval for binned dates).
        case at(PlotComponent)
        /// From one value to another.
        case span(PlotDatum, PlotDatum)
        /// Across the whole axis.
        case whole
    }

    struct Placed {
        let mark: MarkRecord
        let index: Int
        var x: Placement
        var y: Placement
        /// For bars: whether the bar's length runs along x.
        var horizontal = false
    }

    /// What went wrong laying the chart out, shown in the chart (never a blank chart without a word).
    struct LayoutError: Error {
        let message: String
    }

    // MARK: Rendering

    func render() -> [Node] {
        var children: [Node]
        do {
            if !marks.isEmpty && marks.allSatisfy({ $0.kind == .sector }) {
                children = pie()
            } else {
                children = try cartesian()
            }
        } catch let error as LayoutError {
            children = [
                svgText(
                    id: path + ".error", x: 8, y: 20, text: error.message, anchor: "start",
                    style: "font:13px system-ui,sans-serif;fill:#c00", role: "alert")
            ]
        } catch {
            children = [
                svgText(id: path + ".error", x: 8, y: 20, text: "\(error)", anchor: "start", style: "fill:#c00")
            ]
        }
        let svg = Node(
            "svg", id: path + ".svg",
            attributes: [
                ("viewBox", "0 0 \(Int(Self.width)) \(Int(Self.height))"), ("role", "graphics-document"),
                ("aria-label", summary()), ("class", "sw-chart-plot"),
                ("style", "width:100%;height:100%;min-height:0;flex:1 1 auto;display:block;overflow:visible"),
            ], children: children)
        var nodes = [svg]
        if let legend = legend() {
            switch config.legendPosition.kind {
            case .top, .leading: nodes.insert(legend, at: 0)
            default: nodes.append(legend)
            }
        }
        let direction: String
        switch config.legendPosition.kind {
        case .leading, .trailing: direction = "row"
        default: direction = "column"
        }
        let gap = config.legendSpacing.map { "\(Int($0))px" } ?? "8px"
        return [
            Node(
                "div", id: path,
                attributes: [
                    ("class", "sw-chart"),
                    ("style", "display:flex;flex-direction:\(direction);gap:\(gap);width:100%;height:100%"),
                ], children: nodes)
        ]
    }

    /// What the chart shows, for its accessible name.
    private func summary() -> String {
        let kinds = Set(marks.map(\.kind.rawValue)).sorted().joined(separator: ", ")
        let labels = [marks.first?.x?.label, marks.first?.y?.label, marks.first?.angle?.label].compactMap { $0 }
        let about = labels.isEmpty ? "" : " of " + labels.joined(separator: " and ")
        return "Chart\(about): \(marks.count) mark\(marks.count == 1 ? "" : "s") (\(kinds.isEmpty ? "none" : kinds))"
    }

    // MARK: Colors and symbols

    static let palette: [String] = [
        Color.blue, Color.green, Color.orange, Color.purple, Color.red, Color.teal, Color.yellow, Color.brown,
        Color.pink, Color.indigo,
    ].map(\.cssColor)

    /// The `foregroundStyle(by:)` values in the scale's order: those `chartForegroundStyleScale` names, then the
    /// data's (found once per render).
    let styleDomain: [String]
    /// The `symbol(by:)` values in order of appearance.
    let symbolDomain: [String]

    init(marks: MarkList, config: ChartConfiguration, path: String, calendar: Calendar) {
        self.marks = marks.records
        self.keys = marks.keys
        self.config = config
        self.path = path
        self.calendar = calendar
        var seen = Set<String>()
        var styles: [String] = []
        for (datum, _) in config.styleScale ?? [] where seen.insert(ValueText.format(datum)).inserted {
            styles.append(ValueText.format(datum))
        }
        var symbolsSeen = Set<String>()
        var symbols: [String] = []
        for mark in marks.records {
            if let by = mark.styleBy, case let text = memo.text(by), seen.insert(text).inserted { styles.append(text) }
            if let by = mark.symbolBy, case let text = memo.text(by), symbolsSeen.insert(text).inserted {
                symbols.append(text)
            }
        }
        styleDomain = styles
        symbolDomain = symbols
    }

    /// The color of a `foregroundStyle(by:)` value: the one `chartForegroundStyleScale` gives it, else the palette's
    /// at its place in ``styleDomain``. Found once per value and render (a year's chart asks for each of its bars).
    func color(ofStyleValue value: String) -> String {
        memo.styleColor(value) { value in
            if let scale = config.styleScale, let entry = scale.first(where: { ValueText.format($0.0) == value }) {
                return entry.1
            }
            let index = styleDomain.firstIndex(of: value) ?? 0
            return Self.palette[index % Self.palette.count]
        }
    }

    /// A mark's color: its style, its `foregroundStyle(by:)` value's, or the accent.
    func color(of mark: MarkRecord) -> String {
        if let style = mark.style { return style.cssColor }
        if let by = mark.styleBy { return color(ofStyleValue: memo.text(by)) }
        return Self.accent
    }

    /// The color of a mark no style names.
    static let accent = Color.accentColor.cssColor

    func symbol(of mark: MarkRecord, domain: [String]) -> BasicChartSymbolShape {
        if let symbol = mark.symbol { return symbol }
        if let by = mark.symbolBy, let index = domain.firstIndex(of: memo.text(by)) {
            return BasicChartSymbolShape.sequence[index % BasicChartSymbolShape.sequence.count]
        }
        return .circle
    }

    // MARK: Legend

    private func legend() -> Node? {
        guard config.legendVisibility != .hidden else { return nil }
        let styles = styleDomain
        let symbols = symbolDomain
        let values = styles.isEmpty ? symbols : styles
        guard !values.isEmpty else { return nil }
        var items: [Node] = []
        for (index, value) in values.enumerated() {
            let color = styles.isEmpty ? Color.accentColor.cssColor : color(ofStyleValue: value)
            let swatch: Node
            if let s = symbols.firstIndex(of: value) {
                let shape = BasicChartSymbolShape.sequence[s % BasicChartSymbolShape.sequence.count]
                swatch = Node(
                    "svg", id: "\(path).legend.\(index).s",
                    attributes: [
                        ("viewBox", "-1.3 -1.3 2.6 2.6"), ("width", "10"), ("height", "10"), ("aria-hidden", "true"),
                    ],
                    children: [
                        Node(
                            "path", id: "\(path).legend.\(index).p",
                            attributes: [("d", shape._svgPath), ("style", "fill:\(color)")])
                    ])
            } else {
                swatch = Node(
                    "span", id: "\(path).legend.\(index).s",
                    attributes: [
                        ("aria-hidden", "true"),
                        ("style", "display:inline-block;width:10px;height:10px;border-radius:50%;background:\(color)"),
                    ])
            }
            items.append(
                Node(
                    "span", id: "\(path).legend.\(index)",
                    attributes: [("role", "listitem"), ("style", "display:inline-flex;align-items:center;gap:4px")],
                    children: [swatch, Node("span", id: "\(path).legend.\(index).t", text: value)]))
        }
        let vertical = config.legendPosition.kind == .leading || config.legendPosition.kind == .trailing
        return Node(
            "div", id: path + ".legend",
            attributes: [
                ("class", "sw-chart-legend"), ("role", "list"), ("aria-label", "Legend"),
                (
                    "style",
                    "display:flex;flex-wrap:wrap;gap:4px 12px;font:12px system-ui,sans-serif;color:var(--sw-secondary,#666)"
                        + (vertical ? ";flex-direction:column" : "")
                ),
            ], children: items)
    }

    // MARK: Placement and stacking

    /// Each mark's placement on both axes, bars and areas stacked.
    func place() throws -> [Placed] {
        var placed: [Placed] = []
        for (index, mark) in marks.enumerated() {
            // A mark with a value that is no number (NaN, infinity) is not drawn, as in Swift Charts.
            if mark.hasNonFiniteNumber { continue }
            var p = Placed(mark: mark, index: index, x: .whole, y: .whole)
            if let x = mark.x { p.x = .at(x) }
            if let y = mark.y { p.y = .at(y) }
            if let s = mark.xStart, let e = mark.xEnd { p.x = .span(s.datum, e.datum) }
            if let s = mark.yStart, let e = mark.yEnd { p.y = .span(s.datum, e.datum) }
            if mark.kind == .bar, let x = mark.x, let y = mark.y {
                let yIsPosition = y.datum.kind == .category || y.unit != nil
                p.horizontal = yIsPosition && x.datum.kind == .number
                if !p.horizontal && y.datum.kind != .number {
                    throw LayoutError(
                        message: "BarMark needs a number on one axis: \(x.label) is \(x.text), \(y.label) is \(y.text)")
                }
            } else if mark.kind == .bar, mark.xStart != nil, mark.y != nil {
                p.horizontal = true
            }
            placed.append(p)
        }
        stack(&placed, kind: .bar)
        stack(&placed, kind: .area)
        return placed
    }

    /// Stacks bars (or areas) that share a position: each takes the span after the ones before it.
    private func stack(_ placed: inout [Placed], kind: MarkRecord.Kind) {
        // A position's key is its value's text and its group's (texts the memo made once; no string built per mark).
        struct StackKey: Hashable {
            let position: String
            let group: String?
        }
        var groups: [StackKey: [Int]] = [:]
        var order: [StackKey] = []
        for (i, p) in placed.enumerated() where p.mark.kind == kind {
            let length = p.horizontal ? p.mark.x : p.mark.y
            guard let length, case .number = length.datum, let position = p.horizontal ? p.mark.y : p.mark.x else {
                continue
            }
            let key = StackKey(position: memo.text(position), group: p.mark.positionBy.map { memo.text($0) })
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(i)
        }
        for key in order {
            let members = groups[key]!
            let values = members.map { i -> Double in
                let p = placed[i]
                return (p.horizontal ? p.mark.x : p.mark.y)?.datum.number ?? 0
            }
            let total = values.reduce(0) { $0 + abs($1) }
            var positive = 0.0
            var negative = 0.0
            for (member, value) in zip(members, values) {
                let method = placed[member].mark.stacking.kind
                var low: Double
                var high: Double
                switch method {
                case .unstacked:
                    (low, high) = (0, value)
                case .standard, .normalized, .center:
                    if value >= 0 {
                        (low, high) = (positive, positive + value)
                        positive += value
                    } else {
                        (low, high) = (negative + value, negative)
                        negative += value
                    }
                    if method == .normalized, total > 0 {
                        low /= total
                        high /= total
                    } else if method == .center {
                        low -= total / 2
                        high -= total / 2
                    }
                }
                let span = Placement.span(.number(low), .number(high))
                if placed[member].horizontal { placed[member].x = span } else { placed[member].y = span }
            }
        }
    }

    // MARK: Scales

    /// The values placed on one axis, in order.
    func values(on placed: [Placed], x: Bool) -> [PlotDatum] {
        var result: [PlotDatum] = []
        for index in placed.indices {
            switch x ? placed[index].x : placed[index].y {
            case .at(let component):
                if let (start, end) = memo.dateInterval(component) {
                    result.append(.date(start))
                    result.append(.date(end))
                } else {
                    result.append(component.datum)
                }
            case .span(let a, let b):
                result.append(a)
                result.append(b)
            case .whole:
                continue
            }
        }
        return result
    }

    func scale(
        for values: [PlotDatum], domain: DomainSpec?, name: String, start: Double, end: Double, desiredTicks: Int,
        categoriesDownward: Bool
    ) throws -> Scale {
        var kinds = Set(values.map(\.kind))
        if case .values(let list)? = domain { kinds.formUnion(list.map(\.kind)) }
        if case .range(let a, let b)? = domain { kinds.formUnion([a.kind, b.kind]) }
        if kinds.count > 1 {
            throw LayoutError(
                message: "The \(name) axis mixes \(kinds.map { "\($0)" }.sorted().joined(separator: " and ")) values")
        }
        var reversed = false
        var includesZero = false
        if case .automatic(let zero, let reverse)? = domain {
            reversed = reverse
            includesZero = zero ?? false
        }
        switch kinds.first ?? .number {
        case .category:
            var seen = Set<String>()
            var categories: [String] = []
            if case .values(let list)? = domain {
                for case .category(let name) in list where seen.insert(name).inserted { categories.append(name) }
            }
            for case .category(let name) in values where seen.insert(name).inserted { categories.append(name) }
            return Scale.band(
                categories: categories, reversed: categoriesDownward != reversed, start: start, end: end,
                calendar: calendar)
        case .date:
            let numbers = values.compactMap(\.number)
            var lower = numbers.min() ?? Date().timeIntervalSinceReferenceDate
            var upper = numbers.max() ?? lower
            if case .range(let a, let b)? = domain, let x = a.number, let y = b.number { (lower, upper) = (x, y) }
            return Scale.time(
                lower: lower, upper: upper, reversed: reversed, desiredTicks: desiredTicks, stride: nil, start: start,
                end: end, calendar: calendar)
        case .number:
            var fixed: (Double, Double)? = nil
            if case .range(let a, let b)? = domain, let x = a.number, let y = b.number { fixed = (x, y) }
            return Scale.linear(
                values: values.compactMap(\.number), includeZero: includesZero, fixed: fixed, reversed: reversed,
                desiredTicks: desiredTicks, start: start, end: end, calendar: calendar)
        }
    }

    // MARK: Cartesian charts

    func cartesian() throws -> [Node] {
        let placed = try place()
        let xValues = values(on: placed, x: true)
        let yValues = values(on: placed, x: false)
        let yIsCategory = yValues.first?.kind == .category
        let showX = config.xAxis.visibility != .hidden
        let showY = config.yAxis.visibility != .hidden
        // First pass: the y scale's labels decide the margin they need.
        let probe = try scale(
            for: yValues, domain: config.yDomain, name: "y", start: Self.height, end: 0, desiredTicks: 5,
            categoriesDownward: yIsCategory)
        let yPosition = config.yAxis.marks?.first?.position.kind ?? .automatic
        let yLeading = yPosition == .leading || (yPosition == .automatic && yIsCategory)
        let labelWidth =
            showY
            ? Double((axisTicks(probe, marks: config.yAxis.marks, isX: false).map { $0.2.count }.max() ?? 0)) * 6.5 + 10
            : 4
        let titleRoom = 16.0
        var left = 4.0
        var right = Self.width - 8
        if yLeading { left += labelWidth } else { right -= labelWidth }
        if config.yLabel != nil { if yLeading { left += titleRoom } else { right -= titleRoom } }
        let top = 8.0
        var bottom = Self.height - (showX ? 22 : 4)
        if config.xLabel != nil { bottom -= titleRoom }
        let xScale = try scale(
            for: xValues, domain: config.xDomain, name: "x", start: left, end: right, desiredTicks: 6,
            categoriesDownward: false)
        let yScale = try scale(
            for: yValues, domain: config.yDomain, name: "y", start: bottom, end: top, desiredTicks: 5,
            categoriesDownward: yIsCategory)
        let frame = Frame(left: left, top: top, right: right, bottom: bottom)

        var grid: [Node] = []
        var labels: [Node] = []
        if showY {
            for (i, (datum, position, text, parts)) in axisTicks(yScale, marks: config.yAxis.marks, isX: false)
                .enumerated()
            {
                _ = datum
                if parts.gridLine {
                    grid.append(
                        line(
                            id: "\(path).gy\(i)", x1: left, y1: position, x2: right, y2: position,
                            style: gridStyle(parts.gridStyle)))
                }
                if parts.tick {
                    let x = yLeading ? left : right
                    grid.append(
                        line(
                            id: "\(path).ty\(i)", x1: x, y1: position, x2: x + (yLeading ? -4 : 4), y2: position,
                            style: gridStyle(nil)))
                }
                if parts.label != nil {
                    labels.append(
                        svgText(
                            id: "\(path).ly\(i)", x: yLeading ? left - 6 : right + 6, y: position + 4, text: text,
                            anchor: yLeading ? "end" : "start"))
                }
            }
        }
        if showX {
            let xAtTop = config.xAxis.marks?.first?.position.kind == .top
            for (i, (_, position, text, parts)) in axisTicks(xScale, marks: config.xAxis.marks, isX: true).enumerated()
            {
                if parts.gridLine {
                    grid.append(
                        line(
                            id: "\(path).gx\(i)", x1: position, y1: top, x2: position, y2: bottom,
                            style: gridStyle(parts.gridStyle)))
                }
                if parts.tick {
                    let y = xAtTop ? top : bottom
                    grid.append(
                        line(
                            id: "\(path).tx\(i)", x1: position, y1: y, x2: position, y2: y + (xAtTop ? -4 : 4),
                            style: gridStyle(nil)))
                }
                if parts.label != nil {
                    labels.append(
                        svgText(
                            id: "\(path).lx\(i)", x: position, y: xAtTop ? top - 6 : bottom + 15, text: text,
                            anchor: "middle"))
                }
            }
            // The baseline.
            grid.append(line(id: "\(path).bx", x1: left, y1: bottom, x2: right, y2: bottom, style: gridStyle(nil)))
        }
        if let title = config.xLabel {
            labels.append(
                svgText(
                    id: "\(path).xl", x: (left + right) / 2, y: Self.height - 4, text: title, anchor: "middle",
                    style: "font:12px system-ui,sans-serif;fill:var(--sw-label,#222)"))
        }
        if let title = config.yLabel {
            let x = yLeading ? 12.0 : Self.width - 6
            labels.append(
                Node(
                    "text", id: "\(path).yl",
                    attributes: [
                        ("x", CurvePath.num(x)), ("y", CurvePath.num((top + bottom) / 2)), ("text-anchor", "middle"),
                        ("transform", "rotate(-90 \(CurvePath.num(x)) \(CurvePath.num((top + bottom) / 2)))"),
                        ("style", "font:12px system-ui,sans-serif;fill:var(--sw-label,#222)"),
                    ], text: title))
        }
        let drawn = drawMarks(placed, x: xScale, y: yScale, frame: frame)
        return [
            Node("g", id: path + ".grid", attributes: [("aria-hidden", "true")], children: grid),
            Node("g", id: path + ".marks", attributes: [("role", "list")], children: drawn),
            Node("g", id: path + ".axes", attributes: [("aria-hidden", "true")], children: labels),
        ]
    }

    struct Frame {
        let left: Double
        let top: Double
        let right: Double
        let bottom: Double
    }

    /// The ticks of an axis: value, pixel position, label and what to draw, from its `AxisMarks` or the defaults.
    func axisTicks(_ scale: Scale, marks: [AxisMarks]?, isX: Bool) -> [(PlotDatum, Double, String, AxisMarkParts)] {
        guard let marks, !marks.isEmpty else {
            return scale.ticks.compactMap { datum in
                guard let position = scale.position(datum) else { return nil }
                let text = scale.label(datum)
                return (datum, position, text, AxisMarkParts(gridLine: scale.kind != .band, tick: isX, label: text))
            }
        }
        var result: [(PlotDatum, Double, String, AxisMarkParts)] = []
        for axisMarks in marks {
            let (values, unit) = tickValues(scale, axisMarks.values)
            for (index, datum) in values.enumerated() {
                guard let position = scale.position(datum) else { continue }
                let defaultText =
                    unit.map { u in
                        if case .date(let d) = datum { return ValueText.date(d, unit: u, calendar: calendar) }
                        return scale.label(datum)
                    } ?? scale.label(datum)
                let value = AxisValue(datum: datum, index: index, count: values.count, unit: unit ?? scale.tickUnit)
                var parts = axisMarks.parts(at: value, defaultLabel: defaultText, isXAxis: isX)
                if scale.kind == .band && axisMarks.content == nil { parts.gridLine = false }
                result.append((datum, position, parts.label ?? defaultText, parts))
            }
        }
        return result
    }

    /// The values an `AxisMarkValues` picks on a scale (and the calendar unit of date strides).
    func tickValues(_ scale: Scale, _ values: AxisMarkValues) -> ([PlotDatum], Calendar.Component?) {
        switch values.kind {
        case .automatic(let desired):
            guard let desired, scale.kind != .band else { return (scale.ticks, scale.tickUnit) }
            if scale.kind == .time {
                let s = Scale.time(
                    lower: scale.lower, upper: scale.upper, reversed: false, desiredTicks: desired, stride: nil,
                    start: 0, end: 1, calendar: calendar)
                return (s.ticks, s.tickUnit)
            }
            let s = Scale.linear(
                values: [scale.lower, scale.upper], includeZero: false, fixed: (scale.lower, scale.upper),
                reversed: false, desiredTicks: desired, start: 0, end: 1, calendar: calendar)
            return (s.ticks, nil)
        case .stride(let step):
            guard step > 0, scale.kind != .band else { return (scale.ticks, scale.tickUnit) }
            if scale.kind == .time {
                var ticks: [PlotDatum] = []
                var t = scale.lower
                while t <= scale.upper + 1e-6, ticks.count < 1_000 {
                    ticks.append(.date(Date(timeIntervalSinceReferenceDate: t)))
                    t += step
                }
                return (ticks, scale.tickUnit)
            }
            var ticks: [PlotDatum] = []
            var t = (scale.lower / step).rounded(.up) * step
            while t <= scale.upper + step * 1e-9, ticks.count < 1_000 {
                ticks.append(.number(t))
                t += step
            }
            return (ticks, nil)
        case .calendarStride(let unit, let count, let calendar):
            guard scale.kind == .time else { return (scale.ticks, scale.tickUnit) }
            let s = Scale.time(
                lower: scale.lower, upper: scale.upper, reversed: false, desiredTicks: 6, stride: (unit, count),
                start: 0, end: 1, calendar: calendar)
            return (s.ticks, unit)
        case .values(let list):
            return (list, scale.tickUnit)
        }
    }

    private func gridStyle(_ stroke: StrokeStyle?) -> String {
        "stroke:var(--sw-secondary,#888);stroke-opacity:.3;" + (stroke?.css ?? "stroke-width:1")
    }

    // MARK: Marks

    func drawMarks(_ placed: [Placed], x: Scale, y: Scale, frame: Frame) -> [Node] {
        let symbols = symbolDomain
        var nodes: [Node] = []
        nodes.reserveCapacity(placed.count)
        let markPrefix = path + ".m"
        var seriesDone = Set<String>()
        let positionGroups = positionDomain(placed)
        // A bar's band on a numeric or time axis, found once and only when a bar needs it (it looks at every bar;
        // bars of binned dates span their unit instead).
        var xBand: Double?
        var yBand: Double?
        let xBandOnce = {
            if let known = xBand { return known }
            let band = numericBand(x, horizontalAxis: true, placed)
            xBand = band
            return band
        }
        let yBandOnce = {
            if let known = yBand { return known }
            let band = numericBand(y, horizontalAxis: false, placed)
            yBand = band
            return band
        }
        // Indices, not `for p in placed`: a placed mark read in place is not copied (a copy retains its values).
        for i in placed.indices {
            let mark = placed[i].mark
            let color = color(of: mark)
            let id = markPrefix + keys[placed[i].index]
            switch mark.kind {
            case .bar, .rectangle:
                guard
                    let (x0, x1) = extent(
                        placed[i].x, scale: x, frame: frame, horizontalAxis: true, mark: mark,
                        groups: positionGroups, numericBand: xBandOnce),
                    let (y0, y1) = extent(
                        placed[i].y, scale: y, frame: frame, horizontalAxis: false, mark: mark,
                        groups: positionGroups, numericBand: yBandOnce)
                else { continue }
                var attributes: [(String, String)] = [
                    ("x", CurvePath.num(min(x0, x1))), ("y", CurvePath.num(min(y0, y1))),
                    ("width", CurvePath.num(abs(x1 - x0))), ("height", CurvePath.num(abs(y1 - y0))),
                ]
                if let r = mark.cornerRadius { attributes.append(("rx", CurvePath.num(Double(r)))) }
                nodes.append(symbolNode("rect", id: id, attributes: attributes, mark: mark, color: color))
            case .point:
                let px = position(placed[i].x, scale: x, whole: (frame.left + frame.right) / 2)
                let py = position(placed[i].y, scale: y, whole: (frame.top + frame.bottom) / 2)
                guard let px, let py else { continue }
                nodes.append(pointNode(id: id, x: px, y: py, mark: mark, color: color, symbols: symbols))
            case .rule:
                let stroke = "stroke:\(color);" + (mark.lineStyle?.css ?? "stroke-width:1")
                var x0 = frame.left
                var x1 = frame.right
                var y0 = frame.top
                var y1 = frame.bottom
                switch placed[i].x {
                case .at: if let v = position(placed[i].x, scale: x, whole: 0) { (x0, x1) = (v, v) } else { continue }
                case .span(let a, let b):
                    guard let s = x.position(a), let e = x.position(b) else { continue }
                    (x0, x1) = (s, e)
                case .whole: break
                }
                switch placed[i].y {
                case .at: if let v = position(placed[i].y, scale: y, whole: 0) { (y0, y1) = (v, v) } else { continue }
                case .span(let a, let b):
                    guard let s = y.position(a), let e = y.position(b) else { continue }
                    (y0, y1) = (s, e)
                case .whole: break
                }
                nodes.append(
                    symbolNode(
                        "line", id: id,
                        attributes: [
                            ("x1", CurvePath.num(x0)), ("y1", CurvePath.num(y0)), ("x2", CurvePath.num(x1)),
                            ("y2", CurvePath.num(y1)),
                        ], mark: mark, color: color, style: stroke))
            case .line, .area:
                let key = mark.kind.rawValue + "\u{1}" + (mark.seriesKey ?? "")
                guard seriesDone.insert(key).inserted else { continue }
                nodes += series(
                    placed.filter { $0.mark.kind == mark.kind && ($0.mark.seriesKey ?? "") == (mark.seriesKey ?? "") },
                    x: x, y: y, frame: frame, color: color, symbols: symbols, index: placed[i].index)
            case .sector:
                continue
            }
        }
        return nodes
    }

    /// The `position(by:)` values, in order of appearance.
    private func positionDomain(_ placed: [Placed]) -> [String] {
        var seen = Set<String>()
        var domain: [String] = []
        for index in placed.indices {
            guard let by = placed[index].mark.positionBy else { continue }
            let text = memo.text(by)
            if seen.insert(text).inserted { domain.append(text) }
        }
        return domain
    }

    /// The pixel position of a placement's value (the axis' middle for `.whole`).
    private func position(_ placement: Placement, scale: Scale, whole: Double) -> Double? {
        switch placement {
        case .at(let component):
            if let (start, end) = memo.dateInterval(component),
                let s = scale.position(.date(start)), let e = scale.position(.date(end))
            {
                return (s + e) / 2
            }
            return scale.position(component.datum)
        case .span(let a, let b):
            guard let s = scale.position(a), let e = scale.position(b) else { return nil }
            return (s + e) / 2
        case .whole:
            return whole
        }
    }

    /// The pixel extent of a bar or rectangle along one axis: its span, or the band around its value.
    private func extent(
        _ placement: Placement, scale: Scale, frame: Frame, horizontalAxis: Bool, mark: MarkRecord,
        groups: [String], numericBand: () -> Double
    ) -> (Double, Double)? {
        switch placement {
        case .whole:
            return horizontalAxis ? (frame.left, frame.right) : (frame.top, frame.bottom)
        case .span(let a, let b):
            guard let s = scale.position(a), let e = scale.position(b) else { return nil }
            return (s, e)
        case .at(let component):
            var center: Double
            var band: Double
            if let (start, end) = memo.dateInterval(component),
                let s = scale.position(.date(start)), let e = scale.position(.date(end))
            {
                center = (s + e) / 2
                band = abs(e - s)
            } else {
                guard let c = scale.position(component.datum) else { return nil }
                center = c
                band = scale.kind == .band ? scale.bandWidth : numericBand()
            }
            let dimension = horizontalAxis ? mark.width : mark.height
            let ratio = mark.kind == .rectangle ? 1.0 : 0.8
            if mark.kind == .bar, let group = mark.positionBy.map({ memo.text($0) }),
                let index = groups.firstIndex(of: group),
                groups.count > 1
            {
                let outer = band * ratio
                let sub = outer / Double(groups.count)
                center = center - outer / 2 + sub * (Double(index) + 0.5)
                band = sub / ratio
            }
            let size = dimension.resolve(band: band, automaticRatio: ratio)
            return (center - size / 2, center + size / 2)
        }
    }

    /// A bar's band on a numeric or time axis: the smallest gap between the values bars sit at.
    private func numericBand(_ scale: Scale, horizontalAxis: Bool, _ placed: [Placed]) -> Double {
        let positions = Set(
            placed.compactMap { p -> Double? in
                guard p.mark.kind == .bar || p.mark.kind == .rectangle,
                    case .at(let c) = horizontalAxis ? p.x : p.y
                else { return nil }
                return scale.position(c.datum)
            }
        ).sorted()
        let gaps = zip(positions, positions.dropFirst()).map { $1 - $0 }.filter { $0 > 0.5 }
        return min(gaps.min() ?? 24, 48)
    }

    private func opacityCSS(_ mark: MarkRecord) -> String {
        mark.opacity < 1 ? ";opacity:\(CurvePath.num(mark.opacity))" : ""
    }

    /// The fill of a mark no style names (one string for every such mark).
    static let accentFill = "fill:" + accent

    /// A mark's element with its color, its accessible name and a tooltip.
    private func symbolNode(
        _ tag: String, id: String, attributes: [(String, String)], mark: MarkRecord, color: String,
        style: String? = nil, roleDescription: String? = nil
    ) -> Node {
        var all: [(String, String)] = []
        all.reserveCapacity(attributes.count + 4)
        all += attributes
        let fill = style ?? (color == Self.accent ? Self.accentFill : "fill:" + color)
        all.append(("style", mark.opacity < 1 ? fill + opacityCSS(mark) : fill))
        let label = accessibleLabel(mark)
        if mark.accessibilityHidden {
            all.append(("aria-hidden", "true"))
        } else {
            all.append(("role", "graphics-symbol"))
            all.append(("aria-roledescription", roleDescription ?? mark.kind.rawValue))
            all.append(("aria-label", label))
        }
        return Node(tag, id: id, attributes: all, children: [Node("title", id: id + ".t", text: label)])
    }

    private func pointNode(
        id: String, x: Double, y: Double, mark: MarkRecord, color: String, symbols: [String]
    ) -> Node {
        let shape = symbol(of: mark, domain: symbols)
        let radius = (Double(mark.symbolSize ?? 50)).squareRoot() / 2
        var transform = "translate("
        transform.reserveCapacity(40)
        transform += CurvePath.num(x)
        transform += " "
        transform += CurvePath.num(y)
        transform += ") scale("
        transform += CurvePath.num(radius)
        transform += ")"
        return symbolNode(
            "path", id: id, attributes: [("d", shape._svgPath), ("transform", transform)], mark: mark, color: color,
            roleDescription: "point")
    }

    /// What assistive technologies read for a mark: its label, or its values ("Day: Mon, Doses: 3").
    func accessibleLabel(_ mark: MarkRecord) -> String {
        var text: String
        if let label = mark.accessibilityLabel {
            text = label
        } else {
            var label = ""
            label.reserveCapacity(96)
            mark.forEachComponent { component in
                if !label.isEmpty { label += ", " }
                label += component.label
                label += ": "
                label += memo.text(component)
            }
            text = label
        }
        if let value = mark.accessibilityValue {
            text += ", "
            text += value
        }
        return text
    }

    /// One line or area series: the path, and its points' symbols when the marks ask for symbols.
    private func series(
        _ members: [Placed], x: Scale, y: Scale, frame: Frame, color: String, symbols: [String], index: Int
    ) -> [Node] {
        let first = members[0].mark
        let method = first.interpolation?.kind ?? .linear
        let id = "\(path).\(first.kind == .line ? "l" : "a")\(keys[members[0].index])"
        var top: [CurvePath.Point] = []
        var base: [CurvePath.Point] = []
        for p in members {
            guard let px = position(p.x, scale: x, whole: (frame.left + frame.right) / 2) else { continue }
            switch p.y {
            case .span(let a, let b):
                guard let low = y.position(a), let high = y.position(b) else { continue }
                top.append(.init(x: px, y: high))
                base.append(.init(x: px, y: low))
            default:
                guard let py = position(p.y, scale: y, whole: (frame.top + frame.bottom) / 2) else { continue }
                top.append(.init(x: px, y: py))
                base.append(.init(x: px, y: y.position(number: 0)))
            }
        }
        guard !top.isEmpty else { return [] }
        let name = first.seriesKey.map { "\($0): " } ?? ""
        let label =
            first.accessibilityLabel
            ?? "\(name)\(first.kind == .line ? "line" : "area") of \(members.count) point\(members.count == 1 ? "" : "s")"
            + (members.count <= 20
                ? " (" + members.map { accessibleLabel($0.mark) }.joined(separator: "; ") + ")" : "")
        var nodes: [Node] = []
        if first.kind == .line {
            let style =
                "fill:none;stroke:\(color);" + (first.lineStyle?.css ?? "stroke-width:2") + opacityCSS(first)
            let accessible: [(String, String)] = [
                ("role", "graphics-symbol"), ("aria-roledescription", "line"), ("aria-label", label),
            ]
            let chunk = Self.lineChunk(method)
            if top.count <= chunk + 1 {
                nodes.append(
                    Node(
                        "path", id: id,
                        attributes: [("d", CurvePath.line(top, method: method)), ("style", style)] + accessible,
                        children: [Node("title", id: id + ".t", text: label)]))
            } else {
                // A long line is drawn in pieces of `chunk` segments (one curve: the control points come from
                // the whole line), so changing or adding a point re-sends one piece, not the whole line.
                let segments = CurvePath.segmentList(top, method: method)
                var pieces = [Node("title", id: id + ".t", text: label)]
                var start = 0
                while start < segments.count {
                    let end = min(start + chunk, segments.count)
                    let d = "M" + CurvePath.pair(top[start]) + segments[start..<end].joined()
                    pieces.append(
                        Node(
                            "path", id: "\(id).c\(start / chunk)",
                            attributes: [("d", d), ("style", style + ";stroke-linecap:round")]))
                    start = end
                }
                nodes.append(Node("g", id: id, attributes: accessible, children: pieces))
            }
            if first.symbol != nil || first.symbolBy != nil {
                for (p, point) in zip(members, top) {
                    nodes.append(
                        pointNode(
                            id: "\(path).m\(keys[p.index])", x: point.x, y: point.y, mark: p.mark, color: color,
                            symbols: symbols))
                }
            }
        } else {
            let reversed = Array(base.reversed())
            let d =
                CurvePath.line(top, method: method) + "L" + CurvePath.pair(reversed[0])
                + CurvePath.segments(reversed, method: method) + "Z"
            nodes.append(
                Node(
                    "path", id: id,
                    attributes: [
                        ("d", d), ("style", "fill:\(color);stroke:none" + opacityCSS(first)),
                        ("role", "graphics-symbol"), ("aria-roledescription", "area"), ("aria-label", label),
                    ], children: [Node("title", id: id + ".t", text: label)]))
        }
        return nodes
    }

    // MARK: Pie and donut charts

    func pie() -> [Node] {
        let cx = Self.width / 2
        let cy = Self.height / 2
        let outer = min(Self.width, Self.height) / 2 - 8
        let values = marks.map { max(0, $0.angle?.datum.number ?? 0) }
        let total = values.reduce(0, +)
        var angle = -Double.pi / 2
        var nodes: [Node] = []
        for (index, (mark, value)) in zip(marks, values).enumerated() {
            let sweep = total > 0 ? value / total * 2 * .pi : 0
            defer { angle += sweep }
            guard sweep > 0 else { continue }
            let r1 = mark.outerRadius.resolveRadius(outer: outer, automatic: outer)
            let r0 = min(r1, mark.innerRadius.resolveRadius(outer: r1, automatic: 0))
            let inset = r1 > 0 ? Double(mark.angularInset) / r1 / 2 : 0
            let a0 = angle + min(inset, sweep / 2)
            let a1 = angle + sweep - min(inset, sweep / 2)
            let d = Self.sectorPath(cx: cx, cy: cy, inner: r0, outer: r1, from: a0, to: a1)
            nodes.append(
                symbolNode(
                    "path", id: "\(path).m\(keys[index])", attributes: [("d", d)], mark: mark,
                    color: color(of: mark)))
        }
        return [Node("g", id: path + ".marks", attributes: [("role", "list")], children: nodes)]
    }

    /// An annular sector from angle `a0` to `a1` (radians, clockwise from 3 o'clock in SVG's y-down space).
    static func sectorPath(
        cx: Double, cy: Double, inner: Double, outer: Double, from a0: Double, to a1: Double
    )
        -> String
    {
        func point(_ r: Double, _ a: Double) -> String { CurvePath.pair(.init(x: cx + r * cos(a), y: cy + r * sin(a))) }
        let sweep = a1 - a0
        if sweep >= 2 * .pi - 1e-9 {
            // A full ring: two half arcs each way.
            let mid = a0 + .pi
            var d =
                "M" + point(outer, a0) + "A\(CurvePath.num(outer)),\(CurvePath.num(outer)) 0 1,1 " + point(outer, mid)
            d += "A\(CurvePath.num(outer)),\(CurvePath.num(outer)) 0 1,1 " + point(outer, a0) + "Z"
            if inner > 0 {
                d +=
                    "M" + point(inner, a0) + "A\(CurvePath.num(inner)),\(CurvePath.num(inner)) 0 1,0 "
                    + point(inner, mid)
                d += "A\(CurvePath.num(inner)),\(CurvePath.num(inner)) 0 1,0 " + point(inner, a0) + "Z"
            }
            return d
        }
        let large = sweep > .pi ? 1 : 0
        var d = "M" + point(outer, a0)
        d += "A\(CurvePath.num(outer)),\(CurvePath.num(outer)) 0 \(large),1 " + point(outer, a1)
        if inner > 0 {
            d += "L" + point(inner, a1)
            d += "A\(CurvePath.num(inner)),\(CurvePath.num(inner)) 0 \(large),0 " + point(inner, a0)
        } else {
            d += "L" + CurvePath.pair(.init(x: cx, y: cy))
        }
        return d + "Z"
    }

    // MARK: Elements

    private func line(id: String, x1: Double, y1: Double, x2: Double, y2: Double, style: String) -> Node {
        Node(
            "line", id: id,
            attributes: [
                ("x1", CurvePath.num(x1)), ("y1", CurvePath.num(y1)), ("x2", CurvePath.num(x2)),
                ("y2", CurvePath.num(y2)), ("style", style),
            ])
    }

    private func svgText(
        id: String, x: Double, y: Double, text: String, anchor: String,
        style: String = "font:11px system-ui,sans-serif;fill:var(--sw-secondary,#666)", role: String? = nil
    ) -> Node {
        var attributes = [
            ("x", CurvePath.num(x)), ("y", CurvePath.num(y)), ("text-anchor", anchor), ("style", style),
        ]
        if let role { attributes.append(("role", role)) }
        return Node("text", id: id, attributes: attributes, text: text)
    }
}

extension MarkDimension {
    /// A sector's radius: a ratio of the outer radius, a fixed radius, or the outer radius less an inset.
    func resolveRadius(outer: Double, automatic: Double) -> Double {
        switch kind {
        case .automatic: return automatic
        case .fixed(let value): return Double(value)
        case .inset(let value): return max(0, outer - Double(value))
        case .ratio(let value): return outer * Double(value)
        }
    }
}
