import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// Listens for incoming connections on a declared protocol stack and hands each one to a handler
/// running in its own child task: `try await NetworkListener { TLS().localIdentity(id) }.run { connection in ... }`.
///
/// Cancelling the task running ``run(_:)`` closes the listener and every connection it accepted.
/// A peer that fails its TLS handshake or misbehaves only ends its own child task.
public final class NetworkListener<ApplicationProtocol: NetworkProtocolOptions>: Sendable {
    /// The listener's states.
    public enum State: Sendable, Equatable {
        /// Created, not yet bound.
        case setup
        /// Waiting for the network (not used on Linux: binding either works or fails).
        case waiting(NWError)
        /// Bound and accepting; ``port`` is known.
        case ready
        /// Binding or accepting failed.
        case failed(NWError)
        /// The run task was cancelled.
        case cancelled
    }

    struct Shared {
        var state: State = .setup
        var port: NWEndpoint.Port?
        var handler: (@Sendable (State) -> Void)?
        var limit = NetworkListener.InfiniteConnectionLimit
        var limitWaiter: CheckedContinuation<Void, Never>?
        var logger = Logger(label: "OpenNetwork.NetworkListener")
        var service: Service?
        var registrationHandler: (@Sendable (ServiceRegistrationChange) -> Void)?
    }

    /// The value of ``newConnectionLimit`` that delivers every inbound connection (the default).
    public static var InfiniteConnectionLimit: Int { -1 }
    let shared = NIOLockedValueBox(Shared())
    let applicationProtocol: ApplicationProtocol
    let local: NWEndpoint
    /// TCP half-closure on accepted connections (internal: NWListener's connections use it).
    let halfClosure: Bool

    /// A listener on all interfaces, on an ephemeral port (read it from ``port`` once ready).
    public convenience init(@ProtocolStackBuilder using stack: () -> ApplicationProtocol) {
        self.init(for: .hostPort(host: "::", port: .any), using: .parameters(stack))
    }

    /// A listener bound to a local endpoint (a host and port; port 0 gives an ephemeral port; or a
    /// Unix socket path).
    public convenience init(for local: NWEndpoint, @ProtocolStackBuilder using stack: () -> ApplicationProtocol) {
        self.init(for: local, using: .parameters(stack))
    }

    /// A listener bound to a local endpoint with explicit parameters.
    public init(for local: NWEndpoint, using parameters: NetworkParameters<ApplicationProtocol>) {
        self.local = local
        applicationProtocol = parameters.applicationProtocol
        halfClosure = parameters.halfClosure
    }

    /// The bound port once the listener is ready.
    public var port: NWEndpoint.Port? { shared.withLockedValue { $0.port } }

    /// The current state.
    public var state: State { shared.withLockedValue { $0.state } }

    /// Installs a handler called on every state change.
    @discardableResult
    public func onStateUpdate(
        _ handler: @escaping @Sendable (NetworkListener<ApplicationProtocol>, State) -> Void
    ) -> Self {
        let ref = WeakReference<NetworkListener<ApplicationProtocol>>(value: self)
        let wrapped: @Sendable (State) -> Void = { state in if let me = ref.value { handler(me, state) } }
        shared.withLockedValue { $0.handler = wrapped }
        return self
    }

    /// The remaining number of inbound connections to deliver. Unless it is ``InfiniteConnectionLimit``
    /// (the default) it decreases by one for every connection handed to `run`'s handler; at zero, new
    /// connections stay queued (accepted by the kernel, not delivered) until the limit is raised.
    public var newConnectionLimit: Int {
        get { shared.withLockedValue { $0.limit } }
        set {
            let waiter = shared.withLockedValue { s -> CheckedContinuation<Void, Never>? in
                s.limit = newValue
                defer { s.limitWaiter = nil }
                return newValue != 0 ? s.limitWaiter : nil
            }
            waiter?.resume()
        }
    }

    /// Sets ``newConnectionLimit``; returns the listener for chaining.
    @discardableResult
    public func newConnectionLimit(_ limit: Int) -> Self {
        newConnectionLimit = limit
        return self
    }

    /// Takes one unit of the connection limit, waiting while it is zero; false when cancelled meanwhile.
    func admitOne() async -> Bool {
        while true {
            if Task.isCancelled { return false }
            let admitted = shared.withLockedValue { s -> Bool in
                if s.limit == NetworkListener.InfiniteConnectionLimit || s.limit < 0 { return true }
                if s.limit > 0 {
                    s.limit -= 1
                    return true
                }
                return false
            }
            if admitted { return true }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                    let resumeNow = shared.withLockedValue { s -> Bool in
                        if s.limit != 0 || Task.isCancelled { return true }
                        s.limitWaiter = c
                        return false
                    }
                    if resumeNow { c.resume() }
                }
            } onCancel: {
                let waiter = shared.withLockedValue { s -> CheckedContinuation<Void, Never>? in
                    defer { s.limitWaiter = nil }
                    return s.limitWaiter
                }
                waiter?.resume()
            }
        }
    }

    /// Where the listener logs what a connection handler threw (swift-log; the label is
    /// `OpenNetwork.NetworkListener`).
    var logger: Logger {
        get { shared.withLockedValue { $0.logger } }
        set { shared.withLockedValue { $0.logger = newValue } }
    }

    /// Logs an error a connection handler threw, with the connection's peer.
    func report(_ error: any Error, from connection: NetworkConnection<ApplicationProtocol>) async {
        let peer = await connection.remoteAddress ?? "unknown peer"
        logger.error(
            "connection handler threw: \(error)",
            metadata: ["peer": .string(peer), "error.type": .string(String(reflecting: type(of: error)))])
    }

    func set(_ s: State) {
        let h: (@Sendable (State) -> Void)? = shared.withLockedValue {
            guard $0.state != s else { return nil }
            $0.state = s
            return $0.handler
        }
        h?(s)
    }

    /// Binds and serves: calls `handler` for every new connection, each in its own child task, until
    /// the calling task is cancelled (then returns normally) or binding fails (then throws).
    ///
    /// Each child task prefers its connection's event loop as its executor (a Linux difference: Apple does not say
    /// where a handler runs). A request read and the reply sent then stay on the thread that read the request, as
    /// a SwiftNIO channel handler does, with no handoff between threads per message. The cost is the same as in a
    /// channel handler: long synchronous work in `handler` (or in a default actor it calls, which runs on the task's
    /// preferred executor) delays the other connections on that loop; give such work a `Task {}` of its own, which
    /// does not inherit the preference.
    public func run(
        _ handler: @escaping @Sendable (NetworkConnection<ApplicationProtocol>) async throws -> Void
    ) async throws {
        let proto = applicationProtocol
        var stack = proto.stackConfiguration
        stack.halfClosure = halfClosure
        let config = stack
        if config.transport == .quic {
            set(.failed(QUIC.unavailable))
            throw QUIC.unavailable
        }
        if config.transport == .udp {
            try await runUDP(config: config, applicationProtocol: proto, handler)
            return
        }
        let sslContext: NIOSSLContext?
        do {
            sslContext = try config.tls.map { try NIOSSLContext(configuration: $0.serverConfiguration()) }
        } catch {
            let e = NWError.from(error)
            set(.failed(e))
            throw e
        }
        let childInit: @Sendable (Channel) -> EventLoopFuture<Transport.Established> = { channel in
            channel.eventLoop.makeCompletedFuture {
                try Transport.applySocketOptions(to: channel, config: config)
                return try Transport.configure(
                    channel: channel, config: config,
                    tls: sslContext.map { ctx in
                        { NIOSSLServerHandler(context: ctx) }
                    }, isServer: true)
            }
        }
        let bootstrap = ServerBootstrap(group: Transport.group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: 1024)
            // One read per wakeup: the inbound buffer's mark holds within one read (ConnectionBuffers.largestRead).
            .childChannelOption(.maxMessagesPerRead, value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: config.halfClosure)
        let server: NIOAsyncChannel<Transport.Established, Never>
        do {
            switch local {
            case .hostPort(let host, let port):
                server = try await bootstrap.bind(
                    host: host.name, port: Int(port.rawValue), childChannelInitializer: childInit)
            case .unix(let path):
                server = try await bootstrap.bind(
                    unixDomainSocketPath: path, cleanupExistingSocketFile: true,
                    childChannelInitializer: childInit)
            case .url(let url):
                throw NWError.transport("a listener binds to a host and port or a path, not to the URL \(url)")
            case .service(let name, _, _, _):
                throw NWError.transport(
                    "a listener binds to a host and port or a path, not to the service \(name); "
                        + "advertise a service with service(_:)")
            }
        } catch {
            let e = NWError.from(error)
            set(.failed(e))
            throw e
        }
        shared.withLockedValue {
            $0.port = server.channel.localAddress?.port.map { NWEndpoint.Port(rawValue: UInt16($0)) }
        }
        let withdraw: (@Sendable () -> Void)?
        do {
            withdraw = try await advertise()
        } catch {
            let e = NWError.from(error)
            set(.failed(e))
            try? await server.channel.close()  // `try?`: the listener already failed; a close error adds nothing
            throw e
        }
        defer { withdraw?() }
        set(.ready)
        do {
            try await withTaskCancellationHandler {
                try await server.executeThenClose { inbound in
                    try await withThrowingDiscardingTaskGroup { group in
                        for try await established in inbound {
                            guard await self.admitOne() else {
                                await Transport.discard(established.channel)
                                break
                            }
                            // The handler runs on its channel's event loop (see EventLoopTaskExecutor). The
                            // closure holds the executor for as long as the task runs.
                            let executor = EventLoopTaskExecutor(established.channel.eventLoop)
                            group.addTask(executorPreference: executor) {
                                let connection = NetworkConnection(
                                    accepted: established, applicationProtocol: proto,
                                    config: config)
                                await connection.start()
                                // A failed handshake ends only this child task.
                                guard await connection.waitUntilEstablished() else { return }
                                do {
                                    try await handler(connection)
                                } catch {
                                    // A handler's error ends its own connection, not the listener; it is logged
                                    // (as the Network framework logs it), never dropped.
                                    await self.report(error, from: connection)
                                }
                                await connection.cancel()
                                withExtendedLifetime(executor) {}
                            }
                        }
                        group.cancelAll()
                    }
                }
            } onCancel: {
                server.channel.close(promise: nil)
            }
        } catch {
            if Task.isCancelled {
                set(.cancelled)
                return
            }
            let e = NWError.from(error)
            set(.failed(e))
            throw e
        }
        set(.cancelled)
    }
}

extension NetworkConnection {
    /// Waits until the connection is or was ready (true), or failed or was cancelled before that (false).
    func waitUntilEstablished() async -> Bool {
        let core = self.core
        return await withTaskCancellationHandler {
            await core.waitUntilEstablished()
        } onCancel: {
            Task { await core.cancel() }
        }
    }
}
