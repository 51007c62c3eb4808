import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat

/// A connection to an endpoint over a declared protocol stack, used from inside a task.
///
/// Nothing happens until the first `send` or `receive` (both may be called before the connection is
/// ready; they wait for it). Cancelling the task running an operation cancels the connection; so does
/// releasing the last reference to it.
///
/// Sends and receives run on the caller's executor (`nonisolated(nonsending)`): once the connection is ready, a
/// send that the buffer can take and a receive whose message is buffered complete without suspending.
public final class NetworkConnection<ApplicationProtocol: NetworkProtocolOptions>: Sendable {
    /// The connection's state.
    public typealias State = ConnectionState

    let core: ConnectionCore
    private let handlerBox: NIOLockedValueBox<(@Sendable (ConnectionState) -> Void)?>
    /// The endpoint this connection goes to (nil for connections accepted by a listener).
    public let endpoint: NWEndpoint?
    /// The application protocol at the top of the stack.
    let applicationProtocol: ApplicationProtocol
    /// The flattened stack configuration (computed once).
    let config: ProtocolStackConfiguration

    /// Connects to `endpoint` with the protocol stack declared in `stack`.
    public convenience init(to endpoint: NWEndpoint, @ProtocolStackBuilder using stack: () -> ApplicationProtocol) {
        self.init(to: endpoint, using: NetworkParameters(stack()))
    }

    /// Connects to `endpoint` with explicit parameters (`.parameters { stack }.constrainedPathsProhibited(true)`).
    public init(to endpoint: NWEndpoint, using parameters: NetworkParameters<ApplicationProtocol>) {
        let box = NIOLockedValueBox<(@Sendable (ConnectionState) -> Void)?>(nil)
        handlerBox = box
        self.endpoint = endpoint
        applicationProtocol = parameters.applicationProtocol
        var stack = parameters.applicationProtocol.stackConfiguration
        stack.resolvedAddresses = parameters.resolvedAddresses
        stack.halfClosure = parameters.halfClosure
        let config = stack
        self.config = config
        core = ConnectionCore(config: config, retries: true, notify: { s in box.withLockedValue { $0 }?(s) }) {
            try await Transport.connect(to: endpoint, config: config)
        }
    }

    /// Wraps a channel accepted by a listener.
    init(
        accepted established: Transport.Established, applicationProtocol: ApplicationProtocol,
        config: ProtocolStackConfiguration
    ) {
        self.config = config
        self.applicationProtocol = applicationProtocol
        let box = NIOLockedValueBox<(@Sendable (ConnectionState) -> Void)?>(nil)
        handlerBox = box
        endpoint = nil
        core = ConnectionCore(config: config, retries: false, notify: { s in box.withLockedValue { $0 }?(s) }) {
            established
        }
    }

    deinit {
        let core = self.core
        Task { await core.cancel() }
    }

    /// Installs a handler called on every state change; returns the connection for chaining.
    @discardableResult
    public func onStateUpdate(
        _ handler: @escaping @Sendable (NetworkConnection<ApplicationProtocol>, State) -> Void
    ) -> Self {
        let ref = WeakReference<NetworkConnection<ApplicationProtocol>>(value: self)
        let wrapped: @Sendable (State) -> Void = { state in if let me = ref.value { handler(me, state) } }
        handlerBox.withLockedValue { $0 = wrapped }
        return self
    }

    /// The current state.
    public var state: State { get async { await core.state } }

    /// Starts connecting now instead of on the first send or receive.
    nonisolated(nonsending) public func start() async { await core.start() }

    /// Cancels the connection gracefully: what `send` already handed over is delivered, then the
    /// connection closes. Pending and later operations throw ``NWError/cancelled``. (Cancelling the task
    /// that runs an operation cancels the connection at once.)
    nonisolated(nonsending) public func cancel() async { await core.close() }

    /// The application protocol (ALPN) agreed during the TLS handshake, once ready; nil without TLS or
    /// when the peers agreed none.
    public var negotiatedApplicationProtocol: String? { get async { await core.negotiatedProtocol } }

    /// The remote address once connected, as text.
    public var remoteAddress: String? { get async { await core.addresses().remote?.description } }

    /// For a Unix domain socket, the peer process as the kernel recorded it at connect time (`SO_PEERCRED`), once
    /// the connection is ready; nil for other transports. An Orchard addition for Linux: a local daemon uses it to
    /// know which process is asking, without trusting what the process says about itself.
    public var peerCredentials: PeerCredentials? { get async { await core.peerCredentials } }

    /// Runs an operation on the connection's data path (waiting until the connection is ready, starting it if
    /// needed); cancelling the calling task cancels the connection at once.
    ///
    /// `isolation` keeps the whole operation on the caller's executor: a send is a few hundred nanoseconds of work,
    /// and a hop to another executor and back (what the cancellation handler's closure would otherwise make)
    /// costs more than that.
    func withIO<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: nonisolated(nonsending) (ConnectionIO) async throws -> T
    ) async throws -> T {
        let core = self.core
        if Task.isCancelled {
            await core.cancel()
            throw NWError.cancelled
        }
        do {
            return try await withTaskCancellationHandler {
                _ = isolation  // Captured: the operation runs isolated to the caller (see above).
                let io: ConnectionIO
                if let ready = core.current.withLockedValue({ $0 }) {
                    io = ready
                } else {
                    io = try await core.readyIO()
                }
                return try await body(io)
            } onCancel: {
                // The waiters wake now; the state follows on the actor.
                core.current.withLockedValue { $0 }?.terminate(.cancelled)
                Task { await core.cancel() }
            }
        } catch {
            // An operation its task's cancellation ended returns with the connection's state already cancelled.
            if Task.isCancelled { await core.cancel() }
            throw error
        }
    }

    /// Bytes the established connection holds now (received and not read; sent and not handed to the channel),
    /// or nil before it is ready.
    var bufferedByteCounts: (inbound: Int, outbound: Int)? { core.current.withLockedValue { $0 }?.bufferedByteCounts }

    /// Reads one frame; a malformed header or an oversize value fails the connection (the stream cannot go on).
    nonisolated(nonsending) func readFrame(
        typeWidth: Int, lengthWidth: Int
    ) async throws -> (type: UInt64, value: ByteBuffer) {
        try await withIO { io in try await readFrame(io, typeWidth: typeWidth, lengthWidth: lengthWidth) }
    }

    /// The next frame, or nil when the peer closed cleanly at a frame boundary (what `messages` reads): one operation
    /// on the data path, not one to wait for the end and another to read.
    nonisolated(nonsending) func readFrameOrEnd(
        typeWidth: Int, lengthWidth: Int
    ) async throws -> (type: UInt64, value: ByteBuffer)? {
        try await withIO { io in
            if try await io.atCleanEnd() { return nil }
            return try await readFrame(io, typeWidth: typeWidth, lengthWidth: lengthWidth)
        }
    }

    private nonisolated(nonsending) func readFrame(
        _ io: ConnectionIO, typeWidth: Int, lengthWidth: Int
    ) async throws -> (type: UInt64, value: ByteBuffer) {
        var fatal: NWError?
        do {
            return try await io.readFrame(
                typeWidth: typeWidth, lengthWidth: lengthWidth, limit: config.maximumMessageSize
            ) { fatal = $0 }
        } catch {
            if let fatal {
                io.terminate(fatal)
                await core.fail(fatal)
            }
            throw error
        }
    }
}

// MARK: - Byte streams (TCP, TLS)

extension NetworkConnection where ApplicationProtocol: StreamProtocolOptions {
    /// A received chunk of the stream with its metadata.
    public typealias Message<Content> = (content: Content, metadata: StreamMetadata)

    /// Sends bytes; returns once the connection has taken them, as the Network framework reports a send
    /// processed.
    ///
    /// A returned send guarantees order and that the bytes will be written unless the connection fails or is
    /// cancelled first; a write that fails later fails the connection, and the next send or receive throws it. A
    /// send waits only while more than 256 KiB are queued and not yet handed to the socket (or the socket is full).
    /// ``cancel()`` writes what is queued before it closes; cancelling the task drops it. A send that throws while it
    /// waits had its bytes taken already: they may still reach the peer if the socket took them before the cancel.
    nonisolated(nonsending) public func send(_ content: Data) async throws {
        try await withIO { io in try await io.send(byteCount: content.count) { $0.writeBytes(content) } }
    }

    /// Sends bytes and, with `endOfStream`, then finishes the sending side: the peer reads the end of the stream
    /// after them, and this connection goes on receiving until the peer finishes too (TCP half-closure; over TLS a
    /// close_notify first). Further sends throw.
    nonisolated(nonsending) public func send(_ content: Data, endOfStream: Bool) async throws {
        if !content.isEmpty { try await send(content) }
        if endOfStream {
            let core = self.core
            _ = try await withIO { _ in true }  // Ready first: a stream not yet connected has nothing to finish.
            try await core.finishSending()
        }
    }

    /// Receives exactly `byteCount` bytes.
    nonisolated(nonsending) public func receive(exactly byteCount: Int) async throws -> Message<Data> {
        precondition(byteCount > 0, "receive(exactly:) needs a positive byte count")
        return try await withIO { io in
            let (buf, complete) = try await io.read(atLeast: byteCount, atMost: byteCount, partialAtEnd: false)
            return (buf.receivedData, StreamMetadata(isComplete: complete))
        }
    }

    /// Receives between `minimum` and `maximum` bytes, waiting until at least `minimum` are there (or
    /// the peer has finished sending: then what remains comes with `metadata.isComplete` set).
    nonisolated(nonsending) public func receive(
        atLeast minimum: Int = 1, atMost maximum: Int
    ) async throws -> Message<Data> {
        precondition(
            minimum >= 0 && maximum >= minimum && maximum > 0,
            "receive(atLeast:atMost:) needs 0 <= atLeast <= atMost, atMost > 0")
        return try await withIO { io in
            let (buf, complete) = try await io.read(atLeast: minimum, atMost: maximum, partialAtEnd: true)
            return (buf.receivedData, StreamMetadata(isComplete: complete))
        }
    }

    /// Receives a fixed-width integer sent big-endian.
    nonisolated(nonsending) public func receive<T: FixedWidthInteger & Sendable>(
        as type: T.Type
    ) async throws -> Message<T> {
        try await withIO { io in
            let size = T.bitWidth / 8
            let (bytes, complete) = try await io.read(atLeast: size, atMost: size, partialAtEnd: false)
            var buf = bytes
            let v = buf.readInteger(endianness: .big, as: T.self)!
            return (v, StreamMetadata(isComplete: complete))
        }
    }
}

// MARK: - TLV

extension NetworkConnection where ApplicationProtocol == TLV {
    /// Sends one TLV message with the given type; returns once the connection has taken it (as `send` of bytes).
    nonisolated(nonsending) public func send(_ content: Data, type: Int) async throws {
        guard case .tlv(let tw, let lw) = config.framing else {
            throw NWError.malformedMessage("the stack's framing is not TLV")
        }
        guard content.count <= config.maximumMessageSize else {
            throw NWError.messageTooLarge(length: UInt64(content.count), limit: config.maximumMessageSize)
        }
        do {
            try FrameHeader.validate(type: type, length: content.count, typeWidth: tw, lengthWidth: lw)
        } catch {
            throw NWError.from(error)
        }
        try await withIO { io in
            try await io.send(byteCount: tw + lw + content.count) { b in
                b.writeFrameField(UInt64(type), width: tw)
                b.writeFrameField(UInt64(content.count), width: lw)
                b.writeBytes(content)
            }
        }
    }

    /// Receives one TLV message: its value and metadata (with the type).
    nonisolated(nonsending) public func receive() async throws -> TLV.Message<Data> {
        let (tw, lw) = try tlvWidths()
        return Self.message(try await readFrame(typeWidth: tw, lengthWidth: lw))
    }

    /// Every message until the peer closes at a message boundary.
    public var messages: NetworkMessages<Data, TLV.Metadata> {
        NetworkMessages { [self] _ in
            let (tw, lw) = try tlvWidths()
            return try await readFrameOrEnd(typeWidth: tw, lengthWidth: lw).map(Self.message)
        }
    }

    /// The widths of the stack's type and length fields.
    private func tlvWidths() throws -> (type: Int, length: Int) {
        guard case .tlv(let tw, let lw) = config.framing else { throw NWError.malformedMessage("not a TLV stack") }
        return (tw, lw)
    }

    /// A received frame as a message.
    private static func message(_ frame: (type: UInt64, value: ByteBuffer)) -> TLV.Message<Data> {
        (frame.value.receivedData, TLV.Metadata(type: Int(frame.type)))
    }
}

// MARK: - Coder

extension NetworkConnection where ApplicationProtocol: CoderProtocol {
    /// Sends one value, encoded and framed.
    nonisolated(nonsending) public func send(_ value: ApplicationProtocol.Sending) async throws {
        let encoded: Data
        do { encoded = try applicationProtocol.coder.encode(value) } catch {
            throw NWError.malformedMessage("cannot encode \(ApplicationProtocol.Sending.self): \(error)")
        }
        let limit = config.maximumMessageSize
        guard encoded.count <= limit else {
            throw NWError.messageTooLarge(length: UInt64(encoded.count), limit: limit)
        }
        try await withIO { io in
            try await io.send(byteCount: 4 + encoded.count) { b in
                b.writeInteger(UInt32(encoded.count))
                b.writeBytes(encoded)
            }
        }
    }

    /// Receives one value; throws ``NWError/decodingFailed(_:)`` when the bytes do not decode (the
    /// connection stays usable: the frame was consumed whole).
    nonisolated(nonsending) public func receive() async throws -> (
        content: ApplicationProtocol.Receiving, metadata: CoderMetadata
    ) {
        let (_, body) = try await readFrame(typeWidth: 0, lengthWidth: 4)
        return try decode(body)
    }

    /// Every received value until the peer closes at a message boundary.
    public var messages: NetworkMessages<ApplicationProtocol.Receiving, CoderMetadata> {
        NetworkMessages { [self] _ in
            guard let (_, body) = try await readFrameOrEnd(typeWidth: 0, lengthWidth: 4) else { return nil }
            return try decode(body)
        }
    }

    /// A received frame's value, decoded.
    private func decode(_ body: ByteBuffer) throws -> (content: ApplicationProtocol.Receiving, metadata: CoderMetadata)
    {
        do {
            let value = try applicationProtocol.coder.decode(
                ApplicationProtocol.Receiving.self, from: body.receivedData)
            return (value, CoderMetadata(encodedSize: body.readableBytes))
        } catch {
            throw NWError.decodingFailed("\(ApplicationProtocol.Receiving.self): \(error)")
        }
    }
}

extension ByteBuffer {
    /// Writes an unsigned big-endian field of `width` bytes (1, 2, 4 or 8; others byte by byte).
    mutating func writeFrameField(_ value: UInt64, width: Int) {
        switch width {
        case 0: break
        case 1: writeInteger(UInt8(truncatingIfNeeded: value))
        case 2: writeInteger(UInt16(truncatingIfNeeded: value))
        case 4: writeInteger(UInt32(truncatingIfNeeded: value))
        case 8: writeInteger(value)
        default:
            for i in stride(from: width - 1, through: 0, by: -1) {
                writeInteger(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))))
            }
        }
    }
}

// MARK: - UDP

extension NetworkConnection where ApplicationProtocol == UDP {
    /// Sends one datagram; returns once the connection has taken it (as `send` of bytes).
    nonisolated(nonsending) public func send(_ content: Data) async throws {
        try await withIO { io in try await io.send(byteCount: content.count) { $0.writeBytes(content) } }
    }

    /// Receives one datagram. A peer port with nothing behind it fails the connection with
    /// ECONNREFUSED (the ICMP answer to an earlier datagram).
    nonisolated(nonsending) public func receive() async throws -> UDP.Message<Data> {
        try await withIO { io in
            let d = try await io.readDatagram()
            return (d.receivedData, UDP.Metadata(size: d.readableBytes))
        }
    }

    /// Every received datagram, until the connection is cancelled or fails.
    public var messages: NetworkMessages<Data, UDP.Metadata> {
        NetworkMessages { [self] _ in try await receive() }
    }
}

extension ByteBuffer {
    /// The readable bytes as `Data`, always copied (one copy, no generic sequence walk): a received message must
    /// not keep the connection's whole inbound buffer alive, as NIO's `.automatic` strategy would above 256 KiB.
    var receivedData: Data { Data(buffer: self, byteTransferStrategy: .copy) }
}
