import Foundation
import OpenHealthKit

/// Where sync reads and writes: the app's profiles and each profile's health store, reached on the main actor as
/// the app reaches them, and what to do when a sync changed a profile's data (the app reloads its windows).
public final class SyncStores: Sendable {
    let profiles: @MainActor @Sendable () throws -> [Profile]
    let adopt: @MainActor @Sendable (Profile, String) throws -> Profile
    let health: @MainActor @Sendable (UUID) throws -> ProfileHealth
    let changed: @MainActor @Sendable (UUID) async -> Void

    /// Stores reached through the app's own objects.
    public init(
        appData: AppDataStore, health: @escaping @MainActor @Sendable (UUID) throws -> ProfileHealth,
        changed: @escaping @MainActor @Sendable (UUID) async -> Void = { _ in }
    ) {
        profiles = { try appData.profiles() }
        adopt = { try appData.adoptProfile($0, from: $1) }
        self.health = health
        self.changed = changed
    }

    /// The stores of the data folder `dataDirectory` (as ``MedsModel`` lays it out), opened here, with the health
    /// data where `healthStorage` says.
    @MainActor
    public static func opening(
        _ dataDirectory: URL, appData: AppDataStore, catalog: MedicationCatalog = .bundled,
        healthStorage: HealthStorage = .files, changed: @escaping @MainActor @Sendable (UUID) async -> Void = { _ in }
    ) -> SyncStores {
        let opened = OpenedHealth()
        return SyncStores(
            appData: appData,
            health: { id in
                if let health = opened.stores[id] { return health }
                let health = try healthStorage.open(
                    id, profiles: try appData.profiles(),
                    profilesFolder: dataDirectory.appendingPathComponent("profiles"), catalog: catalog)
                opened.stores[id] = health
                return health
            }, changed: changed)
    }

    @MainActor private final class OpenedHealth {
        var stores: [UUID: ProfileHealth] = [:]
    }
}
