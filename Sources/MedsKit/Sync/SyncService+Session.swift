import Foundation
import OpenHealthKit
import OpenNetwork
import Synchronization

/// A sync session with one machine, the same on both ends (see ``SyncMessage``).
extension SyncService {
    /// What the other machine said in its hello.
    struct PeerHello {
        var device: SyncDevice
        var profiles: [SyncProfile]
        var anchors: [String: Int64]
    }

    /// Runs a session on an open connection: `dialing` names the machine this one connected to (nil: it connected
    /// here). Ends after one round, or, `live`, when the connection ends or the task is cancelled.
    func session(_ connection: NetworkConnection<Wire>, dialing expected: UUID?, live: Bool) async throws {
        let peer: PeerHello
        if let expected {
            try await connection.send(try await hello(to: expected))
            let (reply, _) = try await connection.receive()
            peer = try checkHello(reply, expected: expected)
        } else {
            let (first, _) = try await connection.receive()
            do {
                peer = try checkHello(first, expected: nil)
            } catch {
                try? await connection.send(.refused("\(error)"))  // `try?`: the refusal is a courtesy; the error is what counts
                throw error
            }
            try await connection.send(try await hello(to: peer.device.id))
        }
        let counts = Counts()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.sendChanges(over: connection, peer: peer, live: live, counts: counts) }
            group.addTask {
                try await self.receiveChanges(over: connection, peer: peer, live: live, counts: counts)
                // The other machine closed (live) or the round is done: the sender stops too.
            }
            // Either side ending ends the session.
            try await group.next()
            if live { group.cancelAll() }
            try await group.waitForAll()
        }
    }

    /// What a session has exchanged so far (the sending task counts what it sent, the receiving task what it
    /// applied, and the receiving task reports both).
    final class Counts: Sendable {
        private let counts = Mutex((sent: 0, received: 0))
        var sent: Int { counts.withLock { $0.sent } }
        var received: Int { counts.withLock { $0.received } }
        func add(sent: Int = 0, received: Int = 0) {
            counts.withLock {
                $0.sent += sent
                $0.received += received
            }
        }
    }

    func hello(to peer: UUID) async throws -> SyncMessage {
        guard let secret = pairings.secret(for: peer) else {
            throw MedsError("This machine is not paired with \(peer).")
        }
        let profiles = try await stores.profiles().map(SyncProfile.init)
        return .hello(
            device: device, proof: Self.proof(secret: secret, from: device.id, to: peer), profiles: profiles,
            anchors: pairings.anchors(from: peer))
    }

    /// Checks a hello: from a paired machine (the one dialled, when this one dialled), with a proof of its key.
    func checkHello(_ message: SyncMessage, expected: UUID?) throws -> PeerHello {
        switch message {
        case .hello(let device, let proof, let profiles, let anchors):
            if let expected, device.id != expected {
                throw MedsError("The machine reached as \(expected) says it is \(device.id); the session is ended.")
            }
            guard let secret = pairings.secret(for: device.id),
                proof == Self.proof(secret: secret, from: device.id, to: self.device.id)
            else {
                throw MedsError("A machine that is not paired with this one (\(device.name)) tried to sync; refused.")
            }
            return PeerHello(device: device, profiles: profiles, anchors: anchors)
        case .refused(let reason):
            throw MedsError("The other machine refused to sync: \(reason)")
        default:
            throw MedsError("The other machine started a sync session with \(message), not a hello.")
        }
    }

    /// Sends every profile's changes after the anchors the peer gave, then `caughtUp`; live, then sends new changes
    /// whenever ``localChangesMade()`` says there are some.
    func sendChanges(
        over connection: NetworkConnection<Wire>, peer: PeerHello, live: Bool, counts: Counts
    ) async throws {
        var sentAnchors = peer.anchors
        var seen = state.withLock { $0.changeCount }
        try await sendPages(over: connection, to: peer.device.id, anchors: &sentAnchors, counts: counts)
        try await connection.send(.caughtUp)
        guard live else { return }
        while true {
            while state.withLock({ $0.changeCount }) == seen {
                await waitForLocalChange(after: seen)
                try Task.checkCancellation()
            }
            seen = state.withLock { $0.changeCount }
            try await sendPages(over: connection, to: peer.device.id, anchors: &sentAnchors, counts: counts)
        }
    }

    /// Waits until ``localChangesMade()`` is called after the count `seen`, or the task is cancelled (which wakes
    /// every waiter; the others wait again).
    func waitForLocalChange(after seen: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.changeCount != seen || Task.isCancelled { return true }
                    state.changeWaiters.append(waiter)
                    return false
                }
                if now { waiter.resume() }
            }
        } onCancel: {
            let waiters = state.withLock { state in
                defer { state.changeWaiters = [] }
                return state.changeWaiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    private func sendPages(
        over connection: NetworkConnection<Wire>, to peer: UUID, anchors: inout [String: Int64], counts: Counts
    ) async throws {
        for profile in try await stores.profiles() {
            let health = try await stores.health(profile.id)
            var anchor = anchors[profile.id.uuidString] ?? 0
            // What this machine wrote from the peer's own pages is left out: the peer has it. Those at or below
            // the anchor the peer gave are forgotten.
            try pairings.dropEchoes(to: peer, profile: profile.id, upTo: anchor)
            let echoes = pairings.echoes(to: peer, profile: profile.id)
            var first = true
            while true {
                let page = try await health.editor.replicatedChanges(
                    after: anchor, limit: Self.pageSize, excluding: echoes)
                // A page that is empty because all it had was left out is still sent when it moves the anchor, so
                // the peer saves the anchor and its next hello asks for what follows.
                let skipped = page.count == 0 && page.anchor > anchor && !echoes.isEmpty
                if page.count > 0 || skipped || (first && anchors[profile.id.uuidString] == nil) {
                    try await connection.send(.changes(profile: profile.id, page: page))
                    counts.add(sent: page.count)
                }
                first = false
                anchor = page.anchor
                if !page.hasMore { break }
            }
            anchors[profile.id.uuidString] = anchor
        }
    }

    /// Applies the peer's pages until the round ends (its `caughtUp` and its `applied`), or, live, until the
    /// connection ends.
    func receiveChanges(
        over connection: NetworkConnection<Wire>, peer: PeerHello, live: Bool, counts: Counts
    ) async throws {
        var caughtUp = false
        var peerApplied = false
        while true {
            let message: SyncMessage
            do {
                (message, _) = try await connection.receive()
            } catch NWError.decodingFailed(let reason) {
                throw MedsError("\(peer.device.name) sent a message that is not part of sync (\(reason)); ended.")
            } catch {
                if caughtUp && peerApplied { return }  // the other machine closed after a complete round
                throw MedsError("The connection to \(peer.device.name) ended during a sync: \(error)")
            }
            switch message {
            case .changes(let profileID, let page):
                guard let profile = peer.profiles.first(where: { $0.id == profileID }) else {
                    throw MedsError("\(peer.device.name) sent changes to a profile it did not announce; ended.")
                }
                let applied = try await apply(page, profile: profile, from: peer.device)
                counts.add(received: applied)
                if caughtUp && peerApplied {
                    eventSink.yield(.synced(peer.device, received: counts.received, sent: counts.sent))
                }
            case .caughtUp, .applied:
                if case .caughtUp = message {
                    caughtUp = true
                    try await connection.send(.applied)
                } else {
                    peerApplied = true
                }
                guard caughtUp && peerApplied else { continue }
                eventSink.yield(.synced(peer.device, received: counts.received, sent: counts.sent))
                if !live { return }
            case .refused(let reason):
                throw MedsError("\(peer.device.name) ended the sync: \(reason)")
            default:
                throw MedsError("\(peer.device.name) sent \(message) during a sync; ended.")
            }
        }
    }

    /// Applies one page to a profile (adding the profile first if this machine lacks it), then records its anchor.
    /// Returns how many changes it made here.
    func apply(
        _ page: HKHealthAppEditor.ReplicatedChanges, profile: SyncProfile, from peer: SyncDevice
    ) async throws -> Int {
        let isNew = try await !stores.profiles().contains { $0.id == profile.id }
        let local = try await stores.adopt(profile.profile, peer.name)
        let health = try await stores.health(local.id)
        let outcome: HKHealthAppEditor.ReplicationOutcome
        do {
            outcome = try await health.editor.applyReplicatedChanges(page)
        } catch {
            throw MedsError("Changes from \(peer.name) were refused, and none was applied: \(error)")
        }
        try pairings.setAnchor(page.anchor, from: peer.id, profile: profile.id, written: outcome.sequences)
        let made = outcome.medications + outcome.added + outcome.deleted
        if isNew || made > 0 { await stores.changed(local.id) }
        return made
    }
}
