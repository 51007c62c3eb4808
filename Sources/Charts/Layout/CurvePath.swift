import Foundation

/// SVG path data for a line through points, by interpolation method.
enum CurvePath {
    struct Point {
        var x: Double
        var y: Double
    }

    /// `M … L …` (or curves) through `points`, in order.
    static func line(_ points: [Point], method: InterpolationMethod.Kind) -> String {
        guard let first = points.first else { return "" }
        var d = "M" + pair(first)
        d += segments(points, method: method)
        return d
    }

    /// The path from the first point onward, without its `M` (to join two lines into an area).
    static func segments(_ points: [Point], method: InterpolationMethod.Kind) -> String {
        segmentList(points, method: method).joined()
    }

    /// The path commands from each point to the next (`count - 1` of them): the curve's control points come
    /// from the whole line, so a line drawn in pieces is the same curve.
    static func segmentList(_ points: [Point], method: InterpolationMethod.Kind) -> [String] {
        guard points.count > 1 else { return [] }
        let pairs = zip(points, points.dropFirst())
        switch method {
        case .linear:
            return points.dropFirst().map { "L" + pair($0) }
        case .stepStart:
            return pairs.map { a, b in "L" + pair(Point(x: a.x, y: b.y)) + "L" + pair(b) }
        case .stepEnd:
            return pairs.map { a, b in "L" + pair(Point(x: b.x, y: a.y)) + "L" + pair(b) }
        case .stepCenter:
            return pairs.map { a, b in
                let mid = (a.x + b.x) / 2
                return "L" + pair(Point(x: mid, y: a.y)) + "L" + pair(Point(x: mid, y: b.y)) + "L" + pair(b)
            }
        case .catmullRom:
            return cardinal(points, tension: 0)
        case .cardinal(let tension):
            return cardinal(points, tension: tension)
        case .monotone:
            return monotone(points)
        }
    }

    /// A cardinal spline as cubic Béziers (tension 0 is Catmull-Rom).
    private static func cardinal(_ p: [Point], tension: Double) -> [String] {
        let k = (1 - tension) / 6
        var d: [String] = []
        for i in 0..<(p.count - 1) {
            let p0 = p[max(0, i - 1)]
            let p1 = p[i]
            let p2 = p[i + 1]
            let p3 = p[min(p.count - 1, i + 2)]
            let c1 = Point(x: p1.x + (p2.x - p0.x) * k, y: p1.y + (p2.y - p0.y) * k)
            let c2 = Point(x: p2.x - (p3.x - p1.x) * k, y: p2.y - (p3.y - p1.y) * k)
            d.append("C" + pair(c1) + " " + pair(c2) + " " + pair(p2))
        }
        return d
    }

    /// A monotone cubic in x (Fritsch–Carlson tangents): no overshoot between points.
    private static func monotone(_ p: [Point]) -> [String] {
        let n = p.count
        var slopes = [Double](repeating: 0, count: n - 1)
        for i in 0..<(n - 1) {
            let dx = p[i + 1].x - p[i].x
            slopes[i] = dx == 0 ? 0 : (p[i + 1].y - p[i].y) / dx
        }
        var tangents = [Double](repeating: 0, count: n)
        tangents[0] = slopes[0]
        tangents[n - 1] = slopes[n - 2]
        for i in 1..<(n - 1) {
            tangents[i] = slopes[i - 1] * slopes[i] <= 0 ? 0 : (slopes[i - 1] + slopes[i]) / 2
        }
        for i in 0..<(n - 1) where slopes[i] != 0 {
            let a = tangents[i] / slopes[i]
            let b = tangents[i + 1] / slopes[i]
            let s = a * a + b * b
            if s > 9 {
                let t = 3 / s.squareRoot()
                tangents[i] = t * a * slopes[i]
                tangents[i + 1] = t * b * slopes[i]
            }
        }
        var d: [String] = []
        for i in 0..<(n - 1) {
            let h = (p[i + 1].x - p[i].x) / 3
            let c1 = Point(x: p[i].x + h, y: p[i].y + tangents[i] * h)
            let c2 = Point(x: p[i + 1].x - h, y: p[i + 1].y - tangents[i + 1] * h)
            d.append("C" + pair(c1) + " " + pair(c2) + " " + pair(p[i + 1]))
        }
        return d
    }

    static func pair(_ p: Point) -> String { num(p.x) + "," + num(p.y) }

    /// A coordinate with at most two decimals.
    /// Written with integer arithmetic (a chart writes several per mark; `String(Double)` costs several times more),
    /// as `String` would write the rounded value: `12`, `12.5`, `-0.05`.
    static func num(_ v: Double) -> String {
        let scaled = (v * 100).rounded()
        guard scaled.isFinite, abs(scaled) < 9e15 else { return String((v * 100).rounded() / 100) }
        let units = Int64(scaled)
        let magnitude = units.magnitude
        let whole = magnitude / 100
        let fraction = magnitude % 100
        var text = units < 0 ? "-" + String(whole) : String(whole)
        if fraction != 0 {
            text += fraction % 10 == 0 ? "." + String(fraction / 10) : (fraction < 10 ? ".0" : ".") + String(fraction)
        }
        return text
    }
}
