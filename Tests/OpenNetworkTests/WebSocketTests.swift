import Dispatch
import Foundation
import Hummingbird
import HummingbirdWSClient
import HummingbirdWebSocket
import Logging
import NIOCore
import OpenNetwork
import TestSupport
import Testing

/// WebSocket in a stack: our client and listener with each other, and each against an independent implementation
/// (Hummingbird's WebSocket server and client); text, binary, large and fragmented-by-the-peer messages; an HTTP
/// request that is not an upgrade, and a peer breaking the protocol.
@Suite("WebSocket", .timeLimit(.minutes(1)), .serialized)
struct WebSocketTests {
    /// Our listener: echoes each message with "echo " in front (text stays text, binary stays binary).
    static func echoListener() -> (NetworkListener<WebSocket>, Task<Void, any Error>) {
        let listener = NetworkListener(for: .hostPort(host: "127.0.0.1", port: .any)) { WebSocket { TCP() } }
        let serving = Task {
            try await listener.run { connection in
                for try await (content, metadata) in connection.messages {
                    try await connection.send(Data("echo ".utf8) + content, opcode: metadata.opcode)
                }
            }
        }
        return (listener, serving)
    }

    @Test func ourClientAndListenerTalk() async throws {
        let (listener, serving) = Self.echoListener()
        defer { serving.cancel() }
        let port = try #require(try await waitReady(listener))
        let connection = NetworkConnection(to: .hostPort(host: "127.0.0.1", port: port)) {
            WebSocket(path: "/echo") { TCP() }
        }
        try await connection.send("hello")
        let (text, textMetadata) = try await connection.receive()
        #expect(String(decoding: text, as: UTF8.self) == "echo hello" && textMetadata.opcode == .text)
        let large = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try await connection.send(large)
        let (bytes, bytesMetadata) = try await connection.receive()
        #expect(bytes == Data("echo ".utf8) + large && bytesMetadata.opcode == .binary)
        await #expect(throws: NWError.self) { try await connection.send(Data([0xFF, 0xFE]), opcode: .text) }
        await connection.cancel()
    }

    @Test func ourClientTalksToHummingbirdsServer() async throws {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.ws("/chat") { inbound, outbound, _ in
            for try await message in inbound.messages(maxSize: 1 << 22) {
                switch message {
                case .text(let text): try await outbound.write(.text("hb " + text))
                case .binary(let bytes): try await outbound.write(.binary(bytes))
                }
            }
        }
        var configuration = WebSocketServerConfiguration()
        configuration.maxFrameSize = 1 << 22
        let port = PortBox()
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: router, configuration: .init(ws: configuration)),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { await port.set($0.localAddress?.port ?? 0) })
        let server = Task { try await app.runService() }
        defer { server.cancel() }
        let bound = try await port.wait()

        let connection = NetworkConnection(
            to: .hostPort(host: "127.0.0.1", port: NWEndpoint.Port(rawValue: UInt16(bound)))
        ) {
            WebSocket(path: "/chat") { TCP() }
        }
        try await connection.send("ping")
        let (reply, metadata) = try await connection.receive()
        #expect(String(decoding: reply, as: UTF8.self) == "hb ping" && metadata.opcode == .text)
        let payload = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
        try await connection.send(payload)
        let (echoed, echoedMetadata) = try await connection.receive()
        #expect(echoed == payload && echoedMetadata.opcode == .binary)
        await connection.cancel()

        // A path the server does not serve: the upgrade is refused, and the connection fails saying so.
        let refused = NetworkConnection(
            to: .hostPort(host: "127.0.0.1", port: NWEndpoint.Port(rawValue: UInt16(bound)))
        ) {
            WebSocket(path: "/nowhere") { TCP() }
        }
        await #expect(throws: NWError.self) { try await refused.send("anyone?") }
    }

    @Test func hummingbirdsClientTalksToOurListener() async throws {
        let (listener, serving) = Self.echoListener()
        defer { serving.cancel() }
        let port = try #require(try await waitReady(listener))
        let replies = Recorder<String>()
        var configuration = WebSocketClientConfiguration()
        configuration.maxFrameSize = 1 << 22
        _ = try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(port.rawValue)/any", configuration: configuration, logger: Logger(label: "hb-client")
        ) { inbound, outbound, _ in
            try await outbound.write(.text("from hummingbird"))
            try await outbound.write(.binary(ByteBuffer(bytes: [1, 2, 3])))
            var messages = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
            for _ in 0..<2 {
                switch try await messages.next() {
                case .text(let text): replies.append("text:" + text)
                case .binary(let bytes):
                    replies.append("binary:" + bytes.readableBytesView.map(String.init).joined(separator: ","))
                case nil: replies.append("end")
                }
            }
        }
        #expect(replies.all == ["text:echo from hummingbird", "binary:101,99,104,111,32,1,2,3"])
    }

    /// An attacker's requests: plain HTTP (no upgrade) gets 426 and a close; frames a client must mask, unmasked,
    /// fail that connection. The listener serves the next client as before.
    @Test func nonWebSocketRequestsAndBrokenFramesAreTurnedAway() async throws {
        let (listener, serving) = Self.echoListener()
        defer { serving.cancel() }
        let port = try #require(try await waitReady(listener))
        let raw = NetworkConnection(to: .hostPort(host: "127.0.0.1", port: port)) { TCP() }
        try await raw.send(Data("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        var answer = Data()
        while true {
            do {
                let (chunk, metadata) = try await raw.receive(atLeast: 1, atMost: 4096)
                answer.append(chunk)
                if metadata.isComplete { break }
            } catch { break }
        }
        #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 426"))
        await raw.cancel()

        // A client that upgrades properly, then sends a frame without the mask a client must use.
        let sloppy = NetworkConnection(to: .hostPort(host: "127.0.0.1", port: port)) { TCP() }
        try await sloppy.send(
            Data(
                ("GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8))
        var handshake = Data()
        while !String(decoding: handshake, as: UTF8.self).contains("\r\n\r\n") {
            handshake.append(try await sloppy.receive(atLeast: 1, atMost: 4096).content)
        }
        #expect(String(decoding: handshake, as: UTF8.self).hasPrefix("HTTP/1.1 101"))
        try await sloppy.send(Data([0x81, 0x05]) + Data("hello".utf8))
        var after = Data()
        while true {
            do {
                let (chunk, metadata) = try await sloppy.receive(atLeast: 1, atMost: 4096)
                after.append(chunk)
                if metadata.isComplete { break }
            } catch { break }
        }
        // A close frame with 1002 (protocol error), and no echo.
        #expect(after.starts(with: [0x88, 0x02, 0x03, 0xEA]), "\(Array(after))")
        #expect(!String(decoding: after, as: UTF8.self).contains("echo"))
        await sloppy.cancel()

        let client = NetworkConnection(to: .hostPort(host: "127.0.0.1", port: port)) { WebSocket { TCP() } }
        try await client.send("still there?")
        let (reply, _) = try await client.receive()
        #expect(String(decoding: reply, as: UTF8.self) == "echo still there?")
        await client.cancel()
    }

    @Test func webSocketOverTLS() async throws {
        let identity = try TLSIdentity.selfSigned()
        let listener = NetworkListener(for: .hostPort(host: "127.0.0.1", port: .any)) {
            WebSocket { TLS().localIdentity(identity) }
        }
        let serving = Task {
            try await listener.run { connection in
                for try await (content, _) in connection.messages { try await connection.send(content) }
            }
        }
        defer { serving.cancel() }
        let port = try #require(try await waitReady(listener))
        let connection = NetworkConnection(to: .hostPort(host: "localhost", port: port)) {
            WebSocket { TLS().trustRoots([identity.trustRoot]) }
        }
        try await connection.send(Data("secret".utf8))
        let (reply, _) = try await connection.receive()
        #expect(reply == Data("secret".utf8))
        await connection.cancel()
    }
}

/// A port learned from a server's start.
actor PortBox {
    private var port: Int?
    func set(_ value: Int) { port = value }
    func wait() async throws -> Int {
        for _ in 0..<2000 {
            if let port { return port }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw NWError.timedOut
    }
}

/// NWProtocolWebSocket: the callback API's WebSocket, as apps written for Apple's systems use it.
@Suite("NWProtocolWebSocket", .timeLimit(.minutes(1)), .serialized)
struct NWWebSocketTests {
    typealias Received = (data: Data?, opcode: NWProtocolWebSocket.Opcode?, error: NWError?)

    static func parameters(autoReplyPing: Bool) -> NWParameters {
        let parameters = NWParameters.tcp
        let options = NWProtocolWebSocket.Options()
        options.autoReplyPing = autoReplyPing
        parameters.defaultProtocolStack.applicationProtocols.insert(options, at: 0)
        return parameters
    }

    static func send(_ connection: NWConnection, _ data: Data?, _ opcode: NWProtocolWebSocket.Opcode) async -> NWError?
    {
        await withCheckedContinuation { (done: CheckedContinuation<NWError?, Never>) in
            let context = NWConnection.ContentContext(
                identifier: "\(opcode)", metadata: [NWProtocolWebSocket.Metadata(opcode: opcode)])
            connection.send(
                content: data, contentContext: context, isComplete: true,
                completion: .contentProcessed { done.resume(returning: $0) })
        }
    }

    static func receive(_ connection: NWConnection) async -> Received {
        await withCheckedContinuation { (got: CheckedContinuation<Received, Never>) in
            connection.receiveMessage { data, context, _, error in
                let metadata =
                    context?.protocolMetadata(definition: NWProtocolWebSocket.definition)
                    as? NWProtocolWebSocket.Metadata
                got.resume(returning: (data, metadata?.opcode, error))
            }
        }
    }

    @Test func anNWListenerAndNWConnectionTalkWebSocketWithOpcodesAndPings() async throws {
        let queue = DispatchQueue(label: "nw-websocket")
        let pongs = Recorder<String>()
        let (listener, port) = try await NWFramerTests.listen(Self.parameters(autoReplyPing: false), queue: queue) {
            connection in
            Task {
                // Echo one message with its opcode, then ping and record the answer.
                let first = await Self.receive(connection)
                _ = await Self.send(connection, first.data, first.opcode ?? .binary)
                _ = await Self.send(connection, Data("p1".utf8), .ping)
                let pong = await Self.receive(connection)
                pongs.append(
                    "\(pong.opcode.map { "\($0)" } ?? "none") \(pong.data.map { String(decoding: $0, as: UTF8.self) } ?? "")"
                )
            }
        }
        defer { listener.cancel() }

        // A client that answers pings itself (autoReplyPing true): the server gets the pong.
        let automatic = NWConnection(
            to: .url(URL(string: "ws://127.0.0.1:\(port.rawValue)/chat?room=1")!),
            using: Self.parameters(autoReplyPing: true))
        automatic.start(queue: queue)
        #expect(await Self.send(automatic, Data("hello".utf8), .text) == nil)
        let echoed = await Self.receive(automatic)
        #expect(echoed.data == Data("hello".utf8) && echoed.opcode == .text)
        try await pongs.waitFor("the first pong") { $0 == "pong p1" }
        automatic.cancel()

        // A client that does not: the ping reaches it as a message, and it answers.
        let manual = NWConnection(
            to: .url(URL(string: "ws://127.0.0.1:\(port.rawValue)/")!), using: Self.parameters(autoReplyPing: false))
        manual.start(queue: queue)
        #expect(await Self.send(manual, Data([1, 2, 3]), .binary) == nil)
        let bytes = await Self.receive(manual)
        #expect(bytes.data == Data([1, 2, 3]) && bytes.opcode == .binary)
        let ping = await Self.receive(manual)
        #expect(ping.opcode == .ping && ping.data == Data("p1".utf8))
        #expect(await Self.send(manual, ping.data, .pong) == nil)
        try await pongs.waitFor("the second pong") { $0.hasPrefix("pong") && pongs.all.count == 2 }
        manual.cancel()
    }

    @Test func additionalHeadersReachTheServerAndAWssURLNeedsTLS() async throws {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.ws("/secure") { request, _ in
            request.headers[.authorization] == "Bearer 42" ? .upgrade([:]) : .dontUpgrade
        } onUpgrade: { inbound, outbound, _ in
            for try await message in inbound.messages(maxSize: 1 << 20) {
                if case .text(let text) = message { try await outbound.write(.text("authorized " + text)) }
            }
        }
        let port = PortBox()
        let app = Application(
            router: router, server: .http1WebSocketUpgrade(webSocketRouter: router),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { await port.set($0.localAddress?.port ?? 0) })
        let server = Task { try await app.runService() }
        defer { server.cancel() }
        let bound = try await port.wait()
        let queue = DispatchQueue(label: "nw-websocket-headers")

        let parameters = Self.parameters(autoReplyPing: true)
        (parameters.webSocketOptionsForTest)?.setAdditionalHeaders([(name: "Authorization", value: "Bearer 42")])
        let connection = NWConnection(to: .url(URL(string: "ws://127.0.0.1:\(bound)/secure")!), using: parameters)
        connection.start(queue: queue)
        #expect(await Self.send(connection, Data("me".utf8), .text) == nil)
        let reply = await Self.receive(connection)
        #expect(reply.data == Data("authorized me".utf8))
        connection.cancel()

        let plain = NWConnection(
            to: .url(URL(string: "wss://127.0.0.1:\(bound)/secure")!), using: Self.parameters(autoReplyPing: true))
        let states = Recorder<NWConnection.State>()
        plain.stateUpdateHandler = { states.append($0) }
        plain.start(queue: queue)
        try await states.waitFor("the refusal") {
            if case .failed(let error) = $0 { return "\(error)".contains("asks for TLS") }
            return false
        }
        plain.cancel()
    }
}

extension NWParameters {
    /// The WebSocket options the test put in the stack.
    fileprivate var webSocketOptionsForTest: NWProtocolWebSocket.Options? {
        defaultProtocolStack.applicationProtocols.lazy.compactMap { $0 as? NWProtocolWebSocket.Options }.first
    }
}

extension WebSocketTests {
    /// A server that speaks first right after the upgrade, in the same write as its `101` (so the frame arrives in
    /// the read that completes the upgrade): our client hands the message over and then sees the server's close.
    @Test func aMessageThatArrivesWithTheUpgradeIsDelivered() async throws {
        let server = try SameWriteUpgradeServer(
            frames: SameWriteUpgradeServer.frame(opcode: 0x1, Array("first".utf8))
                + SameWriteUpgradeServer.frame(opcode: 0x8, [0x03, 0xE8]))
        let connection = NetworkConnection(
            to: .hostPort(host: "127.0.0.1", port: NWEndpoint.Port(rawValue: UInt16(server.port)))
        ) {
            WebSocket(path: "/first") { TCP() }
        }
        let (content, metadata) = try await connection.receive()
        #expect(String(decoding: content, as: UTF8.self) == "first" && metadata.opcode == .text)
        // The server's close ends the connection; the next receive says so instead of waiting.
        await #expect(throws: (any Error).self) { _ = try await connection.receive() }
        await connection.cancel()
        let frames = SameWriteUpgradeServer.clientFrames(try await onOwnThread { try server.received() })
        #expect(frames.map(\.opcode) == [0x8] && frames.first?.payload == [0x03, 0xE8])
    }
}
