import MedsKit
import SwiftUIWeb

/// A schedule's fields, shared by adding a medication and changing its schedule: as needed, or times on chosen
/// weekdays or every N days, and each dose's amount (a count, or a liquid's volume in the person's unit).
struct ScheduleFields: View {
    @Environment(MedsModel.self) private var model
    @Binding var draft: ScheduleDraft
    /// The medication's general form ("tablet", "liquid").
    let form: String

    var body: some View {
        Toggle("Take as needed", isOn: $draft.asNeeded)
        if !draft.asNeeded {
            TextField("Times (08:00, 20:00)", text: $draft.times)
            Toggle("Every few days, not on weekdays", isOn: $draft.repeatsEveryDays)
            if draft.repeatsEveryDays {
                Stepper("Every \(draft.everyDays) days, from today", value: $draft.everyDays, in: 2...365)
            } else {
                HStack {
                    ForEach(1...7, id: \.self) { day in
                        Toggle(
                            ScheduleText.weekdayNames[day - 1],
                            isOn: Binding(
                                get: { draft.weekdays.contains(day) },
                                set: { on in
                                    if on { draft.weekdays.insert(day) } else { draft.weekdays.remove(day) }
                                }))
                    }
                }
            }
            if DoseAmount.isVolume(form: form) {
                TextField("Dose in \(model.preferences.volumeUnit.rawValue)", text: $draft.volume)
            } else {
                Stepper("\(draft.count) per dose", value: $draft.count, in: 1...20)
            }
        }
    }
}
