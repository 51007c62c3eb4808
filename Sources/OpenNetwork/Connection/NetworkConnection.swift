import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// A connection to an endpoint over a declared protocol stack, used from inside a task.
///
/// Nothing happens until the first `send` or `receive` (both may be called before the connection is
/// ready; they wait for it). Cancelling the task running an operation cancels the connection; so does
/// releasing the last reference to it.
public final class NetworkConnection<ApplicationProtocol: NetworkProtocolOptions>: Sendable {
    /// The connection's state.
    public typealias State = ConnectionState

    let core: ConnectionCore
    private let handlerBox: NIOLockedValueBox<(@Sendable (ConnectionState) -> Void)?>
    /// The endpoint this connection goes to (nil for connections accepted by a listener).
    public let endpoint: NWEndpoint?
    /// The application protocol at the top of the stack.
    let applicationProtocol: ApplicationProtocol

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
        let config = parameters.applicationProtocol.stackConfiguration
        core = ConnectionCore(config: config, retries: true, notify: { s in box.withLockedValue { $0 }?(s) }) {
            try await Transport.connect(to: endpoint, config: config)
        }
    }

    /// Wraps a channel accepted by a listener.
    init(accepted established: Transport.Established, applicationProtocol: ApplicationProtocol) {
        let config = applicationProtocol.stackConfiguration
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
    public func onStateUpdate(_ handler: @escaping @Sendable (NetworkConnection<ApplicationProtocol>, State) -> Void) -> Self {
        let ref = WeakReference<NetworkConnection<ApplicationProtocol>>(value: self)
        let wrapped: @Sendable (State) -> Void = { state in if let me = ref.value { handler(me, state) } }
        handlerBox.withLockedValue { $0 = wrapped }
        return self
    }

    /// The current state.
    public var state: State { get async { await core.state } }

    /// Starts connecting now instead of on the first send or receive.
    public func start() async { await core.start() }

    /// Cancels the connection; pending and later operations throw ``NWError/cancelled``.
    public func cancel() async { await core.cancel() }

    /// The remote address once connected, as text.
    public var remoteAddress: String? { get async { await core.addresses().remote?.description } }

    /// Runs an operation; cancelling the calling task cancels the connection.
    func withConnection<T: Sendable>(_ body: @Sendable (ConnectionCore) async throws -> T) async throws -> T {
        let core = self.core
        if Task.isCancelled { await core.cancel(); throw NWError.cancelled }
        return try await withTaskCancellationHandler {
            try await body(core)
        } onCancel: {
            Task { await core.cancel() }
        }
    }
}

// MARK: - Byte streams (TCP, TLS)

extension NetworkConnection where ApplicationProtocol: StreamProtocolOptions {
    /// A received chunk of the stream with its metadata.
    public typealias Message<Content> = (content: Content, metadata: StreamMetadata)

    /// Sends bytes; resumes once the transport has taken them.
    public func send(_ content: Data) async throws {
        try await withConnection { core in
            var b = ByteBuffer()
            b.writeBytes(content)
            try await core.write(b)
        }
    }

    /// Receives exactly `byteCount` bytes.
    public func receive(exactly byteCount: Int) async throws -> Message<Data> {
        try await receive(atLeast: byteCount, atMost: byteCount)
    }

    /// Receives between `minimum` and `maximum` bytes, waiting until at least `minimum` are there.
    public func receive(atLeast minimum: Int = 1, atMost maximum: Int) async throws -> Message<Data> {
        precondition(minimum >= 0 && maximum >= minimum && maximum > 0, "receive(atLeast:atMost:) needs 0 <= atLeast <= atMost, atMost > 0")
        return try await withConnection { core in
            let (buf, complete) = try await core.read(atLeast: minimum, atMost: maximum)
            return (Data(buf.readableBytesView), StreamMetadata(isComplete: complete))
        }
    }

    /// Receives a fixed-width integer sent big-endian.
    public func receive<T: FixedWidthInteger & Sendable>(as type: T.Type) async throws -> Message<T> {
        try await withConnection { core in
            let size = T.bitWidth / 8
            let (buf, complete) = try await core.read(atLeast: size, atMost: size)
            var v = T.zero
            for b in buf.readableBytesView { v = (v << 8) | T(truncatingIfNeeded: b) }
            if size == 1 { v = T(truncatingIfNeeded: buf.readableBytesView.first!) }
            return (v, StreamMetadata(isComplete: complete))
        }
    }
}

// MARK: - TLV

extension NetworkConnection where ApplicationProtocol == TLV {
    /// Sends one TLV message with the given type.
    public func send(_ content: Data, type: Int) async throws {
        try await withConnection { core in
            guard case .tlv(let tw, let lw) = core.config.framing else { return }
            if content.count > core.config.maximumMessageSize {
                throw NWError.messageTooLarge(length: UInt64(content.count), limit: core.config.maximumMessageSize)
            }
            let header = try FrameHeader.encode(type: type, length: content.count, typeWidth: tw, lengthWidth: lw)
            var b = ByteBuffer()
            b.reserveCapacity(header.count + content.count)
            b.writeBytes(header)
            b.writeBytes(content)
            try await core.write(b)
        }
    }

    /// Receives one TLV message: its value and metadata (with the type).
    public func receive() async throws -> TLV.Message<Data> {
        try await withConnection { core in
            guard case .tlv(let tw, let lw) = core.config.framing else { throw NWError.malformedMessage("not a TLV stack") }
            let (type, body) = try await core.readFrame(typeWidth: tw, lengthWidth: lw)
            return (Data(body.readableBytesView), TLV.Metadata(type: Int(type)))
        }
    }

    /// Every message until the peer closes at a message boundary.
    public var messages: NetworkMessages<Data, TLV.Metadata> {
        NetworkMessages { [self] in
            if try await withConnection({ try await $0.atCleanEnd() }) { return nil }
            return try await receive()
        }
    }
}

// MARK: - Coder

extension NetworkConnection where ApplicationProtocol: CoderProtocol {
    /// Sends one value, encoded and framed.
    public func send(_ value: ApplicationProtocol.Sending) async throws {
        let encoded: Data
        do { encoded = try applicationProtocol.format.encode(value) } catch {
            throw NWError.malformedMessage("cannot encode \(ApplicationProtocol.Sending.self): \(error)")
        }
        try await withConnection { core in
            guard encoded.count <= core.config.maximumMessageSize else {
                throw NWError.messageTooLarge(length: UInt64(encoded.count), limit: core.config.maximumMessageSize)
            }
            var b = ByteBuffer()
            b.reserveCapacity(4 + encoded.count)
            b.writeInteger(UInt32(encoded.count))
            b.writeBytes(encoded)
            try await core.write(b)
        }
    }

    /// Receives one value; throws ``NWError/decodingFailed(_:)`` when the bytes do not decode (the
    /// connection stays usable: the frame was consumed whole).
    public func receive() async throws -> (content: ApplicationProtocol.Receiving, metadata: CoderMetadata) {
        let (_, body) = try await withConnection { try await $0.readFrame(typeWidth: 0, lengthWidth: 4) }
        do {
            let value = try applicationProtocol.format.decode(ApplicationProtocol.Receiving.self, from: Data(body.readableBytesView))
            return (value, CoderMetadata(encodedSize: body.readableBytes))
        } catch {
            throw NWError.decodingFailed("\(ApplicationProtocol.Receiving.self): \(error)")
        }
    }

    /// Every received value until the peer closes at a message boundary.
    public var messages: NetworkMessages<ApplicationProtocol.Receiving, CoderMetadata> {
        NetworkMessages { [self] in
            if try await withConnection({ try await $0.atCleanEnd() }) { return nil }
            return try await receive()
        }
    }
}
