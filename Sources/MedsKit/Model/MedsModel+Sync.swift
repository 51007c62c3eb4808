import Foundation
import Observation

/// What the Settings window shows of sync.
@MainActor @Observable
public final class SyncStatus {
    /// Whether sync runs.
    public internal(set) var isOn = false
    /// This machine, as other machines see it.
    public internal(set) var device: SyncDevice?
    /// The machines this one is paired with.
    public internal(set) var peers: [SyncDevice] = []
    /// The pairing code shown, while it is good.
    public internal(set) var code: String?
    /// The last thing sync reported, for the person to read.
    public internal(set) var last: String?

    nonisolated init() {}
}

/// Sync between this person's machines (see ``SyncService``): off until they turn it on in Settings; then it starts
/// whenever the app opens, and every change made here is sent to the paired machines that are on.
extension MedsModel {
    /// Starts sync if the person turned it on before (called when the app opens).
    public func startSyncIfOn(deviceName: String) {
        do {
            if try SyncPairings.isOn(in: dataDirectory) { startSync(deviceName: deviceName) }
        } catch {
            // Sync stays off, and the windows say why.
            message = (error as? MedsError)?.message ?? error.localizedDescription
            syncStatus.last = "Sync is off: \(message ?? "")"
        }
    }

    /// Turns sync on: advertises this machine on the local network (only paired machines get anything) and starts
    /// sessions with the paired machines it finds.
    @discardableResult
    public func startSync(deviceName: String) -> Bool {
        if syncService != nil { return true }
        do {
            let service = try SyncService(dataDirectory: dataDirectory, deviceName: deviceName, stores: syncStores())
            try service.pairings.setOn(true)
            syncService = service
            syncStatus.isOn = true
            syncStatus.device = service.device
            syncStatus.peers = service.pairings.peers
            syncTasks = [
                Task { [syncUsesDiscovery] in
                    do {
                        if syncUsesDiscovery {
                            try await service.run()
                        } else {
                            try await service.listen(advertise: false)
                        }
                    } catch is CancellationError {
                    } catch {
                        syncStatus.last = "Sync stopped: \(error)"
                    }
                },
                Task {
                    for await event in service.events { self.show(event) }
                },
            ]
            message = nil
            return true
        } catch {
            message = "Sync cannot start: \((error as? MedsError)?.message ?? error.localizedDescription)"
            return false
        }
    }

    /// Turns sync off: stops advertising and ends every session. Pairings are kept.
    public func stopSync() {
        for task in syncTasks { task.cancel() }
        syncTasks = []
        if let syncService {
            do {
                try syncService.pairings.setOn(false)
            } catch {
                message = (error as? MedsError)?.message ?? error.localizedDescription
            }
        }
        syncService = nil
        syncStatus.isOn = false
        syncStatus.code = nil
    }

    /// Shows a pairing code for another machine to type.
    public func showPairingCode() {
        guard let syncService else {
            message = "Turn sync on first."
            return
        }
        syncStatus.code = syncService.startPairing(now: now())
    }

    /// Pairs with the machine on this network that shows `code`.
    @discardableResult
    public func pair(code: String) async -> Bool {
        guard let syncService else {
            message = "Turn sync on first."
            return false
        }
        do {
            let peer = try await syncService.pair(code: code)
            syncStatus.peers = syncService.pairings.peers
            syncStatus.last = "Paired with \(peer.name)."
            message = nil
            return true
        } catch {
            message = (error as? MedsError)?.message ?? "\(error)"
            return false
        }
    }

    /// Tells sync that this machine's data may have changed (after every reload). A reload after a sync's own
    /// changes sends them back once; the other machine finds it has them all and writes nothing, so it ends there.
    func syncLocalChange() {
        syncService?.localChangesMade()
    }

    private func show(_ event: SyncEvent) {
        switch event {
        case .paired(let peer):
            syncStatus.peers = syncService?.pairings.peers ?? syncStatus.peers
            syncStatus.code = nil
            syncStatus.last = "Paired with \(peer.name)."
        case .synced(let peer, let received, let sent):
            syncStatus.last =
                "Synced with \(peer.name) at \(now().formatted(date: .omitted, time: .shortened)): "
                + "\(received) changes received, \(sent) sent."
        case .failed(let text):
            syncStatus.last = text
        }
    }
}
