import OpenCoreData

/// SI prefixes for metric units (`HKUnit.gramUnit(with: .milli)` is mg).
public enum HKMetricPrefix: Int, Sendable, CaseIterable {
    /// No prefix.
    case none = 0
    /// 10⁻¹² (p).
    case pico
    /// 10⁻⁹ (n).
    case nano
    /// 10⁻⁶ (mc).
    case micro
    /// 10⁻³ (m).
    case milli
    /// 10⁻² (c).
    case centi
    /// 10⁻¹ (d).
    case deci
    /// 10¹ (da).
    case deca
    /// 10² (h).
    case hecto
    /// 10³ (k).
    case kilo

    /// The prefix's symbol in unit strings (HealthKit writes micro as `mc`).
    var symbol: String {
        ["", "p", "n", "mc", "m", "c", "d", "da", "h", "k"][rawValue]
    }

    /// The prefix's factor.
    var factor: Double {
        [1, 1e-12, 1e-9, 1e-6, 1e-3, 1e-2, 1e-1, 1e1, 1e2, 1e3][rawValue]
    }
}

/// A unit for dose quantities: a count, a mass (g with SI prefixes), a volume (L with SI prefixes),
/// international units, or another unit by its string (comparable only with itself).
public final class HKUnit: NSObject, @unchecked Sendable {
    /// The unit's string (`count`, `mg`, `mcg`, `mL`, `IU`, ...).
    public let unitString: String

    enum Dimension: Sendable { case count, mass, volume, internationalUnit, other }
    /// What the unit measures and its factor to the dimension's base unit (count, g, L, IU).
    let dimension: Dimension
    let factor: Double

    /// Creates a unit from its string. Counts, grams and liters with SI prefixes (`mcg`, `mg`, `kg`,
    /// `mL`, `dL`, ...) and `IU` convert among themselves; any other string is a unit of its own.
    public init(from unitString: String) {
        self.unitString = unitString
        (dimension, factor) = HKUnit.parse(unitString)
        super.init()
    }

    static func parse(_ string: String) -> (Dimension, Double) {
        if string == "count" { return (.count, 1) }
        if string == "IU" { return (.internationalUnit, 1) }
        for prefix in HKMetricPrefix.allCases {
            if string == prefix.symbol + "g" { return (.mass, prefix.factor) }
            if string == prefix.symbol + "L" { return (.volume, prefix.factor) }
        }
        return (.other, 1)
    }

    /// A count of items (tablets, puffs, doses).
    public static func count() -> HKUnit { HKUnit(from: "count") }
    /// Grams.
    public static func gram() -> HKUnit { HKUnit(from: "g") }
    /// Grams with a prefix (`.milli`: mg, `.micro`: mcg).
    public static func gramUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(from: prefix.symbol + "g") }
    /// Milligrams.
    public static func milligram() -> HKUnit { gramUnit(with: .milli) }
    /// Liters.
    public static func liter() -> HKUnit { HKUnit(from: "L") }
    /// Liters with a prefix (`.milli`: mL).
    public static func literUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(from: prefix.symbol + "L") }
    /// Milliliters.
    public static func milliliter() -> HKUnit { literUnit(with: .milli) }
    /// International units.
    public static func internationalUnit() -> HKUnit { HKUnit(from: "IU") }

    /// Whether quantities in the two units convert into each other.
    func isCompatible(with other: HKUnit) -> Bool {
        dimension == .other ? unitString == other.unitString : dimension == other.dimension
    }

    /// Units are equal when their strings are.
    public override func isEqual(_ object: Any?) -> Bool { (object as? HKUnit)?.unitString == unitString }
    /// A hash of the string.
    public override var hash: Int { unitString.hashValue }
    /// The unit string.
    public override var description: String { unitString }
}

/// An amount in a unit.
public final class HKQuantity: NSObject, @unchecked Sendable {
    private let value: Double
    private let unit: HKUnit

    /// Creates a quantity.
    public init(unit: HKUnit, doubleValue value: Double) {
        self.unit = unit
        self.value = value
        super.init()
    }

    /// The amount in a compatible unit (500 mg is 0.5 g); traps, as HealthKit does, when the units
    /// are not compatible.
    public func doubleValue(for unit: HKUnit) -> Double {
        precondition(self.unit.isCompatible(with: unit), "HKQuantity: \(self.unit) is not compatible with \(unit)")
        return unit == self.unit ? value : value * self.unit.factor / unit.factor
    }

    /// Whether the quantity converts to a unit.
    public func `is`(compatibleWith unit: HKUnit) -> Bool { self.unit.isCompatible(with: unit) }

    /// Orders two quantities of compatible units; traps otherwise.
    public func compare(_ quantity: HKQuantity) -> ComparisonResult {
        let other = quantity.doubleValue(for: unit)
        return value < other ? .orderedAscending : value > other ? .orderedDescending : .orderedSame
    }

    /// Quantities are equal when they are compatible and the same amount.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKQuantity, other.is(compatibleWith: unit) else { return false }
        return compare(other) == .orderedSame
    }

    /// A hash compatible with equality (by dimension).
    public override var hash: Int { unit.isCompatible(with: .count()) ? value.hashValue : 0 }

    /// Value and unit.
    public override var description: String { "\(value) \(unit)" }
}
