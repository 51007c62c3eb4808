import Foundation

/// Maps an axis' values to positions: linear for numbers, time for dates, bands for categories.
struct Scale {
    enum Kind { case linear, time, band }

    let kind: Kind
    /// Numeric domain (dates as seconds since the reference date); for bands, 0…count.
    let lower: Double
    let upper: Double
    /// Categories in order (bands).
    let categories: [String]
    /// The pixel range: `start` maps `lower` (or the first band), `end` maps `upper`.
    let start: Double
    let end: Double
    /// Ticks (values in the domain).
    let ticks: [PlotDatum]
    /// The step between numeric ticks (for their decimals), or the calendar unit of date ticks.
    let tickStep: Double
    let tickUnit: Calendar.Component?
    let calendar: Calendar

    /// A band's width in pixels.
    var bandWidth: Double { categories.isEmpty ? 0 : abs(end - start) / Double(categories.count) }

    /// The pixel position of a value (a band's centre); nil for a value of another kind or an unknown category.
    func position(_ datum: PlotDatum) -> Double? {
        switch (kind, datum) {
        case (.band, .category(let name)):
            guard let index = categories.firstIndex(of: name) else { return nil }
            return start + (end - start) * (Double(index) + 0.5) / Double(categories.count)
        case (.linear, .number(let v)), (.time, .number(let v)):
            return position(number: v)
        case (.time, .date(let date)):
            return position(number: date.timeIntervalSinceReferenceDate)
        default:
            return nil
        }
    }

    /// The pixel position of a number in the domain.
    func position(number v: Double) -> Double {
        let span = upper - lower
        let t = span == 0 ? 0.5 : (v - lower) / span
        return start + (end - start) * t
    }

    /// The text of a tick.
    func label(_ datum: PlotDatum) -> String {
        switch datum {
        case .number(let v): return ValueText.number(v, decimals: ValueText.fractionDigits(forStep: tickStep))
        case .date(let date): return ValueText.date(date, unit: tickUnit ?? .day, calendar: calendar)
        case .category(let name): return name
        }
    }

    // MARK: Making scales

    /// A linear scale over `values`, rounded out to its ticks (`includeZero` for bars and areas).
    static func linear(
        values: [Double], includeZero: Bool, fixed: (Double, Double)?, reversed: Bool, desiredTicks: Int,
        start: Double, end: Double, calendar: Calendar
    ) -> Scale {
        var lo = values.min() ?? 0
        var hi = values.max() ?? 1
        if includeZero {
            lo = min(lo, 0)
            hi = max(hi, 0)
        }
        if let fixed { (lo, hi) = (min(fixed.0, fixed.1), max(fixed.0, fixed.1)) }
        if lo == hi {
            lo -= lo == 0 ? 0 : abs(lo) * 0.5
            hi += hi == 0 ? 1 : abs(hi) * 0.5
        }
        let step = niceStep((hi - lo) / Double(max(1, desiredTicks)))
        if fixed == nil {
            lo = (lo / step).rounded(.down) * step
            hi = (hi / step).rounded(.up) * step
        }
        var ticks: [PlotDatum] = []
        var t = (lo / step).rounded(.up) * step
        while t <= hi + step * 1e-9 {
            ticks.append(.number(abs(t) < step * 1e-9 ? 0 : t))
            t += step
        }
        let (a, b) = reversed ? (end, start) : (start, end)
        return Scale(
            kind: .linear, lower: lo, upper: hi, categories: [], start: a, end: b, ticks: ticks, tickStep: step,
            tickUnit: nil, calendar: calendar)
    }

    /// A step of 1, 2 or 5 times a power of ten near `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let power = pow(10, (log10(raw)).rounded(.down))
        let fraction = raw / power
        let nice: Double = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        return nice * power
    }

    /// A time scale over `lower`…`upper` (seconds since the reference date) with calendar-aligned ticks.
    static func time(
        lower: Double, upper: Double, reversed: Bool, desiredTicks: Int, stride: (Calendar.Component, Int)?,
        start: Double, end: Double, calendar: Calendar
    ) -> Scale {
        var lo = lower
        var hi = upper
        if lo == hi {
            lo -= 43_200
            hi += 43_200
        }
        let span = hi - lo
        let (unit, count) = stride ?? timeStep(span: span, desired: desiredTicks)
        var ticks: [PlotDatum] = []
        let from = Date(timeIntervalSinceReferenceDate: lo)
        var tick = calendar.dateInterval(of: unit == .weekOfYear ? .weekOfYear : unit, for: from)?.start ?? from
        var guardCount = 0
        while tick.timeIntervalSinceReferenceDate <= hi + 1e-6, guardCount < 1_000 {
            if tick.timeIntervalSinceReferenceDate >= lo - 1e-6 { ticks.append(.date(tick)) }
            guard let next = calendar.date(byAdding: unit, value: count, to: tick), next > tick else { break }
            tick = next
            guardCount += 1
        }
        let (a, b) = reversed ? (end, start) : (start, end)
        return Scale(
            kind: .time, lower: lo, upper: hi, categories: [], start: a, end: b, ticks: ticks,
            tickStep: Double(count), tickUnit: unit, calendar: calendar)
    }

    /// The calendar step that gives about `desired` ticks over `span` seconds.
    static func timeStep(span: Double, desired: Int) -> (Calendar.Component, Int) {
        let steps: [(Calendar.Component, Int, Double)] = [
            (.second, 1, 1), (.second, 5, 5), (.second, 15, 15), (.second, 30, 30),
            (.minute, 1, 60), (.minute, 5, 300), (.minute, 15, 900), (.minute, 30, 1_800),
            (.hour, 1, 3_600), (.hour, 3, 10_800), (.hour, 6, 21_600), (.hour, 12, 43_200),
            (.day, 1, 86_400), (.day, 2, 172_800), (.weekOfYear, 1, 604_800),
            (.month, 1, 2_629_746), (.month, 3, 7_889_238), (.year, 1, 31_556_952), (.year, 5, 157_784_760),
            (.year, 10, 315_569_520), (.year, 50, 1_577_847_600), (.year, 100, 3_155_695_200),
        ]
        let target = span / Double(max(1, desired))
        for (unit, count, seconds) in steps where seconds >= target { return (unit, count) }
        return (.year, 100)
    }

    /// A band scale: one band per category, in order.
    static func band(categories: [String], reversed: Bool, start: Double, end: Double, calendar: Calendar) -> Scale {
        let (a, b) = reversed ? (end, start) : (start, end)
        return Scale(
            kind: .band, lower: 0, upper: Double(categories.count), categories: categories, start: a, end: b,
            ticks: categories.map { .category($0) }, tickStep: 1, tickUnit: nil, calendar: calendar)
    }
}
