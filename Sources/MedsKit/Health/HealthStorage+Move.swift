import Foundation
import OpenHealthKit

/// Moving the person's profile from its store file into the health daemon's store.
extension HealthStorage {
    /// Where a profile's health data is kept, as Settings tells the person.
    public enum Place: Sendable, Equatable {
        /// In the profile's own store file (the daemon does not run, or the profile is not the person's own).
        case file
        /// In the profile's own store file; the daemon runs and this is the person's own profile, so the data can
        /// move into the daemon's store.
        case fileMovableToDaemon
        /// In the store the health daemon serves.
        case daemon
    }

    /// Where the data of profile `id` is kept.
    func place(of id: UUID, profiles: [Profile], profilesFolder: URL) throws -> Place {
        let files = FileManager.default
        if files.fileExists(atPath: Self.marker(id, profilesFolder).path) { return .daemon }
        guard daemonSocketPath != nil, Self.personsProfile(profiles)?.id == id,
            files.fileExists(atPath: Self.storeFile(id, profilesFolder).path),
            try Self.daemonProfile(in: profilesFolder) == nil
        else { return .file }
        return .fileMovableToDaemon
    }

    /// Copies everything `file` (the store file of profile `id`) holds into the daemon's store, then binds the
    /// profile to the daemon; returns the daemon's side.
    ///
    /// The copy goes through the replication feed (medications with their schedules, doses, symptoms, deletions),
    /// page by page, each page one transaction that is safe to apply twice, so a move cut short (a killed process, a
    /// daemon that stopped) is simply run again. The profile is bound to the daemon only after the last page: until
    /// then it opens from its file as before. The file is left as it was (never read again); nothing is deleted.
    ///
    /// The daemon's store first numbers its later changes after the file's last one, so another machine that synced
    /// this profile and asks for the changes after the last one it has from this machine is sent everything moved
    /// (which it keeps once) rather than missing what it had not had yet.
    func move(
        _ id: UUID, from file: ProfileHealth, profilesFolder: URL, catalog: MedicationCatalog
    ) async throws -> ProfileHealth {
        guard let socket = daemonSocketPath else {
            throw MedsError("The health daemon is not running here; nothing was moved.")
        }
        guard !file.editor.isDaemon else { throw MedsError("This profile's health data is in the daemon already.") }
        // Read first, so the daemon's numbering can start after the file's last change.
        var pages: [HKHealthAppEditor.ReplicatedChanges] = []
        var anchor: Int64 = 0
        while true {
            let page = try await file.editor.replicatedChanges(after: anchor, limit: 2000)
            anchor = page.anchor
            if page.count > 0 { pages.append(page) }
            if !page.hasMore { break }
        }
        let daemon = ProfileHealth(daemonSocketPath: socket, catalog: catalog)
        do {
            try await daemon.editor.advanceChangeCounter(past: anchor)
            for page in pages {
                try await daemon.editor.applyReplicatedChanges(page)
            }
        } catch {
            throw MedsError(
                "Your health data could not be moved into the health daemon (\(error.localizedDescription)); it is"
                    + " still in Meds' own folder, and moving it again later picks up where this stopped.")
        }
        try Self.writeMarker(id, profilesFolder)
        return daemon
    }
}
