import Testing

@testable import MedicationsSample
@testable import OpenHealthKit

@Suite struct TypesTests {
    @Test func rawValuesMatchHealthKit() {
        #expect(HKMedicationDoseEvent.LogStatus.allCases.map(\.rawValue) == [1, 2, 3, 4, 5, 6])
        #expect(HKMedicationDoseEvent.LogStatus.notLogged.rawValue == 6)
        #expect(HKMedicationDoseEvent.ScheduleType.asNeeded.rawValue == 1)
        #expect(HKMedicationDoseEvent.ScheduleType.schedule.rawValue == 2)
        #expect(HKCategoryValueSeverity.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
        #expect(HKMedicationGeneralForm.known.count == 18 && Set(HKMedicationGeneralForm.known).count == 18)
        #expect(HKCategoryTypeIdentifier.headache.rawValue == "HKCategoryTypeIdentifierHeadache")
        #expect(Set(HKCategoryTypeIdentifier.allSymptoms).count == HKCategoryTypeIdentifier.allSymptoms.count)
    }

    /// An app shows `error.localizedDescription`; as on Apple's systems it is the error's message, and the error
    /// is an `NSError` in `HKErrorDomain` with HealthKit's code.
    @Test func errorsBridgeToNSErrorWithTheirMessage() {
        let error: any Error = HKError(.errorInvalidArgument, "medication rxnorm:1 is already in the list")
        #expect(error.localizedDescription == "medication rxnorm:1 is already in the list")
        let bridged = error as NSError
        #expect(bridged.domain == HKErrorDomain && bridged.code == 3)
        #expect(bridged.localizedDescription == "medication rxnorm:1 is already in the list")
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

    @Test func unitsOfDoseQuantitiesConvert() {
        #expect(HKUnit.gramUnit(with: .milli) == HKUnit(from: "mg"))
        #expect(HKUnit.gramUnit(with: .micro).unitString == "mcg")
        #expect(HKUnit.literUnit(with: .milli) == .milliliter())
        let dose = HKQuantity(unit: .gramUnit(with: .milli), doubleValue: 500)
        #expect(dose.doubleValue(for: .gram()) == 0.5)
        #expect(dose.doubleValue(for: .gramUnit(with: .micro)) == 500_000)
        #expect(dose.doubleValue(for: .milligram()) == 500)
        #expect(dose.is(compatibleWith: .gramUnit(with: .kilo)))
        #expect(!dose.is(compatibleWith: .milliliter()))
        #expect(!dose.is(compatibleWith: .count()))
        #expect(HKQuantity(unit: .literUnit(with: .milli), doubleValue: 250).doubleValue(for: .liter()) == 0.25)
        #expect(HKQuantity(unit: .literUnit(with: .deci), doubleValue: 1).doubleValue(for: .milliliter()) == 100)
        #expect(HKQuantity(unit: .count(), doubleValue: 2).doubleValue(for: .count()) == 2)
        #expect(HKQuantity(unit: .internationalUnit(), doubleValue: 10).is(compatibleWith: .internationalUnit()))
        #expect(!HKQuantity(unit: .internationalUnit(), doubleValue: 10).is(compatibleWith: .count()))
        #expect(HKQuantity(unit: HKUnit(from: "puff"), doubleValue: 2).is(compatibleWith: HKUnit(from: "puff")))
        #expect(!HKQuantity(unit: HKUnit(from: "puff"), doubleValue: 2).is(compatibleWith: .count()))
        #expect(dose.compare(HKQuantity(unit: .gram(), doubleValue: 1)) == .orderedAscending)
        #expect(dose == HKQuantity(unit: .gram(), doubleValue: 0.5))
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
        // A character that is no hex digit, at every digit's place (including bytes outside ASCII).
        let good = Array("E621E1F8-C36C-495A-93FC-0C247A3E6E5F".utf8)
        for place in good.indices where good[place] != UInt8(ascii: "-") {
            for bad in [UInt8(ascii: "g"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "@"), 0xC3] {
                var text = good
                text[place] = bad
                #expect(RecordMapping.parseUUID(String(decoding: text, as: UTF8.self)) == nil, "\(place)")
            }
        }
    }

    @Test func displayNamePrefersNonEmptyNickname() {
        let concept = MedicationCatalog.bundled.entries[0].concept
        #expect(
            HKUserAnnotatedMedication(nickname: "Pain", isArchived: false, hasSchedule: false, medication: concept)
                .displayName == "Pain")
        #expect(
            HKUserAnnotatedMedication(nickname: " ", isArchived: false, hasSchedule: false, medication: concept)
                .displayName == concept.displayText)
        #expect(
            HKUserAnnotatedMedication(nickname: nil, isArchived: false, hasSchedule: false, medication: concept)
                .displayName == concept.displayText)
    }

    @Test func sideEffectsUseOnlyRxNormCodings() {
        func concept(_ codings: Set<HKClinicalCoding>) -> HKMedicationConcept {
            HKMedicationConcept(
                identifier: .init(domain: .medication, identifier: "x"), displayText: "x", generalForm: .tablet,
                relatedCodings: codings)
        }
        let rx = HKClinicalCoding.rxNormSystem
        #expect(
            SideEffects.symptoms(for: concept([.init(system: rx, version: nil, code: "1665229")])).map(\.categoryID)
                == [.headache, .diarrhea, .nausea, .generalizedBodyAche])
        #expect(
            SideEffects.symptoms(for: concept([.init(system: "http://snomed.info/sct", version: nil, code: "1665229")]))
                .isEmpty)
        let both = SideEffects.symptoms(
            for: concept([
                .init(system: rx, version: nil, code: "198439"), .init(system: rx, version: nil, code: "1012918"),
            ]))
        #expect(both.map(\.categoryID) == [.constipation, .nausea, .dizziness, .headache])  // sorted by code, no duplicates
        #expect(SideEffects.symptoms(for: MedicationCatalog.bundled.entry(rxcui: "1665229")!.concept).count == 4)
    }
}
