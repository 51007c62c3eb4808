import Foundation
import MedsKit
import OpenCoreData
import OpenHealthKit
import Synchronization
import Testing

/// A clock a test moves by hand.
final class TestClock: Sendable {
    private let time: Mutex<Date>
    init(_ start: Date) { time = Mutex(start) }
    var now: Date { time.withLock { $0 } }
    func set(_ date: Date) { time.withLock { $0 = date } }
}

func temporaryFolder() -> URL {
    URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("meds-tests-" + UUID().uuidString)
}

/// The app's model against real stores in a temporary folder: medications from the catalog, dose logging and
/// undo, profiles kept apart, settings, and bad input that is refused with a message and changes nothing.
@MainActor @Suite struct MedsModelTests {
    static let zone = TodayPlanTests.zone
    // Acetaminophen 325 MG Oral Tablet and Ibuprofen 200 MG Oral Tablet, from the bundled RxNorm catalog.
    static let acetaminophen = "313782"

    func model(_ folder: URL, _ clock: TestClock) throws -> MedsModel {
        let model = try MedsModel(dataDirectory: folder, now: { clock.now })
        return model
    }

    func ibuprofen(_ model: MedsModel) throws -> MedicationCatalogEntry {
        try #require(model.search("ibuprofen 200").first { $0.generalForm == .tablet })
    }

    @Test func addLogUndoAndReopen() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let model = try model(folder, clock)
        #expect(await model.setPreferences(Preferences(timeZoneIdentifier: Self.zone.identifier)))
        #expect(model.profiles.map(\.name) == ["Me"])

        var form = MedsModel.NewMedication(rxcui: Self.acetaminophen, nickname: " Tylenol ", times: "08:00, 20:00")
        #expect(await model.addMedication(form))
        form.rxcui = try ibuprofen(model).rxcui
        form.weekdays = nil
        form.nickname = ""
        #expect(await model.addMedication(form))
        #expect(model.medications.map(\.name).sorted() == ["Ibuprofen 200 MG Oral Tablet", "Tylenol"])
        #expect(model.today.doses.map(\.state) == [.due, .upcoming])

        await model.answer(model.today.doses[0], .taken)
        #expect(model.message == nil)
        #expect(model.today.doses[0].state == .taken(at: clock.now))
        await model.logAsNeeded(try ibuprofen(model).concept.identifier.identifier)
        #expect(model.today.asNeeded[0].taken.count == 1)

        // Undo both: the scheduled dose is open again, the as-needed one gone.
        await model.undo(model.today.doses[0])
        #expect(model.today.doses[0].state == .due)
        await model.undo(model.today.asNeeded[0].taken[0])
        #expect(model.today.asNeeded[0].taken.isEmpty)
        await model.answer(model.today.doses[0], .skipped)

        // Everything is in the stores: a second model on the same folder sees it.
        let again = try self.model(folder, clock)
        await again.refresh()
        #expect(again.medications.count == 2)
        #expect(again.today.doses[0].state == .skipped(at: clock.now))
        #expect(again.preferences.timeZoneIdentifier == Self.zone.identifier)

        // Late at night: the morning dose is still skipped, the evening one missed... until it is taken at 00:30.
        clock.set(TodayPlanTests.date("2026-03-10 23:30"))
        await again.refresh()
        #expect(again.today.doses.map(\.state) == [.skipped(at: TodayPlanTests.date("2026-03-10 08:05")), .missed])
        let evening = again.today.doses[1]
        clock.set(TodayPlanTests.date("2026-03-11 00:30"))
        await again.answer(evening, .taken)
        #expect(again.message == nil)
        // Today is now Wednesday; Tuesday's plan keeps the dose taken.
        #expect(again.today.doses.allSatisfy { $0.state == .upcoming || $0.state == .due || $0.state == .missed })
        let tuesday = TodayPlan(
            day: TodayPlanTests.date("2026-03-10 12:00"), now: clock.now, timeZone: Self.zone,
            medications: again.medications.map(\.planEntry),
            logged: try await again.health().loggedDoses(
                from: TodayPlanTests.date("2026-03-10 00:00"), to: TodayPlanTests.date("2026-03-11 00:00")))
        #expect(tuesday.doses[1].state == .taken(at: TodayPlanTests.date("2026-03-11 00:30")))
    }

    @Test func badInputIsRefusedByNameAndChangesNothing() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let model = try model(folder, clock)
        _ = await model.setPreferences(Preferences(timeZoneIdentifier: Self.zone.identifier))

        #expect(!(await model.addMedication(MedsModel.NewMedication(rxcui: "999999999"))))
        #expect(model.message?.contains("999999999 is not in the medication catalog") == true)
        #expect(!(await model.addMedication(MedsModel.NewMedication(rxcui: Self.acetaminophen, times: "25:00"))))
        #expect(model.message?.contains("\"25:00\" is not a time of day") == true)
        #expect(!(await model.addMedication(MedsModel.NewMedication(rxcui: Self.acetaminophen, weekdays: []))))
        #expect(
            !(await model.addMedication(
                MedsModel.NewMedication(rxcui: Self.acetaminophen, nickname: String(repeating: "x", count: 61)))))
        #expect(model.message?.contains("at most 60 characters") == true)
        await model.refresh()
        #expect(model.medications.isEmpty)

        #expect(await model.addMedication(MedsModel.NewMedication(rxcui: Self.acetaminophen)))
        #expect(!(await model.addMedication(MedsModel.NewMedication(rxcui: Self.acetaminophen))))
        #expect(model.message?.contains("already in the list") == true, "\(model.message ?? "")")
        #expect(model.medications.count == 1)

        // A dose at a time the schedule does not have, a dose due too far ahead, and an as-needed dose in the future.
        let health = try model.health()
        let id = model.medications[0].id
        await #expect(throws: MedsError.self) {
            try await health.answer(
                id, scheduledDate: TodayPlanTests.date("2026-03-10 09:00"), status: .taken, now: clock.now,
                timeZone: Self.zone)
        }
        await #expect(throws: MedsError.self) {
            try await health.answer(
                id, scheduledDate: TodayPlanTests.date("2026-03-12 08:00"), status: .taken, now: clock.now,
                timeZone: Self.zone)
        }
        await #expect(throws: MedsError.self) {
            try await health.answer(
                id, scheduledDate: TodayPlanTests.date("2026-03-10 08:00"), status: .notLogged, now: clock.now,
                timeZone: Self.zone)
        }
        await #expect(throws: MedsError.self) {
            try await health.logAsNeeded(id, at: clock.now.addingTimeInterval(3600), now: clock.now)
        }
        #expect(try await health.loggedDoses(from: .distantPast, to: .distantFuture).isEmpty)

        #expect(!(await model.setPreferences(Preferences(timeZoneIdentifier: "Mars/Olympus_Mons"))))
        #expect(model.message?.contains("Mars/Olympus_Mons") == true)
        #expect(!(await model.setPreferences(Preferences(reminderLeadMinutes: 500))))
        #expect(model.preferences.timeZoneIdentifier == Self.zone.identifier)
        #expect(!(await model.addProfile(name: "  ", relationship: .child)))
        #expect(!(await model.addProfile(name: "me", relationship: .child)))  // "Me" exists
        #expect(model.profiles.count == 1)
    }

    @Test func profilesKeepTheirDataApart() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let model = try model(folder, clock)
        #expect(await model.addMedication(MedsModel.NewMedication(rxcui: Self.acetaminophen)))
        await model.setNote("with food", for: model.medications[0].id)
        let me = model.profile
        #expect(await model.addProfile(name: "Sam", relationship: .child))
        #expect(model.profile.name == "Sam")
        #expect(model.medications.isEmpty)
        #expect(model.note(for: "rxnorm:\(Self.acetaminophen)") == "")
        #expect(await model.addMedication(MedsModel.NewMedication(rxcui: try ibuprofen(model).rxcui, weekdays: nil)))

        // Reopened, the app shows the profile chosen last; each profile has its own list.
        let again = try self.model(folder, clock)
        #expect(again.profile.name == "Sam")
        await again.refresh()
        #expect(again.medications.map(\.rxcui) == [try ibuprofen(model).rxcui])
        await again.select(profile: me.id)
        #expect(again.medications.map(\.rxcui) == [Self.acetaminophen])
        #expect(again.note(for: again.medications[0].id) == "with food")
    }

    /// A store the first release wrote (V1, made here with V1's model file as that release would) opens in this
    /// release: the staged migration adds the profile colour and gives each existing profile its own, in order,
    /// and keeps every profile, note and setting.
    @Test func aStoreFromTheFirstReleaseIsMigrated() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("meds.sqlite")
        let ids = [UUID(), UUID(), UUID()]
        do {
            let container = NSPersistentContainer(
                name: "Meds", managedObjectModel: try AppDataMigration.model("MedsV1"))
            container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
            var failure: (any Error)?
            container.loadPersistentStores { _, error in failure = error }
            if let failure { throw failure }
            let context = container.viewContext
            var profiles: [NSManagedObject] = []
            for (index, name) in ["Me", "Sam", "Grandma"].enumerated() {
                let profile = NSEntityDescription.insertNewObject(forEntityName: "Profile", into: context)
                profile.setValue(ids[index], forKey: "id")
                profile.setValue(name, forKey: "name")
                profile.setValue(index == 0 ? "self" : index == 1 ? "child" : "parent", forKey: "relationship")
                profile.setValue(Date(timeIntervalSince1970: 1_700_000_000 + Double(index)), forKey: "createdAt")
                profiles.append(profile)
            }
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("rxnorm:313782", forKey: "medicationIdentifier")
            note.setValue("with food", forKey: "text")
            note.setValue(Date(), forKey: "updatedAt")
            note.setValue(profiles[1], forKey: "profile")
            let preferences = NSEntityDescription.insertNewObject(forEntityName: "Preferences", into: context)
            preferences.setValue("Europe/Paris", forKey: "timeZoneIdentifier")
            preferences.setValue(Int16(15), forKey: "reminderLeadMinutes")
            preferences.setValue(ids[1], forKey: "selectedProfileID")
            try context.save()
            for store in container.persistentStoreCoordinator.persistentStores {
                try container.persistentStoreCoordinator.remove(store)
            }
        }

        let store = try AppDataStore(url: url)
        let profiles = try store.profiles()
        #expect(profiles.map(\.name) == ["Me", "Sam", "Grandma"])
        #expect(profiles.map(\.relationship) == [.me, .child, .parent])
        #expect(profiles.map(\.colorName) == ["blue", "green", "orange"])
        #expect(try store.note(profile: ids[1], medication: "rxnorm:313782") == "with food")
        #expect(
            try store.preferences()
                == Preferences(timeZoneIdentifier: "Europe/Paris", reminderLeadMinutes: 15, selectedProfileID: ids[1]))
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(try AppDataStore.model().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        // A profile added now takes the next colour.
        #expect(try store.addProfile(name: "Alex", relationship: .partner).colorName == "purple")
    }

    /// A store the second release wrote (V2) opens in this one through the lightweight stage to V3: its settings
    /// are kept and liquid doses show in millilitres until the person chooses teaspoons, which is kept; a stored
    /// unit Meds does not know is refused by name rather than read as millilitres.
    @Test func aStoreFromTheSecondReleaseGetsAVolumeUnit() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("meds.sqlite")
        do {
            let container = NSPersistentContainer(
                name: "Meds", managedObjectModel: try AppDataMigration.model("MedsV2"))
            container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
            var failure: (any Error)?
            container.loadPersistentStores { _, error in failure = error }
            if let failure { throw failure }
            let preferences = NSEntityDescription.insertNewObject(
                forEntityName: "Preferences", into: container.viewContext)
            preferences.setValue("Asia/Tokyo", forKey: "timeZoneIdentifier")
            preferences.setValue(Int16(30), forKey: "reminderLeadMinutes")
            try container.viewContext.save()
            for store in container.persistentStoreCoordinator.persistentStores {
                try container.persistentStoreCoordinator.remove(store)
            }
        }
        var preferences = try AppDataStore(url: url).preferences()
        #expect(preferences == Preferences(timeZoneIdentifier: "Asia/Tokyo", reminderLeadMinutes: 30))
        #expect(preferences.volumeUnit == .milliliters)
        preferences.volumeUnit = .teaspoons
        try AppDataStore(url: url).setPreferences(preferences)
        #expect(try AppDataStore(url: url).preferences().volumeUnit == .teaspoons)

        // A file whose unit another program wrote.
        do {
            let container = NSPersistentContainer(name: "Meds", managedObjectModel: try AppDataStore.model())
            container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
            var failure: (any Error)?
            container.loadPersistentStores { _, error in failure = error }
            if let failure { throw failure }
            let request = NSFetchRequest<NSManagedObject>(entityName: "Preferences")
            try #require(try container.viewContext.fetch(request).first).setValue("cup", forKey: "volumeUnit")
            try container.viewContext.save()
            for store in container.persistentStoreCoordinator.persistentStores {
                try container.persistentStoreCoordinator.remove(store)
            }
        }
        #expect(throws: MedsError("The stored volume unit 'cup' is not one Meds knows (mL or tsp).")) {
            try AppDataStore(url: url).preferences()
        }
    }

    @Test func symptomsAreLoggedAgainstMedicationsAndRefusedWhenWrong() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let model = try model(folder, clock)
        #expect(await model.addMedication(MedsModel.NewMedication(rxcui: Self.acetaminophen)))
        let id = model.medications[0].id
        #expect(await model.logSymptom(.headache, severity: .moderate, medicationID: id))
        #expect(await model.logSymptom(.nausea, severity: .mild, medicationID: nil))
        #expect(model.symptoms.map(\.name) == ["Headache", "Nausea"])
        #expect(model.symptoms[0].medicationID == id && model.symptoms[0].severity == .moderate)

        #expect(!(await model.logSymptom(.headache, severity: .mild, medicationID: "rxnorm:1")))
        #expect(model.message?.contains("rxnorm:1 is not one of this profile's medications") == true)
        #expect(
            !(await model.logSymptom(
                HKCategoryTypeIdentifier("HKCategoryTypeIdentifierSneezing"), severity: .mild, medicationID: nil)))
        let health = try model.health()
        await #expect(throws: MedsError.self) {
            try await health.logSymptom(
                .fever, severity: .mild, at: clock.now.addingTimeInterval(3600), medicationID: nil, now: clock.now)
        }
        #expect(model.symptoms.count == 2)

        await model.deleteSymptom(model.symptoms[0])
        #expect(model.symptoms.map(\.name) == ["Nausea"])
        #expect(SymptomScale.name(of: .generalizedBodyAche) == "Generalized body ache")
    }

    /// A medication's side effects are the symptoms the person logged against it, ever: each once, with how many
    /// times it was present and its latest log, the latest first; another medication's and unattributed symptoms
    /// are not among them, and a medication not in the profile is refused by name.
    @Test func sideEffectsAreTheSymptomsLoggedAgainstAMedication() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let model = try model(folder, clock)
        #expect(await model.addMedication(MedsModel.NewMedication(rxcui: Self.acetaminophen)))
        #expect(await model.addMedication(MedsModel.NewMedication(rxcui: try ibuprofen(model).rxcui)))
        let tylenol = try #require(model.medications.first { $0.rxcui == Self.acetaminophen }).id
        let ibuprofen = try #require(model.medications.first { $0.rxcui != Self.acetaminophen }).id
        #expect(try await model.sideEffects(of: tylenol).isEmpty)

        // Two months ago (before the four weeks the model holds), then this morning.
        let health = try model.health()
        try await health.logSymptom(
            .headache, severity: .moderate, at: clock.now.addingTimeInterval(-60 * 86_400), medicationID: tylenol,
            now: clock.now)
        #expect(await model.logSymptom(.nausea, severity: .mild, medicationID: tylenol))
        clock.set(clock.now.addingTimeInterval(3_600))
        #expect(await model.logSymptom(.headache, severity: .notPresent, medicationID: tylenol))
        #expect(await model.logSymptom(.dizziness, severity: .severe, medicationID: ibuprofen))
        #expect(await model.logSymptom(.fever, severity: .mild, medicationID: nil))

        let effects = try await model.sideEffects(of: tylenol)
        #expect(effects.map(\.name) == ["Headache", "Nausea"])
        #expect(effects.map(\.timesPresent) == [1, 1])
        #expect(effects[0].latest?.severity == .notPresent && effects[0].latest?.date == clock.now)
        #expect(effects[1].latest?.severity == .mild)
        #expect(effects.allSatisfy { !$0.isKnown })  // the sample's table does not list 313782
        #expect(try await model.sideEffects(of: ibuprofen).map(\.name) == ["Dizziness"])
        await #expect(throws: MedsError("rxnorm:1 is not one of Me's medications.")) {
            try await model.sideEffects(of: "rxnorm:1")
        }
    }

    /// A medication the HealthKit sample's table lists (ciprofloxacin injection, 1665229) shows the sample's side
    /// effects before any is logged, in the sample's order; one logged moves to the front, still marked known, and a
    /// symptom the table does not list joins them as the person's own.
    @Test func sideEffectsIncludeTheSamplesForItsRxNormCode() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        let model = try model(folder, clock)
        #expect(await model.addMedication(MedsModel.NewMedication(rxcui: "1665229")))
        let cipro = try #require(model.medications.first { $0.rxcui == "1665229" }).id
        let before = try await model.sideEffects(of: cipro)
        #expect(before.map(\.type) == [.headache, .diarrhea, .nausea, .generalizedBodyAche])
        #expect(before.allSatisfy { $0.isKnown && $0.timesPresent == 0 && $0.latest == nil })

        // What the medication's window watches: a dose logged leaves it, a symptom logged moves it.
        let watched = model.symptomsRevision
        await model.answer(try #require(model.today.doses.first), .taken)
        #expect(model.today.doses.first?.state == .taken(at: clock.now))
        #expect(model.symptomsRevision == watched)
        #expect(await model.logSymptom(.nausea, severity: .moderate, medicationID: cipro))
        #expect(model.symptomsRevision > watched)
        clock.set(clock.now.addingTimeInterval(60))
        #expect(await model.logSymptom(.fever, severity: .mild, medicationID: cipro))
        let after = try await model.sideEffects(of: cipro)
        #expect(after.map(\.name) == ["Fever", "Nausea", "Headache", "Diarrhea", "Generalized body ache"])
        #expect(after.map(\.isKnown) == [false, true, true, true, true])
        #expect(after.map(\.timesPresent) == [1, 1, 0, 0, 0])
        #expect(after[1].latest?.severity == .moderate)
        #expect(SideEffect.known(rxcui: "105929").isEmpty && SideEffect.known(rxcui: nil).isEmpty)
    }

    /// Health data is private to the person who runs Meds: the data folder is theirs alone (0700), whatever the
    /// umask, and a folder another release left open to others is closed when Meds opens it.
    @Test func theDataFolderIsTheUsersAlone() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }  // cleanup only
        let clock = TestClock(TodayPlanTests.date("2026-03-10 08:05"))
        _ = try model(folder, clock)
        let mode = { (url: URL) throws -> Int in
            (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        #expect(try mode(folder) == 0o700)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        _ = try model(folder, clock)
        #expect(try mode(folder) == 0o700)
    }

    @Test func theShippedModelsAreTheXcodeModelFilesWithTheirChecksums() throws {
        #expect(try AppDataMigration.model("MedsV1").versionChecksum == AppDataMigration.v1Checksum)
        #expect(try AppDataMigration.model("MedsV2").versionChecksum == AppDataMigration.v2Checksum)
        #expect(try AppDataMigration.model("MedsV3").versionChecksum == AppDataMigration.v3Checksum)
        let model = try AppDataStore.model()
        #expect(model.versionChecksum == AppDataMigration.v3Checksum)
        #expect(Set(model.entitiesByName.keys) == ["Profile", "Note", "Preferences"])
        #expect((model.entitiesByName["Profile"]?.uniquenessConstraints as? [[String]]) == [["id"]])
    }
}
