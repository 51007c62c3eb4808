import OpenCoreData

/// A unit for dose quantities: a count, a mass, a volume, or another unit by its string.
public final class HKUnit: NSObject, @unchecked Sendable {
    /// The unit's string (`count`, `mg`, `mL`, ...).
    public let unitString: String

    /// Creates a unit from its string.
    public init(from unitString: String) {
        self.unitString = unitString
        super.init()
    }

    /// A count of items (tablets, puffs, doses).
    public static func count() -> HKUnit { HKUnit(from: "count") }
    /// Grams.
    public static func gram() -> HKUnit { HKUnit(from: "g") }
    /// Milligrams.
    public static func milligram() -> HKUnit { HKUnit(from: "mg") }
    /// Liters.
    public static func liter() -> HKUnit { HKUnit(from: "L") }
    /// Milliliters.
    public static func milliliter() -> HKUnit { HKUnit(from: "mL") }
    /// International units.
    public static func internationalUnit() -> HKUnit { HKUnit(from: "IU") }

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

    /// The amount in a unit; traps, as HealthKit does, when the unit is not this quantity's.
    public func doubleValue(for unit: HKUnit) -> Double {
        precondition(unit == self.unit, "HKQuantity: \(self.unit) is not compatible with \(unit)")
        return value
    }

    /// Whether the quantity is in a unit.
    public func `is`(compatibleWith unit: HKUnit) -> Bool { unit == self.unit }

    /// Value and unit.
    public override var description: String { "\(value) \(unit)" }
}
