import Foundation
import NIOPosix
import OpenNetwork
import Testing

/// NetworkListener: states, ephemeral ports, connection limit, isolation of misbehaving peers,
/// Unix domain sockets, idle timeouts.
@Suite("Listener", .timeLimit(.minutes(1)))
struct ListenerTests {
    /// A TLV echo handler.
    static let echo: @Sendable (NetworkConnection<TLV>) async throws -> Void = { c in
        for try await (content, metadata) in c.messages { try await c.send(content, type: metadata.type) }
    }

    /// Sends one message and waits for its echo.
    func roundTrip(_ c: NetworkConnection<TLV>, _ text: String) async throws -> String {
        try await c.send(Data(text.utf8), type: 1)
        return String(decoding: try await c.receive().content, as: UTF8.self)
    }

    @Test func statesAndEphemeralPort() async throws {
        let states = Recorder<NetworkListener<TLV>.State>()
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP() } })
            .onStateUpdate { _, s in states.append(s) }
        #expect(listener.state == .setup)
        #expect(listener.port == nil)
        try await withListener(listener, handler: Self.echo) { port async throws in
            #expect(port.rawValue != 0)
            #expect(listener.port == port)
            let c = NetworkConnection(to: local(port)) { TLV { TCP() } }
            #expect(try await roundTrip(c, "ping") == "ping")
        }
        #expect(states.all == [.ready, .cancelled])
    }

    /// A handler runs on its connection's event loop: the receive a read wakes and the reply after it stay on the
    /// thread that read the bytes. A `Task {}` the handler starts does not inherit that (the documented way out
    /// for long synchronous work).
    @Test func aHandlerRunsOnItsConnectionsEventLoop() async throws {
        let onLoop = Recorder<Bool>()
        let taskOnLoop = Recorder<Bool>()
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP() } })
        try await withListener(
            listener,
            handler: { c in
                for try await (content, metadata) in c.messages {
                    onLoop.append(MultiThreadedEventLoopGroup.currentEventLoop != nil)
                    taskOnLoop.append(await Task { MultiThreadedEventLoopGroup.currentEventLoop != nil }.value)
                    try await c.send(content, type: metadata.type)
                }
            }
        ) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TCP() } }
            for i in 0..<5 { #expect(try await roundTrip(c, "\(i)") == "\(i)") }
        }
        #expect(onLoop.all == Array(repeating: true, count: 5))
        #expect(taskOnLoop.all == Array(repeating: false, count: 5))
    }

    @Test func bindingAPortInUseFails() async throws {
        let first = NetworkListener(for: local(.any), using: { TCP() })
        try await withListener(first, handler: { _ in }) { port async throws in
            let states = Recorder<NetworkListener<TCP>.State>()
            let second = NetworkListener(for: local(port), using: { TCP() }).onStateUpdate { _, s in states.append(s) }
            await #expect(throws: NWError.posix(.EADDRINUSE)) { try await second.run { _ in } }
            #expect(states.all == [.failed(.posix(.EADDRINUSE))])
        }
    }

    @Test func newConnectionLimitQueuesConnectionsUntilRaised() async throws {
        let served = Counter()
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP() } }).newConnectionLimit(2)
        #expect(listener.newConnectionLimit == 2)
        try await withListener(
            listener,
            handler: { c in
                served.add()
                try await Self.echo(c)
            }
        ) { port async throws in
            let a = NetworkConnection(to: local(port)) { TLV { TCP() } }
            let b = NetworkConnection(to: local(port)) { TLV { TCP() } }
            #expect(try await roundTrip(a, "a") == "a")
            #expect(try await roundTrip(b, "b") == "b")
            #expect(listener.newConnectionLimit == 0)
            let third = NetworkConnection(to: local(port)) { TLV { TCP() } }
            // TCP connects (the kernel queues it) but the listener does not deliver it.
            try await third.send(Data("c".utf8), type: 1)
            let reply = Task { try await third.receive() }
            try await Task.sleep(for: .milliseconds(200))
            #expect(served.value == 2)
            listener.newConnectionLimit = 1
            #expect(try await reply.value.content == Data("c".utf8))
            #expect(served.value == 3)
            #expect(listener.newConnectionLimit == 0)
        }
    }

    @Test func infiniteLimitByDefault() {
        let listener = NetworkListener(for: local(.any), using: { TCP() })
        #expect(listener.newConnectionLimit == NetworkListener<TCP>.InfiniteConnectionLimit)
    }

    @Test func misbehavingPeersDoNotStopTheListener() async throws {
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP() }.maximumMessageSize(1024) })
        try await withListener(listener, handler: Self.echo) { port async throws in
            // 1: announces an oversize frame
            let oversize = NetworkConnection(to: local(port)) { TCP() }
            try await oversize.send(Data(tlvFrame(type: 1, []).prefix(4) + [0xFF, 0xFF, 0xFF, 0xFF]))
            // 2: sends half a header and stalls
            let staller = NetworkConnection(to: local(port)) { TCP() }
            try await staller.send(Data([0, 0]))
            // 3: connects and resets at once
            let quitter = NetworkConnection(to: local(port)) { TCP() }
            try await quitter.send(Data([0, 0, 0]))
            await quitter.cancel()
            // The oversize peer is disconnected...
            await #expect(throws: NWError.self) { _ = try await oversize.receive(exactly: 1) }
            // ...and well-behaved peers are served meanwhile, concurrently.
            try await withThrowingTaskGroup(of: String.self) { group in
                for i in 0..<20 {
                    group.addTask {
                        let c = NetworkConnection(to: local(port)) { TLV { TCP() } }
                        return try await roundTrip(c, "client \(i)")
                    }
                }
                var replies = Set<String>()
                for try await r in group { replies.insert(r) }
                #expect(replies == Set((0..<20).map { "client \($0)" }))
            }
            await staller.cancel()
        }
    }

    @Test func tlsHandshakeFailuresDoNotStopTheListener() async throws {
        let identity = try TLSIdentity.selfSigned()
        let listener = NetworkListener(for: local(.any), using: { TLV { TLS().localIdentity(identity) } })
        try await withListener(listener, handler: Self.echo) { port async throws in
            // plaintext garbage instead of a ClientHello
            let garbage = NetworkConnection(to: local(port)) { TCP() }
            try await garbage.send(Data("GET / HTTP/1.1\r\n\r\n".utf8))
            // a client that rejects the certificate
            let distrustful = NetworkConnection(to: local(port)) { TLV { TLS() } }
            await #expect(throws: NWError.self) { try await distrustful.send(Data([1]), type: 1) }
            let good = NetworkConnection(to: local(port)) { TLV { TLS().trustRoots([identity.trustRoot]) } }
            #expect(try await roundTrip(good, "still here") == "still here")
            await garbage.cancel()
        }
    }

    @Test func unixDomainSocket() async throws {
        let path = socketPath()
        defer { unlink(path) }
        let listener = NetworkListener(for: .unix(path: path), using: { TLV { TCP() } })
        try await withListener(listener, handler: Self.echo) { _ async throws in
            #expect(listener.port == nil)
            let c = NetworkConnection(to: .unix(path: path)) { TLV { TCP() } }
            #expect(try await roundTrip(c, "over a socket file") == "over a socket file")
        }
    }

    @Test func aUnixSocketListenerKnowsItsPeerProcessFromTheKernel() async throws {
        let path = socketPath()
        defer { unlink(path) }
        let seen = Recorder<String>()
        let listener = NetworkListener(for: .unix(path: path), using: { TLV { TCP() } })
        try await withListener(
            listener,
            handler: { c in
                let credentials = await c.peerCredentials
                seen.append(
                    credentials.map { "\($0.processIdentifier) \($0.userIdentifier) \($0.groupIdentifier)" } ?? "none")
                try await c.send(Data([1]), type: 1)
            }
        ) { _ async throws in
            let c = NetworkConnection(to: .unix(path: path)) { TLV { TCP() } }
            _ = try await c.receive()
            // The client's side sees the listener's process (this one, too).
            let mine = await c.peerCredentials
            #expect(mine?.processIdentifier == getpid() && mine?.userIdentifier == getuid())
        }
        #expect(seen.all == ["\(getpid()) \(getuid()) \(getgid())"])
        // Over TCP there is no such thing.
        let tcp = NetworkListener(for: local(.any), using: { TLV { TCP() } })
        try await withListener(
            tcp,
            handler: { c in
                try await c.send(Data([await c.peerCredentials == nil ? 1 : 0]), type: 1)
            }
        ) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TCP() } }
            #expect(try await c.receive().content == Data([1]))
            #expect(await c.peerCredentials == nil)
        }
    }

    @Test func unixDomainSocketWithCoderOverTLS() async throws {
        let path = socketPath()
        defer { unlink(path) }
        let identity = try TLSIdentity.selfSigned()
        let listener = NetworkListener(
            for: .unix(path: path),
            using: {
                Coder(Ping.self, using: .json) { TLS().localIdentity(identity) }
            })
        try await withListener(
            listener,
            handler: { c in
                let p = try await c.receive().content
                try await c.send(Ping(text: p.text, number: p.number * 2))
            }
        ) { _ async throws in
            let c = NetworkConnection(to: .unix(path: path)) {
                Coder(Ping.self, using: .json) { TLS().serverName("localhost").trustRoots([identity.trustRoot]) }
            }
            try await c.send(Ping(text: "u", number: 21))
            #expect(try await c.receive().content == Ping(text: "u", number: 42))
        }
    }

    @Test func unixSocketPeerMissingWaits() async throws {
        let path = socketPath()
        let states = Recorder<NetworkConnection<TCP>.State>()
        let c = NetworkConnection(to: .unix(path: path)) { TCP() }.onStateUpdate { _, s in states.append(s) }
        let task = Task { try await c.receive(exactly: 1) }
        try await states.waitFor("waiting") { if case .waiting = $0 { true } else { false } }
        task.cancel()
        _ = await task.result
        #expect(await c.state == .cancelled)
    }

    @Test func idleTimeoutDisconnectsSilentPeers() async throws {
        let outcome = Recorder<String>()
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP().idleTimeout(.milliseconds(200)) } })
        try await withListener(
            listener,
            handler: { c in
                do {
                    for try await _ in c.messages {}
                    outcome.append("ended")
                } catch {
                    outcome.append("\(error)")
                }
            }
        ) { port async throws in
            let silent = NetworkConnection(to: local(port)) { TCP() }
            try? await silent.send(Data([0]))  // half a TLV header, then silence
            // The server closes the idle connection: our read ends.
            await #expect(throws: NWError.self) { _ = try await silent.receive(exactly: 1) }
            try await outcome.waitFor("server side") { _ in true }
            #expect(outcome.all == ["\(NWError.timedOut)"])
        }
    }

    @Test func cancellingTheListenerMidTransferClosesItsConnections() async throws {
        let receivedBytes = Counter()
        let listener = NetworkListener(for: local(.any), using: { TCP() })
        let started = Recorder<Bool>()
        let run = Task {
            try await listener.run { c in
                started.append(true)
                while true { receivedBytes.add(try await c.receive(atLeast: 1, atMost: 65536).content.count) }
            }
        }
        let port = try #require(try await waitReady(listener))
        let c = NetworkConnection(to: local(port)) { TCP() }
        let sender = Task {
            let chunk = Data(count: 64 * 1024)
            while true { try await c.send(chunk) }
        }
        try await started.waitFor("a connection") { $0 }
        while receivedBytes.value < 1 << 20 { try await Task.sleep(for: .milliseconds(5)) }
        run.cancel()
        try await run.value  // run returns normally when cancelled
        #expect(listener.state == .cancelled)
        // The client's transfer fails: the listener closed its connection.
        let result = await sender.result
        #expect(throws: NWError.self) { try result.get() }
        // and nothing listens any more
        let late = NetworkConnection(to: local(port)) { TCP().connectionTimeout(.milliseconds(300)) }
        await #expect(throws: NWError.timedOut) { try await late.send(Data([1])) }
    }
}
