import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The states a connection goes through.
public enum ConnectionState: Sendable, Equatable, CustomStringConvertible {
    /// Created; nothing started yet (starts on the first send or receive).
    case setup
    /// Resolving, connecting, handshaking.
    case preparing
    /// The peer is unreachable for now; the connection retries with backoff until it is, or until the
    /// task is cancelled (or the TCP connection timeout passes).
    case waiting(NWError)
    /// Established: data flows.
    case ready
    /// Failed for good, with the reason.
    case failed(NWError)
    /// Cancelled by its task or by `cancel()`.
    case cancelled

    /// A readable name of the state.
    public var description: String {
        switch self {
        case .setup: "setup"
        case .preparing: "preparing"
        case .waiting(let e): "waiting(\(e))"
        case .ready: "ready"
        case .failed(let e): "failed(\(e))"
        case .cancelled: "cancelled"
        }
    }
}

/// The life of a connection: establishes the channel (retrying while the peer is unreachable), tracks the state,
/// and ends it. The data path does not pass through here: once ready, sends and receives go to the channel's
/// ``ConnectionIO`` directly (published in ``current``), without a hop to this actor per message.
actor ConnectionCore {
    typealias Establish = @Sendable () async throws -> Transport.Established
    private let establish: Establish
    private let retries: Bool
    let config: ProtocolStackConfiguration
    private let notify: @Sendable (ConnectionState) -> Void
    /// The established channel's data path (nil until ready), read by sends and receives without the actor.
    nonisolated let current = NIOLockedValueBox<ConnectionIO?>(nil)

    private(set) var state: ConnectionState = .setup
    /// Whether the connection was ever ready (it may have failed since).
    private var wasEstablished = false
    private var channel: (any Channel)?
    private var io: ConnectionIO?
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var runTask: Task<Void, Never>?
    private var timeoutTask: Task<Void, Never>?
    /// The ALPN protocol agreed in the TLS handshake.
    private(set) var negotiatedProtocol: String?

    init(
        config: ProtocolStackConfiguration, retries: Bool, notify: @escaping @Sendable (ConnectionState) -> Void,
        establish: @escaping Establish
    ) {
        self.config = config
        self.retries = retries
        self.notify = notify
        self.establish = establish
    }

    private func set(_ new: ConnectionState) {
        guard new != state else { return }
        state = new
        notify(new)
        wakeAll()
    }

    private func wakeAll() {
        let w = waiters
        waiters.removeAll()
        for c in w { c.resume() }
    }

    private func waitChange() async {
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Starts establishing the connection if it has not started yet.
    func start() {
        guard case .setup = state else { return }
        set(.preparing)
        if let t = config.tcp.connectionTimeout {
            timeoutTask = Task { [weak self] in
                // A cancelled sleep is the timeout being called off: nothing to do.
                try? await Task.sleep(for: t)
                guard !Task.isCancelled else { return }
                await self?.connectTimedOut()
            }
        }
        runTask = Task { await self.run() }
    }

    private func connectTimedOut() {
        switch state {
        case .preparing, .waiting, .setup: fail(.timedOut)
        default: break
        }
    }

    private func run() async {
        var backoff: Duration = .milliseconds(50)
        while true {
            if isFinished { return }
            do {
                let est = try await establish()
                do {
                    negotiatedProtocol = try await est.ready.get()
                } catch {
                    await Transport.discard(est.channel)
                    throw error
                }
                await serve(est.channel, io: est.io)
                return
            } catch {
                let e = NWError.from(error)
                if isFinished { return }
                guard retries && e.isTransient else {
                    fail(e)
                    return
                }
                set(.waiting(e))
                // A cancelled sleep means the connection ended meanwhile: the check below sees it.
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, .seconds(2))
                if isFinished { return }
                set(.preparing)
            }
        }
    }

    private var isFinished: Bool {
        switch state {
        case .failed, .cancelled: true
        default: false
        }
    }

    /// Publishes the channel's data path, then waits for the channel to close: a failure its handler saw fails
    /// the connection; a clean close leaves it ready (reads take what is buffered, then report the end).
    private func serve(_ ch: any Channel, io: ConnectionIO) async {
        timeoutTask?.cancel()
        // Taken before the connection is ready, so the credentials are there for whoever sees it ready. The
        // handler read them when it joined the active channel or when the channel became active, before any read.
        let credentials = io.recordedPeerCredentials
        if isFinished {
            ch.close(promise: nil)
            return
        }
        peerCredentials = credentials
        channel = ch
        self.io = io
        endpoints = (ch.localAddress, ch.remoteAddress)
        current.withLockedValue { $0 = io }
        wasEstablished = true
        set(.ready)
        // The close future never fails a wait that only needs to know the channel is gone.
        try? await ch.closeFuture.get()
        if let failure = io.failure, !isFinished { fail(failure) }
        channel = nil
    }

    /// Fails the connection (a data-path error such as a malformed frame header).
    func fail(_ e: NWError) {
        guard !isFinished else { return }
        set(.failed(e))
        teardown(e)
    }

    /// Cancels gracefully: bytes already taken by `send` reach the socket first (bounded by a few seconds for a
    /// peer that reads nothing), then the channel closes (with TLS, after close_notify).
    func close() async {
        guard !isFinished else { return }
        if let ch = channel, let io, config.transport == .tcp {
            await io.closeGracefully(on: ch, timeout: .seconds(3))
        }
        cancel()
    }

    /// Finishes the sending side once what is queued is written (TCP half-closure); the connection still reads.
    func finishSending() async throws {
        guard !isFinished, let ch = channel, let io else { throw NWError.connectionClosed }
        do { try await io.finishOutput(on: ch) } catch { throw NWError.from(error) }
    }

    /// Cancels the connection at once: closes the channel, drops what is queued, wakes every waiting operation.
    func cancel() {
        guard !isFinished else { return }
        set(.cancelled)
        teardown(.cancelled)
    }

    private func teardown(_ error: NWError) {
        timeoutTask?.cancel()
        runTask?.cancel()
        io?.terminate(error)
        channel?.close(promise: nil)
        channel = nil
        wakeAll()
    }

    private var terminalError: NWError? {
        switch state {
        case .failed(let e): e
        case .cancelled: .cancelled
        default: nil
        }
    }

    /// The data path once ready (starting the connection if needed); throws if it failed or was cancelled first.
    func readyIO() async throws -> ConnectionIO {
        start()
        while true {
            if let e = terminalError { throw e }
            if case .ready = state, let io { return io }
            await waitChange()
        }
    }

    /// Waits until ready (true) or finished (false).
    func waitUntilEstablished() async -> Bool {
        while true {
            // Once ready counts even if it failed since (an idle timeout, a reset): the waiter may wake
            // only after both changes, and the connection's user must still see how it ended.
            if wasEstablished { return true }
            switch state {
            case .ready: return true
            case .failed, .cancelled: return false
            default: await waitChange()
            }
        }
    }

    /// Reads a socket option of the established channel (lets tests check that a stack's options reach
    /// the socket); nil when the connection is not ready.
    func socketOption(level: Int32, name: Int32) async throws -> Int32? {
        guard let channel else { return nil }
        let option = ChannelOptions.Types.SocketOption(level: SocketOptionLevel(level), name: SocketOptionName(name))
        do {
            return Int32(truncatingIfNeeded: try await channel.getOption(option).get())
        } catch {
            throw NWError.from(error)
        }
    }

    /// The channel's local and remote addresses, once ready.
    func addresses() -> (local: SocketAddress?, remote: SocketAddress?) { endpoints }

    /// The peer process of a Unix domain socket connection, once ready (nil for other transports).
    private(set) var peerCredentials: PeerCredentials?

    /// The addresses seen when the connection became ready (a closed channel no longer knows them).
    private var endpoints: (local: SocketAddress?, remote: SocketAddress?) = (nil, nil)
}
