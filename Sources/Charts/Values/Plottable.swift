import Foundation

/// A value a chart can place on an axis or group marks by: a number, a date or a category (a string).
///
/// Apple's protocol: a type plots as a primitive value (`PrimitivePlottable`). A `String`- or number-backed
/// enum plots through its raw value (`enum Kind: String, Plottable {}` needs nothing else).
public protocol Plottable {
    /// The primitive value this type plots as.
    associatedtype PrimitivePlottable: PrimitivePlottableProtocol
    /// The value as the primitive it plots as.
    var primitivePlottable: PrimitivePlottable { get }
    /// The value a primitive stands for (nil when none does).
    init?(primitivePlottable: PrimitivePlottable)
}

/// The primitive values charts plot: strings, dates and numbers.
public protocol PrimitivePlottableProtocol: Plottable {
    /// The value as the chart plots it (a number, a date or a category).
    var _plotDatum: PlotDatum { get }
}

/// What a plotted value is to a chart's scales: a position on a numeric or time axis, or a category.
public enum PlotDatum: Hashable, Sendable {
    /// A number on a linear scale.
    case number(Double)
    /// A date on a time scale.
    case date(Date)
    /// A category on a band scale (kept in the order values first appear).
    case category(String)

    var number: Double? {
        switch self {
        case .number(let value): return value
        case .date(let date): return date.timeIntervalSinceReferenceDate
        case .category: return nil
        }
    }

    var kind: Kind {
        switch self {
        case .number: return .number
        case .date: return .date
        case .category: return .category
        }
    }

    enum Kind { case number, date, category }
}

extension PrimitivePlottableProtocol {
    /// A primitive plots as itself.
    public var primitivePlottable: Self { self }
    /// A primitive stands for itself.
    public init?(primitivePlottable: Self) { self = primitivePlottable }
}

extension Plottable where Self: RawRepresentable, RawValue: PrimitivePlottableProtocol {
    /// A raw-representable value plots as its raw value.
    public var primitivePlottable: RawValue { rawValue }
    /// The value for a raw value.
    public init?(primitivePlottable: RawValue) { self.init(rawValue: primitivePlottable) }
}

extension String: PrimitivePlottableProtocol {
    /// A category.
    public var _plotDatum: PlotDatum { .category(self) }
}
extension Date: PrimitivePlottableProtocol {
    /// A point in time.
    public var _plotDatum: PlotDatum { .date(self) }
}
extension Double: PrimitivePlottableProtocol {
    /// A number.
    public var _plotDatum: PlotDatum { .number(self) }
}
extension Float: PrimitivePlottableProtocol {
    /// A number.
    public var _plotDatum: PlotDatum { .number(Double(self)) }
}
extension Int: PrimitivePlottableProtocol {
    /// A number.
    public var _plotDatum: PlotDatum { .number(Double(self)) }
}
extension Int8: PrimitivePlottableProtocol {
    /// A number.
    public var _plotDatum: PlotDatum { .number(Double(self)) }
}
extension Int16: PrimitivePlottableProtocol {
    /// A number.
    public var _plotDatum: PlotDatum { .number(Double(self)) }
}
extension Int32: PrimitivePlottableProtocol {
    /// A number.
    public var _plotDatum: PlotDatum { .number(Double(self)) }
}
extension Int64: PrimitivePlottableProtocol {
    /// A number.
    public var _plotDatum: PlotDatum { .number(Double(self)) }
}
extension UInt: PrimitivePlottableProtocol {
    /// A number.
    public var _plotDatum: PlotDatum { .number(Double(self)) }
}
extension UInt8: PrimitivePlottableProtocol {
    /// A number.
    public var _plotDatum: PlotDatum { .number(Double(self)) }
}
extension UInt16: PrimitivePlottableProtocol {
    /// A number.
    public var _plotDatum: PlotDatum { .number(Double(self)) }
}
extension UInt32: PrimitivePlottableProtocol {
    /// A number.
    public var _plotDatum: PlotDatum { .number(Double(self)) }
}
extension UInt64: PrimitivePlottableProtocol {
    /// A number.
    public var _plotDatum: PlotDatum { .number(Double(self)) }
}
extension Decimal: PrimitivePlottableProtocol {
    /// A number.
    public var _plotDatum: PlotDatum { .number(NSDecimalNumber(decimal: self).doubleValue) }
}

/// A value of a mark's property with its label: `.value("Day", day)`.
public struct PlottableValue<Value: Plottable> {
    let label: String
    let value: Value
    let unit: Calendar.Component?
    let calendar: Calendar?

    /// A value with the label the chart's axis, legend and accessibility use.
    public static func value(_ label: String, _ value: Value) -> PlottableValue<Value> {
        PlottableValue(label: label, value: value, unit: nil, calendar: nil)
    }

    var component: PlotComponent {
        PlotComponent(label: label, datum: value.primitivePlottable._plotDatum, unit: unit, calendar: calendar)
    }
}

extension PlottableValue where Value == Date {
    /// A date binned to a calendar unit: a bar spans the whole day (week, month...) the date falls in.
    public static func value(
        _ label: String, _ value: Date, unit: Calendar.Component, calendar: Calendar = .current
    ) -> PlottableValue<Date> {
        PlottableValue(label: label, value: value, unit: unit, calendar: calendar)
    }
}

/// A plotted value with its label, type-erased.
struct PlotComponent {
    let label: String
    let datum: PlotDatum
    /// For a date binned to a unit: the unit and the calendar it is counted in.
    var unit: Calendar.Component? = nil
    var calendar: Calendar? = nil

    /// The start and end of the unit a binned date falls in.
    var dateInterval: (Date, Date)? {
        guard case .date(let date) = datum, let unit, let calendar else { return nil }
        guard let interval = calendar.dateInterval(of: unit, for: date) else { return nil }
        return (interval.start, interval.end)
    }

    /// The value as read aloud and shown in a tooltip.
    var text: String { ValueText.format(datum, unit: unit, calendar: calendar ?? .current) }
}
