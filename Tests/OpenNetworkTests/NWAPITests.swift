import Dispatch
import Foundation
import OpenNetwork
import Testing

/// The Network framework's callback API (NWConnection, NWListener, NWBrowser) as code written for Apple's systems
/// uses it: handlers set before `start(queue:)`, completions on that queue, in the order the calls were made.
@Suite("NW* API", .timeLimit(.minutes(1)), .serialized)
struct NWAPITests {
    /// Resumes once with the first value given.
    final class Once<T: Sendable>: @unchecked Sendable {  // Unchecked: `continuation` is used under `lock`.
        private let lock = NSLock()
        private var continuation: CheckedContinuation<T, Never>?
        private var early: T?
        func resume(_ value: T) {
            lock.lock()
            if let c = continuation {
                continuation = nil
                lock.unlock()
                c.resume(returning: value)
            } else {
                if early == nil { early = value }
                lock.unlock()
            }
        }
        func wait() async -> T {
            await withCheckedContinuation { c in
                lock.lock()
                if let early {
                    lock.unlock()
                    c.resume(returning: early)
                } else {
                    continuation = c
                    lock.unlock()
                }
            }
        }
    }

    /// A listener that echoes everything each connection sends, and closes its side when the peer finishes.
    static func echoListener(queue: DispatchQueue) throws -> (NWListener, Once<NWEndpoint.Port>) {
        let listener = try NWListener(using: .tcp)
        let ready = Once<NWEndpoint.Port>()
        listener.stateUpdateHandler = { [weak listener] state in
            if state == .ready, let port = listener?.port { ready.resume(port) }
        }
        listener.newConnectionHandler = { connection in
            connection.start(queue: queue)
            @Sendable func echo() {
                connection.receive(minimumIncompleteLength: 1, maximumLength: 65536) { data, _, isComplete, error in
                    if let data {
                        connection.send(content: data, completion: .contentProcessed { _ in })
                    }
                    if isComplete || error != nil {
                        connection.send(content: nil, contentContext: .finalMessage, completion: .idempotent)
                    } else {
                        echo()
                    }
                }
            }
            echo()
        }
        listener.start(queue: queue)
        return (listener, ready)
    }

    @Test func aConnectionAndAListenerTalkAsAppsWriteThem() async throws {
        let queue = DispatchQueue(label: "nw-test")
        let (listener, ready) = try Self.echoListener(queue: queue)
        let port = await ready.wait()
        #expect(listener.state == .ready)

        let connection = NWConnection(host: "127.0.0.1", port: port, using: .tcp)
        let states = Recorder<NWConnection.State>()
        let onQueue = Recorder<Bool>()
        connection.stateUpdateHandler = { state in
            states.append(state)
            onQueue.append(DispatchQueue.getSpecific(key: Self.queueKey) == "nw-test")
        }
        queue.setSpecific(key: Self.queueKey, value: "nw-test")
        connection.start(queue: queue)
        try await states.waitFor("ready") { $0 == .ready }

        // Sends complete in order; so do receives.
        let sent = Recorder<Int>()
        for i in 0..<50 {
            connection.send(
                content: Data("message \(i);".utf8),
                completion: .contentProcessed { error in
                    #expect(error == nil)
                    sent.append(i)
                })
        }
        connection.send(content: nil, contentContext: .finalMessage, completion: .idempotent)
        let received = Once<Data>()
        let buffer = Recorder<Data>()
        @Sendable func read() {
            connection.receive(minimumIncompleteLength: 1, maximumLength: 4096) { data, _, isComplete, error in
                #expect(error == nil)
                if let data { buffer.append(data) }
                if isComplete { received.resume(buffer.all.reduce(Data(), +)) } else { read() }
            }
        }
        read()
        let echoed = await received.wait()
        #expect(String(decoding: echoed, as: UTF8.self) == (0..<50).map { "message \($0);" }.joined())
        try await sent.waitFor("every send") { $0 == 49 }
        #expect(sent.all == Array(0..<50))
        // The final message closed our sending side only: the echo still came back. The app ends the connection.
        connection.cancel()
        try await states.waitFor("cancelled") { $0 == .cancelled }
        #expect(states.all.first == .preparing && onQueue.all.allSatisfy { $0 })
        listener.cancel()
    }

    static let queueKey = DispatchSpecificKey<String>()

    @Test func anUnreachablePeerIsReportedAsWaitingThenCancelled() async throws {
        let port = try await unusedPort()
        let connection = NWConnection(host: "127.0.0.1", port: port, using: .tcp)
        let states = Recorder<NWConnection.State>()
        connection.stateUpdateHandler = { states.append($0) }
        connection.start(queue: DispatchQueue(label: "nw-waiting"))
        // Matched as apps written for Apple's systems match it: a POSIXErrorCode in `.posix`.
        try await states.waitFor("waiting") { if case .waiting(.posix(.ECONNREFUSED)) = $0 { true } else { false } }
        // A send made now fails once the connection is cancelled; nothing is dropped silently.
        let failed = Once<NWError?>()
        connection.send(content: Data("x".utf8), completion: .contentProcessed { failed.resume($0) })
        connection.cancel()
        try await states.waitFor("cancelled") { $0 == .cancelled }
        #expect(await failed.wait() != nil)
    }

    @Test func receiveMessageOverTCPReadsUntilThePeerFinishes() async throws {
        let queue = DispatchQueue(label: "nw-message")
        let (listener, ready) = try Self.echoListener(queue: queue)
        let connection = NWConnection(host: "127.0.0.1", port: await ready.wait(), using: .tcp)
        connection.start(queue: queue)
        let text = String(repeating: "0123456789", count: 50_000)
        connection.send(content: Data(text.utf8), contentContext: .finalMessage, completion: .idempotent)
        let message = Once<(Data?, Bool)>()
        connection.receiveMessage { data, context, isComplete, _ in
            #expect(context?.isFinal == true)
            message.resume((data, isComplete))
        }
        let (data, complete) = await message.wait()
        #expect(complete && data.map { String(decoding: $0, as: UTF8.self) } == text)
        listener.cancel()
    }

    @Test func tlsListenersWithoutCredentialsAreRefusedSayingWhy() throws {
        do {
            _ = try NWListener(using: .tls)
            Issue.record("a TLS NWListener was made without an identity")
        } catch {
            #expect("\(error)".contains("needs a server identity or a pre-shared key"))
        }
    }

    @Test func aUDPConnectionSendsAndReceivesDatagrams() async throws {
        let portFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "orchard-nwudp-\(UUID().uuidString)")
        let script = """
            import socket, sys, os
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.bind(("127.0.0.1", 0))
            open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
            os.rename(sys.argv[1] + ".tmp", sys.argv[1])
            data, peer = s.recvfrom(65536)
            s.sendto(data.upper(), peer)
            """
        let python = try await InteropTests.Tool(["python3", "-c", script, portFile.path])
        var port: UInt16?
        for _ in 0..<1000 where port == nil {
            if let text = try? String(contentsOf: portFile, encoding: .utf8) {
                port = UInt16(text)
            }  // not written yet
            else {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        try? FileManager.default.removeItem(at: portFile)  // `try?`: a leftover temporary file is harmless
        let connection = NWConnection(host: "127.0.0.1", port: .init(rawValue: try #require(port)), using: .udp)
        connection.start(queue: DispatchQueue(label: "nw-udp"))
        connection.send(content: Data("tic tac toe".utf8), completion: .idempotent)
        let reply = Once<Data?>()
        connection.receiveMessage { data, _, _, _ in reply.resume(data) }
        #expect(await reply.wait() == Data("TIC TAC TOE".utf8))
        #expect(try await python.finish().status == 0)
        connection.cancel()
    }
}
