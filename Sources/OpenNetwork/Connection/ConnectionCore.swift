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

/// The engine of a connection: establishes the channel, buffers inbound bytes, serves reads and writes.
actor ConnectionCore {
    typealias Establish = @Sendable () async throws -> Transport.Established
    private let establish: Establish
    private let retries: Bool
    let config: ProtocolStackConfiguration
    private let notify: @Sendable (ConnectionState) -> Void

    private(set) var state: ConnectionState = .setup
    /// Whether the connection was ever ready (it may have failed since).
    private var wasEstablished = false
    private var writer: NIOAsyncChannelOutboundWriter<ByteBuffer>?
    private var channel: Channel?
    private var buffer = ByteBuffer()
    private var eof = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var pumpWaiter: CheckedContinuation<Void, Never>?
    private var runTask: Task<Void, Never>?
    private var timeoutTask: Task<Void, Never>?
    /// Inbound bytes buffered beyond this make the reading side stop pulling from the socket, unless a
    /// pending read needs more (a large frame): then the pump stops once that much is buffered.
    private let highWater = 1 << 20
    /// Bytes the current read waits for (0 when no read is pending).
    private var wanted = 0
    /// Received datagrams not yet read (UDP).
    private var datagrams: [ByteBuffer] = []
    private var datagramHead = 0
    /// The ALPN protocol agreed in the TLS handshake.
    private(set) var negotiatedProtocol: String?

    init(config: ProtocolStackConfiguration, retries: Bool, notify: @escaping @Sendable (ConnectionState) -> Void,
         establish: @escaping Establish) {
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
                await serve(est.channel)
                return
            } catch {
                let e = NWError.from(error)
                if isFinished { return }
                guard retries && e.isTransient else { fail(e); return }
                set(.waiting(e))
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

    private func serve(_ ch: Transport.AsyncChannel) async {
        if isFinished { await Transport.discard(ch); return }
        do {
            try await ch.executeThenClose { inbound, outbound in
                self.becameReady(outbound, ch.channel)
                for try await bytes in inbound {
                    await self.deliver(bytes)
                }
            }
            inputEnded(nil)
        } catch {
            inputEnded(error)
        }
    }

    private func becameReady(_ w: NIOAsyncChannelOutboundWriter<ByteBuffer>, _ c: Channel) {
        timeoutTask?.cancel()
        if isFinished { c.close(promise: nil); return }
        writer = w
        channel = c
        endpoints = (c.localAddress, c.remoteAddress)
        wasEstablished = true
        set(.ready)
    }

    private func deliver(_ bytes: ByteBuffer) async {
        if config.transport == .udp {
            datagrams.append(bytes)
            wakeAll()
            while datagrams.count > 1024 && !isFinished {   // bounded: stop reading the socket
                await withCheckedContinuation { pumpWaiter = $0 }
            }
            return
        }
        var bytes = bytes
        buffer.writeBuffer(&bytes)
        wakeAll()
        while buffer.readableBytes > Swift.max(highWater, wanted) && !isFinished {
            await withCheckedContinuation { pumpWaiter = $0 }
        }
    }

    private func inputEnded(_ error: (any Error)?) {
        eof = true
        writer = nil
        if let error, !isFinished {
            fail(NWError.from(error))
        }
        wakeAll()
    }

    private func fail(_ e: NWError) {
        guard !isFinished else { return }
        set(.failed(e))
        teardown()
    }

    /// Cancels gracefully: bytes already taken by `write` reach the socket first (bounded by a few
    /// seconds for a peer that reads nothing), then the channel closes (with TLS, after close_notify).
    func close() async {
        guard !isFinished else { return }
        if let ch = channel, config.transport == .tcp {
            let closer = ch.eventLoop.scheduleTask(in: .seconds(3)) { ch.close(promise: nil) }
            _ = try? await ch.writeAndFlush(ByteBuffer()).get()
            closer.cancel()
        }
        cancel()
    }

    /// Cancels the connection at once: closes the channel and wakes every waiting operation.
    func cancel() {
        guard !isFinished else { return }
        set(.cancelled)
        teardown()
    }

    private func teardown() {
        timeoutTask?.cancel()
        runTask?.cancel()
        channel?.close(promise: nil)
        channel = nil
        writer = nil
        pumpWaiter?.resume()
        pumpWaiter = nil
        wakeAll()
    }

    private var terminalError: NWError? {
        switch state {
        case .failed(let e): e
        case .cancelled: .cancelled
        default: nil
        }
    }

    /// Waits until ready (starting if needed) and returns the writer.
    private func readyWriter() async throws -> NIOAsyncChannelOutboundWriter<ByteBuffer> {
        start()
        while true {
            if let e = terminalError { throw e }
            if case .ready = state {
                guard let writer else { throw eof ? NWError.connectionClosed : NWError.cancelled }
                return writer
            }
            await waitChange()
        }
    }

    /// Writes bytes; resumes when the channel has accepted them (back-pressure from NIO's writability).
    func write(_ bytes: ByteBuffer) async throws {
        let w = try await readyWriter()
        do {
            try await w.write(bytes)
        } catch {
            throw terminalError ?? NWError.from(error)
        }
    }

    /// Returns between `min` and `max` bytes, waiting for at least `min`. When the peer has finished
    /// sending and fewer than `min` bytes remain, returns what remains if `partialAtEnd` (with the
    /// completion flag set) and throws ``NWError/connectionClosed`` otherwise.
    func read(atLeast min: Int, atMost max: Int, partialAtEnd: Bool = false) async throws -> (ByteBuffer, Bool) {
        start()
        while true {
            if let e = terminalError { throw e }
            let available = buffer.readableBytes
            if case .ready = state, available >= min, available > 0 || min == 0 {
                let n = Swift.min(max, available)
                let out = buffer.readSlice(length: n)!
                consumed()
                return (out, eof && buffer.readableBytes == 0)
            }
            if eof {
                if let e = terminalError { throw e }
                if partialAtEnd && available > 0 {
                    let out = buffer.readSlice(length: Swift.min(max, available))!
                    consumed()
                    return (out, buffer.readableBytes == 0)
                }
                throw NWError.connectionClosed
            }
            wanted = min
            if let p = pumpWaiter, available < min {
                pumpWaiter = nil
                p.resume()
            }
            await waitChange()
            wanted = 0
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

    /// Whether the peer closed cleanly with nothing left buffered (used to end message sequences).
    func atCleanEnd() async throws -> Bool {
        start()
        while true {
            if buffer.readableBytes > 0 { return false }
            if eof { if let e = terminalError { throw e }; return true }
            if let e = terminalError { throw e }
            await waitChange()
        }
    }

    /// Reads one frame: header parsed with the given widths, the size limit enforced before the value
    /// is read or any buffer allocated for it. Oversize and malformed headers fail the connection.
    func readFrame(typeWidth: Int, lengthWidth: Int) async throws -> (type: UInt64, body: ByteBuffer) {
        let header = try await readExactly(typeWidth + lengthWidth)
        let parsed: FrameHeader.Parse
        do {
            parsed = try FrameHeader.parse(header.readableBytesView, typeWidth: typeWidth, lengthWidth: lengthWidth,
                                           limit: config.maximumMessageSize)
        } catch {
            let e = NWError.from(error)
            fail(e)
            throw e
        }
        guard case .header(let type, let length, _) = parsed else { throw NWError.malformedMessage("short header") }
        let body = length == 0 ? ByteBuffer() : try await readExactly(length)
        return (type, body)
    }

    /// Returns the next datagram (UDP).
    func readDatagram() async throws -> ByteBuffer {
        start()
        while true {
            if let e = terminalError { throw e }
            if datagramHead < datagrams.count {
                let d = datagrams[datagramHead]
                datagramHead += 1
                if datagramHead > 256 { datagrams.removeFirst(datagramHead); datagramHead = 0 }
                if let p = pumpWaiter, datagrams.count - datagramHead <= 512 { pumpWaiter = nil; p.resume() }
                return d
            }
            if eof { throw NWError.connectionClosed }
            await waitChange()
        }
    }

    func readExactly(_ n: Int) async throws -> ByteBuffer {
        try await read(atLeast: n, atMost: n).0
    }

    private func consumed() {
        if buffer.readerIndex > 64 * 1024 { buffer.discardReadBytes() }
        if buffer.readableBytes <= highWater / 2, let p = pumpWaiter {
            pumpWaiter = nil
            p.resume()
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

    /// The addresses seen when the connection became ready (a closed channel no longer knows them).
    private var endpoints: (local: SocketAddress?, remote: SocketAddress?) = (nil, nil)
}
