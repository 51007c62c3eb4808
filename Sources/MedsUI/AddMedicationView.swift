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
    @State private var draft = ScheduleDraft()

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
                    ScheduleFields(draft: $draft, form: entry.generalForm.rawValue)
                    Button("Add Medication") { add(entry) }
                }
            }
        }
    }

    func add(_ entry: MedicationCatalogEntry) {
        Task {
            if await model.addMedication(rxcui: entry.rxcui, nickname: nickname, draft: draft) {
                query = ""
                chosen = nil
                nickname = ""
                draft = ScheduleDraft()
                done()
            }
        }
    }
}
