import NIOCore

/// What an established connection holds between its channel and its user: bytes received and not yet read,
/// bytes sent and not yet handed to the channel, and who waits for either.
///
/// A value type whose methods say what to do (NIO's state-machine style): ``ConnectionIO`` runs them under its
/// lock and does the actions (resume a waiter, schedule a flush, pause or resume reading) outside it, so the
/// rules here are tested without sockets.
///
/// What a returned `send` guarantees: the message is in this buffer, in order after every earlier one, and will
/// be handed to the channel unless the connection fails or is cancelled first. A write that fails later fails the
/// connection: the next operation throws.
///
/// When the event loop flushes (one write and one flush for everything queued by then): at once unless the
/// connection is streaming (its last flush found more than one message, within ``streamingWindow``): a lone
/// message, a request or an answer goes out without delay. Also at once when a
/// reader is about to wait (a request's answer cannot come before the request leaves), when a sender must wait, and
/// when ``flushThreshold`` bytes are queued. Otherwise — messages following each other closely, a stream — within
/// ``flushDelay``: a timer (the backstop) flushes what is queued, and while each flush finds more than one message
/// the event loop sets the next timer itself. A stream's messages so leave in batches, without a wakeup of the
/// event loop per message (which would cost more than the write).
struct ConnectionBuffers {
    /// Whether this connection carries datagrams (UDP: each message stays whole) or a byte stream.
    let isDatagram: Bool
    /// Received bytes buffered beyond this stop reading from the socket, unless a read waits for more (a large
    /// frame): then reading stops once that much is buffered.
    let inboundHighWater: Int
    /// Sent bytes not yet handed to the channel beyond this make `send` wait until they are.
    let outboundHighWater: Int
    /// Received datagrams buffered beyond this stop reading from the socket.
    static let datagramLimit = 1_024
    /// The most one read from the socket delivers (NIO's receive buffer grows to 64 KiB; a channel reads once per
    /// wakeup, `maxMessagesPerRead` 1). Reading pauses a read before the mark, so the buffer never passes it, or
    /// passes it by less than one frame when a read waits for a frame larger than the mark.
    static let largestRead = 65_536

    /// The error every operation throws from now on (a failure, or ``NWError/cancelled``).
    private(set) var failure: NWError?
    /// Whether the peer finished sending (what is buffered can still be read).
    private(set) var inputClosed = false
    /// Whether the channel closed: nothing more can be sent.
    private(set) var outputClosed = false

    private var inbound = ByteBuffer()
    private var datagrams: [ByteBuffer] = []
    private var datagramHead = 0
    /// Bytes the current read waits for (0 when none waits).
    private var wanted = 0
    private(set) var readingPaused = false
    private var readers: [CheckedContinuation<Void, Never>] = []
    /// Counts inbound changes, so a reader that found nothing parks only if nothing changed since.
    private var inboundGeneration = 0

    private var outbound = ByteBuffer()
    private var outboundDatagrams: [ByteBuffer] = []
    private var outboundDatagramBytes = 0
    /// Whether the event loop was asked for a flush at once.
    private var immediateFlush = false
    /// Whether a backstop timer will flush within ``flushDelay``.
    private var backstopArmed = false
    /// Messages queued since the last flush.
    private var queuedMessages = 0
    /// When the event loop last took outbound messages (nanoseconds of a monotonic clock).
    private var lastFlush: UInt64 = 0
    /// Whether the last flush found more than one message (the connection streams).
    private var streaming = false
    private var channelWritable = true
    private var senders: [CheckedContinuation<Void, Never>] = []
    private var outboundGeneration = 0

    init(isDatagram: Bool, inboundHighWater: Int = 1 << 20, outboundHighWater: Int = 256 << 10) {
        self.isDatagram = isDatagram
        self.inboundHighWater = inboundHighWater
        self.outboundHighWater = outboundHighWater
    }

    /// Continuations to resume once the lock is released.
    typealias Wakeups = [CheckedContinuation<Void, Never>]

    /// How the event loop is asked for a flush.
    enum FlushRequest: Equatable {
        /// Nothing to ask: a flush is already on its way, soon enough.
        case none
        /// At once.
        case now
        /// After ``flushDelay`` (arm the backstop).
        case later
    }

    /// A streaming connection with nothing flushed for this long is idle again: its next message is flushed at once.
    static let streamingWindow: UInt64 = 200_000
    /// How long a stream's message may wait for the ones after it (nanoseconds).
    static let flushDelay: Int64 = 25_000
    /// Queued bytes that are flushed at once whatever the timing.
    static let flushThreshold = 64 << 10

    // MARK: Sending

    /// What to do after a message was offered.
    enum EnqueueAction {
        /// Taken. `flush`: how to ask the event loop for a flush. `mustWait`: the buffer is over its mark (or the
        /// channel is full), so the sender waits for it to drain (``parkSender``).
        case queued(flush: FlushRequest, mustWait: Bool, generation: Int)
        /// Not taken: the connection has failed or was cancelled.
        case fail(NWError)
    }

    /// Takes a message at time `now()` (nanoseconds of a monotonic clock, read only when needed): `write` appends its bytes to the stream (a
    /// byte stream), or makes the datagram.
    mutating func enqueue(byteCount: Int, now: () -> UInt64, _ write: (inout ByteBuffer) -> Void) -> EnqueueAction {
        if let failure { return .fail(failure) }
        if outputClosed { return .fail(.connectionClosed) }
        if isDatagram {
            var datagram = ByteBuffer()
            datagram.reserveCapacity(byteCount)
            write(&datagram)
            outboundDatagramBytes += datagram.readableBytes
            outboundDatagrams.append(datagram)
        } else {
            write(&outbound)
        }
        queuedMessages += 1
        let mustWait = !drained
        let request: FlushRequest
        if immediateFlush {
            request = .none
        } else if mustWait || unflushedBytes >= Self.flushThreshold {
            request = .now
        } else if backstopArmed {
            request = .none
        } else if !streaming || now() &- lastFlush > Self.streamingWindow {
            request = .now
        } else {
            request = .later
        }
        if request == .now { immediateFlush = true } else if request == .later { backstopArmed = true }
        return .queued(flush: request, mustWait: mustWait, generation: outboundGeneration)
    }

    private var unflushedBytes: Int { isDatagram ? outboundDatagramBytes : outbound.readableBytes }

    /// A reader is about to wait: queued messages are flushed at once (the answer it waits for may need them).
    mutating func readerWillWait() -> Bool {
        guard !immediateFlush, queuedMessages > 0 else { return false }
        immediateFlush = true
        return true
    }

    /// Whether a sender may go on: the unflushed bytes are under the mark and the channel takes more.
    private var drained: Bool {
        channelWritable && unflushedBytes < outboundHighWater
    }

    /// Parks a sender until the buffer drains; false (resume it at once) when it has drained, the connection
    /// ended, or anything changed since `generation`.
    mutating func parkSender(_ continuation: CheckedContinuation<Void, Never>, generation: Int) -> Bool {
        guard failure == nil, !outputClosed, !drained, generation == outboundGeneration else { return false }
        senders.append(continuation)
        return true
    }

    /// What a woken sender does.
    enum SenderOutcome {
        /// Its message is taken and the buffer drained: return.
        case proceed
        /// Still over the mark: park again at this generation.
        case wait(generation: Int)
        /// The connection failed, was cancelled, or closed before the buffer drained.
        case fail(NWError)
    }

    /// Whether a woken sender may return, must park again, or must throw.
    var senderOutcome: SenderOutcome {
        if let failure { return .fail(failure) }
        if outputClosed { return .fail(.connectionClosed) }
        return drained ? .proceed : .wait(generation: outboundGeneration)
    }

    /// What the event loop's flush at time `now` takes: the stream's bytes, or the datagrams, in order. `backstop`:
    /// this flush is the backstop timer's. `rearm`: set the next backstop timer (the flush found a stream).
    mutating func takeOutbound(
        now: UInt64, backstop: Bool
    ) -> (stream: ByteBuffer?, datagrams: [ByteBuffer], rearm: Bool) {
        immediateFlush = false
        if backstop { backstopArmed = false }
        let taken = queuedMessages
        queuedMessages = 0
        if taken > 0 {
            lastFlush = now
            streaming = taken > 1
        }
        let rearm = taken > 1 && !backstopArmed
        if rearm { backstopArmed = true }
        if isDatagram {
            defer {
                outboundDatagrams.removeAll(keepingCapacity: true)
                outboundDatagramBytes = 0
            }
            return (nil, outboundDatagrams, rearm)
        }
        guard outbound.readableBytes > 0 else { return (nil, [], rearm) }
        let bytes = outbound
        // A fresh buffer: the taken one now belongs to the channel.
        outbound = ByteBuffer()
        return (bytes, [], rearm)
    }

    /// The channel took a flush, or its writability changed: senders waiting for a drain may go on.
    mutating func channelWritabilityChanged(_ writable: Bool) -> Wakeups {
        channelWritable = writable
        guard drained else { return [] }
        return wakeSenders()
    }

    private mutating func wakeSenders() -> Wakeups {
        outboundGeneration &+= 1
        defer { senders.removeAll() }
        return senders
    }

    /// Bytes held now: received and not yet read, sent and not yet handed to the channel (tests check the bounds).
    var bufferedByteCounts: (inbound: Int, outbound: Int) {
        (
            isDatagram ? datagrams[datagramHead...].reduce(0) { $0 + $1.readableBytes } : inbound.readableBytes,
            unflushedBytes
        )
    }

    // MARK: Receiving

    /// Adds received bytes (or a datagram). `pause`: stop reading from the socket until a read resumes it.
    mutating func received(_ bytes: ByteBuffer) -> (wakeups: Wakeups, pause: Bool) {
        guard failure == nil else { return ([], false) }
        if isDatagram {
            datagrams.append(bytes)
        } else {
            var bytes = bytes
            inbound.writeBuffer(&bytes)
        }
        let pause = !readingPaused && overInboundMark
        if pause { readingPaused = true }
        return (wakeReaders(), pause)
    }

    private var overInboundMark: Bool {
        isDatagram
            ? datagrams.count - datagramHead > Self.datagramLimit
            : inbound.readableBytes > Swift.max(inboundHighWater - Self.largestRead, wanted)
    }

    private mutating func wakeReaders() -> Wakeups {
        inboundGeneration &+= 1
        defer { readers.removeAll() }
        return readers
    }

    /// What a read finds.
    enum ReadResult {
        /// Bytes (or a datagram); `complete`: nothing more will come. `resumeReading`: ask the channel to read
        /// again (the buffer drained below its mark).
        case bytes(ByteBuffer, complete: Bool, resumeReading: Bool)
        /// Not enough yet: park (``parkReader``) and try again when woken. `resumeReading` as above (a read
        /// waits for more than the paused buffer holds).
        case wait(generation: Int, resumeReading: Bool)
        /// The connection failed, was cancelled, or closed before enough arrived.
        case fail(NWError)
    }

    /// Takes between `min` and `max` bytes when at least `min` are buffered. When the peer has finished and
    /// fewer remain, returns what remains if `partialAtEnd` (with `complete` set), else fails with
    /// ``NWError/connectionClosed``.
    mutating func read(atLeast min: Int, atMost max: Int, partialAtEnd: Bool) -> ReadResult {
        if let failure { return .fail(failure) }
        let available = inbound.readableBytes
        if available >= min, available > 0 || min == 0 {
            let slice = inbound.readSlice(length: Swift.min(max, available))!
            return .bytes(slice, complete: inputClosed && inbound.readableBytes == 0, resumeReading: consumed())
        }
        if inputClosed {
            if partialAtEnd && available > 0 {
                let slice = inbound.readSlice(length: Swift.min(max, available))!
                return .bytes(slice, complete: inbound.readableBytes == 0, resumeReading: consumed())
            }
            return .fail(.connectionClosed)
        }
        let (generation, resume) = wait(for: min)
        return .wait(generation: generation, resumeReading: resume)
    }

    /// Takes one whole frame (header and value) when it is buffered; the header is checked (and the size limit
    /// enforced) before the value is waited for. A bad header fails with the error (the caller fails the
    /// connection).
    mutating func readFrame(typeWidth: Int, lengthWidth: Int, limit: Int) -> FrameResult {
        if let failure { return .fail(failure, fatal: false) }
        let parsed: FrameHeader.Parse
        do {
            parsed = try FrameHeader.parse(
                inbound.readableBytesView, typeWidth: typeWidth, lengthWidth: lengthWidth, limit: limit)
        } catch {
            return .fail(NWError.from(error), fatal: true)
        }
        switch parsed {
        case .needMoreHeader(let missing):
            if inputClosed { return .fail(.connectionClosed, fatal: false) }
            let (generation, resume) = wait(for: inbound.readableBytes + missing)
            return .wait(generation: generation, resumeReading: resume)
        case .header(let type, let length, let headerSize):
            let whole = headerSize + length
            guard inbound.readableBytes >= whole else {
                if inputClosed { return .fail(.connectionClosed, fatal: false) }
                let (generation, resume) = wait(for: whole)
                return .wait(generation: generation, resumeReading: resume)
            }
            inbound.moveReaderIndex(forwardBy: headerSize)
            let value = inbound.readSlice(length: length)!
            return .frame(type: type, value: value, resumeReading: consumed())
        }
    }

    /// What a frame read finds.
    enum FrameResult {
        /// A frame's type (0 without a type field) and value.
        case frame(type: UInt64, value: ByteBuffer, resumeReading: Bool)
        /// Not whole yet (see ``ReadResult/wait(generation:resumeReading:)``).
        case wait(generation: Int, resumeReading: Bool)
        /// Failed; `fatal`: the stream cannot go on (a bad header), so the connection fails.
        case fail(NWError, fatal: Bool)
    }

    /// Takes the next datagram.
    mutating func readDatagram() -> ReadResult {
        if let failure { return .fail(failure) }
        if datagramHead < datagrams.count {
            let datagram = datagrams[datagramHead]
            datagramHead += 1
            if datagramHead > 256 {
                datagrams.removeFirst(datagramHead)
                datagramHead = 0
            }
            return .bytes(datagram, complete: false, resumeReading: consumed())
        }
        if inputClosed { return .fail(.connectionClosed) }
        let (generation, resume) = wait(for: 1)
        return .wait(generation: generation, resumeReading: resume)
    }

    /// Whether the peer closed cleanly with nothing left buffered: true, false (something is buffered), or wait.
    mutating func atCleanEnd() -> CleanEnd {
        if let failure { return .fail(failure) }
        if inbound.readableBytes > 0 || datagramHead < datagrams.count { return .no }
        if inputClosed { return .yes }
        return .wait(generation: inboundGeneration)
    }

    /// See ``atCleanEnd()``.
    enum CleanEnd {
        case yes, no
        case wait(generation: Int)
        case fail(NWError)
    }

    /// Records what a read waits for; returns the generation to park at and whether reading must resume.
    private mutating func wait(for count: Int) -> (generation: Int, resumeReading: Bool) {
        wanted = count
        let resume = readingPaused && inbound.readableBytes < count
        if resume { readingPaused = false }
        return (inboundGeneration, resume)
    }

    /// After a read took bytes: whether reading resumes (the buffer drained to half its mark).
    private mutating func consumed() -> Bool {
        wanted = 0
        if !isDatagram, inbound.readerIndex > 64 * 1024 { inbound.discardReadBytes() }
        guard readingPaused else { return false }
        let low =
            isDatagram
            ? datagrams.count - datagramHead <= Self.datagramLimit / 2 : inbound.readableBytes <= inboundHighWater / 2
        if low { readingPaused = false }
        return low
    }

    /// Parks a reader until something arrives; false (resume it at once) when the connection ended or anything
    /// changed since `generation`.
    mutating func parkReader(_ continuation: CheckedContinuation<Void, Never>, generation: Int) -> Bool {
        guard failure == nil, !inputClosed, generation == inboundGeneration else { return false }
        readers.append(continuation)
        return true
    }

    // MARK: Ending

    /// The peer finished sending: reads take what is buffered, then fail with ``NWError/connectionClosed``.
    mutating func inputEnded() -> Wakeups {
        inputClosed = true
        return wakeReaders()
    }

    /// The app finished sending (half-closure): what is queued is still written; later sends fail with
    /// ``NWError/connectionClosed``.
    mutating func finishSending() { outputClosed = true }

    /// The channel closed: reads take what is buffered, then fail with ``NWError/connectionClosed``; sends fail
    /// with it at once (what was queued and not written is dropped).
    mutating func closed() -> Wakeups {
        inputClosed = true
        outputClosed = true
        queuedMessages = 0
        outbound = ByteBuffer()
        outboundDatagrams.removeAll()
        outboundDatagramBytes = 0
        return wakeReaders() + wakeSenders()
    }

    /// The connection failed or was cancelled: every waiter wakes to the error, buffered bytes are dropped.
    mutating func terminate(_ error: NWError) -> Wakeups {
        guard failure == nil else { return [] }
        failure = error
        inbound = ByteBuffer()
        datagrams.removeAll()
        datagramHead = 0
        queuedMessages = 0
        outbound = ByteBuffer()
        outboundDatagrams.removeAll()
        outboundDatagramBytes = 0
        return wakeReaders() + wakeSenders()
    }
}
