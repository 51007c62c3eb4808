import Foundation
import Testing

@testable import OpenNetwork

/// Sends that return before the socket took the bytes, checked end to end over loopback: order, memory bounds,
/// resets, cancellation and graceful closes.
@Suite("Streaming", .timeLimit(.minutes(2)))
struct StreamingTests {
    /// A frame's content: its number in its first and last eight bytes, a pattern between.
    static func frame(_ number: Int, size: Int) -> Data {
        var data = Data(repeating: UInt8(truncatingIfNeeded: number), count: size)
        withUnsafeBytes(of: UInt64(number).bigEndian) { raw in
            data.replaceSubrange(0..<8, with: raw)
            data.replaceSubrange((size - 8)..<size, with: raw)
        }
        return data
    }

    static func number(of frame: Data) -> (head: Int, tail: Int, fill: UInt8?) {
        let head = frame.prefix(8).reduce(0) { $0 << 8 | Int($1) }
        let tail = frame.suffix(8).reduce(0) { $0 << 8 | Int($1) }
        return (head, tail, frame.count > 16 ? frame[frame.startIndex + frame.count / 2] : nil)
    }

    /// An actor iterating `messages` takes each message already buffered without leaving the actor: the iterator's
    /// `next(isolation:)` runs the receive on the caller's executor. (Before, every message hopped to the global
    /// executor and back: a job on the actor's executor per message.)
    @Test func anActorReadsBufferedMessagesWithoutAHopEach() async throws {
        let count = 200
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP() } })
        try await withListener(
            listener,
            handler: { c in
                for i in 1...count { try await c.send(Data("m\(i)".utf8), type: i) }
                try await Task.sleep(for: .seconds(60))  // Holds the connection open; the test's end cancels it.
            }
        ) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TCP() } }
            #expect(try await c.receive().metadata.type == 1)
            // The other messages: 8 bytes of header and "m" with the number each.
            let rest = (2...count).reduce(0) { $0 + 8 + 1 + String($1).utf8.count }
            let deadline = ContinuousClock.now + .seconds(20)
            while (c.bufferedByteCounts?.inbound ?? 0) < rest {
                guard ContinuousClock.now < deadline else {
                    Issue.record("only \(c.bufferedByteCounts?.inbound ?? 0) of \(rest) bytes arrived")
                    return
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            let reader = MessageReader()
            #expect(try await reader.read(count - 1, from: c) == Array(2...count))
            // One job enters the actor; a hop per message would add one for each of the 199.
            #expect(reader.executor.jobs.value <= 3)
            await c.cancel()
        }
    }

    @Test func aGigabyteKeepsOrderAndContentIntoAReaderThatPausesForSeconds() async throws {
        let frameSize = 64 << 10
        let frames = (1 << 30) / frameSize
        let inboundPeak = Counter()
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP() } })
        try await withListener(
            listener,
            handler: { c in
                var expected = 0
                for try await (content, metadata) in c.messages {
                    let (head, tail, fill) = Self.number(of: content)
                    guard head == expected, tail == expected, metadata.type == 1, content.count == frameSize,
                        fill == UInt8(truncatingIfNeeded: expected)
                    else {
                        Issue.record("frame \(expected): got \(head)/\(tail), \(content.count) bytes")
                        return
                    }
                    expected += 1
                    // Twice the reader stops for two seconds, with the sender going full speed.
                    if expected == frames / 3 || expected == 2 * frames / 3 {
                        try await Task.sleep(for: .seconds(2))
                        let held = c.bufferedByteCounts?.inbound ?? 0
                        if held > inboundPeak.value { inboundPeak.add(held - inboundPeak.value) }
                    }
                }
                #expect(expected == frames)
            }
        ) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TCP() } }
            var outboundPeak = 0
            for number in 0..<frames {
                try await c.send(Self.frame(number, size: frameSize), type: 1)
                outboundPeak = max(outboundPeak, c.bufferedByteCounts?.outbound ?? 0)
            }
            await c.cancel()
            // Memory stays under the high-water marks plus one frame on both sides, however long the reader stops.
            let marks = ConnectionBuffers(isDatagram: false)
            #expect(outboundPeak <= marks.outboundHighWater + frameSize + 6)
            #expect(inboundPeak.value <= marks.inboundHighWater + frameSize + 6)
        }
    }

    @Test func aGracefulCloseDeliversEverythingQueued() async throws {
        let count = 20_000
        let received = Counter()
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP() } })
        try await withListener(
            listener,
            handler: { c in
                for try await (content, _) in c.messages {
                    #expect(Self.number(of: content).head == received.value)
                    received.add()
                }
            }
        ) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TCP() } }
            for number in 0..<count { try await c.send(Self.frame(number, size: 1_024), type: 1) }
            // Most of these are still queued: the graceful close sends them before it closes.
            await c.cancel()
            let deadline = ContinuousClock.now + .seconds(20)
            while received.value < count && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(received.value == count)
        }
    }

    @Test func cancellingWithSendsQueuedDropsThemAndClosesPromptly() async throws {
        let frameSize = 64 << 10
        let total = 4_096  // 256 MiB: far more than the buffers hold.
        let go = Recorder<Bool>()
        let received = Counter()
        let ended = Recorder<String>()
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP() } })
        try await withListener(
            listener,
            handler: { c in
                try await go.waitFor("go", timeout: .seconds(60)) { $0 }
                do {
                    for try await _ in c.messages { received.add() }
                    ended.append("end")
                } catch {
                    ended.append("\(error)")
                }
            }
        ) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TCP() } }
            let sent = Counter()
            let sender = Task {
                for number in 0..<total {
                    try await c.send(Self.frame(number, size: frameSize), type: 1)
                    sent.add()
                }
            }
            // The sender stalls once the buffers are full (the peer reads nothing yet).
            var last = -1
            while sent.value != last {
                last = sent.value
                try await Task.sleep(for: .milliseconds(300))
            }
            sender.cancel()
            await #expect(throws: NWError.cancelled) { try await sender.value }
            // The cancelled send returned although the peer has read nothing yet (it reads only after `go` below):
            // cancelling did not wait for the queued bytes to drain. (No clock is asserted: unit tests time nothing.)
            #expect(await c.state == .cancelled)
            go.append(true)
            try await ended.waitFor("the end of the stream") { _ in true }
            // What was queued and not written is gone: the peer got what the kernel held, not the rest.
            #expect(received.value < total)
            // The send cancelled while it waited had its message taken already (a send that throws may still have
            // been delivered, as with any socket): at most that one more than the sends that returned.
            #expect(received.value <= sent.value + 1)
        }
    }

    @Test func aPeerThatResetsMidStreamFailsTheSendersNextCall() async throws {
        // A python3 peer reads a little, then aborts with SO_LINGER 0 (an RST instead of a FIN).
        let script = """
            import socket, struct, sys
            server = socket.socket()
            server.bind(("127.0.0.1", 0))
            server.listen(1)
            print(server.getsockname()[1], flush=True)
            s, _ = server.accept()
            s.recv(65536)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()
            sys.stdin.read()
            """
        let python = try await InteropTests.Tool(["python3", "-u", "-c", script])
        let port = try await python.readLine()
        let c = NetworkConnection(to: .hostPort(host: "127.0.0.1", port: .init(rawValue: UInt16(port)!))) {
            TLV { TCP() }
        }
        let start = ContinuousClock.now
        var failure: (any Error)?
        do {
            // Keeps sending: one of the next calls must throw, never hang.
            for number in 0..<1_000_000 { try await c.send(Self.frame(number, size: 1_024), type: 1) }
        } catch {
            failure = error
        }
        #expect(ContinuousClock.now - start < .seconds(10))
        let error = try #require(failure as? NWError)
        #expect(error == .connectionReset || error == .connectionClosed || error == .posix(.EPIPE), "\(error)")
        if case .failed = await c.state {
        } else if await c.state != .ready {
            Issue.record("state \(await c.state)")
        }
        try await python.closeInput()
        _ = try await python.finish()
    }
}

/// A serial executor that counts the jobs it is given: each one is a hop onto the actor that runs on it.
final class CountingExecutor: SerialExecutor, @unchecked Sendable {
    let jobs = Counter()
    private let queue = DispatchQueue(label: "CountingExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        jobs.add()
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }
}

/// An actor that reads a connection's messages on a counting executor.
actor MessageReader {
    nonisolated let executor = CountingExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// The types of the next `count` messages.
    func read(_ count: Int, from c: NetworkConnection<TLV>) async throws -> [Int] {
        var types: [Int] = []
        for try await (_, metadata) in c.messages {
            types.append(metadata.type)
            if types.count == count { break }
        }
        return types
    }
}
