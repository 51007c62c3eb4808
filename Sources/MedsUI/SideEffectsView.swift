import Foundation
import MedsKit
import OpenHealthKit
import SwiftUIWeb

/// A medication's side effects, in its window, as the HealthKit talk's sample shows them: each symptom the person has
/// logged against it (how often, how it was the last time) and each the sample lists for its RxNorm code, with the
/// emoji scale to log it; and any other symptom, logged against it the same way. See ``SideEffect``.
struct SideEffectsView: View {
    @Environment(MedsModel.self) private var model
    let medication: MedicationItem
    @State private var sideEffects: [SideEffect] = []
    @State private var another = HKCategoryTypeIdentifier.headache.rawValue

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text("Side effects").font(.headline)
            if sideEffects.isEmpty {
                Text("None known or logged with this medication yet.").foregroundStyle(.secondary)
            }
            ForEach(sideEffects) { effect in
                VStack(alignment: .leading, spacing: 4) {
                    Text("\(effect.latest.map { SymptomScale.emoji($0.severity) } ?? "•") \(effect.name)")
                    Text(summary(effect)).foregroundStyle(.secondary)
                    scale(effect.type)
                }
            }
            Picker("Another symptom", selection: $another) {
                ForEach(SymptomScale.all, id: \.rawValue) { Text(SymptomScale.name(of: $0)).tag($0.rawValue) }
            }
            scale(HKCategoryTypeIdentifier(another))
        }
        // Read again whenever the symptoms may have changed (a symptom logged or deleted in any window, a sync).
        .task(id: model.symptomsRevision) {
            do { sideEffects = try await model.sideEffects(of: medication.id) } catch {
                model.message = error.localizedDescription
            }
        }
    }

    /// "2 times; last: mild, Tue 10 Mar 08:05", "Known side effect; 1 time; last: …", "Known side effect; not logged".
    private func summary(_ effect: SideEffect) -> String {
        let known = effect.isKnown ? "Known side effect; " : ""
        guard let latest = effect.latest else { return known + "not logged" }
        let times = effect.timesPresent == 1 ? "1 time" : "\(effect.timesPresent) times"
        let when = ClockFormat.formatter(model.preferences.timeZone, ClockFormat.dayAndTime).string(from: latest.date)
        return "\(known)\(times); last: \(latest.severity.title), \(when)"
    }

    /// The emoji scale, each button logging `type` against the medication now.
    private func scale(_ type: HKCategoryTypeIdentifier) -> some View {
        SeverityButtons(type: type, medicationID: medication.id) {
            "Log \(SymptomScale.name(of: type)) with \(medication.name): \($0.title)"
        }
    }
}
