import Foundation
import OpenHealthKit

/// A medication in a profile's list: the Health app's annotated medication with its schedule.
public struct MedicationItem: Identifiable, Hashable, Sendable {
    /// The concept identifier (`rxnorm:<code>` for catalog medications).
    public let id: String
    /// The name the catalog gives it.
    public let displayText: String
    /// The person's name for it, if any.
    public let nickname: String?
    /// Its form (tablet, capsule, ...).
    public let form: String
    /// Its RxNorm code, when it came from the catalog.
    public let rxcui: String?
    /// Archived medications are kept with their history but not shown on Today.
    public let isArchived: Bool
    /// When it is due.
    public let schedule: MedicationSchedule?

    /// The name shown: the nickname when there is one.
    public var name: String { nickname.flatMap { $0.isEmpty ? nil : $0 } ?? displayText }

    /// Creates an item.
    public init(
        id: String, displayText: String, nickname: String?, form: String, rxcui: String?, isArchived: Bool,
        schedule: MedicationSchedule?
    ) {
        self.id = id
        self.displayText = displayText
        self.nickname = nickname
        self.form = form
        self.rxcui = rxcui
        self.isArchived = isArchived
        self.schedule = schedule
    }

    /// The medication as the Today plan reads it.
    public var planEntry: TodayPlan.Medication {
        TodayPlan.Medication(id: id, name: name, schedule: schedule, isArchived: isArchived, form: form)
    }

    /// The schedule in words ("Every day at 08:00, 20:00", "As needed"), a liquid's doses in millilitres.
    public var scheduleSummary: String { scheduleSummary(in: .milliliters) }

    /// The schedule in words, a liquid's doses in `volumeUnit` ("Every day at 08:00 (1 tsp)").
    public func scheduleSummary(in volumeUnit: VolumeUnit) -> String {
        ScheduleText.summary(schedule, form: form, volumeUnit: volumeUnit)
    }
}

/// Schedules in words, and the times a person types parsed into a schedule.
public enum ScheduleText {
    /// Weekdays' short names, Sunday first (weekday 1).
    public static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// A dose time as "08:05".
    public static func clock(_ time: MedicationSchedule.DoseTime) -> String {
        String(format: "%02d:%02d", time.hour, time.minute)
    }

    /// The schedule in words, each time with its dose's amount when it is not one of a counted form (see
    /// ``DoseAmount``): "Mon, Wed at 09:00 (×2)", "Every day at 08:00 (5 mL)".
    public static func summary(
        _ schedule: MedicationSchedule?, form: String = "", volumeUnit: VolumeUnit = .milliliters
    ) -> String {
        guard let schedule, schedule.hasSchedule else { return "As needed" }
        let times = schedule.times.map { time -> String in
            let amount = DoseAmount.text(time.quantity, form: form, volumeUnit: volumeUnit)
            return amount.isEmpty ? clock(time) : "\(clock(time)) (\(amount))"
        }.joined(separator: ", ")
        switch schedule.frequency {
        case .weekdays(let days) where days.count == 7: return "Every day at \(times)"
        case .weekdays(let days):
            return days.sorted().map { weekdayNames[$0 - 1] }.joined(separator: ", ") + " at \(times)"
        case .everyNDays(let interval, _, _, _): return "Every \(interval) days at \(times)"
        case .asNeeded: return "As needed"
        }
    }

    /// A quantity without a needless ".0".
    public static func quantityText(_ quantity: Double) -> String {
        quantity == quantity.rounded() ? String(Int(quantity)) : String(quantity)
    }

    /// Times typed as "08:00, 20:30" (or "8, 20") into dose times of one unit each; the error names the part that
    /// is not a time.
    public static func times(_ text: String, quantity: Double = 1) throws -> [MedicationSchedule.DoseTime] {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == ";" }).map(String.init)
        guard !parts.isEmpty else { throw MedsError("Give at least one time of day, such as 08:00.") }
        var seen = Set<Int>()
        var times: [MedicationSchedule.DoseTime] = []
        for part in parts {
            let fields = part.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count <= 2, let hour = Int(fields[0]), hour >= 0, hour <= 23,
                let minute = fields.count == 2 ? Int(fields[1]) : 0, minute >= 0, minute <= 59,
                fields.count == 1 || fields[1].count == 2
            else { throw MedsError("\"\(part)\" is not a time of day; write it as 08:00 or 20:30.") }
            guard seen.insert(hour * 60 + minute).inserted else {
                throw MedsError("\(part) is given twice.")
            }
            times.append(try MedicationSchedule.DoseTime(hour: hour, minute: minute, quantity: quantity))
        }
        return times.sorted()
    }
}
