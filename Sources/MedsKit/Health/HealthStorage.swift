import Foundation
import OpenHealthKit

/// Where profiles' health data is kept.
///
/// The health daemon (`orchard-healthd`) holds one store: the person's own, which every health app of theirs shares.
/// So when it runs, the person's own profile keeps its health data there, and the people they care for (a child, a
/// parent) keep theirs in a store file in their profile's folder, as every profile does without the daemon. Which
/// profile is the person's is decided once and written down (a `health.daemon` file in that profile's folder):
/// the earliest `Me` profile, if its folder holds no store file yet. A profile whose data is already in a store
/// file stays there until the person moves it into the daemon (``MedsModel/moveHealthDataToDaemon()``).
///
/// Once a profile's data is in the daemon, opening it without the daemon is an error that says so: the app never
/// shows an empty or old store file in its place, and never writes where the person's data is not.
public struct HealthStorage: Sendable, Equatable {
    /// The daemon's socket, when profiles may use it.
    public let daemonSocketPath: String?

    /// Every profile in a store file of its own (a profile whose data is in the daemon cannot be opened).
    public static let files = HealthStorage(daemonSocketPath: nil)

    /// The person's profile in the daemon listening at `socketPath`, the others in their own store files.
    public static func daemon(socketPath: String) -> HealthStorage { HealthStorage(daemonSocketPath: socketPath) }

    /// The daemon when it runs (its socket, `HKHealthStore.defaultDaemonSocketPath`, exists), else files. Read once
    /// when the app starts: a daemon started later is used from the app's next start.
    public static var automatic: HealthStorage {
        guard let socket = HKHealthStore.defaultDaemonSocketPath, FileManager.default.fileExists(atPath: socket)
        else { return .files }
        return .daemon(socketPath: socket)
    }

    /// The file in a profile's folder that says its health data is in the daemon.
    static let markerName = "health.daemon"
    /// The store file in a profile's folder.
    static let storeName = "health.sqlite"

    /// Opens the health store of the profile `id` of `profiles`, whose folders are in `profilesFolder`.
    func open(
        _ id: UUID, profiles: [Profile], profilesFolder: URL, catalog: MedicationCatalog
    ) throws -> ProfileHealth {
        if FileManager.default.fileExists(atPath: Self.marker(id, profilesFolder).path) {
            guard let socket = daemonSocketPath else {
                throw MedsError(
                    "This profile's health data is kept by the health daemon (orchard-healthd), which Meds is not"
                        + " using now; start the daemon (or point ORCHARD_HEALTHD_SOCKET at it) and open Meds again.")
            }
            return ProfileHealth(daemonSocketPath: socket, catalog: catalog)
        }
        if let socket = daemonSocketPath, try isPersonsProfile(id, profiles: profiles, profilesFolder: profilesFolder) {
            try Self.writeMarker(id, profilesFolder)
            return ProfileHealth(daemonSocketPath: socket, catalog: catalog)
        }
        return try ProfileHealth(folder: profilesFolder.appendingPathComponent(id.uuidString), catalog: catalog)
    }

    /// Whether `id` is the profile whose data goes to the daemon: the person's (``personsProfile(_:)``), when no
    /// profile's data is there yet and its own folder has no store file.
    private func isPersonsProfile(_ id: UUID, profiles: [Profile], profilesFolder: URL) throws -> Bool {
        guard Self.personsProfile(profiles)?.id == id,
            !FileManager.default.fileExists(atPath: Self.storeFile(id, profilesFolder).path)
        else { return false }
        // One profile only: a profile that took the daemon before (it may have been made `Me` later) keeps it.
        return try Self.daemonProfile(in: profilesFolder) == nil
    }

    /// The person's own profile: the earliest `Me`.
    static func personsProfile(_ profiles: [Profile]) -> Profile? {
        profiles.filter { $0.relationship == .me }.min { $0.createdAt < $1.createdAt }
    }

    /// The folder name of the profile whose data is in the daemon (the folder with the marker), if any.
    static func daemonProfile(in profilesFolder: URL) throws -> String? {
        let files = FileManager.default
        guard files.fileExists(atPath: profilesFolder.path) else { return nil }
        return try files.contentsOfDirectory(atPath: profilesFolder.path).first { name in
            files.fileExists(
                atPath: profilesFolder.appendingPathComponent(name).appendingPathComponent(markerName).path)
        }
    }

    /// A profile's store file.
    static func storeFile(_ id: UUID, _ profilesFolder: URL) -> URL {
        profilesFolder.appendingPathComponent(id.uuidString).appendingPathComponent(storeName)
    }

    /// The file that binds a profile to the daemon.
    static func marker(_ id: UUID, _ profilesFolder: URL) -> URL {
        profilesFolder.appendingPathComponent(id.uuidString).appendingPathComponent(markerName)
    }

    /// Writes the marker that binds profile `id` to the daemon.
    static func writeMarker(_ id: UUID, _ profilesFolder: URL) throws {
        let marker = marker(id, profilesFolder)
        let note = "This profile's health data is kept by the health daemon (orchard-healthd), not in this folder.\n"
        do {
            try FileManager.default.createDirectory(
                at: marker.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(note.utf8).write(to: marker, options: .atomic)
        } catch {
            throw MedsError("Cannot write \(marker.path): \(error.localizedDescription)")
        }
    }
}
