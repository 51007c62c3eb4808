import Foundation
import OpenHealthKit

/// What a schedule form holds while the person fills it in (adding a medication, or changing one's schedule): as
/// needed, or times on chosen weekdays or every N days, and each dose's amount, a count or a typed volume.
public struct ScheduleDraft: Hashable, Sendable {
    /// Taken as needed: no times.
    public var asNeeded = false
    /// The times typed ("08:00, 20:00").
    public var times = "08:00"
    /// The weekdays (1 = Sunday), when it does not repeat every N days.
    public var weekdays: Set<Int> = Set(1...7)
    /// Whether it repeats every ``everyDays`` days instead of on weekdays.
    public var repeatsEveryDays = false
    /// How many days apart, when it repeats every N days.
    public var everyDays = 2
    /// Each dose of a counted form (tablets, puffs).
    public var count = 1
    /// Each dose of a liquid, as typed in the person's volume unit.
    public var volume = ""

    /// An empty draft: every day at 08:00, one of the form.
    public init() {}

    /// The draft of a medication's schedule as it is, its liquid doses in `volumeUnit`. The form has one amount for
    /// every time, as Meds makes schedules; a schedule another app gave different amounts at different times shows
    /// the first time's, and saving gives every time that amount.
    public init(_ item: MedicationItem, volumeUnit: VolumeUnit) {
        guard let schedule = item.schedule, schedule.hasSchedule else {
            asNeeded = true
            return
        }
        times = schedule.times.map(ScheduleText.clock).joined(separator: ", ")
        switch schedule.frequency {
        case .weekdays(let days): weekdays = days
        case .everyNDays(let interval, _, _, _):
            repeatsEveryDays = true
            everyDays = interval
        case .asNeeded: asNeeded = true
        }
        let quantity = schedule.times.first?.quantity ?? 1
        if DoseAmount.isVolume(form: item.form) {
            volume = volumeUnit.number(fromMilliliters: quantity)
        } else {
            count = Int(quantity.rounded())
        }
    }

    /// The model's form for a medication of `generalForm` (its dose a volume typed in `volumeUnit`, or a count);
    /// throws naming what is wrong with the draft (the schedule itself is checked when the form is used).
    public func form(
        rxcui: String, nickname: String, generalForm: String, volumeUnit: VolumeUnit
    ) throws
        -> MedsModel.NewMedication
    {
        var quantity = Double(count)
        if !asNeeded && DoseAmount.isVolume(form: generalForm) {
            quantity = try volumeUnit.milliliters(typed: volume)
        }
        return MedsModel.NewMedication(
            rxcui: rxcui, nickname: nickname, weekdays: asNeeded ? nil : weekdays,
            everyDays: repeatsEveryDays ? everyDays : nil, times: times, quantity: quantity)
    }
}
