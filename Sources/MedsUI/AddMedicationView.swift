import MedsKit
import OpenHealthKit
import SwiftUIWeb

/// Adding a medication: search the RxNorm catalog as you type, choose one, give it a nickname and a schedule.
struct AddMedicationView: View {
    @Environment(MedsModel.self) private var model
    let done: () -> Void
    @State private var query = ""
    @State private var chosen: String?
    @State private var nickname = ""
    @State private var asNeeded = false
    @State private var times = "08:00"
    @State private var days: Set<Int> = Set(1...7)
    @State private var quantity = 1
    /// A liquid's dose, as typed, in the person's volume unit.
    @State private var volume = ""

    static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    var body: some View {
        VStack(alignment: .leading, spacing: 10) {
            Text("Add a medication").font(.title)
            TextField("Search medications", text: $query)
                .accessibilityLabel("Search the medication catalog")
            let results = model.search(query)
            if !query.isEmpty && results.isEmpty {
                Text("No medication in the catalog matches “\(query)”.").foregroundStyle(.secondary)
            }
            ForEach(results, id: \.rxcui) { entry in
                HStack {
                    Text(entry.displayName)
                    Spacer()
                    Button(chosen == entry.rxcui ? "Chosen" : "Choose") { chosen = entry.rxcui }
                        .accessibilityLabel("Choose \(entry.displayName)")
                }
            }
            if let chosen, let entry = model.catalog.entry(rxcui: chosen) {
                Section("Details") {
                    Text("\(entry.displayName) (RxNorm \(entry.rxcui))")
                    TextField("Nickname (optional)", text: $nickname)
                    Toggle("Take as needed", isOn: $asNeeded)
                    if !asNeeded {
                        TextField("Times (08:00, 20:00)", text: $times)
                        HStack {
                            ForEach(1...7, id: \.self) { day in
                                Toggle(
                                    Self.dayNames[day - 1],
                                    isOn: Binding(
                                        get: { days.contains(day) },
                                        set: { on in
                                            if on { days.insert(day) } else { days.remove(day) }
                                        }))
                            }
                        }
                        if DoseAmount.isVolume(form: entry.generalForm.rawValue) {
                            TextField("Dose in \(model.preferences.volumeUnit.rawValue)", text: $volume)
                        } else {
                            Stepper("\(quantity) per dose", value: $quantity, in: 1...20)
                        }
                    }
                    Button("Add Medication") { add(entry) }
                }
            }
        }
    }

    func add(_ entry: MedicationCatalogEntry) {
        var amount = Double(quantity)
        if !asNeeded && DoseAmount.isVolume(form: entry.generalForm.rawValue) {
            do { amount = try model.preferences.volumeUnit.milliliters(typed: volume) } catch {
                model.message = (error as? MedsError)?.message ?? error.localizedDescription
                return
            }
        }
        let form = MedsModel.NewMedication(
            rxcui: entry.rxcui, nickname: nickname, weekdays: asNeeded ? nil : days, times: times, quantity: amount)
        Task {
            if await model.addMedication(form) {
                query = ""
                chosen = nil
                nickname = ""
                volume = ""
                done()
            }
        }
    }
}
