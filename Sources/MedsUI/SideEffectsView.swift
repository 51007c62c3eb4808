import Foundation
import MedsKit
import OpenHealthKit
import SwiftUIWeb

/// A medication's side effects, in its window: each symptom the person has logged against it, how often and how it
/// was the last time, with the emoji scale to log it again; and any other symptom, logged against it the same way.
/// (The HealthKit talk's sample shows the side effects it knows for a medication and logs one with an emoji; here
/// the list is what the person noted: see ``SideEffect``.)
struct SideEffectsView: View {
    @Environment(MedsModel.self) private var model
    let medication: MedicationItem
    @State private var sideEffects: [SideEffect] = []
    @State private var another = HKCategoryTypeIdentifier.headache.rawValue

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text("Side effects").font(.headline)
            if sideEffects.isEmpty {
                Text("None logged with this medication yet.").foregroundStyle(.secondary)
            }
            ForEach(sideEffects) { effect in
                VStack(alignment: .leading, spacing: 4) {
                    Text("\(SymptomScale.emoji(effect.latest.severity)) \(effect.name)")
                    Text(summary(effect)).foregroundStyle(.secondary)
                    scale(effect.type)
                }
            }
            Picker("Another symptom", selection: $another) {
                ForEach(SymptomScale.all, id: \.rawValue) { Text(SymptomScale.name(of: $0)).tag($0.rawValue) }
            }
            scale(HKCategoryTypeIdentifier(another))
        }
        // Read again whenever the model changes (a symptom logged or deleted in any window, a sync).
        .task(id: model.revision) {
            do { sideEffects = try await model.sideEffects(of: medication.id) } catch {
                model.message = error.localizedDescription
            }
        }
    }

    /// "2 times; last: mild, Tue 10 Mar 08:05".
    private func summary(_ effect: SideEffect) -> String {
        let times = effect.timesPresent == 1 ? "1 time" : "\(effect.timesPresent) times"
        let when = ClockFormat.formatter(model.preferences.timeZone, ClockFormat.dayAndTime).string(
            from: effect.latest.date)
        return "\(times); last: \(effect.latest.severity.title), \(when)"
    }

    /// The emoji scale, each button logging `type` against the medication now.
    private func scale(_ type: HKCategoryTypeIdentifier) -> some View {
        SeverityButtons(type: type, medicationID: medication.id) {
            "Log \(SymptomScale.name(of: type)) with \(medication.name): \($0.title)"
        }
    }
}
