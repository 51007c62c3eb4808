import Testing
@testable import OpenHealthKit

/// A host that remembers what it was asked and answers from a mutable policy.
final class RecordingHandler: HKAuthorizationHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var _asked: [(bundle: String, medications: [String])] = []
    private var _typeRequests = 0
    private var _denied: Set<String> = []

    var asked: [(bundle: String, medications: [String])] { lock.withLock { _asked } }
    var typeRequests: Int { lock.withLock { _typeRequests } }
    func deny(_ concept: String) { lock.withLock { _ = _denied.insert(concept) } }

    func perObjectReadAuthorization(bundleIdentifier: String, medications: [HKUserAnnotatedMedication],
                                    current: Set<String>) async -> Set<HKHealthConceptIdentifier> {
        lock.withLock {
            _asked.append((bundleIdentifier, medications.map(\.medication.identifier.identifier)))
            return Set(medications.map(\.medication.identifier).filter { !_denied.contains($0.identifier) })
        }
    }

    func typeAuthorization(bundleIdentifier: String, toShare: Set<HKSampleType>,
                           read: Set<HKObjectType>) async -> (share: Set<HKSampleType>, read: Set<HKObjectType>) {
        lock.withLock { _typeRequests += 1 }
        return (toShare, read)
    }
}

@Suite struct AuthorizationTests {
    func store(_ handler: RecordingHandler) throws -> (StoreFixture, HKHealthAppEditor, URL) {
        let f = try StoreFixture()
        let editor = try HKHealthAppEditor(storeURL: f.url, authorizationHandler: handler)
        return (f, editor, f.url)
    }

    @Test func perObjectTypeInTypeRequestIsAnInvalidArgument() async throws {
        let handler = RecordingHandler()
        let (f, _, url) = try store(handler)
        let app = try HKHealthStore(storeURL: url, bundleIdentifier: "com.example.app", authorizationHandler: handler)
        do {
            try await app.requestAuthorization(toShare: [HKCategoryType(.nausea)], read: [.userAnnotatedMedicationType(), HKCategoryType(.nausea)])
            Issue.record("a per-object type was accepted by requestAuthorization(toShare:read:)")
        } catch let error as HKError {
            #expect(error.code == .errorInvalidArgument)
            #expect(error.message.contains("requestPerObjectReadAuthorization"))
        }
        #expect(handler.typeRequests == 0) // rejected before the person is asked
        #expect(app.authorizationStatus(for: HKCategoryType(.nausea)) == .notDetermined)
        do {
            try await app.requestPerObjectReadAuthorization(for: HKCategoryType(.nausea), predicate: nil)
            Issue.record("a sample type was accepted by requestPerObjectReadAuthorization")
        } catch let error as HKError {
            #expect(error.code == .errorInvalidArgument)
        }
        _ = f
    }

    @Test func unauthorizedMedicationsAndTheirDosesAreInvisibleEverywhere() async throws {
        let handler = RecordingHandler()
        let (f, editor, url) = try store(handler)
        let cipro = f.concept("1665229"), tylenol = f.concept("313782")
        for concept in [cipro, tylenol] { try await editor.addMedication(concept) }
        handler.deny(cipro.identifier.identifier)
        let app = try HKHealthStore(storeURL: url, bundleIdentifier: "com.example.app", authorizationHandler: handler)
        try await app.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)
        #expect(handler.asked.last?.medications.sorted() == [cipro, tylenol].map(\.identifier.identifier).sorted())
        let hidden = try editor.logDose(.init(medication: cipro.identifier, status: .taken, date: date(2026, 5, 1)))
        try editor.logDose(.init(medication: tylenol.identifier, status: .taken, date: date(2026, 5, 1)))
        #expect(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: app).map(\.medication) == [tylenol])
        let byID = HKQuery.predicateForObjects(with: [hidden.uuid])
        #expect(try await HKSampleQueryDescriptor(predicates: [.medicationDoseEvent(byID)], sortDescriptors: []).result(for: app).isEmpty)
        let anchored = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: nil).result(for: app)
        #expect(anchored.addedSamples.map(\.medicationConceptIdentifier) == [tylenol.identifier])
        // Its deletion is not reported either.
        try editor.deleteDose(hidden)
        let later = try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: anchored.newAnchor).result(for: app)
        #expect(later.deletedObjects.isEmpty && later.addedSamples.isEmpty)
        // The Health app itself sees everything.
        #expect(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: editor.store).count == 2)
    }

    @Test func medicationsAddedTogetherAreAllAddedOrNoneAndAskedAboutOnce() async throws {
        let handler = RecordingHandler()
        let (f, editor, url) = try store(handler)
        let tylenol = f.concept("313782"), amox = f.concept("313820"), cipro = f.concept("1665229")
        try await editor.addMedication(tylenol)
        let app = try HKHealthStore(storeURL: url, bundleIdentifier: "com.example.app", authorizationHandler: handler)
        try await app.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)
        // One already in the list: refused by name, and the one before it in the batch is not added either.
        do {
            try await editor.addMedications([.init(concept: amox), .init(concept: tylenol)])
            Issue.record("a batch with a medication already in the list was accepted")
        } catch let error as HKError {
            #expect(error.code == .errorInvalidArgument && error.localizedDescription.contains("313782"))
        }
        // Twice in one batch: refused before anything is written.
        await #expect(throws: HKError.self) {
            try await editor.addMedications([.init(concept: amox), .init(concept: amox)])
        }
        #expect(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: editor.store).map(\.medication) == [tylenol])
        // A good batch: both added, and the app asked once, about both.
        let before = handler.asked.count
        let added = try await editor.addMedications([.init(concept: amox, nickname: "Amox"), .init(concept: cipro)])
        #expect(added.map(\.medication) == [amox, cipro] && added[0].nickname == "Amox")
        #expect(handler.asked.count == before + 1)
        #expect(handler.asked.last?.medications.sorted() == [amox, cipro].map(\.identifier.identifier).sorted())
        #expect(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: editor.store).count == 3)
    }

    @Test func aNewMedicationAsksAgainEveryAppThatRequestedAccess() async throws {
        let handler = RecordingHandler()
        let (f, editor, url) = try store(handler)
        try await editor.addMedication(f.concept("313782"))
        let app = try HKHealthStore(storeURL: url, bundleIdentifier: "com.example.app", authorizationHandler: handler)
        let bystander = try HKHealthStore(storeURL: url, bundleIdentifier: "com.example.bystander", authorizationHandler: handler)
        try await app.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)
        let before = handler.asked.count

        let amox = f.concept("313820")
        handler.deny(amox.identifier.identifier)
        try await editor.addMedication(amox)
        // Only the app that asked for medications is asked, and only about the new one.
        #expect(handler.asked.count == before + 1)
        #expect(handler.asked.last?.bundle == "com.example.app")
        #expect(handler.asked.last?.medications == [amox.identifier.identifier])
        #expect(!(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: app).map(\.medication).contains(amox)))

        let cipro = f.concept("1665229")
        try await editor.addMedication(cipro)
        #expect(handler.asked.last?.medications == [cipro.identifier.identifier])
        #expect(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: app).map(\.medication).contains(cipro))
        try editor.logDose(.init(medication: cipro.identifier, status: .taken, date: date(2026, 5, 2)))
        try editor.logDose(.init(medication: amox.identifier, status: .taken, date: date(2026, 5, 2)))
        let doses = try await HKSampleQueryDescriptor(predicates: [.medicationDoseEvent()], sortDescriptors: []).result(for: app)
        #expect(doses.map(\.medicationConceptIdentifier) == [cipro.identifier])
        #expect(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: bystander).isEmpty)
        #expect(try await HKSampleQueryDescriptor(predicates: [.medicationDoseEvent()], sortDescriptors: []).result(for: bystander).isEmpty)
    }

    @Test func symptomTypesNeedTheirOwnPermission() async throws {
        let handler = RecordingHandler()
        let (f, editor, url) = try store(handler)
        defer { withExtendedLifetime(f) {} } // the fixture owns the store's folder
        let app = try HKHealthStore(storeURL: url, bundleIdentifier: "com.example.app", authorizationHandler: handler)
        let other = try HKHealthStore(storeURL: url, bundleIdentifier: "com.example.other", authorizationHandler: handler)
        let headache = HKCategoryType(.headache)
        try await app.requestAuthorization(toShare: [headache], read: [headache])
        try await app.save(HKCategorySample(type: headache, value: HKCategoryValueSeverity.moderate.rawValue, start: date(2026, 5, 1), end: date(2026, 5, 1)))
        // Another app neither reads it nor learns why; it cannot save without permission.
        #expect(try await HKSampleQueryDescriptor(predicates: [.categorySample(type: headache)], sortDescriptors: []).result(for: other).isEmpty)
        let sample = HKCategorySample(type: headache, value: 1, start: date(2026, 5, 1), end: date(2026, 5, 1))
        await #expect(throws: HKError.self) { try await other.save(sample) }
        #expect(try await HKSampleQueryDescriptor(predicates: [.categorySample(type: headache)], sortDescriptors: []).result(for: editor.store).count == 1)
    }

    /// A connection caches what its app may see per authorization generation; a decision made through
    /// another connection (here: the app restarted and asked again) moves the generation, so the old
    /// connection stops showing withheld data at once, whether few or most medications are withheld.
    @Test func revokedMedicationsDisappearAtOnceFromEveryConnection() async throws {
        let handler = RecordingHandler()
        let (f, editor, url) = try store(handler)
        let cipro = f.concept("1665229"), tylenol = f.concept("313782"), amox = f.concept("313820")
        for concept in [cipro, tylenol, amox] { try await editor.addMedication(concept) }
        let app = try HKHealthStore(storeURL: url, bundleIdentifier: "com.example.app", authorizationHandler: handler)
        try await app.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)
        for concept in [cipro, tylenol, amox] {
            try editor.logDose(.init(medication: concept.identifier, status: .taken, date: date(2026, 5, 1)))
        }
        func visible(_ store: HKHealthStore) async throws -> Set<String> {
            Set(try await HKSampleQueryDescriptor(predicates: [.medicationDoseEvent()], sortDescriptors: []).result(for: store)
                .map(\.medicationConceptIdentifier.identifier))
        }
        func anchored(_ store: HKHealthStore, after anchor: HKQueryAnchor? = nil) async throws -> HKAnchoredObjectQueryDescriptor<HKMedicationDoseEvent>.Result {
            try await HKAnchoredObjectQueryDescriptor(predicates: [.medicationDoseEvent()], anchor: anchor, limit: 10).result(for: store)
        }
        let ids = [cipro, tylenol, amox].map(\.identifier.identifier)
        #expect(try await visible(app) == Set(ids))
        #expect(try await anchored(app).addedSamples.count == 3)

        handler.deny(ids[0])
        let restarted = try HKHealthStore(storeURL: url, bundleIdentifier: "com.example.app", authorizationHandler: handler)
        try await restarted.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)
        #expect(try await visible(app) == [ids[1], ids[2]])
        #expect(Set(try await anchored(app).addedSamples.map(\.medicationConceptIdentifier.identifier)) == [ids[1], ids[2]])

        handler.deny(ids[2])
        try await restarted.requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate: nil)
        #expect(try await visible(app) == [ids[1]])
        let start = try await anchored(app)
        #expect(start.addedSamples.map(\.medicationConceptIdentifier.identifier) == [ids[1]])

        // Deleting a withheld medication tells the app nothing about its doses.
        try editor.deleteMedication(cipro.identifier)
        let after = try await anchored(app, after: start.newAnchor)
        #expect(after.addedSamples.isEmpty && after.deletedObjects.isEmpty)
        // A new medication is asked about, and its doses appear once granted.
        let ibuprofen = try #require(f.catalog.search("ibuprofen").first).concept
        try await editor.addMedication(ibuprofen)
        let dose = try editor.logDose(.init(medication: ibuprofen.identifier, status: .taken, date: date(2026, 5, 2)))
        #expect(try await anchored(app, after: start.newAnchor).addedSamples.map(\.uuid) == [dose.uuid])
    }
}
