import NIOCore
import Testing

@testable import OpenNetwork

/// The data path's rules without sockets: when a flush is asked for, when a sender waits, when reading pauses,
/// and what ending a connection does to the waiters and to what is buffered.
@Suite("Connection buffers")
struct ConnectionBuffersTests {
    /// Enqueues `count` bytes at time `now` (nanoseconds).
    func enqueue(
        _ buffers: inout ConnectionBuffers, _ count: Int, at now: UInt64
    ) -> (ConnectionBuffers.FlushRequest, mustWait: Bool)? {
        switch buffers.enqueue(byteCount: count, now: { now }, { $0.writeBytes([UInt8](repeating: 7, count: count)) }) {
        case .queued(let flush, let mustWait, _): return (flush, mustWait)
        case .fail: return nil
        }
    }

    @Test func aLoneMessageIsFlushedAtOnceAndAStreamInBatches() {
        var b = ConnectionBuffers(isDatagram: false)
        // Idle: the first message asks for a flush now; the next ones ride on it.
        let lone = enqueue(&b, 1_024, at: 1_000_000)
        let next = enqueue(&b, 1_024, at: 1_000_100)
        #expect(lone?.0 == .now)
        #expect(next?.0 == ConnectionBuffers.FlushRequest.none)
        // The loop takes both: the connection streams, so the next message waits for the backstop timer...
        let first = b.takeOutbound(now: 1_000_200, backstop: false)
        #expect(first.stream?.readableBytes == 2_048)
        #expect(first.rearm)
        let streamed = enqueue(&b, 1_024, at: 1_000_300)
        #expect(streamed?.0 == ConnectionBuffers.FlushRequest.none)
        // ...until the queued bytes reach the threshold: then at once.
        var request = ConnectionBuffers.FlushRequest.none
        for i in 0..<80 where request == .none {
            request = enqueue(&b, 1_024, at: 1_000_400 + UInt64(i))?.0 ?? .none
        }
        #expect(request == .now)
        let second = b.takeOutbound(now: 1_001_000, backstop: false)
        #expect((second.stream?.readableBytes ?? 0) >= ConnectionBuffers.flushThreshold)
        // The backstop fires and finds nothing: no new timer; later messages after a pause go at once again.
        let idle = b.takeOutbound(now: 1_030_000, backstop: true)
        #expect(!idle.rearm)
        let afterPause = enqueue(&b, 10, at: 1_030_000 + ConnectionBuffers.streamingWindow + 1)
        #expect(afterPause?.0 == .now)
    }

    @Test func requestsAndAnswersAreNeverHeldBack() {
        var b = ConnectionBuffers(isDatagram: false)
        // One message per flush: the connection does not stream, so every message goes at once.
        for round in 0..<5 {
            let request = enqueue(&b, 64, at: UInt64(round) * 1_000)
            #expect(request?.0 == .now)
            _ = b.takeOutbound(now: UInt64(round) * 1_000 + 10, backstop: false)
        }
        // A streaming connection whose next message waits for the backstop: a reader about to wait flushes it.
        _ = enqueue(&b, 64, at: 10_000)
        _ = enqueue(&b, 64, at: 10_001)
        _ = b.takeOutbound(now: 10_002, backstop: false)
        let held = enqueue(&b, 64, at: 10_003)
        #expect(held?.0 == ConnectionBuffers.FlushRequest.none)
        let first = b.readerWillWait()
        let second = b.readerWillWait()
        #expect(first)
        #expect(!second, "asked once")
    }

    @Test func aSenderWaitsAboveTheMarkAndWakesWhenItDrains() {
        var b = ConnectionBuffers(isDatagram: false, outboundHighWater: 4_096)
        let under = enqueue(&b, 4_000, at: 0)
        #expect(under?.mustWait == false)
        let over = enqueue(&b, 200, at: 1)
        #expect(over?.mustWait == true)
        #expect(over?.0 != .later, "a waiting sender needs a flush now (here: the first message's is on its way)")
        guard case .wait(let generation) = b.senderOutcome else {
            Issue.record("expected to wait")
            return
        }
        // A full channel holds senders too, after the buffer was taken.
        _ = b.takeOutbound(now: 2, backstop: false)
        let full = b.channelWritabilityChanged(false)
        #expect(full.isEmpty)
        guard case .wait = b.senderOutcome else {
            Issue.record("a full channel must hold the sender")
            return
        }
        let writable = b.channelWritabilityChanged(true)
        #expect(writable.isEmpty, "nobody parked")
        guard case .proceed = b.senderOutcome else {
            Issue.record("drained: the sender goes on")
            return
        }
        _ = generation
    }

    @Test func readingPausesBeforeTheMarkAndResumesAtHalf() {
        // Reading pauses one largest read before the mark (one more read may come after the pause), and resumes
        // when reads took the buffer to half the mark.
        let mark = 200_000
        var b = ConnectionBuffers(isDatagram: false, inboundHighWater: mark)
        let under = b.received(ByteBuffer(repeating: 1, count: mark - ConnectionBuffers.largestRead)).pause
        let over = b.received(ByteBuffer(repeating: 2, count: 1_000)).pause
        let again = b.received(ByteBuffer(repeating: 3, count: 10)).pause
        #expect(!under)
        #expect(over)
        #expect(!again, "paused once")
        var resumed: [Bool] = []
        for _ in 0..<2 {
            guard case .bytes(let taken, _, let resume) = b.read(atLeast: 20_000, atMost: 20_000, partialAtEnd: false)
            else {
                Issue.record("expected bytes")
                return
            }
            #expect(taken.readableBytes == 20_000)
            resumed.append(resume)
        }
        #expect(resumed == [false, true], "115,474 left is over half the mark; 95,474 is under")
    }

    @Test func aReadForALargeFrameResumesAPausedReader() {
        var b = ConnectionBuffers(isDatagram: false, inboundHighWater: ConnectionBuffers.largestRead + 100)
        var header = ByteBuffer()
        header.writeInteger(UInt32(1_000))
        _ = b.received(header)
        let paused = b.received(ByteBuffer(repeating: 0, count: 200)).pause
        #expect(paused)
        // The frame needs more than is buffered: reading must resume, or it never completes.
        guard case .wait(_, let resume) = b.readFrame(typeWidth: 0, lengthWidth: 4, limit: 10_000) else {
            Issue.record("expected to wait")
            return
        }
        #expect(resume)
        let rest = b.received(ByteBuffer(repeating: 0, count: 800)).pause
        #expect(!rest, "the frame's bytes do not pause it")
        guard case .frame(_, let value, _) = b.readFrame(typeWidth: 0, lengthWidth: 4, limit: 10_000) else {
            Issue.record("expected the frame")
            return
        }
        #expect(value.readableBytes == 1_000)
    }

    @Test func aHeaderOverTheLimitIsFatalBeforeItsValueArrives() {
        var b = ConnectionBuffers(isDatagram: false)
        var header = ByteBuffer()
        header.writeInteger(UInt32(1 << 30))
        _ = b.received(header)
        guard case .fail(let error, let fatal) = b.readFrame(typeWidth: 0, lengthWidth: 4, limit: 1 << 20) else {
            Issue.record("expected a failure")
            return
        }
        #expect(fatal)
        #expect(error == .messageTooLarge(length: 1 << 30, limit: 1 << 20))
    }

    @Test func closingLetsReadsTakeWhatIsBufferedAndFailsSends() {
        var b = ConnectionBuffers(isDatagram: false)
        _ = b.received(ByteBuffer(repeating: 9, count: 10))
        _ = enqueue(&b, 100, at: 0)
        _ = b.closed()
        guard case .bytes(let rest, let complete, _) = b.read(atLeast: 1, atMost: 100, partialAtEnd: true) else {
            Issue.record("buffered bytes stay readable")
            return
        }
        #expect(rest.readableBytes == 10 && complete)
        guard case .fail(.connectionClosed) = b.read(atLeast: 1, atMost: 1, partialAtEnd: true) else {
            Issue.record("then the end")
            return
        }
        let late = enqueue(&b, 1, at: 1)
        let dropped = b.takeOutbound(now: 2, backstop: false)
        #expect(late == nil, "nothing more can be sent")
        #expect(dropped.stream == nil, "what was queued is dropped")
    }

    @Test func terminatingDropsEverythingAndTheFirstErrorStays() {
        var b = ConnectionBuffers(isDatagram: false)
        _ = b.received(ByteBuffer(repeating: 9, count: 10))
        _ = enqueue(&b, 100, at: 0)
        _ = b.terminate(.connectionReset)
        _ = b.terminate(.cancelled)
        #expect(b.failure == .connectionReset)
        guard case .fail(.connectionReset) = b.read(atLeast: 1, atMost: 10, partialAtEnd: true) else {
            Issue.record("a failed connection reads nothing")
            return
        }
        let late = enqueue(&b, 1, at: 1)
        let dropped = b.takeOutbound(now: 2, backstop: false)
        #expect(late == nil)
        #expect(dropped.stream == nil)
    }

    @Test func datagramsStayWholeAndInOrder() {
        var b = ConnectionBuffers(isDatagram: true)
        _ = enqueue(&b, 3, at: 0)
        _ = enqueue(&b, 5, at: 1)
        let out = b.takeOutbound(now: 2, backstop: false)
        #expect(out.datagrams.map(\.readableBytes) == [3, 5])
        _ = b.received(ByteBuffer(repeating: 1, count: 4))
        _ = b.received(ByteBuffer(repeating: 2, count: 6))
        for expected in [4, 6] {
            guard case .bytes(let datagram, _, _) = b.readDatagram() else {
                Issue.record("expected a datagram")
                return
            }
            #expect(datagram.readableBytes == expected)
        }
    }
}
