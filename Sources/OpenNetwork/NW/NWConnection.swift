import Dispatch
import Foundation
import NIOConcurrencyHelpers

/// The Network framework's callback API for a connection, built on ``NetworkConnection``: state changes and
/// completions arrive on the `DispatchQueue` given to ``start(queue:)``.
///
/// ```swift
/// let connection = NWConnection(host: "example.com", port: 7, using: .tcp)
/// connection.stateUpdateHandler = { state in if state == .ready { ... } }
/// connection.start(queue: .main)
/// connection.send(content: data, completion: .contentProcessed { error in ... })
/// connection.receive(minimumIncompleteLength: 1, maximumLength: 65536) { data, context, isComplete, error in ... }
/// ```
///
/// Sends complete in the order they were made, and so do receives. TCP, TLS over TCP, and UDP; Linux differences
/// are in ``NWParameters`` and ``NWProtocolTLS``.
public final class NWConnection: Sendable, CustomDebugStringConvertible {
    /// The connection's states: setup, waiting (retrying), preparing, ready, failed, cancelled.
    public typealias State = ConnectionState

    /// What a send reports: `.contentProcessed { error in }` once the connection has taken the content (or failed),
    /// or `.idempotent` for content that may be sent without a report.
    public enum SendCompletion: Sendable {
        /// Called on the connection's queue once the content is processed, with the error if it failed.
        case contentProcessed(@Sendable (NWError?) -> Void)
        /// No report.
        case idempotent
    }

    /// What a message is within the connection: `.defaultMessage`, or `.finalMessage` (the last one: over TCP the
    /// connection's sending side closes after it and reading goes on; over TLS and UDP the connection closes
    /// gracefully: TLS half-closure is not built yet).
    public final class ContentContext: Sendable {
        /// A name for the context.
        public let identifier: String
        /// Whether this is the last content sent on the connection.
        public let isFinal: Bool

        /// A context named `identifier`, final when `isFinal` is true.
        public init(identifier: String, isFinal: Bool = false) {
            self.identifier = identifier
            self.isFinal = isFinal
        }

        /// An ordinary message.
        public static let defaultMessage = ContentContext(identifier: "default")
        /// The last message: the sending side closes once it is written.
        public static let finalMessage = ContentContext(identifier: "final", isFinal: true)
        /// Content of a stream that has no message boundaries.
        public static let defaultStream = ContentContext(identifier: "stream")
    }

    /// The endpoint the connection goes to (the peer's, for a connection a listener accepted).
    public let endpoint: NWEndpoint
    /// The parameters the connection was made with.
    public let parameters: NWParameters
    let link: Link
    private let shared = NIOLockedValueBox(Shared())
    private let sends: AsyncStream<@Sendable () async -> Void>.Continuation
    private let receives: AsyncStream<@Sendable () async -> Void>.Continuation

    private struct Shared {
        var queue: DispatchQueue?
        var stateUpdateHandler: (@Sendable (State) -> Void)?
        var state: State = .setup
        var workers: [Task<Void, Never>] = []
        var endWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The transport under the connection.
    enum Link: Sendable {
        case tcp(NetworkConnection<TCP>)
        case tls(NetworkConnection<TLS>)
        case udp(NetworkConnection<UDP>)
    }

    /// A connection to `host` and `port`.
    public convenience init(host: NWEndpoint.Host, port: NWEndpoint.Port, using parameters: NWParameters) {
        self.init(to: .hostPort(host: host, port: port), using: parameters)
    }

    /// A connection to `endpoint` (a host and port, a Bonjour service or a Unix socket path).
    public convenience init(to endpoint: NWEndpoint, using parameters: NWParameters) {
        let tcp = parameters.tcpOptions.declared
        let link: Link
        switch (parameters.transport, parameters.tlsOptions) {
        case (.udp, _): link = .udp(NetworkConnection(to: endpoint) { UDP() })
        case (.tcp, nil): link = .tcp(NetworkConnection(to: endpoint, using: NetworkParameters(tcp).halfClosure(true)))
        case (.tcp, _): link = .tls(NetworkConnection(to: endpoint) { TLS { tcp } })
        }
        self.init(endpoint: endpoint, parameters: parameters, link: link)
    }

    init(endpoint: NWEndpoint, parameters: NWParameters, link: Link) {
        self.endpoint = endpoint
        self.parameters = parameters
        self.link = link
        (sendStream, sends) = AsyncStream.makeStream()
        (receiveStream, receives) = AsyncStream.makeStream()
        // States are followed from the start (a connection that ends before `start` still ends its waiters); a
        // connection a listener accepted is ready already, and its current state is taken first.
        let report: @Sendable (State) -> Void = { [weak self] state in self?.changed(to: state) }
        switch link {
        case .tcp(let c):
            c.onStateUpdate { _, s in report(s) }
            Task { report(await c.state) }
        case .tls(let c):
            c.onStateUpdate { _, s in report(s) }
            Task { report(await c.state) }
        case .udp(let c):
            c.onStateUpdate { _, s in report(s) }
            Task { report(await c.state) }
        }
    }

    private let sendStream: AsyncStream<@Sendable () async -> Void>
    private let receiveStream: AsyncStream<@Sendable () async -> Void>

    /// Called on the connection's queue with every state change.
    public var stateUpdateHandler: (@Sendable (State) -> Void)? {
        get { shared.withLockedValue { $0.stateUpdateHandler } }
        set { shared.withLockedValue { $0.stateUpdateHandler = newValue } }
    }

    /// The current state.
    public var state: State { shared.withLockedValue { $0.state } }

    /// The queue given to ``start(queue:)``.
    public var queue: DispatchQueue? { shared.withLockedValue { $0.queue } }

    /// Starts connecting; handlers and completions run on `queue`. A second call does nothing (as Apple's).
    public func start(queue: DispatchQueue) {
        let (first, current, handler) = shared.withLockedValue { s in
            guard s.queue == nil else { return (false, s.state, s.stateUpdateHandler) }
            s.queue = queue
            return (true, s.state, s.stateUpdateHandler)
        }
        guard first else { return }
        // A state reached before the queue was known (an accepted connection is ready) is told now.
        if current != .setup, let handler { queue.async { handler(current) } }
        let sendWork = sendStream
        let receiveWork = receiveStream
        let workers = [
            Task { for await work in sendWork { await work() } },
            Task { for await work in receiveWork { await work() } },
        ]
        shared.withLockedValue { $0.workers = workers }
        let link = self.link
        Task {
            switch link {
            case .tcp(let c): await c.start()
            case .tls(let c): await c.start()
            case .udp(let c): await c.start()
            }
        }
    }

    private func changed(to state: State) {
        let (changed, queue, handler, waiters) = shared.withLockedValue { s in
            // A state reported twice (the first report of an accepted connection can meet its own change) is told once.
            let changed = s.state != state
            s.state = state
            var waiters: [CheckedContinuation<Void, Never>] = []
            if state.isFinal {
                waiters = s.endWaiters
                s.endWaiters = []
            }
            return (changed, s.queue, s.stateUpdateHandler, waiters)
        }
        guard changed else { return }
        if state.isFinal { finishWork() }
        for waiter in waiters { waiter.resume() }
        guard let handler, let queue else { return }
        queue.async { handler(state) }
    }

    private func finishWork() {
        sends.finish()
        receives.finish()
    }

    /// Closes the connection gracefully: content already sent is delivered first; the state becomes cancelled.
    public func cancel() {
        let link = self.link
        Task {
            switch link {
            case .tcp(let c): await c.cancel()
            case .tls(let c): await c.cancel()
            case .udp(let c): await c.cancel()
            }
        }
    }

    /// Closes the connection at once, dropping what is not yet written.
    public func forceCancel() {
        let core: ConnectionCore
        switch link {
        case .tcp(let c): core = c.core
        case .tls(let c): core = c.core
        case .udp(let c): core = c.core
        }
        Task { await core.cancel() }
    }

    /// Sends `content` (nil sends nothing, which with a final context just closes the sending side). The completion
    /// runs on the connection's queue once the connection has taken the content.
    public func send(
        content: Data?, contentContext: ContentContext = .defaultMessage, isComplete: Bool = true,
        completion: SendCompletion
    ) {
        let link = self.link
        let final = contentContext.isFinal && isComplete
        enqueue(on: sends) { [weak self] in
            var failure: NWError?
            do {
                if let content, !content.isEmpty {
                    switch link {
                    case .tcp(let c): try await c.send(content)
                    case .tls(let c): try await c.send(content)
                    case .udp(let c): try await c.send(content)
                    }
                }
                if final {
                    // The last message: over TCP the sending side closes (the peer reads the end, ours goes on
                    // reading); over TLS and UDP the connection closes gracefully.
                    if case .tcp(let c) = link { try await c.core.finishSending() } else { self?.cancel() }
                }
            } catch {
                failure = NWError.from(error)
            }
            let failed = failure
            if case .contentProcessed(let done) = completion { self?.deliver { done(failed) } }
        }
    }

    /// Receives between `minimumIncompleteLength` and `maximumLength` bytes (one datagram over UDP). The
    /// completion runs on the connection's queue with the data, its context, whether the peer finished sending
    /// (`isComplete`), and the error if the connection failed.
    public func receive(
        minimumIncompleteLength: Int, maximumLength: Int,
        completion: @escaping @Sendable (Data?, ContentContext?, Bool, NWError?) -> Void
    ) {
        let link = self.link
        enqueue(on: receives) { [weak self] in
            let result: (Data?, ContentContext?, Bool, NWError?)
            do {
                switch link {
                case .tcp(let c):
                    let (data, metadata) = try await c.receive(atLeast: minimumIncompleteLength, atMost: maximumLength)
                    result = Self.streamResult(data, metadata)
                case .tls(let c):
                    let (data, metadata) = try await c.receive(atLeast: minimumIncompleteLength, atMost: maximumLength)
                    result = Self.streamResult(data, metadata)
                case .udp(let c):
                    let (data, _) = try await c.receive()
                    result = (data, .defaultMessage, true, nil)
                }
            } catch NWError.connectionClosed {
                result = (nil, .finalMessage, true, nil)
            } catch {
                result = (nil, nil, false, NWError.from(error))
            }
            self?.deliver { completion(result.0, result.1, result.2, result.3) }
        }
    }

    /// Receives one whole message: one datagram over UDP; over TCP and TLS, everything until the peer finishes
    /// sending (a stream has no other message boundary without a framer).
    public func receiveMessage(completion: @escaping @Sendable (Data?, ContentContext?, Bool, NWError?) -> Void) {
        if case .udp = link {
            receive(minimumIncompleteLength: 1, maximumLength: 65_535, completion: completion)
            return
        }
        let link = self.link
        enqueue(on: receives) { [weak self] in
            var whole = Data()
            var failure: NWError?
            reading: while true {
                do {
                    let (data, metadata): (Data, StreamMetadata)
                    switch link {
                    case .tcp(let c): (data, metadata) = try await c.receive(atLeast: 1, atMost: 1 << 20)
                    case .tls(let c): (data, metadata) = try await c.receive(atLeast: 1, atMost: 1 << 20)
                    case .udp: preconditionFailure("UDP messages are datagrams (above)")
                    }
                    whole.append(data)
                    if metadata.isComplete { break reading }
                } catch NWError.connectionClosed {
                    break reading
                } catch {
                    failure = NWError.from(error)
                    break reading
                }
            }
            let result: (Data?, ContentContext?, Bool, NWError?) =
                failure.map { (nil, nil, false, $0) } ?? (whole.isEmpty ? nil : whole, .finalMessage, true, nil)
            self?.deliver { completion(result.0, result.1, result.2, result.3) }
        }
    }

    private static func streamResult(
        _ data: Data, _ metadata: StreamMetadata
    ) -> (Data?, ContentContext?, Bool, NWError?) {
        (data.isEmpty ? nil : data, metadata.isComplete ? .finalMessage : .defaultMessage, metadata.isComplete, nil)
    }

    /// Queues an operation behind the earlier ones of its kind; one that comes after the connection ended runs at
    /// once and fails.
    private func enqueue(
        on queue: AsyncStream<@Sendable () async -> Void>.Continuation, _ work: @escaping @Sendable () async -> Void
    ) {
        if case .terminated = queue.yield(work) {
            Task { await work() }
        }
    }

    /// Runs `body` on the connection's queue (at once when not started: there is no queue to wait for).
    private func deliver(_ body: @escaping @Sendable () -> Void) {
        if let queue = shared.withLockedValue({ $0.queue }) { queue.async(execute: body) } else { body() }
    }

    /// Waits until the connection is cancelled or failed (or the waiting task is cancelled: then it cancels the
    /// connection at once).
    func waitUntilEnded() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let ended = shared.withLockedValue { s -> Bool in
                    if s.state.isFinal { return true }
                    s.endWaiters.append(waiter)
                    return false
                }
                if ended { waiter.resume() }
            }
        } onCancel: {
            forceCancel()
        }
    }

    /// The endpoint and state, as Apple prints a connection.
    public var debugDescription: String { "[\(endpoint) \(parameters.debugDescription), \(state)]" }
}

extension ConnectionState {
    /// Whether the connection has ended (cancelled or failed).
    var isFinal: Bool {
        switch self {
        case .cancelled, .failed: true
        default: false
        }
    }
}
