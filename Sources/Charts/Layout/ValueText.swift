import Foundation

/// How values are written on axes, in legends and for assistive technologies.
enum ValueText {
    /// A value as text: a number with as many decimals as it has (up to 4), a date by its unit, a category.
    /// A date binned to a unit is written for that unit ("Nov 26"); a date without one in full ("Nov 26, 2026" at
    /// midnight, else "Nov 26, 8:05:30 PM"), in `calendar`'s time zone.
    static func format(_ datum: PlotDatum, unit: Calendar.Component? = nil, calendar: Calendar = .current) -> String {
        switch datum {
        case .category(let name): return name
        case .number(let value): return number(value, decimals: nil)
        case .date(let date):
            if let unit { return self.date(date, unit: unit, calendar: calendar) }
            let time = calendar.dateComponents([.hour, .minute, .second], from: date)
            let format =
                time.hour == 0 && time.minute == 0 && time.second == 0
                ? "MMM d, yyyy" : time.second == 0 ? "MMM d, h:mm a" : "MMM d, h:mm:ss a"
            return DateFormatters.shared.string(from: date, format: format, calendar: calendar)
        }
    }

    /// A number; `decimals` fixes the fraction digits (an axis' step decides them), else up to 4 as needed.
    /// Written as en_US writes it ("1,234.5", "-2"), by hand: a chart writes one per mark, and a
    /// `NumberFormatter` per call would cost more than the rest of the mark.
    static func number(_ value: Double, decimals: Int?) -> String {
        if !value.isFinite { return String(value) }
        let digits = decimals ?? fractionDigits(of: value)
        let scale = digits < powersOfTen.count ? powersOfTen[digits] : pow(10, Double(digits))
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return String(value) }  // Beyond exact integers: Swift's own spelling.
        let units = UInt64(scaled)
        let whole = units / UInt64(scale)
        let fraction = units % UInt64(scale)
        var text = grouped(whole)
        if digits > 0 {
            let fractionText = String(fraction)
            text += "."
            for _ in 0..<(digits - fractionText.utf8.count) { text += "0" }
            text += fractionText
        }
        return units == 0 || value > 0 ? text : "-" + text
    }

    /// An integer with a comma every three digits.
    private static func grouped(_ value: UInt64) -> String {
        let plain = String(value)
        guard value >= 1_000 else { return plain }
        let digits = Array(plain.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(digits.count + digits.count / 3)
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(UInt8(ascii: ",")) }
            out.append(digit)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The fraction digits a number needs (at most 4).
    static func fractionDigits(of value: Double) -> Int {
        for digits in 0...4 {
            let scale = powersOfTen[digits]
            if abs((value * scale).rounded() - value * scale) < 1e-6 * max(1, abs(value * scale)) { return digits }
        }
        return 4
    }

    /// 10⁰…10⁴, for the digits a mark's value needs (`pow` per mark showed in profiles).
    private static let powersOfTen: [Double] = [1, 10, 100, 1_000, 10_000]

    /// The fraction digits ticks `step` apart need.
    static func fractionDigits(forStep step: Double) -> Int {
        guard step > 0, step.isFinite else { return 0 }
        return max(0, min(6, Int((-log10(step)).rounded(.up))))
    }

    /// A date written for an axis marking `unit`s: "2026", "Nov", "Nov 26", "3 PM", "3:05 PM".
    static func date(_ date: Date, unit: Calendar.Component, calendar: Calendar) -> String {
        let format: String
        switch unit {
        case .year, .era: format = "yyyy"
        case .month, .quarter: format = "MMM"
        case .weekday: format = "EEE"
        case .day, .weekOfYear, .weekOfMonth, .yearForWeekOfYear: format = "MMM d"
        case .hour: format = "h a"
        case .minute: format = "h:mm a"
        default: format = "h:mm:ss a"
        }
        return DateFormatters.shared.string(from: date, format: format, calendar: calendar)
    }
}

/// Date formatters by format and calendar, made once (a formatter costs far more to make than to use).
///
/// Sendable: the table and every formatter in it are touched only under `lock`.
final class DateFormatters: @unchecked Sendable {
    static let shared = DateFormatters()
    // Guards `formatters`; a formatter is used under the lock too (DateFormatter is not thread-safe).
    private let lock = NSLock()
    private var formatters: [String: DateFormatter] = [:]

    func string(from date: Date, format: String, calendar: Calendar) -> String {
        let key = format + "|" + calendar.identifier.debugDescription + "|" + calendar.timeZone.identifier
        return lock.withLock {
            if let formatter = formatters[key] { return formatter.string(from: date) }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.calendar = calendar
            formatter.timeZone = calendar.timeZone
            formatter.dateFormat = format
            if formatters.count > 64 { formatters.removeAll() }
            formatters[key] = formatter
            return formatter.string(from: date)
        }
    }
}
