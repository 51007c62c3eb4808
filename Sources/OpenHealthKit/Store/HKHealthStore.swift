import OpenCoreData

/// The access point to health data for one app (identified by its bundle identifier).
///
/// Two backings, one behaviour: when `orchard-healthd` runs, `HKHealthStore()` talks to it over a Unix domain
/// socket and the daemon, which alone can open the store, decides who the app is and what it may see; otherwise
/// (embedded use, tests) the store opens an OpenCoreData SQLite file in this process and applies the same filters
/// itself, on trust.
public final class HKHealthStore: @unchecked Sendable {
    /// The bundle identifier of the Health app, whose store sees everything.
    public static let healthAppBundleIdentifier = "com.apple.Health"

    /// Where the data lives.
    enum Backend {
        /// A store file opened in this process.
        case local(HealthDatabase)
        /// The health daemon.
        case daemon(HealthDaemonClient)
    }
    let backend: Backend

    /// The store file of a local store. Only local code paths use it: every public entry point first hands a
    /// daemon-backed store's calls to the daemon.
    var database: HealthDatabase {
        guard case .local(let database) = backend else {
            preconditionFailure("a daemon-backed HKHealthStore has no local database")
        }
        return database
    }

    /// The daemon connection of a daemon-backed store.
    var daemon: HealthDaemonClient? {
        if case .daemon(let client) = backend { return client }
        return nil
    }

    /// The app this store reads and writes for. Through the daemon, this is what the process claims; the daemon
    /// decides from its registry and refuses a process whose claim differs.
    public let bundleIdentifier: String
    /// Who decides what the app may read and share, for a store opened in process (an Orchard addition: a UI such as
    /// OpenHealthKitUI's `HealthAccessPrompt` finds itself here). A daemon-backed store's decisions are the daemon's.
    public let authorizationHandler: any HKAuthorizationHandler

    private static let defaults = NSLock()
    nonisolated(unsafe) private static var _defaultHandler: any HKAuthorizationHandler = HKDenyAllAuthorizationHandler()

    /// The handler `HKHealthStore()` uses (the host installs it before apps create stores).
    public static var defaultAuthorizationHandler: any HKAuthorizationHandler {
        get { defaults.withLock { _defaultHandler } }
        set { defaults.withLock { _defaultHandler = newValue } }
    }

    /// The default store file: `$ORCHARD_HEALTH_STORE`, else `$XDG_DATA_HOME` (or ~/.local/share)
    /// `/OpenHealthKit/HealthStore.sqlite`.
    public static var defaultStoreURL: URL {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["ORCHARD_HEALTH_STORE"] { return URL(fileURLWithPath: path) }
        let base =
            environment["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return base.appendingPathComponent("OpenHealthKit/HealthStore.sqlite")
    }

    /// Whether health data is available (always, on Linux).
    public static func isHealthDataAvailable() -> Bool { true }

    /// The health daemon's socket: `$ORCHARD_HEALTHD_SOCKET`, else `$XDG_RUNTIME_DIR/orchard-healthd/socket`
    /// (nil without a runtime folder).
    public static var defaultDaemonSocketPath: String? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["ORCHARD_HEALTHD_SOCKET"], !path.isEmpty { return path }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        return runtime + "/orchard-healthd/socket"
    }

    /// The store for this process: through the health daemon when its socket exists (see
    /// ``defaultDaemonSocketPath``), else the default store file opened here for the main bundle's identifier (or
    /// the process name) with the default authorization handler. Traps when a store file cannot be opened, naming
    /// the file.
    public convenience init() {
        if let socket = Self.defaultDaemonSocketPath, FileManager.default.fileExists(atPath: socket) {
            // Only a real bundle identifier is claimed; the daemon names a plain program from its registry.
            self.init(daemonSocketPath: socket, bundleIdentifier: Bundle.main.bundleIdentifier)
            return
        }
        do {
            try self.init(
                storeURL: Self.defaultStoreURL,
                bundleIdentifier: Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName,
                authorizationHandler: Self.defaultAuthorizationHandler)
        } catch {
            fatalError("HKHealthStore(): \(error)")
        }
    }

    /// A store served by the health daemon listening at `daemonSocketPath` (an Orchard addition). It connects on
    /// first use. `bundleIdentifier` is only a claim: the daemon knows the process from the kernel and its
    /// registry, and refuses it when the claim differs (nil claims nothing).
    public init(daemonSocketPath: String, bundleIdentifier: String? = nil) {
        self.backend = .daemon(HealthDaemonClient(path: daemonSocketPath, claim: bundleIdentifier))
        self.bundleIdentifier = bundleIdentifier ?? ""
        self.authorizationHandler = HKDenyAllAuthorizationHandler()  // the daemon decides; never asked here
    }

    /// A store over a database the daemon shares between the apps it serves.
    init(database: HealthDatabase, bundleIdentifier: String, authorizationHandler: any HKAuthorizationHandler) {
        self.backend = .local(database)
        self.bundleIdentifier = bundleIdentifier
        self.authorizationHandler = authorizationHandler
    }

    /// Opens the store at a URL for an app.
    public init(
        storeURL: URL, bundleIdentifier: String,
        authorizationHandler: any HKAuthorizationHandler = HKDenyAllAuthorizationHandler()
    ) throws {
        guard !bundleIdentifier.isEmpty else {
            throw HKError(.errorInvalidArgument, "bundleIdentifier must not be empty")
        }
        self.backend = .local(try HealthDatabase(url: storeURL))
        self.bundleIdentifier = bundleIdentifier
        self.authorizationHandler = authorizationHandler
    }

    /// Whether this is the Health app's store, which sees everything (a local store's notion).
    var isPrivileged: Bool { bundleIdentifier == Self.healthAppBundleIdentifier }

    /// What this app may see, as of an authorization generation (see `StoreCounters`).
    struct VisibilityCache {
        let generation: Int64
        /// The condition on dose events (nil: every medication in the store is granted).
        let doses: NSPredicate?
        /// The medications the app may read.
        let granted: Set<String>
        /// The condition on deleted dose events: their medication is granted now (a deleted
        /// medication's grants go with it, so its doses' deletions are not reported).
        let deletedDoses: NSPredicate
        /// The category types the app may read.
        let readable: Set<String>
    }
    let visibilityLock = NSLock()
    nonisolated(unsafe) var visibilityCache: VisibilityCache?

    // MARK: Authorization

    /// Asks for permission to share and read sample types. Per-object types (medications) are an
    /// invalid argument here: use `requestPerObjectReadAuthorization(for:predicate:)`.
    public func requestAuthorization(
        toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>
    ) async throws {
        for type in typesToRead.map({ $0 as HKObjectType }) + typesToShare.map({ $0 as HKObjectType })
        where type.requiresPerObjectAuthorization() {
            throw HKError(
                .errorInvalidArgument,
                "\(type.identifier) requires per-object authorization; use requestPerObjectReadAuthorization(for:predicate:)"
            )
        }
        if typesToShare.contains(where: { $0.identifier == HKSampleType.medicationDoseEventIdentifier }) {
            throw HKError(.errorInvalidArgument, "apps cannot share medication dose events; the Health app writes them")
        }
        if typesToShare.isEmpty && typesToRead.isEmpty {
            throw HKError(.errorInvalidArgument, "requestAuthorization(toShare:read:) needs at least one type")
        }
        if let daemon {
            _ = try await daemon.call(
                .requestAuthorization(
                    share: typesToShare.map(\.identifier).sorted(), read: typesToRead.map(\.identifier).sorted()))
            return
        }
        let decision = await authorizationHandler.typeAuthorization(
            bundleIdentifier: bundleIdentifier, toShare: typesToShare, read: typesToRead)
        try database.write { context, sequence in
            sequence.bumpAuthorization()
            for type in typesToShare {
                try AuthorizationRecords.set(
                    database, bundleIdentifier, AuthorizationRecords.share, key: type.identifier,
                    granted: decision.share.contains(type), in: context)
            }
            for type in typesToRead where decision.read.contains(type) {
                try AuthorizationRecords.set(
                    database, bundleIdentifier, AuthorizationRecords.read, key: type.identifier, granted: true,
                    in: context)
            }
        }
    }

    /// Asks the person which medications the app may read (and so their dose events). Only
    /// `HKObjectType.userAnnotatedMedicationType()` is per-object; other types are an invalid argument.
    /// `predicate` narrows the medications offered (for example `predicateForUserAnnotatedMedications(isArchived: false)`).
    public func requestPerObjectReadAuthorization(for objectType: HKObjectType, predicate: NSPredicate?) async throws {
        guard objectType.requiresPerObjectAuthorization() else {
            throw HKError(
                .errorInvalidArgument,
                "\(objectType.identifier) does not use per-object authorization; use requestAuthorization(toShare:read:)"
            )
        }
        if let daemon {
            _ = try await daemon.call(
                .requestPerObjectReadAuthorization(
                    type: objectType.identifier, predicate: try predicate.map(HealthWire.Predicate.init)))
            return
        }
        let (offered, current) = try database.perform { context -> ([HKUserAnnotatedMedication], Set<String>) in
            let meds = try database.fetch(
                HealthStoreModel.medication, predicate,
                sort: [HKQuery.sort("createdAt", ascending: true)], in: context
            ).map(RecordMapping.medication)
            return (
                meds,
                try AuthorizationRecords.keys(database, bundleIdentifier, AuthorizationRecords.medication, in: context)
            )
        }
        let granted = await authorizationHandler.perObjectReadAuthorization(
            bundleIdentifier: bundleIdentifier, medications: offered, current: current)
        try database.write { context, sequence in
            sequence.bumpAuthorization()
            try AuthorizationRecords.set(
                database, bundleIdentifier, AuthorizationRecords.medicationRequested, key: "*", granted: true,
                in: context)
            for medication in offered {
                let id = medication.medication.identifier
                try AuthorizationRecords.set(
                    database, bundleIdentifier, AuthorizationRecords.medication, key: id.identifier,
                    granted: granted.contains(id), in: context)
            }
        }
    }

    /// Whether the app may share a type (read access is never disclosed).
    public func authorizationStatus(for type: HKObjectType) -> HKAuthorizationStatus {
        if let daemon { return daemon.shareStatuses.status(type.identifier) }
        // A store that cannot be read has no decision to report: not determined, as HealthKit says before asking.
        let result = try? database.perform { context -> HKAuthorizationStatus in
            let p = AuthorizationRecords.predicate(bundleIdentifier, AuthorizationRecords.share, key: type.identifier)
            guard let record = try database.fetch(HealthStoreModel.authorization, p, limit: 1, in: context).first else {
                return .notDetermined
            }
            return bool(record, "granted") ? .sharingAuthorized : .sharingDenied
        }
        return result ?? .notDetermined
    }

    // MARK: Saving

    /// Saves category samples (symptoms) the app is authorized to share. Medications and dose events
    /// are written by the Health app only.
    public func save(_ object: HKObject) async throws { try await save([object]) }

    /// Saves several objects in one transaction.
    public func save(_ objects: [HKObject]) async throws {
        let samples = try objects.map { object -> HKCategorySample in
            guard let sample = object as? HKCategorySample else {
                throw HKError(
                    .errorInvalidArgument,
                    "apps can save category samples only; \(type(of: object)) is written by the Health app")
            }
            guard sample.endDate >= sample.startDate else {
                throw HKError(.errorInvalidArgument, "sample \(sample.uuid): endDate is before startDate")
            }
            if HKCategoryTypeIdentifier.allSymptoms.contains(HKCategoryTypeIdentifier(sample.categoryType.identifier)),
                HKCategoryValueSeverity(rawValue: sample.value) == nil
            {
                throw HKError(
                    .errorInvalidArgument, "symptom value \(sample.value) is not an HKCategoryValueSeverity (0...4)")
            }
            return sample
        }
        if let daemon {
            _ = try await daemon.call(.save(samples.map(HealthWire.sample)))
            return
        }
        try database.write { context, sequence in
            if !isPrivileged {
                let shared = try AuthorizationRecords.keys(
                    database, bundleIdentifier, AuthorizationRecords.share, in: context)
                for sample in samples where !shared.contains(sample.categoryType.identifier) {
                    throw HKError(
                        .errorAuthorizationDenied,
                        "\(bundleIdentifier) is not authorized to share \(sample.categoryType.identifier)")
                }
            }
            for sample in samples {
                let seq = sequence.next()
                database.insert(
                    HealthStoreModel.categorySample,
                    [
                        "uuid": sample.uuid.uuidString, "seq": seq, "startDate": sample.startDate,
                        "endDate": sample.endDate,
                        "sourceName": bundleIdentifier, "sourceBundle": bundleIdentifier,
                        "metadata": MetadataCoding.encode(sample.metadata),
                        "typeIdentifier": sample.categoryType.identifier, "value": Int64(sample.value),
                    ], in: context)
            }
        }
    }

    /// Deletes a category sample this app saved.
    public func delete(_ object: HKObject) async throws {
        if let daemon {
            _ = try await daemon.call(.delete(object.uuid))
            return
        }
        try localDelete(uuid: object.uuid)
    }

    /// Deletes the category sample with a UUID from the store file, if this app saved it.
    func localDelete(uuid: UUID) throws {
        try database.write { context, sequence in
            let p = HKQuery.compare("uuid", .equal, uuid.uuidString)
            guard let record = try database.fetch(HealthStoreModel.categorySample, p, limit: 1, in: context).first
            else {
                throw HKError(.errorInvalidArgument, "no sample \(uuid) saved by \(bundleIdentifier)")
            }
            guard isPrivileged || record.value(forKey: "sourceBundle") as? String == bundleIdentifier else {
                throw HKError(.errorAuthorizationDenied, "\(bundleIdentifier) can delete only samples it saved")
            }
            let seq = sequence.next()
            sequence.markDeletion(seq)
            database.insert(
                HealthStoreModel.deletedObject,
                [
                    "uuid": uuid.uuidString, "seq": seq,
                    "sampleType": record.value(forKey: "typeIdentifier") as? String ?? "",
                    "metadata": record.value(forKey: "metadata") as? Data, "deletedAt": Date(),
                ], in: context)
            context.delete(record)
        }
    }
}
