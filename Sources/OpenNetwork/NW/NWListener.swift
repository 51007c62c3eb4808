import Dispatch
import Foundation
import NIOConcurrencyHelpers

/// The Network framework's callback API for a listener, built on ``NetworkListener``: new connections, state
/// changes and service registrations arrive on the `DispatchQueue` given to ``start(queue:)``.
///
/// ```swift
/// let listener = try NWListener(using: .tcp, on: 7000)
/// listener.newConnectionHandler = { connection in connection.start(queue: .main) ... }
/// listener.start(queue: .main)
/// ```
///
/// A new connection is ready when it is handed over (with a framer, once the framer is); it lives until the app
/// cancels it or the listener is cancelled. TCP, TLS over TCP, and UDP (a connection per remote address and port).
public final class NWListener: Sendable, CustomDebugStringConvertible {
    /// The listener's states.
    public enum State: Sendable, Equatable {
        /// Created, not started.
        case setup
        /// Waiting for the network (not entered on Linux: binding works or fails).
        case waiting(NWError)
        /// Bound and accepting; ``port`` is known.
        case ready
        /// Binding or accepting failed.
        case failed(NWError)
        /// Cancelled.
        case cancelled
    }

    /// A Bonjour service the listener advertises.
    public struct Service: Sendable, Hashable {
        /// The instance name; nil uses the machine's host name.
        public var name: String?
        /// The service type, `_name._tcp`.
        public var type: String
        /// The domain; nil advertises in `local.`.
        public var domain: String?
        /// The TXT record's wire form, if any.
        public var txtRecord: Data?

        /// A service with a TXT record in its wire form.
        public init(name: String? = nil, type: String, domain: String? = nil, txtRecord: Data? = nil) {
            self.name = name
            self.type = type
            self.domain = domain
            self.txtRecord = txtRecord
        }

        /// A service with a TXT record.
        public init(name: String? = nil, type: String, domain: String? = nil, txtRecord: NWTXTRecord) {
            self.init(name: name, type: type, domain: domain, txtRecord: txtRecord.data)
        }
    }

    /// A change to the advertised service.
    public enum ServiceRegistrationChange: Sendable, Hashable {
        /// Advertised under this endpoint.
        case add(NWEndpoint)
        /// No longer advertised under this endpoint.
        case remove(NWEndpoint)
    }

    /// The parameters the listener was made with.
    public let parameters: NWParameters
    private let requestedPort: NWEndpoint.Port
    private let server: Server
    private let shared = NIOLockedValueBox(Shared())

    private struct Shared {
        var queue: DispatchQueue?
        var state: State = .setup
        var stateUpdateHandler: (@Sendable (State) -> Void)?
        var newConnectionHandler: (@Sendable (NWConnection) -> Void)?
        var serviceRegistrationUpdateHandler: (@Sendable (ServiceRegistrationChange) -> Void)?
        var service: Service?
        var task: Task<Void, Never>?
    }

    /// The ``NetworkListener`` under the listener, whatever its stack, seen through what this API needs.
    struct Server: Sendable {
        let listener: AnyObject & Sendable
        let getLimit: @Sendable () -> Int
        let setLimit: @Sendable (Int) -> Void
        let port: @Sendable () -> NWEndpoint.Port?
        let advertise: @Sendable (Service) -> Void
        let follow:
            @Sendable (
                _ state: @escaping @Sendable (State) -> Void,
                _ registration: @escaping @Sendable (ServiceRegistrationChange) -> Void
            ) -> Void
        let run:
            @Sendable (_ accept: @escaping @Sendable (NWConnection.Link, String?) async -> Void) async throws -> Void

        static func wrapping<P>(
            _ listener: NetworkListener<P>, link: @escaping @Sendable (NetworkConnection<P>) -> NWConnection.Link
        ) -> Server {
            Server(
                listener: listener, getLimit: { listener.newConnectionLimit },
                setLimit: { listener.newConnectionLimit = $0 }, port: { listener.port },
                advertise: { service in
                    let txt = service.txtRecord.flatMap { NWTXTRecord($0) } ?? NWTXTRecord()
                    listener.service(
                        .init(name: service.name, type: service.type, domain: service.domain, txtRecord: txt))
                },
                follow: { state, registration in
                    listener.onStateUpdate { _, s in
                        switch s {
                        case .setup: break
                        case .waiting(let e): state(.waiting(e))
                        case .ready: state(.ready)
                        case .failed(let e): state(.failed(e))
                        case .cancelled: state(.cancelled)
                        }
                    }
                    listener.onServiceRegistrationUpdate { _, change in
                        switch change {
                        case .add(let endpoint): registration(.add(endpoint))
                        case .remove(let endpoint): registration(.remove(endpoint))
                        }
                    }
                },
                run: { accept in
                    try await listener.run { connection in
                        await accept(link(connection), await connection.remoteAddress)
                    }
                })
        }
    }

    /// A listener on `port` (`.any`: one the system picks; read it from ``port`` once ready). TCP, with TLS when the
    /// parameters have it (a pre-shared key or a local identity set through `sec_protocol_options_*`), and a framer
    /// when the stack has one; or UDP, with one connection per remote address and port.
    public init(using parameters: NWParameters, on port: NWEndpoint.Port = .any) throws {
        _ = try parameters.framer()
        self.parameters = parameters
        requestedPort = port
        let tcp = parameters.tcpOptions.declared
        let local = NWEndpoint.hostPort(host: "::", port: port)
        if parameters.transport == .tcp, let webSocket = parameters.webSocketOptions {
            if let tls = parameters.tlsOptions {
                let declared = tls.declared(over: tcp)
                _ = try declared.options.serverConfiguration()
                server = .wrapping(
                    NetworkListener(for: local, using: NetworkParameters(webSocket.declared(over: declared))),
                    link: NWConnection.Link.webSocket)
            } else {
                server = .wrapping(
                    NetworkListener(for: local, using: NetworkParameters(webSocket.declared(over: tcp))),
                    link: NWConnection.Link.webSocket)
            }
        } else if parameters.transport == .udp {
            server = .wrapping(
                NetworkListener(for: local, using: NetworkParameters(UDP())), link: NWConnection.Link.udp)
        } else if let tls = parameters.tlsOptions {
            let declared = tls.declared(over: tcp)
            // Refused now, with the reason, rather than when the first client arrives.
            _ = try declared.options.serverConfiguration()
            server = .wrapping(
                NetworkListener(for: local, using: NetworkParameters(declared).halfClosure(true)),
                link: NWConnection.Link.tls)
        } else {
            server = .wrapping(
                NetworkListener(for: local, using: NetworkParameters(tcp).halfClosure(true)),
                link: NWConnection.Link.tcp)
        }
    }

    /// A listener on a port the system picks, advertising `service`.
    public convenience init(service: Service, using parameters: NWParameters) throws {
        try self.init(using: parameters)
        self.service = service
    }

    /// Called on the listener's queue with each new connection (ready; start it to get its callbacks).
    public var newConnectionHandler: (@Sendable (NWConnection) -> Void)? {
        get { shared.withLockedValue { $0.newConnectionHandler } }
        set { shared.withLockedValue { $0.newConnectionHandler = newValue } }
    }

    /// Called on the listener's queue with every state change.
    public var stateUpdateHandler: (@Sendable (State) -> Void)? {
        get { shared.withLockedValue { $0.stateUpdateHandler } }
        set { shared.withLockedValue { $0.stateUpdateHandler = newValue } }
    }

    /// Called on the listener's queue when the advertised service is registered, renamed or withdrawn.
    public var serviceRegistrationUpdateHandler: (@Sendable (ServiceRegistrationChange) -> Void)? {
        get { shared.withLockedValue { $0.serviceRegistrationUpdateHandler } }
        set { shared.withLockedValue { $0.serviceRegistrationUpdateHandler = newValue } }
    }

    /// The Bonjour service advertised while the listener runs (set before ``start(queue:)``).
    public var service: Service? {
        get { shared.withLockedValue { $0.service } }
        set { shared.withLockedValue { $0.service = newValue } }
    }

    /// The remaining number of connections to deliver (``NetworkListener/InfiniteConnectionLimit``, -1, for all).
    public var newConnectionLimit: Int {
        get { server.getLimit() }
        set { server.setLimit(newValue) }
    }

    /// The bound port once ready.
    public var port: NWEndpoint.Port? { server.port() }

    /// The current state.
    public var state: State { shared.withLockedValue { $0.state } }

    /// The queue given to ``start(queue:)``.
    public var queue: DispatchQueue? { shared.withLockedValue { $0.queue } }

    /// Binds and starts accepting; handlers run on `queue`. A second call does nothing.
    public func start(queue: DispatchQueue) {
        let first = shared.withLockedValue { s -> Bool in
            guard s.queue == nil else { return false }
            s.queue = queue
            return true
        }
        guard first else { return }
        if let service { server.advertise(service) }
        server.follow({ [weak self] state in self?.changed(to: state) }, { [weak self] change in self?.tell(change) })
        let server = self.server
        let parameters = self.parameters
        let shared = self.shared
        let task = Task {
            do {
                try await server.run { link, remote in
                    let endpoint = remote.flatMap(Self.endpoint) ?? .hostPort(host: "::", port: .any)
                    let accepted = NWConnection(endpoint: endpoint, parameters: parameters, link: link)
                    let (queue, handler) = shared.withLockedValue { ($0.queue, $0.newConnectionHandler) }
                    guard let queue, let handler else {
                        // Apple's listener refuses connections while it has no handler: so does this one.
                        accepted.forceCancel()
                        return
                    }
                    queue.async { handler(accepted) }
                    // The connection lives until the app ends it (or the listener's cancellation ends this task).
                    await accepted.waitUntilEnded()
                }
            } catch {
                // `run` reported the failure through the state handler already (state `failed`).
            }
        }
        shared.withLockedValue { $0.task = task }
    }

    /// Stops accepting, closes the listener and every connection it accepted, and withdraws its service.
    public func cancel() {
        let task = shared.withLockedValue { s -> Task<Void, Never>? in
            defer { s.task = nil }
            return s.task
        }
        if let task { task.cancel() } else { changed(to: .cancelled) }
    }

    private func changed(to state: State) {
        let (queue, handler) = shared.withLockedValue { s -> (DispatchQueue?, (@Sendable (State) -> Void)?) in
            s.state = state
            return (s.queue, s.stateUpdateHandler)
        }
        guard let queue, let handler else { return }
        queue.async { handler(state) }
    }

    private func tell(_ change: ServiceRegistrationChange) {
        let (queue, handler) = shared.withLockedValue { ($0.queue, $0.serviceRegistrationUpdateHandler) }
        guard let queue, let handler else { return }
        queue.async { handler(change) }
    }

    /// The peer's address as an endpoint ("[IPv4]127.0.0.1/127.0.0.1:5000" as SwiftNIO prints it, or "a:b").
    static func endpoint(_ address: String) -> NWEndpoint? {
        guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...]) else {
            return nil
        }
        var host = String(address[..<colon])
        if let slash = host.lastIndex(of: "/") { host = String(host[host.index(after: slash)...]) }
        // An IPv4 peer of a dual-stack socket shows as an IPv4-mapped IPv6 address: it is the IPv4 peer.
        if host.lowercased().hasPrefix("::ffff:"), Transport.isIPLiteral(String(host.dropFirst(7))),
            !host.dropFirst(7).contains(":")
        {
            host = String(host.dropFirst(7))
        }
        return .hostPort(host: NWEndpoint.Host(host), port: NWEndpoint.Port(rawValue: port))
    }

    /// The port and state, as Apple prints a listener.
    public var debugDescription: String { "[listener \(port.map(String.init(describing:)) ?? "-") \(state)]" }
}
