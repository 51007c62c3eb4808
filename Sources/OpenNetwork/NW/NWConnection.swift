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

    /// The endpoint the connection goes to (the peer's, for a connection a listener accepted).
    public let endpoint: NWEndpoint
    /// The parameters the connection was made with.
    public let parameters: NWParameters
    let link: Link
    /// The framer the parameters put in the stack, if any.
    private let framer: FramerSession?
    /// A stack that cannot be built here: the connection fails with it when started.
    private let refusal: NWError?
    private let shared = NIOLockedValueBox(Shared())
    private let sends: AsyncStream<@Sendable () async -> Void>.Continuation
    private let receives: AsyncStream<@Sendable () async -> Void>.Continuation

    private struct Shared {
        var queue: DispatchQueue?
        var stateUpdateHandler: (@Sendable (State) -> Void)?
        var state: State = .setup
        var workers: [Task<Void, Never>] = []
        var endWaiters: [CheckedContinuation<Void, Never>] = []
        /// What is left of a framed message a `receive` with a smaller maximum took the start of.
        var framedRemainder: (data: Data, message: NWProtocolFramer.Message)?
    }

    /// A connection to `host` and `port`.
    public convenience init(host: NWEndpoint.Host, port: NWEndpoint.Port, using parameters: NWParameters) {
        self.init(to: .hostPort(host: host, port: port), using: parameters)
    }

    /// A connection to `endpoint` (a host and port, a Bonjour service or a Unix socket path).
    public convenience init(to endpoint: NWEndpoint, using parameters: NWParameters) {
        let tcp = parameters.tcpOptions.declared
        let link: Link
        if parameters.transport == .tcp, let webSocket = parameters.webSocketOptions {
            if let tls = parameters.tlsOptions {
                link = .webSocket(NetworkConnection(to: endpoint) { webSocket.declared(over: tls.declared(over: tcp)) })
            } else {
                link = .webSocket(NetworkConnection(to: endpoint) { webSocket.declared(over: tcp) })
            }
            self.init(endpoint: endpoint, parameters: parameters, link: link)
            return
        }
        switch (parameters.transport, parameters.tlsOptions) {
        case (.udp, _): link = .udp(NetworkConnection(to: endpoint) { UDP() })
        case (.tcp, nil): link = .tcp(NetworkConnection(to: endpoint, using: NetworkParameters(tcp).halfClosure(true)))
        case (.tcp, let tls?):
            link = .tls(
                NetworkConnection(to: endpoint, using: NetworkParameters(tls.declared(over: tcp)).halfClosure(true)))
        }
        self.init(endpoint: endpoint, parameters: parameters, link: link)
    }

    init(endpoint: NWEndpoint, parameters: NWParameters, link: Link) {
        self.endpoint = endpoint
        self.parameters = parameters
        self.link = link
        (sendStream, sends) = AsyncStream.makeStream()
        (receiveStream, receives) = AsyncStream.makeStream()
        var refusal: NWError?
        var framer: FramerSession?
        do {
            if let options = try parameters.framer() {
                let instance = NWProtocolFramer.Instance(options: options, remote: endpoint, parameters: parameters)
                framer = FramerSession(instance: instance, send: link.send, read: link.receive)
            }
        } catch {
            refusal = NWError.from(error)
        }
        self.framer = framer
        self.refusal = refusal
        let core = link.core
        framer?.attach(
            onReady: { [weak self] in self?.changed(to: .ready) },
            onFailure: { error in Task { await core.fail(error) } })
        // States are followed from the start (a connection that ends before `start` still ends its waiters); a
        // connection a listener accepted is ready already, and its current state is taken first.
        link.follow { [weak self] state in self?.transportChanged(to: state) }
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
        if let refusal {
            Task { await link.core.fail(refusal) }
            return
        }
        Task { await link.start() }
    }

    /// A state of the transport below: with a framer, `ready` starts it, and the connection is ready when it is.
    private func transportChanged(to state: State) {
        if let framer {
            if state == .ready {
                framer.start()
                return
            }
            switch state {
            case .failed(let error): framer.end(error)
            case .cancelled: framer.end(.cancelled)
            default: break
            }
        }
        changed(to: state)
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
        Task { await link.close() }
    }

    /// Closes the connection at once, dropping what is not yet written.
    public func forceCancel() {
        let core = link.core
        Task { await core.cancel() }
    }

    /// Sends `content` (nil sends nothing, which with a final context just closes the sending side). The completion
    /// runs on the connection's queue once the connection has taken the content.
    ///
    /// With a framer in the stack, the content goes through its `handleOutput` with the framer message in
    /// `contentContext`'s metadata (an empty one when there is none), also when `content` is nil but a message is.
    public func send(
        content: Data?, contentContext: ContentContext = .defaultMessage, isComplete: Bool = true,
        completion: SendCompletion
    ) {
        let link = self.link
        let framer = self.framer
        let final = contentContext.isFinal && isComplete
        let expiration = contentContext.expirationMilliseconds
        let deadline = expiration > 0 ? ContinuousClock.now + .milliseconds(Int64(clamping: expiration)) : nil
        let shared = self.shared
        // The operations capture what they use, not the connection: a connection the app let go of still completes
        // what was asked of it (as Apple's does), and its end releases them.
        enqueue(on: sends) {
            var failure: NWError?
            do {
                if let deadline, ContinuousClock.now > deadline {
                    // Still queued past its expiration: dropped, as the context allowed.
                    throw NWError.timedOut
                }
                if let framer,
                    content != nil || contentContext.protocolMetadata(definition: framer.instance.definition) != nil
                {
                    try await framer.waitUntilReady()
                    try await framer.send(content ?? Data(), context: contentContext, isComplete: isComplete)
                } else if let sendWebSocket = link.sendWebSocket {
                    // One WebSocket message, of the opcode its metadata names (binary without one); a close carries
                    // its code first.
                    let metadata =
                        contentContext.protocolMetadata(definition: NWProtocolWebSocket.definition)
                        as? NWProtocolWebSocket.Metadata
                    let opcode = metadata?.opcode ?? .binary
                    var payload = content ?? Data()
                    if opcode == .close, let code = metadata?.closeCode.rawValue {
                        payload = Data([UInt8(code >> 8), UInt8(code & 0xFF)]) + payload
                    }
                    if content != nil || metadata != nil { try await sendWebSocket(payload, opcode.byte) }
                } else if let content, !content.isEmpty {
                    try await link.send(content)
                }
                if final {
                    // The last message: over TCP and TLS the sending side closes (the peer reads the end, ours goes
                    // on reading); over UDP the connection closes gracefully.
                    if let finish = link.finishSending { try await finish() } else { await link.close() }
                }
            } catch {
                failure = NWError.from(error)
            }
            let failed = failure
            if case .contentProcessed(let done) = completion { Self.deliver(on: shared) { done(failed) } }
        }
    }

    /// Receives between `minimumIncompleteLength` and `maximumLength` bytes (one datagram over UDP). The
    /// completion runs on the connection's queue with the data, its context, whether the peer finished sending
    /// (`isComplete`), and the error if the connection failed.
    ///
    /// With a framer in the stack it receives the next message the framer delivered (its start, when longer than
    /// `maximumLength`; `isComplete` then says whether this is the message's end), its context carrying the message.
    public func receive(
        minimumIncompleteLength: Int, maximumLength: Int,
        completion: @escaping @Sendable (Data?, ContentContext?, Bool, NWError?) -> Void
    ) {
        let link = self.link
        let framer = self.framer
        let shared = self.shared
        enqueue(on: receives) {
            let result: (Data?, ContentContext?, Bool, NWError?)
            do {
                if let framer {
                    result = try await Self.receiveFramed(
                        framer: framer, shared: shared, maximumLength: maximumLength)
                } else if let receiveWebSocket = link.receiveWebSocket {
                    let (data, opcode) = try await receiveWebSocket()
                    let metadata = NWProtocolWebSocket.Metadata(opcode: .init(byte: opcode))
                    let context = ContentContext(identifier: "websocket", metadata: [metadata])
                    result = (data.isEmpty ? nil : data, context, true, nil)
                } else if link.isDatagram {
                    let (data, _) = try await link.receive(1, maximumLength)
                    result = (data, .defaultMessage, true, nil)
                } else {
                    let (data, complete) = try await link.receive(minimumIncompleteLength, maximumLength)
                    result = (data.isEmpty ? nil : data, complete ? .finalMessage : .defaultMessage, complete, nil)
                }
            } catch NWError.connectionClosed {
                result = (nil, .finalMessage, true, nil)
            } catch {
                result = (nil, nil, false, NWError.from(error))
            }
            Self.deliver(on: shared) { completion(result.0, result.1, result.2, result.3) }
        }
    }

    /// Receives one whole message: the next one a framer delivered, one datagram over UDP, or over TCP and TLS
    /// without a framer everything until the peer finishes sending (a stream has no other message boundary).
    public func receiveMessage(completion: @escaping @Sendable (Data?, ContentContext?, Bool, NWError?) -> Void) {
        if framer != nil || link.isDatagram {
            receive(minimumIncompleteLength: 1, maximumLength: .max, completion: completion)
            return
        }
        let link = self.link
        let shared = self.shared
        enqueue(on: receives) {
            var whole = Data()
            var failure: NWError?
            reading: while true {
                do {
                    let (data, complete) = try await link.receive(1, 1 << 20)
                    whole.append(data)
                    if complete { break reading }
                } catch NWError.connectionClosed {
                    break reading
                } catch {
                    failure = NWError.from(error)
                    break reading
                }
            }
            let result: (Data?, ContentContext?, Bool, NWError?) =
                failure.map { (nil, nil, false, $0) } ?? (whole.isEmpty ? nil : whole, .finalMessage, true, nil)
            Self.deliver(on: shared) { completion(result.0, result.1, result.2, result.3) }
        }
    }

    /// The next message (or its next part) the framer delivered, reading from the transport as it needs.
    private static func receiveFramed(
        framer: FramerSession, shared: NIOLockedValueBox<Shared>, maximumLength: Int
    ) async throws -> (Data?, ContentContext?, Bool, NWError?) {
        var next = shared.withLockedValue { s -> (data: Data, message: NWProtocolFramer.Message)? in
            defer { s.framedRemainder = nil }
            return s.framedRemainder
        }
        if next == nil {
            try await framer.waitUntilReady()
            switch try await framer.nextDelivery() {
            case .message(let data, let message): next = (data, message)
            case .end: return (nil, .finalMessage, true, nil)
            }
        }
        guard let (data, message) = next else { preconditionFailure("set above") }
        let context = ContentContext(identifier: message.definition.name, metadata: [message])
        let limit = max(1, maximumLength)
        if data.count > limit {
            shared.withLockedValue { $0.framedRemainder = (data.dropFirst(limit), message) }
            return (data.prefix(limit), context, false, nil)
        }
        return (data.isEmpty ? nil : data, context, true, nil)
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
    private static func deliver(on shared: NIOLockedValueBox<Shared>, _ body: @escaping @Sendable () -> Void) {
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
