import Dispatch
import Foundation
import OpenNetwork
import Testing

/// A framer written the way apps write them for Apple's Network framework: an 8-byte header (a message type and a
/// length, big-endian) before each message's body, parsed with `parseInput` and delivered with
/// `deliverInputNoCopy`; the type travels in the message's metadata.
final class EnvelopeProtocol: NWProtocolFramerImplementation {
    static let definition = NWProtocolFramer.Definition(implementation: EnvelopeProtocol.self)
    static var label: String { "Envelope" }
    static let made = Counter()
    static let freed = Counter()

    required init(framer: NWProtocolFramer.Instance) { Self.made.add() }
    deinit { Self.freed.add() }

    func start(framer: NWProtocolFramer.Instance) -> NWProtocolFramer.StartResult { .ready }
    func wakeup(framer: NWProtocolFramer.Instance) {}
    func stop(framer: NWProtocolFramer.Instance) -> Bool { true }
    func cleanup(framer: NWProtocolFramer.Instance) {}

    func handleOutput(
        framer: NWProtocolFramer.Instance, message: NWProtocolFramer.Message, messageLength: Int, isComplete: Bool
    ) {
        var header = Data()
        for value in [message.envelopeType, UInt32(messageLength)] {
            withUnsafeBytes(of: value.bigEndian) { header.append(contentsOf: $0) }
        }
        framer.writeOutput(data: header)
        do {
            try framer.writeOutputNoCopy(length: messageLength)
        } catch {
            framer.markFailed(error: error as? NWError)
        }
    }

    func handleInput(framer: NWProtocolFramer.Instance) -> Int {
        while true {
            var header: (type: UInt32, length: UInt32)?
            let parsed = framer.parseInput(minimumIncompleteLength: 8, maximumLength: 8) { buffer, _ in
                guard let buffer, buffer.count >= 8 else { return 0 }
                let bytes = [UInt8](buffer)
                func word(_ at: Int) -> UInt32 { bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
                header = (word(0), word(4))
                return 8
            }
            guard parsed, let header else { return 8 }
            let message = NWProtocolFramer.Message(envelopeType: header.type)
            if !framer.deliverInputNoCopy(length: Int(header.length), message: message, isComplete: true) {
                return 0
            }
        }
    }
}

extension NWProtocolFramer.Message {
    convenience init(envelopeType: UInt32) {
        self.init(definition: EnvelopeProtocol.definition)
        self["EnvelopeType"] = envelopeType
    }

    var envelopeType: UInt32 { self["EnvelopeType"] as? UInt32 ?? 0 }
}

/// A framer that says hello before it is ready: `start` writes "HELO" and answers `.willMarkReady`; the peer's
/// "HELO" marks it ready; after that input passes through untouched.
final class HelloProtocol: NWProtocolFramerImplementation {
    static let definition = NWProtocolFramer.Definition(implementation: HelloProtocol.self)
    static var label: String { "Hello" }

    required init(framer: NWProtocolFramer.Instance) {}
    func start(framer: NWProtocolFramer.Instance) -> NWProtocolFramer.StartResult {
        framer.writeOutput(data: Data("HELO".utf8))
        return .willMarkReady
    }
    func wakeup(framer: NWProtocolFramer.Instance) {}
    func stop(framer: NWProtocolFramer.Instance) -> Bool { true }
    func cleanup(framer: NWProtocolFramer.Instance) {}
    func handleOutput(
        framer: NWProtocolFramer.Instance, message: NWProtocolFramer.Message, messageLength: Int, isComplete: Bool
    ) {
        try? framer.writeOutputNoCopy(length: messageLength)  // `try?`: the whole message is there; it cannot throw.
    }
    func handleInput(framer: NWProtocolFramer.Instance) -> Int {
        var hello = false
        let parsed = framer.parseInput(minimumIncompleteLength: 4, maximumLength: 4) { buffer, _ in
            guard let buffer, buffer.count == 4 else { return 0 }
            hello = [UInt8](buffer) == Array("HELO".utf8)
            return hello ? 4 : 0
        }
        guard parsed else { return 4 }
        if hello {
            framer.passThroughInput()
            framer.markReady()
        } else {
            framer.markFailed(error: .malformedMessage("expected HELO"))
        }
        return 0
    }
}

/// NWProtocolFramer as apps use it, with TLS pre-shared keys (the pieces of Apple's peer-to-peer game sample), over
/// loopback: messages and their metadata both ways, large and empty ones, a handshake before ready, hostile peers, and
/// stacks Linux cannot build.
@Suite("NWProtocolFramer and TLS-PSK", .timeLimit(.minutes(1)), .serialized)
struct NWFramerTests {
    typealias Received = (data: Data?, context: NWConnection.ContentContext?, isComplete: Bool, error: NWError?)

    static func parameters(
        passcode: String? = nil, framer: NWProtocolFramer.Definition? = EnvelopeProtocol.definition
    )
        -> NWParameters
    {
        let parameters: NWParameters
        if let passcode {
            let tls = NWProtocolTLS.Options()
            let key = Data(passcode.utf8).withUnsafeBytes { DispatchData(bytes: $0) }
            let identity = Data("Orchard".utf8).withUnsafeBytes { DispatchData(bytes: $0) }
            sec_protocol_options_add_pre_shared_key(
                tls.securityProtocolOptions, key as __DispatchData, identity as __DispatchData)
            sec_protocol_options_append_tls_ciphersuite(
                tls.securityProtocolOptions, tls_ciphersuite_t(rawValue: TLS_PSK_WITH_AES_128_GCM_SHA256)!)
            parameters = NWParameters(tls: tls)
        } else {
            parameters = NWParameters.tcp
        }
        if let framer {
            parameters.defaultProtocolStack.applicationProtocols.insert(
                NWProtocolFramer.Options(definition: framer), at: 0)
        }
        return parameters
    }

    /// A listener whose connections are handed to `accepted`; returns it with its port once ready.
    static func listen(
        _ parameters: NWParameters, queue: DispatchQueue, accepted: @escaping @Sendable (NWConnection) -> Void
    ) async throws -> (NWListener, NWEndpoint.Port) {
        let listener = try NWListener(using: parameters)
        let ready = NWAPITests.Once<NWEndpoint.Port?>()
        listener.stateUpdateHandler = { [weak listener] state in
            switch state {
            case .ready: ready.resume(listener?.port)
            case .failed: ready.resume(nil)
            default: break
            }
        }
        listener.newConnectionHandler = { connection in
            connection.start(queue: queue)
            accepted(connection)
        }
        listener.start(queue: queue)
        let port = try #require(await ready.wait())
        return (listener, port)
    }

    static func receiveMessage(_ connection: NWConnection) async -> Received {
        await withCheckedContinuation { (c: CheckedContinuation<Received, Never>) in
            connection.receiveMessage { data, context, isComplete, error in
                c.resume(returning: (data, context, isComplete, error))
            }
        }
    }

    static func receive(_ connection: NWConnection, maximum: Int) async -> Received {
        await withCheckedContinuation { (c: CheckedContinuation<Received, Never>) in
            connection.receive(minimumIncompleteLength: 1, maximumLength: maximum) { data, context, isComplete, error in
                c.resume(returning: (data, context, isComplete, error))
            }
        }
    }

    static func send(_ connection: NWConnection, _ content: Data?, type: UInt32) async -> NWError? {
        await withCheckedContinuation { (c: CheckedContinuation<NWError?, Never>) in
            let message = NWProtocolFramer.Message(envelopeType: type)
            let context = NWConnection.ContentContext(identifier: "type \(type)", metadata: [message])
            connection.send(
                content: content, contentContext: context, isComplete: true,
                completion: .contentProcessed { c.resume(returning: $0) })
        }
    }

    static func envelopeType(_ received: Received) -> UInt32? {
        (received.context?.protocolMetadata(definition: EnvelopeProtocol.definition) as? NWProtocolFramer.Message)?
            .envelopeType
    }

    /// Echoes each framed message back with its type plus 100.
    static func echo(_ connection: NWConnection) {
        connection.receiveMessage { data, context, _, error in
            guard error == nil, let context,
                let message = context.protocolMetadata(definition: EnvelopeProtocol.definition)
                    as? NWProtocolFramer.Message
            else { return }
            let reply = NWProtocolFramer.Message(envelopeType: message.envelopeType + 100)
            connection.send(
                content: data, contentContext: .init(identifier: "echo", metadata: [reply]), isComplete: true,
                completion: .idempotent)
            echo(connection)
        }
    }

    static func connect(
        _ parameters: NWParameters, port: NWEndpoint.Port, queue: DispatchQueue
    ) async throws
        -> (NWConnection, Recorder<NWConnection.State>)
    {
        let connection = NWConnection(host: "127.0.0.1", port: port, using: parameters)
        let states = Recorder<NWConnection.State>()
        connection.stateUpdateHandler = { states.append($0) }
        connection.start(queue: queue)
        return (connection, states)
    }

    func roundTrips(_ parameters: @autoclosure () -> NWParameters) async throws {
        let queue = DispatchQueue(label: "framer")
        let (listener, port) = try await Self.listen(parameters(), queue: queue) { Self.echo($0) }
        defer { listener.cancel() }
        let (connection, states) = try await Self.connect(parameters(), port: port, queue: queue)
        defer { connection.cancel() }
        try await states.waitFor { $0 == .ready }

        let large = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let bodies: [(UInt32, Data?)] = [(1, Data("move 1 1".utf8)), (2, nil), (3, large), (4, Data([0]))]
        for (type, body) in bodies {
            #expect(await Self.send(connection, body, type: type) == nil)
        }
        for (type, body) in bodies {
            let reply = await Self.receiveMessage(connection)
            #expect(reply.error == nil)
            #expect(reply.isComplete)
            #expect(Self.envelopeType(reply) == type + 100)
            #expect(reply.data == (body?.isEmpty == false ? body : nil))
        }
    }

    @Test func framedMessagesCarryTheirMetadataBothWays() async throws {
        try await roundTrips(Self.parameters())
    }

    @Test func aFramerRunsOverTLSWithAPreSharedKey() async throws {
        try await roundTrips(Self.parameters(passcode: "417 305"))
    }

    @Test func aWrongPasscodeGetsNoConnectionAndNoMessage() async throws {
        let queue = DispatchQueue(label: "framer")
        let got = Recorder<Data>()
        let (listener, port) = try await Self.listen(Self.parameters(passcode: "417 305"), queue: queue) { connection in
            connection.receiveMessage { data, _, _, _ in if let data { got.append(data) } }
        }
        defer { listener.cancel() }
        let (connection, states) = try await Self.connect(
            Self.parameters(passcode: "000 000"), port: port, queue: queue)
        try await states.waitFor {
            if case .failed = $0 { return true }
            return false
        }
        #expect(!states.all.contains(.ready))
        #expect(await Self.send(connection, Data("secret".utf8), type: 1) != nil)
        try await Task.sleep(for: .milliseconds(100))
        #expect(got.all.isEmpty)
    }

    /// The last message over TLS closes only the sending side: the peer reads the end, answers, and the answer
    /// still arrives. The same through NetworkConnection's `send(_:endOfStream:)` over TCP.
    @Test func aFinalMessageHalfClosesTLSAndTCP() async throws {
        let queue = DispatchQueue(label: "framer")
        let answer: @Sendable (NWConnection) -> Void = { connection in
            connection.receiveMessage { data, _, isComplete, _ in
                let reply = Data("got \(data?.count ?? 0) bytes, complete \(isComplete)".utf8)
                connection.send(content: reply, contentContext: .finalMessage, completion: .idempotent)
            }
        }
        let psk = Self.parameters(passcode: "half", framer: nil)
        let (tlsListener, tlsPort) = try await Self.listen(psk, queue: queue, accepted: answer)
        defer { tlsListener.cancel() }
        let (connection, states) = try await Self.connect(
            Self.parameters(passcode: "half", framer: nil), port: tlsPort, queue: queue)
        defer { connection.cancel() }
        try await states.waitFor { $0 == .ready }
        connection.send(content: Data("question".utf8), contentContext: .finalMessage, completion: .idempotent)
        let reply = await Self.receiveMessage(connection)
        #expect(reply.data.map { String(decoding: $0, as: UTF8.self) } == "got 8 bytes, complete true")

        let (tcpListener, tcpPort) = try await Self.listen(.tcp, queue: queue, accepted: answer)
        defer { tcpListener.cancel() }
        let stream = NetworkConnection(to: .hostPort(host: "127.0.0.1", port: tcpPort)) { TCP() }
        try await stream.send(Data("question?".utf8), endOfStream: true)
        let (content, _) = try await stream.receive(atLeast: 1, atMost: 100)
        #expect(String(decoding: content, as: UTF8.self) == "got 9 bytes, complete true")
        await #expect(throws: NWError.self) { try await stream.send(Data("more".utf8)) }
        await stream.cancel()
    }

    @Test func aHandshakingFramerMakesTheConnectionReadyOnlyAfterItsHello() async throws {
        let queue = DispatchQueue(label: "framer")
        let parameters = { Self.parameters(framer: HelloProtocol.definition) }
        let (listener, port) = try await Self.listen(parameters(), queue: queue) { connection in
            connection.receive(minimumIncompleteLength: 1, maximumLength: 100) { data, _, _, _ in
                connection.send(content: data, completion: .idempotent)
            }
        }
        defer { listener.cancel() }
        let (connection, states) = try await Self.connect(parameters(), port: port, queue: queue)
        defer { connection.cancel() }
        try await states.waitFor { $0 == .ready }
        #expect(states.all.firstIndex(of: .preparing) ?? 0 < states.all.firstIndex(of: .ready) ?? 0)
        connection.send(content: Data("after hello".utf8), completion: .idempotent)
        let echoed = await Self.receive(connection, maximum: 100)
        #expect(echoed.data == Data("after hello".utf8))

        // A plain TCP peer that answers the framer's hello with something else: the framed side fails that
        // connection, and the peer gets nothing of the app's.
        let plain = NWConnection(host: "127.0.0.1", port: port, using: .tcp)
        plain.start(queue: queue)
        let hello = await Self.receive(plain, maximum: 4)
        #expect(hello.data == Data("HELO".utf8))
        plain.send(content: Data("NOPE".utf8), completion: .idempotent)
        let after = await Self.receive(plain, maximum: 100)
        #expect(after.data == nil)
        plain.cancel()
    }

    @Test func aMessageLongerThanTheReceiveMaximumComesInParts() async throws {
        let queue = DispatchQueue(label: "framer")
        let (listener, port) = try await Self.listen(Self.parameters(), queue: queue) { Self.echo($0) }
        defer { listener.cancel() }
        let (connection, states) = try await Self.connect(Self.parameters(), port: port, queue: queue)
        defer { connection.cancel() }
        try await states.waitFor { $0 == .ready }
        #expect(await Self.send(connection, Data("abcdefghij".utf8), type: 7) == nil)
        let first = await Self.receive(connection, maximum: 4)
        let second = await Self.receive(connection, maximum: 100)
        #expect(first.data == Data("abcd".utf8) && !first.isComplete && Self.envelopeType(first) == 107)
        #expect(second.data == Data("efghij".utf8) && second.isComplete && Self.envelopeType(second) == 107)
    }

    /// A raw TCP peer speaks to a framed listener as an attacker would: a header announcing 4 GiB, and a message
    /// cut off by the peer's close. Each fails that connection with an error naming it; nothing is delivered.
    @Test func hostileFramesFailTheirConnectionWithAReason() async throws {
        let queue = DispatchQueue(label: "framer")
        let results = Recorder<Received>()
        let (listener, port) = try await Self.listen(Self.parameters(), queue: queue) { connection in
            connection.receiveMessage { results.append(($0, $1, $2, $3)) }
        }
        defer { listener.cancel() }

        let huge = NWConnection(host: "127.0.0.1", port: port, using: .tcp)
        huge.start(queue: queue)
        huge.send(content: Data([0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF]), completion: .idempotent)
        try await results.waitFor("a refusal") { $0.error != nil }
        #expect(results.all.first?.error == .messageTooLarge(length: 0xFFFF_FFFF, limit: 16 << 20))
        huge.cancel()

        let cut = NWConnection(host: "127.0.0.1", port: port, using: .tcp)
        cut.start(queue: queue)
        cut.send(
            content: Data([0, 0, 0, 1, 0, 0, 0, 10]) + Data("abc".utf8), contentContext: .finalMessage,
            completion: .idempotent)
        try await results.waitFor("a second refusal") { $0.error.map { "\($0)".contains("middle of") } ?? false }
        #expect(results.all.allSatisfy { $0.data == nil })
        cut.cancel()
    }

    @Test func stacksLinuxCannotBuildFailWithTheReason() async throws {
        let queue = DispatchQueue(label: "framer")
        let udp = NWParameters.udp
        udp.defaultProtocolStack.applicationProtocols.insert(
            NWProtocolFramer.Options(definition: EnvelopeProtocol.definition), at: 0)
        let (connection, states) = try await Self.connect(udp, port: 9, queue: queue)
        try await states.waitFor {
            if case .failed(let e) = $0 { return "\(e)".contains("framer over UDP") }
            return false
        }
        connection.cancel()
        #expect(throws: NWError.self) { try NWListener(using: udp) }  // The framer over UDP, not UDP itself.

        let under = Self.parameters(passcode: "1")
        let framer = under.defaultProtocolStack.applicationProtocols.removeFirst()
        under.defaultProtocolStack.applicationProtocols.append(framer)
        let refused = (try? NWListener(using: under)) == nil  // `try?`: only whether it threw matters here.
        #expect(refused)

        let tls = NWProtocolTLS.Options()
        sec_protocol_options_append_tls_ciphersuite(tls.securityProtocolOptions, tls_ciphersuite_t(rawValue: 0x0001)!)
        let (weak, weakStates) = try await Self.connect(NWParameters(tls: tls), port: 9, queue: queue)
        try await weakStates.waitFor {
            if case .failed(let e) = $0 { return "\(e)".contains("cipher suite 0x1") }
            return false
        }
        weak.cancel()
    }

    /// Every framer implementation made for a connection is freed when the connection ends.
    @Test func framerImplementationsAreFreedWithTheirConnections() async throws {
        let before = (EnvelopeProtocol.made.value, EnvelopeProtocol.freed.value)
        try await roundTrips(Self.parameters())
        try await roundTrips(Self.parameters())
        let deadline = ContinuousClock.now + .seconds(10)
        while EnvelopeProtocol.freed.value - before.1 < EnvelopeProtocol.made.value - before.0,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(EnvelopeProtocol.made.value - before.0 == 4)
        #expect(EnvelopeProtocol.freed.value - before.1 == 4)
    }
}
