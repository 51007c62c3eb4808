import Testing
@testable import OpenHealthKit
@testable import MedicationsSample

@Suite struct ExampleFlowTests {
    @Test func symptomIntensityStoresMatchingSeverity() {
        #expect(SymptomIntensity.allCases.map(\.severity) == [.notPresent, .mild, .moderate, .severe, .severe])
        #expect(SymptomIntensity.mild.severity != HKCategoryValueSeverity(rawValue: SymptomIntensity.mild.rawValue))
    }

    @Test func sampleAppFlows() async throws {
        let f = try StoreFixture(withheld: ["rxnorm:313782"])
        let cipro = f.concept("1665229"), tylenol = f.concept("313782"), amox = f.concept("313820")
        for concept in [cipro, tylenol, amox] { try await f.editor.addMedication(concept) }
        let model = MedicationsModel(healthStore: try f.app())
        try await model.requestMedicationAuthorization()
        try await model.requestSymptomAuthorization()
        let medications = try await model.fetchMedications()
        #expect(Set(medications.map(\.medication.identifier)) == [cipro.identifier, amox.identifier])

        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        let now = date(2026, 5, 12, 18)
        try f.editor.logDose(.init(medication: cipro.identifier, status: .taken, date: date(2026, 5, 12, 7)))
        try f.editor.logDose(.init(medication: cipro.identifier, status: .taken, date: date(2026, 5, 12, 13)))
        try f.editor.logDose(.init(medication: cipro.identifier, status: .skipped, date: date(2026, 5, 12, 15), scheduledDate: date(2026, 5, 12, 15), scheduledQuantity: 1))
        try f.editor.logDose(.init(medication: cipro.identifier, status: .taken, date: date(2026, 5, 11, 13)))
        let last = try await model.mostRecentDose(for: cipro, now: now, calendar: calendar)
        #expect(last?.startDate == date(2026, 5, 12, 13))
        #expect(try await model.mostRecentDose(for: amox, now: now, calendar: calendar) == nil)
        #expect(try await model.mostRecentDose(for: tylenol, now: now, calendar: calendar) == nil) // not shared

        let effects = model.sideEffects(for: medications.first { $0.medication == cipro }!)
        #expect(effects.map(\.categoryID) == [.headache, .diarrhea, .nausea, .generalizedBodyAche])
        let sample = try await model.logSymptom(effects[0], intensity: .mild)
        #expect(sample.value == HKCategoryValueSeverity.mild.rawValue)

        let chart = DoseChartModel(healthStore: try f.app(), calendar: calendar)
        try await chart.refresh(for: cipro, from: date(2026, 5, 1, 0), to: date(2026, 5, 20, 0))
        #expect(chart.dosesPerDay.values.sorted() == [1, 2])
        let doomed = try await HKSampleQueryDescriptor(predicates: [.medicationDoseEvent(HKQuery.predicateForMedicationDoseEvent(status: .taken))],
                                                       sortDescriptors: [SortDescriptor(\.startDate)], limit: 1).result(for: f.editor.store)
        try f.editor.deleteDose(doomed[0])
        try await chart.refresh(for: cipro, from: date(2026, 5, 1, 0), to: date(2026, 5, 20, 0))
        #expect(chart.dosesPerDay.values.sorted() == [2])
    }
}
