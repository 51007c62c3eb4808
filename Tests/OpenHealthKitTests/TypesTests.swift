import Testing
@testable import OpenHealthKit

@Suite struct TypesTests {
    @Test func rawValuesMatchHealthKit() {
        #expect(HKMedicationDoseEvent.LogStatus.allCases.map(\.rawValue) == [1, 2, 3, 4, 5, 6])
        #expect(HKMedicationDoseEvent.LogStatus.notLogged.rawValue == 6)
        #expect(HKMedicationDoseEvent.ScheduleType.asNeeded.rawValue == 1)
        #expect(HKMedicationDoseEvent.ScheduleType.schedule.rawValue == 2)
        #expect(HKCategoryValueSeverity.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
        #expect(HKMedicationGeneralForm.allCases.count == 18)
        #expect(HKCategoryTypeIdentifier.headache.rawValue == "HKCategoryTypeIdentifierHeadache")
        #expect(Set(HKCategoryTypeIdentifier.allSymptoms).count == HKCategoryTypeIdentifier.allSymptoms.count)
    }

    @Test func perObjectAuthorizationTypes() {
        #expect(HKObjectType.userAnnotatedMedicationType().requiresPerObjectAuthorization())
        #expect(!HKObjectType.medicationDoseEventType().requiresPerObjectAuthorization())
        #expect(!HKCategoryType(.nausea).requiresPerObjectAuthorization())
        #expect(HKCategoryType(.nausea) == HKObjectType.categoryType(forIdentifier: .nausea))
    }

    @Test func anchorsRoundTrip() throws {
        let anchor = HKQueryAnchor(sequence: 123_456_789)
        #expect(try HKQueryAnchor(data: anchor.data) == anchor)
        let json = try JSONEncoder().encode(anchor)
        #expect(try JSONDecoder().decode(HKQueryAnchor.self, from: json) == anchor)
        #expect(throws: HKError.self) { try HKQueryAnchor(data: Data([1, 2, 3])) }
    }

    @Test func storedUUIDsParseLikeFoundation() {
        for _ in 0..<100 {
            let uuid = UUID()
            #expect(RecordMapping.parseUUID(uuid.uuidString) == uuid)
            #expect(RecordMapping.parseUUID(uuid.uuidString.lowercased()) == uuid)
        }
        #expect(RecordMapping.parseUUID("not a uuid") == nil)
        #expect(RecordMapping.parseUUID("E621E1F8-C36C-495A-93FC-0C247A3E6E5FX") == nil)
        #expect(RecordMapping.parseUUID("E621E1F8+C36C-495A-93FC-0C247A3E6E5F") == nil)
        #expect(RecordMapping.parseUUID("G621E1F8-C36C-495A-93FC-0C247A3E6E5F") == nil)
    }

    @Test func displayNamePrefersNonEmptyNickname() {
        let concept = MedicationCatalog.bundled.entries[0].concept
        #expect(HKUserAnnotatedMedication(nickname: "Pain", isArchived: false, hasSchedule: false, medication: concept).displayName == "Pain")
        #expect(HKUserAnnotatedMedication(nickname: " ", isArchived: false, hasSchedule: false, medication: concept).displayName == concept.displayText)
        #expect(HKUserAnnotatedMedication(nickname: nil, isArchived: false, hasSchedule: false, medication: concept).displayName == concept.displayText)
    }

    @Test func sideEffectsUseOnlyRxNormCodings() {
        func concept(_ codings: Set<HKClinicalCoding>) -> HKMedicationConcept {
            HKMedicationConcept(identifier: .init(domain: .medication, identifier: "x"), displayText: "x", generalForm: .tablet, relatedCodings: codings)
        }
        let rx = HKClinicalCoding.rxNormSystem
        #expect(SideEffects.symptoms(for: concept([.init(system: rx, version: nil, code: "1665229")])).map(\.categoryID)
                == [.headache, .diarrhea, .nausea, .generalizedBodyAche])
        #expect(SideEffects.symptoms(for: concept([.init(system: "http://snomed.info/sct", version: nil, code: "1665229")])).isEmpty)
        let both = SideEffects.symptoms(for: concept([.init(system: rx, version: nil, code: "198439"), .init(system: rx, version: nil, code: "1012918")]))
        #expect(both.map(\.categoryID) == [.constipation, .nausea, .dizziness, .headache]) // sorted by code, no duplicates
        #expect(SideEffects.symptoms(for: MedicationCatalog.bundled.entry(rxcui: "1665229")!.concept).count == 4)
    }
}
