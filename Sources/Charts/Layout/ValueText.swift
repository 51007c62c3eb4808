import Foundation

/// How values are written on axes, in legends and for assistive technologies.
enum ValueText {
    /// A value as text: a number with as many decimals as it has (up to 4), a date by its unit, a category.
    static func format(_ datum: PlotDatum, unit: Calendar.Component? = nil) -> String {
        switch datum {
        case .category(let name): return name
        case .number(let value): return number(value, decimals: nil)
        case .date(let date): return self.date(date, unit: unit ?? .day, calendar: Calendar.current)
        }
    }

    /// A number; `decimals` fixes the fraction digits (an axis' step decides them), else up to 4 as needed.
    static func number(_ value: Double, decimals: Int?) -> String {
        if !value.isFinite { return String(value) }
        let digits = decimals ?? fractionDigits(of: value)
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.numberStyle = .decimal
        formatter.usesGroupingSeparator = true
        formatter.groupingSeparator = ","
        formatter.groupingSize = 3
        formatter.minimumFractionDigits = digits
        formatter.maximumFractionDigits = digits
        let zero = value == 0 ? 0 : value  // no "-0"
        return formatter.string(from: NSNumber(value: zero)) ?? String(value)
    }

    /// The fraction digits a number needs (at most 4).
    static func fractionDigits(of value: Double) -> Int {
        for digits in 0...4 {
            let scale = pow(10, Double(digits))
            if abs((value * scale).rounded() - value * scale) < 1e-6 * max(1, abs(value * scale)) { return digits }
        }
        return 4
    }

    /// The fraction digits ticks `step` apart need.
    static func fractionDigits(forStep step: Double) -> Int {
        guard step > 0, step.isFinite else { return 0 }
        return max(0, min(6, Int((-log10(step)).rounded(.up))))
    }

    /// A date written for an axis marking `unit`s: "2026", "Nov", "Nov 26", "3 PM", "3:05 PM".
    static func date(_ date: Date, unit: Calendar.Component, calendar: Calendar) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        switch unit {
        case .year, .era: formatter.dateFormat = "yyyy"
        case .month, .quarter: formatter.dateFormat = "MMM"
        case .weekday: formatter.dateFormat = "EEE"
        case .day, .weekOfYear, .weekOfMonth, .yearForWeekOfYear: formatter.dateFormat = "MMM d"
        case .hour: formatter.dateFormat = "h a"
        case .minute: formatter.dateFormat = "h:mm a"
        default: formatter.dateFormat = "h:mm:ss a"
        }
        return formatter.string(from: date)
    }
}
