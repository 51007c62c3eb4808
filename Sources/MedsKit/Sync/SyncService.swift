import Crypto
import Foundation
import OpenHealthKit
import OpenNetwork
import Synchronization

/// What sync reports as it goes.
public enum SyncEvent: Sendable, Equatable {
    /// This machine is now paired with another.
    case paired(SyncDevice)
    /// A session with a machine has exchanged every change either had when it began (and, in a live session, every
    /// change since): how many changes were applied here and how many were sent.
    case synced(SyncDevice, received: Int, sent: Int)
    /// Something went wrong, said for the person to read; the stores are as they were before the failed step.
    case failed(String)
}

/// Sync between machines on a local network, with no server: each machine advertises itself with Bonjour
/// (``serviceType``, its identifier in the TXT record), finds the others with `NetworkBrowser`, and talks to the ones
/// it is paired with over TLS with a key the two share. Pairing: one machine shows a six-digit code
/// (``startPairing(now:)``), the other types it (``pair(code:timeout:)``); see ``PairingCode``.
///
/// Each session exchanges each profile's changes after the anchors the other machine last applied, as pages of
/// ``OpenHealthKit/HKHealthAppEditor/ReplicatedChanges`` (anchored change feeds) in Coder messages, so two machines
/// that were apart for a week exchange that week and nothing more. The rules that make them converge:
/// - Doses and symptoms: a sample is added once by its UUID; a deletion (an undone dose) wins for good; two answers
///   to one scheduled dose made apart are both kept, and the one logged last counts (``TodayPlan``).
/// - Medications: one a machine lacks is added with the sender's nickname, schedule and archived state; for one
///   both have, the state the person changed last (on either machine) wins.
/// - Profiles: matched by identifier; a profile new here is added, with the other machine's name after its own if
///   the name is taken (two people's data are never merged).
///
/// Of a machine that connects, only a paired one gets anything: the TLS handshake needs its key, and its first
/// message must prove that key for the identity it claims. Pages are checked before they are written and a bad
/// page changes nothing (``OpenHealthKit/HKHealthAppEditor/applyReplicatedChanges(_:)``).
public final class SyncService: Sendable {
    /// The Bonjour service type machines advertise for sync.
    public static let serviceType = "_orchard-meds._tcp"
    /// The Bonjour service type machines advertise for pairing.
    public static let pairingServiceType = "_orchard-pair._tcp"
    /// The changes sent in one message at most.
    static let pageSize = 1000

    typealias Wire = Coder<SyncMessage, SyncMessage, NetworkJSONCoder>

    /// This machine's pairings and anchors.
    public let pairings: SyncPairings
    /// What sync reports, for the app to show.
    public let events: AsyncStream<SyncEvent>
    let eventSink: AsyncStream<SyncEvent>.Continuation
    let stores: SyncStores
    let state = Mutex(ServiceState())

    struct ServiceState {
        var code: PairingCode?
        var sessions: Set<UUID> = []
        /// The paired or unpaired machines advertised at the last browse result, by identifier (``run()``).
        var advertised: [UUID: NWEndpoint] = [:]
        var changeCount = 0
        var changeWaiters: [CheckedContinuation<Void, Never>] = []
        /// Asks ``run()`` to look at the machines advertised now again (set while it runs): a pairing just made
        /// may be with a machine found before it, which no browse result will name again.
        var recheck: (@Sendable () -> Void)?
    }

    /// A pairing was made: the machine may be advertised already, so ``run()`` dials it now if it should.
    func paired(_ peer: SyncDevice) {
        eventSink.yield(.paired(peer))
        state.withLock { $0.recheck }?()
    }

    /// Sync for the data of `stores`, with this machine's identity and pairings in `dataDirectory/sync.json`.
    public init(dataDirectory: URL, deviceName: String, stores: SyncStores) throws {
        pairings = try SyncPairings(url: dataDirectory.appendingPathComponent("sync.json"), deviceName: deviceName)
        self.stores = stores
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(100))
    }

    /// This machine.
    public var device: SyncDevice { pairings.device }

    // MARK: Pairing

    /// Shows a new pairing code: another machine that types it within ten minutes (in five tries at most) is paired
    /// with this one. A new code voids the last.
    public func startPairing(now: Date = Date()) -> String {
        let code = PairingCode.random(now: now)
        state.withLock { $0.code = code }
        return code.code
    }

    /// The key for a pairing handshake, while a code is good; each handshake uses up one try.
    func pairingKey(identity: String) -> [UInt8]? {
        guard identity == PairingCode.identity else { return nil }
        return state.withLock { state -> [UInt8]? in
            guard var code = state.code, code.expires > Date(), code.triesLeft > 0 else {
                state.code = nil
                return nil
            }
            code.triesLeft -= 1
            state.code = code.triesLeft > 0 ? code : nil
            // `try?`: a code made by `PairingCode.random` is always six digits.
            return try? PairingCode.key(for: code.code)
        }
    }

    /// Pairs with the machine showing `code`: finds the machines offering pairing and tries the code with each
    /// until one accepts it. Throws when none does within `timeout`.
    @discardableResult
    public func pair(code: String, timeout: Duration = .seconds(20)) async throws -> SyncDevice {
        let key = try PairingCode.key(for: code)
        let me = device
        let deadline = ContinuousClock.now + timeout
        var tried = Set<String>()
        var lastError: (any Error)?
        while ContinuousClock.now < deadline {
            let found = try await discover(Self.pairingServiceType, within: .milliseconds(1500))
            for (endpoint, id) in found where id != me.id && tried.insert("\(endpoint)").inserted {
                do {
                    return try await pair(key: key, at: endpoint)
                } catch {
                    lastError = error
                }
            }
        }
        throw MedsError(
            "No machine on this network accepted the code \(code)"
                + (lastError.map { " (last: \(String(describing: $0)))" } ?? "")
                + ". Check the code the other machine shows, and that it is still showing it.")
    }

    /// Pairs with the machine at `endpoint` showing `code`.
    @discardableResult
    public func pair(code: String, at endpoint: NWEndpoint) async throws -> SyncDevice {
        try await pair(key: PairingCode.key(for: code), at: endpoint)
    }

    /// Pairs with the machine at `endpoint` with a code's key; a machine that does not answer within
    /// ``connectTimeout`` fails the try (the caller may try the next machine).
    func pair(key: [UInt8], at endpoint: NWEndpoint) async throws -> SyncDevice {
        let connection = NetworkConnection(to: endpoint) {
            Wire(SyncMessage.self, using: .json) {
                TLS { TCP().connectionTimeout(Self.connectTimeout) }.preSharedKey(key, identity: PairingCode.identity)
            }
        }
        do {
            try await connection.send(.pairingRequest(device))
            let (reply, _) = try await connection.receive()
            guard case .pairingGrant(let peer, let secret) = reply, secret.count == 32 else {
                throw MedsError("The other machine answered the pairing request with \(reply).")
            }
            try pairings.addPeer(peer, secret: secret)
            await connection.cancel()
            paired(peer)
            return peer
        } catch {
            await connection.cancel()
            throw error
        }
    }

    /// Serves one pairing connection: the caller proved the code in the handshake.
    func pairWithCaller(_ connection: NetworkConnection<Wire>) async throws {
        let (request, _) = try await connection.receive()
        guard case .pairingRequest(let peer) = request else {
            try await connection.send(.refused("a pairing connection starts with a pairing request"))
            return
        }
        var secret = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for index in secret.indices { secret[index] = generator.next() }
        try pairings.addPeer(peer, secret: Data(secret))
        state.withLock { $0.code = nil }
        try await connection.send(.pairingGrant(device: device, secret: Data(secret)))
        paired(peer)
        // The other side closes once it has the grant.
        _ = try? await connection.receive()  // `try?`: the close it waits for arrives as an error or nothing
    }

    // MARK: Running

    /// Advertises this machine for pairing and sync, serves the machines that connect, and starts a session with
    /// each paired machine it finds whose identifier sorts after its own (the other one waits for it), until the
    /// calling task is cancelled. Sessions stay open and send changes as they are made (``localChangesMade()``); a
    /// session that fails or ends is started again while the other machine is still advertised
    /// (``keepDialing(_:endpoint:delays:connectTimeout:)``).
    public func run() async throws {
        let me = device
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.listen(advertise: true) }
            // A browse result, or nil: look at the machines advertised now again (a pairing was made).
            let (found, sink) = AsyncStream.makeStream(of: [(NWEndpoint, UUID)]?.self)
            state.withLock { $0.recheck = { sink.yield(nil) } }
            defer { state.withLock { $0.recheck = nil } }
            group.addTask {
                try await Self.browse(Self.serviceType) { sink.yield($0) }
                sink.finish()
            }
            for await result in found {
                let advertised: [UUID: NWEndpoint]
                if let machines = result {
                    // The machines advertised now: a dialing loop whose machine left ends.
                    advertised = Dictionary(machines.map { ($0.1, $0.0) }, uniquingKeysWith: { _, last in last })
                    state.withLock { $0.advertised = advertised }
                } else {
                    advertised = state.withLock { $0.advertised }
                }
                for (id, _) in advertised {
                    guard id.uuidString > me.id.uuidString, pairings.secret(for: id) != nil,
                        state.withLock({ $0.sessions.insert(id).inserted })
                    else { continue }
                    group.addTask {
                        defer { _ = self.state.withLock { $0.sessions.remove(id) } }
                        await self.keepDialing(id) { self.state.withLock { $0.advertised[id] } }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Runs live sessions with `peer` one after another, at the endpoint `endpoint()` gives, until it gives none (the
    /// machine is no longer advertised) or the task is cancelled. A dial that gets no answer within `connectTimeout`
    /// fails, so an address the machine left (it restarted on another port) is given up for the one advertised now. After a failure (reported in ``events``) or a
    /// session that ended, it waits the next of `delays` (the last repeats; back to the first after a session that
    /// ended without an error): a machine that was not listening yet, or that restarted, is reached again without
    /// waiting for the browse results to change.
    func keepDialing(
        _ peer: UUID, endpoint: @Sendable () -> NWEndpoint?, delays: [Duration] = SyncService.redialDelays,
        connectTimeout: Duration = SyncService.connectTimeout
    ) async {
        var attempt = 0
        while !Task.isCancelled, let target = endpoint() {
            do {
                try await dial(target, peer: peer, live: true, connectTimeout: connectTimeout)
                attempt = 0
            } catch {
                report(error)
                attempt += 1
            }
            let delay = delays[min(max(attempt - 1, 0), delays.count - 1)]
            do { try await Task.sleep(for: delay) } catch { return }  // Cancelled: the service is stopping.
        }
    }

    /// The waits between sessions with one machine: a second, then doubling up to half a minute.
    static let redialDelays: [Duration] = [
        .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30),
    ]

    /// Browses Bonjour for `type` until the task is cancelled, handing each result (the endpoints advertised then,
    /// with the identifier in their TXT record; endpoints without one are not Orchard machines and are left out) to
    /// `found`.
    static func browse(_ type: String, found: @escaping @Sendable ([(NWEndpoint, UUID)]) -> Void) async throws {
        let _: Int? = try await NetworkBrowser(for: .bonjour(type, includeTxtRecord: true)).run { endpoints in
            found(
                endpoints.compactMap { endpoint in
                    endpoint.txtRecord?["id"].flatMap(UUID.init(uuidString:)).map { (endpoint, $0) }
                })
            return .continue
        }
    }

    /// Runs the sync and pairing listeners, without looking for other machines (``run()`` does both), until the
    /// calling task is cancelled; `ready` gets their ports once both listen. `advertise`: with Bonjour; without,
    /// other machines reach them by address (``pair(code:at:)``, ``dial(_:peer:live:)``).
    public func listen(
        advertise: Bool,
        ready: @escaping @Sendable (_ sync: NWEndpoint.Port, _ pairing: NWEndpoint.Port) -> Void = { _, _ in }
    ) async throws {
        let sessions = syncListener(advertise: advertise)
        let pairing = pairingListener(advertise: advertise)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await sessions.run(self.serve) }
            group.addTask { try await pairing.run(self.servePairing) }
            while sessions.port == nil || pairing.port == nil {
                if case .failed(let error) = sessions.state { throw error }
                if case .failed(let error) = pairing.state { throw error }
                try await Task.sleep(for: .milliseconds(5))
            }
            // Safe to unwrap: the loop above ends only once both have a port.
            ready(sessions.port!, pairing.port!)
            try await group.waitForAll()
        }
    }

    /// The listener for sync sessions: only paired machines complete its handshake.
    func syncListener(advertise: Bool) -> NetworkListener<Wire> {
        let me = device
        let listener = NetworkListener {
            Wire(SyncMessage.self, using: .json) {
                TLS().preSharedKeys { identity in
                    guard let id = UUID(uuidString: identity) else { return nil }
                    return self.pairings.secret(for: id).map(Array.init)
                }
            }
        }
        guard advertise else { return listener }
        return listener.service(
            .init(name: me.name, type: Self.serviceType, txtRecord: NWTXTRecord(["id": me.id.uuidString])))
    }

    /// The listener for pairing: only a machine that knows the code shown completes its handshake.
    func pairingListener(advertise: Bool) -> NetworkListener<Wire> {
        let me = device
        let listener = NetworkListener {
            Wire(SyncMessage.self, using: .json) {
                TLS().preSharedKeys { identity in self.pairingKey(identity: identity) }
            }
        }
        guard advertise else { return listener }
        return listener.service(
            .init(name: me.name, type: Self.pairingServiceType, txtRecord: NWTXTRecord(["id": me.id.uuidString])))
    }

    /// Serves a machine that connected to the sync listener: a live session; failures go to ``events``.
    @Sendable func serve(_ connection: NetworkConnection<Wire>) async {
        do {
            try await session(connection, dialing: nil, live: true)
        } catch {
            report(error)
        }
    }

    /// Serves a machine that connected to the pairing listener; failures go to ``events``.
    @Sendable func servePairing(_ connection: NetworkConnection<Wire>) async {
        do {
            try await pairWithCaller(connection)
        } catch {
            report(error)
        }
    }

    /// Finds the machines advertising `type` for `duration`, with their identifiers.
    func discover(_ type: String, within duration: Duration) async throws -> [(NWEndpoint, UUID)] {
        final class Found: Sendable {
            let endpoints = Mutex<[String: (NWEndpoint, UUID)]>([:])
        }
        let found = Found()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await Self.browse(type) { machines in
                    found.endpoints.withLock { endpoints in
                        for (endpoint, id) in machines { endpoints[id.uuidString] = (endpoint, id) }
                    }
                }
            }
            try await Task.sleep(for: duration)
            group.cancelAll()
        }
        return found.endpoints.withLock { Array($0.values) }
    }

    /// Connects to a paired machine and runs a session with it: one round (every change either had), or, `live`,
    /// until the connection ends or the task is cancelled.
    public func dial(_ endpoint: NWEndpoint, peer: UUID, live: Bool = false) async throws {
        try await dial(endpoint, peer: peer, live: live, connectTimeout: Self.connectTimeout)
    }

    /// How long a dial waits for the other machine to answer (a connection refused is tried again meanwhile, as
    /// the Network framework does) before it fails.
    static let connectTimeout: Duration = .seconds(10)

    func dial(_ endpoint: NWEndpoint, peer: UUID, live: Bool, connectTimeout: Duration) async throws {
        guard let secret = pairings.secret(for: peer) else {
            throw MedsError("This machine is not paired with \(peer); pair the two first.")
        }
        let me = device
        let connection = NetworkConnection(to: endpoint) {
            Wire(SyncMessage.self, using: .json) {
                TLS { TCP().connectionTimeout(connectTimeout) }.preSharedKey(secret, identity: me.id.uuidString)
            }
        }
        defer { Task { await connection.cancel() } }
        try await session(connection, dialing: peer, live: live)
    }

    /// Tells live sessions that this machine's data changed, so they send the change now.
    public func localChangesMade() {
        let waiters = state.withLock { state in
            state.changeCount += 1
            defer { state.changeWaiters = [] }
            return state.changeWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func report(_ error: any Error) {
        if error is CancellationError { return }
        eventSink.yield(.failed(String(describing: error)))
    }

    /// The proof a machine's hello carries that it holds the key of the identity it claims.
    static func proof(secret: Data, from sender: UUID, to receiver: UUID) -> Data {
        let message = Data("orchard-meds-hello|\(sender.uuidString)|\(receiver.uuidString)".utf8)
        return Data(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
    }
}
