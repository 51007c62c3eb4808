import NIOConcurrencyHelpers
import NIOCore

/// The data path of an established connection: sends and receives meet the channel here, under one lock,
/// without a hop to an actor or to the event loop per message.
///
/// A `send` appends its message to ``ConnectionBuffers`` and returns; the first message after a flush asks the
/// event loop for one (so everything sent during a turn of the loop goes out in one write and one flush). A
/// `receive` takes what is already buffered and parks only when it must wait. ``ConnectionHandler`` (on the
/// event loop) feeds received bytes in, takes the outbound bytes out, and pauses reading from the socket when
/// the buffer is full.
final class ConnectionIO: Sendable {
    /// The event loop and handler a flush or a read resumption is asked of.
    struct Link: Sendable {
        let loop: any EventLoop
        let handler: NIOLoopBound<ConnectionHandler>
    }

    private struct Locked: Sendable {
        var buffers: ConnectionBuffers
        var link: Link?
        /// The peer process of a Unix domain socket, read when the channel became active (nil: not read).
        var peerCredentials: PeerCredentials?
    }

    private let locked: NIOLockedValueBox<Locked>

    init(isDatagram: Bool) {
        locked = NIOLockedValueBox(Locked(buffers: ConnectionBuffers(isDatagram: isDatagram)))
    }

    /// Called by the handler when it joins the pipeline.
    func attach(_ link: Link) {
        locked.withLockedValue { $0.link = link }
    }

    /// Keeps the peer's credentials read by the handler (nil, for another transport, changes nothing).
    func recordPeerCredentials(_ credentials: PeerCredentials?) {
        guard let credentials else { return }
        locked.withLockedValue { $0.peerCredentials = credentials }
    }

    /// The peer's credentials the handler read when the channel became active, if it did.
    var recordedPeerCredentials: PeerCredentials? { locked.withLockedValue { $0.peerCredentials } }

    /// Bytes held now, received and not yet read, and sent and not yet handed to the channel.
    var bufferedByteCounts: (inbound: Int, outbound: Int) { locked.withLockedValue { $0.buffers.bufferedByteCounts } }

    /// The error every operation throws from now on, if the connection failed or was cancelled.
    var failure: NWError? { locked.withLockedValue { $0.buffers.failure } }

    // MARK: Sending

    /// Takes a message: `write` appends its `byteCount` bytes (a stream) or fills the datagram. Returns at once
    /// while the unflushed bytes are under the high-water mark; above it, waits until they drain.
    nonisolated(nonsending) func send(byteCount: Int, _ write: (inout ByteBuffer) -> Void) async throws {
        let (action, link) = locked.withLockedValue { l in
            (l.buffers.enqueue(byteCount: byteCount, now: { NIODeadline.now().uptimeNanoseconds }, write), l.link)
        }
        switch action {
        case .fail(let error):
            throw error
        case .queued(let flush, let mustWait, var generation):
            if let link {
                switch flush {
                case .none: break
                case .now: onLoop(link) { $0.handler.value.flushOutbound() }
                case .later:
                    link.loop.scheduleTask(in: .nanoseconds(ConnectionBuffers.flushDelay)) {
                        link.handler.value.flushOutbound(backstop: true)
                    }
                }
            }
            guard mustWait else { return }
            while true {
                await withCheckedContinuation { continuation in
                    let parked = locked.withLockedValue { $0.buffers.parkSender(continuation, generation: generation) }
                    if !parked { continuation.resume() }
                }
                switch locked.withLockedValue({ $0.buffers.senderOutcome }) {
                case .proceed: return
                case .fail(let error): throw error
                case .wait(let current): generation = current
                }
            }
        }
    }

    /// Hands everything queued to the channel, waits until the channel has written it (or `timeout` passed, for a
    /// peer that reads nothing), then closes the channel: one trip to the event loop.
    nonisolated(nonsending) func closeGracefully(on channel: any Channel, timeout: TimeAmount) async {
        guard let link = locked.withLockedValue({ $0.link }) else {
            channel.close(promise: nil)
            return
        }
        let closed = link.loop.flatSubmit {
            link.handler.value.flushOutbound()
            let deadline = channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
            // An empty write completes once everything before it is written.
            return channel.writeAndFlush(ByteBuffer()).always { _ in
                deadline.cancel()
                channel.close(promise: nil)
            }
        }
        // A failed write means the channel is gone already: there is nothing left to wait for.
        try? await closed.get()
    }

    /// Hands everything queued to the channel, then closes its sending side (a TCP FIN once it is written); reading
    /// goes on. One trip to the event loop.
    nonisolated(nonsending) func finishOutput(on channel: any Channel) async throws {
        let link = locked.withLockedValue { l in
            l.buffers.finishSending()
            return l.link
        }
        guard let link else { throw NWError.connectionClosed }
        try await link.loop.flatSubmit {
            link.handler.value.flushOutbound()
            return channel.close(mode: .output)
        }.get()
    }

    /// On the event loop: what to write and flush now, and whether to set the next backstop timer.
    func takeOutbound(backstop: Bool) -> (stream: ByteBuffer?, datagrams: [ByteBuffer], rearm: Bool) {
        let now = NIODeadline.now().uptimeNanoseconds
        return locked.withLockedValue { $0.buffers.takeOutbound(now: now, backstop: backstop) }
    }

    /// On the event loop: after a flush, or when the channel's writability changed.
    func channelWritabilityChanged(_ writable: Bool) {
        resume(locked.withLockedValue { $0.buffers.channelWritabilityChanged(writable) })
    }

    // MARK: Receiving

    /// On the event loop: received bytes (or a datagram). Returns whether to stop reading from the socket.
    func received(_ bytes: ByteBuffer) -> Bool {
        let (wakeups, pause) = locked.withLockedValue { $0.buffers.received(bytes) }
        resume(wakeups)
        return pause
    }

    /// Returns between `min` and `max` bytes, waiting for at least `min` (see ``ConnectionBuffers/read``).
    nonisolated(nonsending) func read(
        atLeast min: Int, atMost max: Int, partialAtEnd: Bool
    ) async throws -> (ByteBuffer, complete: Bool) {
        while true {
            let (result, link) = locked.withLockedValue { l in
                (l.buffers.read(atLeast: min, atMost: max, partialAtEnd: partialAtEnd), l.link)
            }
            switch result {
            case .bytes(let bytes, let complete, let resumeReading):
                if resumeReading { resumeReadingOnLoop(link) }
                return (bytes, complete)
            case .fail(let error):
                throw error
            case .wait(let generation, let resumeReading):
                if resumeReading { resumeReadingOnLoop(link) }
                await parkReader(generation: generation)
            }
        }
    }

    /// Returns the next whole frame. A bad header (or a value over `limit`) throws and `onFatal` runs first (the
    /// caller fails the connection: the stream cannot be read on).
    nonisolated(nonsending) func readFrame(
        typeWidth: Int, lengthWidth: Int, limit: Int, onFatal: (NWError) -> Void
    ) async throws -> (type: UInt64, value: ByteBuffer) {
        while true {
            let (result, link) = locked.withLockedValue { l in
                (l.buffers.readFrame(typeWidth: typeWidth, lengthWidth: lengthWidth, limit: limit), l.link)
            }
            switch result {
            case .frame(let type, let value, let resumeReading):
                if resumeReading { resumeReadingOnLoop(link) }
                return (type, value)
            case .fail(let error, let fatal):
                if fatal { onFatal(error) }
                throw error
            case .wait(let generation, let resumeReading):
                if resumeReading { resumeReadingOnLoop(link) }
                await parkReader(generation: generation)
            }
        }
    }

    /// Returns the next datagram.
    nonisolated(nonsending) func readDatagram() async throws -> ByteBuffer {
        while true {
            let (result, link) = locked.withLockedValue { l in (l.buffers.readDatagram(), l.link) }
            switch result {
            case .bytes(let datagram, _, let resumeReading):
                if resumeReading { resumeReadingOnLoop(link) }
                return datagram
            case .fail(let error):
                throw error
            case .wait(let generation, _):
                await parkReader(generation: generation)
            }
        }
    }

    /// Whether the peer closed cleanly with nothing left buffered.
    nonisolated(nonsending) func atCleanEnd() async throws -> Bool {
        while true {
            switch locked.withLockedValue({ $0.buffers.atCleanEnd() }) {
            case .yes: return true
            case .no: return false
            case .fail(let error): throw error
            case .wait(let generation): await parkReader(generation: generation)
            }
        }
    }

    private nonisolated(nonsending) func parkReader(generation: Int) async {
        let flushNow = locked.withLockedValue { l in l.buffers.readerWillWait() ? l.link : nil }
        if let flushNow { onLoop(flushNow) { $0.handler.value.flushOutbound() } }
        await withCheckedContinuation { continuation in
            let parked = locked.withLockedValue { $0.buffers.parkReader(continuation, generation: generation) }
            if !parked { continuation.resume() }
        }
    }

    /// Runs `work` (a flush, a read resumed) on the handler's loop: at once when the caller already runs there (a
    /// listener's handler does: see ``EventLoopTaskExecutor``; a task's job never runs inside a pipeline callback),
    /// else as a task on the loop.
    private func onLoop(_ link: Link, _ work: @escaping @Sendable (Link) -> Void) {
        if link.loop.inEventLoop {
            work(link)
        } else {
            link.loop.execute { work(link) }
        }
    }

    private func resumeReadingOnLoop(_ link: Link?) {
        guard let link else { return }
        onLoop(link) { $0.handler.value.resumeReading() }
    }

    // MARK: Ending

    /// The peer finished sending.
    func inputEnded() {
        resume(locked.withLockedValue { $0.buffers.inputEnded() })
    }

    /// The channel closed.
    func closed() {
        resume(locked.withLockedValue { $0.buffers.closed() })
    }

    /// Fails (or cancels) the connection's data path: waiters wake to `error`, buffered bytes are dropped. The
    /// first error stays.
    func terminate(_ error: NWError) {
        resume(locked.withLockedValue { $0.buffers.terminate(error) })
    }

    private func resume(_ wakeups: ConnectionBuffers.Wakeups) {
        for continuation in wakeups { continuation.resume() }
    }
}
