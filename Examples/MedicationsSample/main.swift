import Foundation
import OpenHealthKit

// A walk through the sample app against a fresh store: the Health app adds medications and logs
// doses, the person shares two of three medications, the app lists them, shows today's last dose
// and side effects, logs a symptom and charts doses per day.
//
// With arguments it is instead a second process on an existing store (see HelperCommands.swift):
//   MedicationsSample log-dose STORE CONCEPT [COUNT]        the Health app logs COUNT taken doses
//   MedicationsSample changes STORE BUNDLE ANCHOR|-          an app reads changes since an archived anchor
if CommandLine.arguments.count > 1 {
    do {
        try await HelperCommands.run(Array(CommandLine.arguments.dropFirst()))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("MedicationsSample: \(error)\n".utf8))
        exit(1)
    }
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("MedicationsSample-\(UUID().uuidString)")
let storeURL = directory.appendingPathComponent("Health.sqlite")
defer { try? FileManager.default.removeItem(at: directory) }

let catalog = MedicationCatalog.bundled
let cipro = catalog.entry(rxcui: "1665229")!.concept
let tylenol = catalog.entry(rxcui: "313782")!.concept
let hidden = catalog.search("ibuprofen").first!.concept

// The host decides: share everything except the ibuprofen, and the symptom types.
let handler = HKClosureAuthorizationHandler(
    medications: { _, offered, _ in Set(offered.map(\.medication.identifier).filter { $0 != hidden.identifier }) },
    types: { _, share, read in (share, read) })

let editor = try HKHealthAppEditor(storeURL: storeURL, authorizationHandler: handler)
for concept in [cipro, tylenol, hidden] { try await editor.addMedication(concept) }
try editor.updateMedication(tylenol.identifier, nickname: "Pain relief")
let now = Date()
try editor.logDose(.init(medication: tylenol.identifier, status: .taken, date: now.addingTimeInterval(-3600)))
try editor.logDose(.init(medication: cipro.identifier, status: .skipped, date: now, scheduledDate: now, scheduledQuantity: 1))

let app = try HKHealthStore(storeURL: storeURL, bundleIdentifier: "com.example.MedicationsSample", authorizationHandler: handler)
let model = MedicationsModel(healthStore: app)
try await model.requestMedicationAuthorization()
try await model.requestSymptomAuthorization()

for medication in try await model.fetchMedications() {
    let last = try await model.mostRecentDose(for: medication.medication)
    print("\(medication.displayName): last taken today \(last.map { "\($0.startDate)" } ?? "—"); side effects: "
          + model.sideEffects(for: medication).map(\.name).joined(separator: ", "))
}
let headache = SideEffects.symptoms(for: cipro).first!
let sample = try await model.logSymptom(headache, intensity: .mild)
print("Logged \(headache.name) \(SymptomIntensity.mild.emoji) as severity \(HKCategoryValueSeverity(rawValue: sample.value)!)")

let chart = DoseChartModel(healthStore: app)
try await chart.refresh(for: tylenol, from: now.addingTimeInterval(-7 * 86400), to: now.addingTimeInterval(86400))
print("Doses per day:", chart.dosesPerDay.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" })
