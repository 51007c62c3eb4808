import Foundation
import OpenHealthKit

/// The unit a liquid's doses are shown and typed in (Settings ▸ Units). Doses are stored in millilitres whichever
/// is chosen.
public enum VolumeUnit: String, CaseIterable, Hashable, Sendable {
    /// Millilitres.
    case milliliters = "mL"
    /// Teaspoons of 5 mL, the measuring spoon's size.
    case teaspoons = "tsp"

    /// Millilitres in a teaspoon.
    public static let millilitersPerTeaspoon = 5.0

    /// The name shown in Settings.
    public var title: String {
        switch self {
        case .milliliters: "Millilitres (mL)"
        case .teaspoons: "Teaspoons (tsp, 5 mL)"
        }
    }

    /// An amount in millilitres, in this unit.
    public func fromMilliliters(_ milliliters: Double) -> Double {
        self == .milliliters ? milliliters : milliliters / Self.millilitersPerTeaspoon
    }

    /// An amount in millilitres as a number in this unit, to two decimals without needless zeros ("1.5").
    public func number(fromMilliliters milliliters: Double) -> String {
        ScheduleText.quantityText((fromMilliliters(milliliters) * 100).rounded() / 100)
    }

    /// An amount in this unit, in millilitres.
    public func toMilliliters(_ amount: Double) -> Double {
        self == .milliliters ? amount : amount * Self.millilitersPerTeaspoon
    }

    /// A dose typed in this unit ("5", "2,5", " 1.5 "), in millilitres; throws naming the text when it is not a
    /// number. (The range is checked where the dose is used.)
    public func milliliters(typed text: String) throws -> Double {
        let number = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
        guard let value = Double(number), value.isFinite else {
            throw MedsError("Give the dose in \(rawValue) as a number, such as 5; “\(text)” is not one.")
        }
        return toMilliliters(value)
    }
}

/// How much one dose is: a liquid's doses are volumes (millilitres, stored with HealthKit's `mL` unit); every
/// other form's are counts of its units (tablets, capsules, puffs), stored as `count`.
public enum DoseAmount {
    /// Whether a medication of this general form is measured by volume.
    public static func isVolume(form: String) -> Bool { form == HKMedicationGeneralForm.liquid.rawValue }

    /// The unit a dose event of this form is logged in.
    public static func unit(form: String) -> HKUnit { isVolume(form: form) ? .milliliter() : .count() }

    /// A dose's amount in words: "5 mL" or "1 tsp" for a liquid, "×2" for two of a counted form, and "" for one.
    public static func text(_ quantity: Double, form: String, volumeUnit: VolumeUnit) -> String {
        guard isVolume(form: form) else { return quantity == 1 ? "" : "×\(ScheduleText.quantityText(quantity))" }
        return "\(volumeUnit.number(fromMilliliters: quantity)) \(volumeUnit.rawValue)"
    }
}
