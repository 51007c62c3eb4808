import Foundation
import Observation
import OpenHealthKit

/// What the app's windows show and do, shared by all of them: the profiles, the current profile's medications
/// and today's plan. Every action checks its input, writes through the stores, then reloads what changed, so
/// every open window shows the same state. A failure is kept in ``message`` for the windows to show; the stores
/// are left as they were.
@MainActor @Observable
public final class MedsModel {
    /// Identifies this model among others in the process: what is kept about a model elsewhere is keyed by it (an
    /// object's address can be reused once the object is gone, so `ObjectIdentifier` would mix two models up).
    @ObservationIgnored public let instanceID = UUID()
    /// The folder all of the app's data is in.
    public let dataDirectory: URL
    /// The app's own data.
    @ObservationIgnored public let appData: AppDataStore
    /// The medication catalog.
    @ObservationIgnored public let catalog: MedicationCatalog
    /// The clock (a test sets its own).
    @ObservationIgnored public let now: @Sendable () -> Date
    /// Where profiles' health data is kept.
    @ObservationIgnored public let healthStorage: HealthStorage
    @ObservationIgnored private var healthByProfile: [UUID: ProfileHealth] = [:]
    /// The profile whose health data is moving into the daemon: its store is not handed out meanwhile.
    @ObservationIgnored private var movingProfile: UUID?
    /// Sync, while it is on.
    @ObservationIgnored public internal(set) var syncService: SyncService?
    @ObservationIgnored var syncTasks: [Task<Void, Never>] = []
    /// Whether sync finds other machines with Bonjour (tests turn it off: they may not touch the machine's network).
    @ObservationIgnored var syncUsesDiscovery = true
    /// What Settings shows of sync.
    @ObservationIgnored public let syncStatus = SyncStatus()

    /// Every profile.
    public private(set) var profiles: [Profile] = []
    /// The profile shown.
    public private(set) var profile: Profile
    /// The settings.
    public private(set) var preferences: Preferences
    /// The profile's medications, archived ones included.
    public private(set) var medications: [MedicationItem] = []
    /// Today's plan for the profile.
    public private(set) var today: TodayPlan
    /// The day ``today`` is for.
    public private(set) var day: Date
    /// The last ``historyDays`` days, for the charts.
    public private(set) var history = History(
        endingAt: Date(), dayCount: 0, timeZone: .current, medications: [], logged: [])
    /// The doses logged in the last ``historyDays`` days, oldest first.
    public private(set) var recentDoses: [LoggedDose] = []
    /// The shown profile's logged doses held in memory (see ``loggedDoses(_:from:to:)``); not observed.
    @ObservationIgnored private var doseLog: DoseLog?
    /// The symptoms logged in the last ``historyDays`` days, oldest first.
    public private(set) var symptoms: [SymptomEntry] = []
    /// How many days the charts and the timeline cover.
    public static let historyDays = 28
    /// The last thing that went wrong, for the person to read (nil: nothing).
    public var message: String?
    /// A count of the changes this model has seen, which views can watch.
    public private(set) var revision = 0
    /// A count of the times the symptoms were read again (a symptom logged or deleted, a sync, a new day): what
    /// reads symptoms beyond ``symptoms``' four weeks (a medication's side effects) watches it, not ``revision``,
    /// so a dose logged does not read every symptom ever again.
    public private(set) var symptomsRevision = 0

    /// Opens the app's data in `dataDirectory` (`meds.sqlite` and one folder per profile under `profiles/`), with
    /// the profiles' health data where `healthStorage` says (the app passes ``HealthStorage/automatic``: the
    /// person's own profile in the health daemon when it runs).
    public init(
        dataDirectory: URL, catalog: MedicationCatalog = .bundled, healthStorage: HealthStorage = .files,
        now: @escaping @Sendable () -> Date = Date.init
    )
        throws
    {
        self.dataDirectory = dataDirectory
        self.catalog = catalog
        self.healthStorage = healthStorage
        self.now = now
        try Self.makePrivate(dataDirectory)
        appData = try AppDataStore(url: dataDirectory.appendingPathComponent("meds.sqlite"))
        let profiles = try appData.profiles()
        let preferences = try appData.preferences()
        self.profiles = profiles
        self.preferences = preferences
        profile = profiles.first { $0.id == preferences.selectedProfileID } ?? profiles[0]
        let start = now()
        day = start
        today = TodayPlan(day: start, now: start, timeZone: preferences.timeZone, medications: [], logged: [])
    }

    /// Makes the data folder (health data) the user's alone: created 0700, and closed to others if it was open.
    static func makePrivate(_ folder: URL) throws {
        let files = FileManager.default
        do {
            try files.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try files.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        } catch {
            throw MedsError(
                "Cannot make \(folder.path) a private folder for health data: \(error.localizedDescription)")
        }
    }

    /// The health store of the profile shown.
    public func health() throws -> ProfileHealth { try health(for: profile.id) }

    /// The health store of a profile (opened once, then kept).
    public func health(for id: UUID) throws -> ProfileHealth {
        if movingProfile == id {
            throw MedsError("This profile's health data is moving into the health daemon; try again in a moment.")
        }
        if let health = healthByProfile[id] { return health }
        let health = try healthStorage.open(
            id, profiles: try appData.profiles(), profilesFolder: profilesFolder, catalog: catalog)
        healthByProfile[id] = health
        return health
    }

    private var profilesFolder: URL { dataDirectory.appendingPathComponent("profiles") }

    /// Where the shown profile's health data is kept (what Settings tells the person).
    public var healthPlace: HealthStorage.Place {
        // Read so that a view showing the place is shown again after a change (a move ends with a reload).
        _ = revision
        do {
            return try healthStorage.place(of: profile.id, profiles: profiles, profilesFolder: profilesFolder)
        } catch {
            // The profiles folder cannot be listed: no move is offered, and opening the store says what is wrong.
            return .file
        }
    }

    /// Moves the person's own profile's health data from its store file in Meds' folder into the store the health
    /// daemon serves (``HealthStorage/Place/fileMovableToDaemon``), where the person's other health apps see it by
    /// their grants. Everything is copied before the profile is bound to the daemon, so a move that fails leaves
    /// the profile as it was, and running it again completes it. Refused while sync is on: a sync meanwhile could
    /// write to the file the data is leaving.
    @discardableResult
    public func moveHealthDataToDaemon() async -> Bool {
        await run {
            guard let persons = HealthStorage.personsProfile(profiles),
                try healthStorage.place(of: persons.id, profiles: profiles, profilesFolder: profilesFolder)
                    == .fileMovableToDaemon
            else {
                throw MedsError(
                    "There is no health data to move into the health daemon: it is not running here, or your"
                        + " profile's data is there already.")
            }
            guard syncService == nil else {
                throw MedsError(
                    "Turn sync off while your health data moves into the health daemon, and on again after; nothing"
                        + " was moved.")
            }
            let file = try health(for: persons.id)
            movingProfile = persons.id
            let moved: ProfileHealth
            do {
                moved = try await healthStorage.move(
                    persons.id, from: file, profilesFolder: profilesFolder, catalog: catalog)
            } catch {
                movingProfile = nil
                throw error
            }
            healthByProfile[persons.id] = moved
            if doseLog?.health === file { doseLog = nil }
            movingProfile = nil
            try await reload()
        }
    }

    /// Reloads the medications and today's plan from the stores.
    public func refresh() async {
        await run { try await self.reload() }
    }

    /// The stores sync reads and writes: this model's own, so a sync's changes reach its windows at once (the
    /// profile list, and the profile shown when the sync changed it).
    public func syncStores() -> SyncStores {
        SyncStores(
            appData: appData,
            health: { [weak self] id in
                guard let self else {
                    throw MedsError("The app's data was closed during a sync; nothing more is written.")
                }
                return try self.health(for: id)
            },
            changed: { [weak self] id in await self?.syncChanged(profile: id) })
    }

    /// Reads again what a sync changed.
    func syncChanged(profile id: UUID) async {
        await run {
            let profiles = try self.appData.profiles()
            if profiles != self.profiles { self.profiles = profiles }
            if id == self.profile.id {
                try await self.reload()
            } else {
                // Another profile changed: what watches the revision (reminders, for every profile) reads it again.
                self.revision += 1
            }
        }
    }

    /// What a reload reads again.
    struct Parts: OptionSet {
        let rawValue: Int
        /// The medication list (and with it everything planned from it).
        static let medications = Parts(rawValue: 1)
        /// The logged doses: today's plan and the history.
        static let doses = Parts(rawValue: 2)
        /// The symptoms.
        static let symptoms = Parts(rawValue: 4)
        /// Everything.
        static let all: Parts = [.medications, .doses, .symptoms]
    }

    /// Reads `parts` again and assigns what changed (an equal value is not assigned, so windows that show it are
    /// not rendered again for nothing).
    private func reload(_ parts: Parts = .all) async throws {
        let health = try health()
        let items = parts.contains(.medications) ? try await health.medications() : medications
        let now = now()
        let (calendar, first, end) = days(Self.historyDays, endingAt: now)
        let dayChanged = !calendar.isDate(now, inSameDayAs: day)
        if !parts.isDisjoint(with: [.medications, .doses]) || dayChanged {
            let logged = try await loggedDoses(health, from: first, to: end)
            let plan = plan(now, medications: items, logged: logged)
            let history = History(
                endingAt: now, dayCount: Self.historyDays, timeZone: preferences.timeZone,
                medications: items.map(\.planEntry), logged: logged)
            if items != medications { medications = items }
            if plan != today { today = plan }
            if history != self.history { self.history = history }
            if logged != recentDoses { recentDoses = logged }
        }
        if parts.contains(.symptoms) || dayChanged {
            let symptoms = try await health.symptoms(from: first, to: end)
            if symptoms != self.symptoms { self.symptoms = symptoms }
            symptomsRevision += 1
        }
        if dayChanged { day = now }
        revision += 1
        syncLocalChange()
    }

    /// Runs an action, keeping its error as the message; returns whether it succeeded.
    @discardableResult
    private func run(_ action: () async throws -> Void) async -> Bool {
        do {
            try await action()
            // Only when there was one: setting an observed property, even to its value, makes every window that
            // shows it run again.
            if message != nil { message = nil }
            return true
        } catch {
            message = (error as? MedsError)?.message ?? error.localizedDescription
            return false
        }
    }

    /// The doses logged from `start` to `end` (as ``ProfileHealth/loggedDoses(from:to:)`` reads them), from the
    /// profile's ``DoseLog``: read from the store the first time a span reaches back that far, then kept up to date
    /// with only what changed.
    private func loggedDoses(_ health: ProfileHealth, from start: Date, to end: Date) async throws -> [LoggedDose] {
        while var log = doseLog, log.health === health, log.covers(start) {
            let read = log.anchor
            try await log.update()
            // Two reloads may overlap (each suspends while the store reads). One whose log was replaced meanwhile
            // starts again from the newer log, so a log never goes back to an older read.
            guard doseLog?.anchor === read else { continue }
            doseLog = log
            return log.doses(from: start, to: end)
        }
        let log = try await DoseLog.read(health, from: start)
        doseLog = log
        return log.doses(from: start, to: end)
    }

    /// The Gregorian calendar in the person's time zone.
    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = preferences.timeZone
        return calendar
    }

    /// The `count` days that end with the day containing `now`, in the person's time zone: the calendar, the first
    /// day's start and the last day's end.
    private func days(_ count: Int, endingAt now: Date) -> (calendar: Calendar, first: Date, end: Date) {
        let calendar = calendar
        let start = calendar.startOfDay(for: now)
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        let first = calendar.date(byAdding: .day, value: -(count - 1), to: start) ?? start
        return (calendar, first, end)
    }

    /// Today's plan at `now` from a profile's medications and logged doses, with the person's settings.
    private func plan(_ now: Date, medications: [MedicationItem], logged: [LoggedDose]) -> TodayPlan {
        TodayPlan(
            day: now, now: now, timeZone: preferences.timeZone,
            leadTime: TimeInterval(preferences.reminderLeadMinutes * 60), medications: medications.map(\.planEntry),
            logged: logged)
    }

    /// Every profile's plan for today, the shown one first (its plan is ``today``; the others' are read from their
    /// stores): reminders go to every profile's doses, as a parent is reminded of a child's while their own are shown.
    public func todayPlans() async throws -> [(profile: Profile, plan: TodayPlan)] {
        var plans = [(profile: profile, plan: today)]
        let now = now()
        let (_, start, end) = days(1, endingAt: now)
        for other in profiles where other.id != profile.id {
            let health = try health(for: other.id)
            let medications = try await health.medications()
            guard medications.contains(where: { !$0.isArchived && $0.schedule?.hasSchedule == true }) else { continue }
            let logged = try await health.loggedDoses(from: start, to: end)
            plans.append((other, plan(now, medications: medications, logged: logged)))
        }
        return plans
    }

    /// The history of the last `days` days (for a chart of a longer span than ``history``), read from the store.
    public func history(days: Int) async throws -> History {
        guard (1...3660).contains(days) else { throw MedsError("A history covers 1 to 3,660 days, not \(days).") }
        let health = try health()
        let now = now()
        let (_, first, end) = self.days(days, endingAt: now)
        let logged = try await loggedDoses(health, from: first, to: end)
        return History(
            endingAt: now, dayCount: days, timeZone: preferences.timeZone, medications: medications.map(\.planEntry),
            logged: logged)
    }

    // MARK: Profiles

    /// Shows another profile.
    public func select(profile id: UUID) async {
        await run {
            guard let chosen = profiles.first(where: { $0.id == id }) else { throw MedsError("No such profile.") }
            var preferences = preferences
            preferences.selectedProfileID = id
            try appData.setPreferences(preferences)
            self.preferences = preferences
            profile = chosen
            try await reload()
        }
    }

    /// Adds a profile and shows it.
    @discardableResult
    public func addProfile(name: String, relationship: Profile.Relationship) async -> Bool {
        var added: Profile?
        let ok = await run {
            added = try appData.addProfile(name: name, relationship: relationship)
            profiles = try appData.profiles()
        }
        if let added { await select(profile: added.id) }
        return ok
    }

    // MARK: Settings

    /// Changes the settings.
    @discardableResult
    public func setPreferences(_ new: Preferences) async -> Bool {
        await run {
            try appData.setPreferences(new)
            preferences = new
            try await reload()
        }
    }

    // MARK: Medications

    /// Catalog entries matching what the person typed.
    public func search(_ text: String) -> [MedicationCatalogEntry] { catalog.search(text, limit: 20) }

    /// What the add form holds.
    public struct NewMedication: Sendable {
        /// The catalog code chosen.
        public var rxcui: String
        /// The person's name for it.
        public var nickname: String
        /// When it is due: nil for as needed, else the weekdays (1 = Sunday) ...
        public var weekdays: Set<Int>?
        /// ... or, when set, every this many days (2 ... 365) from the day it is saved, whatever the weekday ...
        public var everyDays: Int?
        /// ... and the times typed ("08:00, 20:00").
        public var times: String
        /// The quantity of each dose (millilitres for a liquid, else a count: see ``DoseAmount``).
        public var quantity: Double

        /// Creates the form's content.
        public init(
            rxcui: String, nickname: String = "", weekdays: Set<Int>? = Set(1...7), everyDays: Int? = nil,
            times: String = "08:00", quantity: Double = 1
        ) {
            self.rxcui = rxcui
            self.nickname = nickname
            self.weekdays = weekdays
            self.everyDays = everyDays
            self.times = times
            self.quantity = quantity
        }

        /// The schedule the form describes, or an error naming what is wrong. `today` (in `calendar`'s zone) is the
        /// first day of an every-N-days schedule (the model passes its clock's day in the person's zone).
        public func schedule(
            timeZone: TimeZone?, today: Date = Date(), calendar: Calendar = Calendar(identifier: .gregorian)
        ) throws -> MedicationSchedule {
            guard let weekdays else { return .asNeeded }
            if everyDays == nil, weekdays.isEmpty {
                throw MedsError("Choose at least one day, or make it as needed.")
            }
            guard quantity > 0, quantity <= 100 else {
                throw MedsError("Each dose must be more than 0 and at most 100, not \(quantity).")
            }
            let times = try ScheduleText.times(times, quantity: quantity)
            if let everyDays {
                guard (2...365).contains(everyDays) else {
                    throw MedsError("A medication can repeat every 2 to 365 days, not every \(everyDays).")
                }
                let start = calendar.dateComponents([.year, .month, .day], from: today)
                guard let year = start.year, let month = start.month, let day = start.day else {
                    throw MedsError("The calendar gave no date for today (\(today)); the schedule was not saved.")
                }
                return try MedicationSchedule(
                    frequency: .everyNDays(interval: everyDays, startYear: year, startMonth: month, startDay: day),
                    times: times, timeZone: timeZone)
            }
            return try MedicationSchedule(frequency: .weekdays(weekdays), times: times, timeZone: timeZone)
        }
    }

    /// Adds a medication to the profile shown.
    @discardableResult
    public func addMedication(_ form: NewMedication) async -> Bool {
        await run { try await add(form) }
    }

    /// Adds a catalog medication with a schedule form's content (a liquid's dose as typed in the person's unit).
    @discardableResult
    public func addMedication(rxcui: String, nickname: String, draft: ScheduleDraft) async -> Bool {
        await run {
            // A code outside the catalog has no form here, and is refused by name when it is added.
            let generalForm = catalog.entry(rxcui: rxcui)?.generalForm.rawValue ?? ""
            try await add(
                try draft.form(
                    rxcui: rxcui, nickname: nickname, generalForm: generalForm, volumeUnit: preferences.volumeUnit))
        }
    }

    private func add(_ form: NewMedication) async throws {
        // Floating times (nil zone) follow the person, as the Health app's reminders do.
        let schedule = try form.schedule(timeZone: nil, today: now(), calendar: calendar)
        try await health().addMedication(rxcui: form.rxcui, nickname: form.nickname, schedule: schedule)
        try await reload()
    }

    /// Archives or restores a medication.
    public func setArchived(_ id: String, _ archived: Bool) async {
        await run {
            try await health().updateMedication(id, isArchived: archived)
            try await reload()
        }
    }

    /// Changes a medication's schedule.
    @discardableResult
    public func setSchedule(_ id: String, _ form: NewMedication) async -> Bool {
        await run { try await changeSchedule(id, form) }
    }

    /// Changes a medication's schedule to a schedule form's content (a liquid's dose as typed in the person's unit).
    @discardableResult
    public func setSchedule(_ id: String, draft: ScheduleDraft) async -> Bool {
        await run {
            guard let item = medications.first(where: { $0.id == id }) else {
                throw MedsError("\(id) is not one of \(profile.name)'s medications; no schedule was changed.")
            }
            try await changeSchedule(
                id,
                try draft.form(
                    rxcui: item.rxcui ?? "", nickname: item.nickname ?? "", generalForm: item.form,
                    volumeUnit: preferences.volumeUnit))
        }
    }

    private func changeSchedule(_ id: String, _ form: NewMedication) async throws {
        try await health().updateMedication(
            id, schedule: try form.schedule(timeZone: nil, today: now(), calendar: calendar))
        try await reload()
    }

    // MARK: Doses

    /// Marks a scheduled dose taken, skipped or snoozed now.
    public func answer(_ dose: TodayPlan.Dose, _ status: HKMedicationDoseEvent.LogStatus) async {
        await run {
            try await health().answer(
                dose.medicationID, scheduledDate: dose.scheduledDate, status: status, now: now(),
                timeZone: preferences.timeZone)
            try await reload(.doses)
        }
    }

    /// Undoes what was logged for a scheduled dose.
    public func undo(_ dose: TodayPlan.Dose) async {
        await run {
            guard let log = dose.log else { throw MedsError("Nothing is logged for this dose.") }
            try await health().undo(log)
            try await reload(.doses)
        }
    }

    /// Logs one dose of an as-needed medication now.
    public func logAsNeeded(_ medicationID: String) async {
        await run {
            let now = now()
            try await health().logAsNeeded(medicationID, at: now, now: now)
            try await reload(.doses)
        }
    }

    /// Removes an as-needed log.
    public func undo(_ log: LoggedDose) async {
        await run {
            try await health().undo(log)
            try await reload(.doses)
        }
    }

    // MARK: Export

    /// What a doctor is given: the profile's medication list and dose history as CSV, or both as a FHIR R4 Bundle.
    public enum ExportKind: String, CaseIterable, Sendable {
        /// The medication list, as CSV.
        case medicationsCSV
        /// Every dose logged, as CSV.
        case dosesCSV
        /// Medications and doses as a FHIR R4 Bundle (JSON).
        case fhir
    }

    /// The export's bytes and the file name it is offered under (nil: failed, see ``message``).
    public func export(_ kind: ExportKind) async -> (data: Data, filename: String)? {
        var result: (Data, String)?
        await run {
            let record = try await HealthRecordExport.read(from: health().editor.store)
            let name = profile.name.replacingOccurrences(of: "/", with: "-")
            switch kind {
            case .medicationsCSV: result = (Data(record.medicationsCSV().utf8), "\(name) medications.csv")
            case .dosesCSV:
                result = (Data(record.doseEventsCSV(timeZone: preferences.timeZone).utf8), "\(name) doses.csv")
            case .fhir:
                result = (try record.fhirBundle(patientName: profile.name, generatedAt: now()), "\(name) FHIR.json")
            }
        }
        return result
    }

    // MARK: Plans

    /// The plan of the profile's active medications.
    public func currentPlan() -> MedicationPlan {
        MedicationPlan(title: "\(profile.name)'s medications", items: medications)
    }

    /// Adds a plan's medications that the profile shown does not have; returns how many were added (nil: failed,
    /// see ``message``).
    @discardableResult
    public func importPlan(_ plan: MedicationPlan) async -> Int? {
        var added: Int?
        await run {
            added = try await health().importPlan(plan)
            try await reload()
        }
        return added
    }

    // MARK: Symptoms

    /// Logs a symptom now, against a medication if one is given.
    @discardableResult
    public func logSymptom(
        _ type: HKCategoryTypeIdentifier, severity: HKCategoryValueSeverity, medicationID: String?
    ) async -> Bool {
        await run {
            let now = now()
            try await health().logSymptom(type, severity: severity, at: now, medicationID: medicationID, now: now)
            try await reload(.symptoms)
        }
    }

    /// A medication's side effects: those the person has logged against it, ever (not only in the last four weeks),
    /// the latest first; then those the HealthKit sample lists for its RxNorm code that were never logged.
    public func sideEffects(of medicationID: String) async throws -> [SideEffect] {
        guard let medication = medications.first(where: { $0.id == medicationID }) else {
            throw MedsError("\(medicationID) is not one of \(profile.name)'s medications.")
        }
        let logged = try await health().symptoms(from: .distantPast, to: .distantFuture)
        return SideEffect.list(logged, medicationID: medicationID, known: SideEffect.known(rxcui: medication.rxcui))
    }

    /// Deletes a logged symptom.
    public func deleteSymptom(_ entry: SymptomEntry) async {
        await run {
            try await health().deleteSymptom(entry)
            try await reload(.symptoms)
        }
    }

    /// The profile's note on a medication.
    public func note(for medicationID: String) -> String {
        do { return try appData.note(profile: profile.id, medication: medicationID) } catch {
            message = (error as? MedsError)?.message ?? error.localizedDescription
            return ""
        }
    }

    /// Changes the profile's note on a medication.
    public func setNote(_ text: String, for medicationID: String) async {
        await run {
            guard text.count <= 2000 else { throw MedsError("A note can be at most 2,000 characters.") }
            try appData.setNote(text, profile: profile.id, medication: medicationID)
            revision += 1
        }
    }
}
