import Foundation
import OpenNetwork
import Testing

/// TLV and Coder round trips, partial and coalesced reads, limits, malformed frames, decode failures.
@Suite("Framing", .timeLimit(.minutes(1)))
struct FramingTests {
    enum Request: Codable, Sendable, Equatable {
        case add(Int, Int)
        case quit
    }
    struct Response: Codable, Sendable, Equatable { var sum: Int }

    /// A raw TCP peer that runs `script` on the accepted connection; `body` gets the port.
    func withRawPeer(
        _ script: @escaping @Sendable (NetworkConnection<TCP>) async throws -> Void,
        _ body: (NWEndpoint.Port) async throws -> Void
    ) async throws {
        let listener = NetworkListener(for: local(.any), using: { TCP() })
        try await withListener(listener, handler: script, body: body)
    }

    @Test func tlvRoundTripAndMessagesSequence() async throws {
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP() } })
        try await withListener(
            listener,
            handler: { c in
                for try await (content, metadata) in c.messages {
                    try await c.send(content + content, type: metadata.type * 10)
                }
            }
        ) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TCP() } }
            for (i, text) in ["a", "", "tic-tac-toe", String(repeating: "x", count: 70_000)].enumerated() {
                try await c.send(Data(text.utf8), type: i)
                let (content, metadata) = try await c.receive()
                #expect(content == Data((text + text).utf8))
                #expect(metadata.type == i * 10)
            }
        }
    }

    @Test func tlvOtherWidthsOnTheWire() async throws {
        let wire = Recorder<[UInt8]>()
        try await withRawPeer({ c in
            wire.append(Array(try await c.receive(exactly: 3 + 5).content))
            try await c.send(Data([7, 0, 2, 0x68, 0x69]))
        }) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV(type: UInt8.self, length: UInt16.self) { TCP() } }
            try await c.send(Data("hello".utf8), type: 200)
            let reply = try await c.receive()
            #expect(reply.metadata.type == 7)
            #expect(reply.content == Data("hi".utf8))
            #expect(wire.all == [[200, 0, 5] + Array("hello".utf8)])
            await #expect(throws: NWError.malformedMessage("type 256 does not fit in 1 byte(s)")) {
                try await c.send(Data(), type: 256)
            }
        }
    }

    @Test func tlvMessagesEndWhenThePeerClosesAtABoundary() async throws {
        try await withRawPeer({ c in
            try await c.send(Data(tlvFrame(type: 1, [1]) + tlvFrame(type: 2, [2, 2])))
        }) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TCP() } }
            var types: [Int] = []
            for try await message in c.messages { types.append(message.metadata.type) }
            #expect(types == [1, 2])
        }
    }

    @Test func tlvMessagesThrowWhenThePeerClosesMidFrame() async throws {
        try await withRawPeer({ c in
            try await c.send(Data(tlvFrame(type: 1, [1, 2, 3]).dropLast()))
        }) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TCP() } }
            await #expect(throws: NWError.connectionClosed) {
                for try await _ in c.messages {}
            }
        }
    }

    @Test func partialReadsSplitAtEveryPosition() async throws {
        let frames = (0..<6).map { i in tlvFrame(type: UInt32(i), Array("frame \(i)".utf8)) }
        let stream = frames.flatMap { $0 }
        try await withRawPeer({ c in
            // For every split position of the whole stream: two writes with a pause between.
            for cut in 1..<stream.count {
                try await c.send(Data(stream[..<cut]))
                try await Task.sleep(for: .milliseconds(1))
                try await c.send(Data(stream[cut...]))
            }
        }) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TCP() } }
            for _ in 1..<stream.count {
                for i in 0..<6 {
                    let m = try await c.receive()
                    #expect(m.metadata.type == i)
                    #expect(m.content == Data("frame \(i)".utf8))
                }
            }
        }
    }

    @Test func oneByteAtATime() async throws {
        let frame = tlvFrame(type: 0xDEAD_BEEF, Array("slow".utf8))
        try await withRawPeer({ c in
            for b in frame { try await c.send(Data([b])) }
        }) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TCP() } }
            let m = try await c.receive()
            #expect(m.metadata.type == 0xDEAD_BEEF)
            #expect(m.content == Data("slow".utf8))
        }
    }

    @Test func coalescedFramesInOneWrite() async throws {
        let many = (0..<50).flatMap { i in tlvFrame(type: UInt32(i), [UInt8](repeating: UInt8(i), count: i)) }
        try await withRawPeer({ c in try await c.send(Data(many)) }) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TCP() } }
            for i in 0..<50 {
                let m = try await c.receive()
                #expect(m.metadata.type == i)
                #expect(m.content == Data(repeating: UInt8(i), count: i))
            }
        }
    }

    @Test func largeMessagesAboveTheReadBuffer() async throws {
        let big = Data((0..<(5 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP() } })
        try await withListener(
            listener,
            handler: { c in
                let m = try await c.receive()
                try await c.send(m.content, type: m.content.count)
            }
        ) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TCP() } }
            try await c.send(big, type: 1)
            let echo = try await c.receive()
            #expect(echo.metadata.type == big.count)
            #expect(echo.content == big)
        }
    }

    @Test func oversizeFrameRejectedBeforeReadingIt() async throws {
        try await withRawPeer({ c in
            try await c.send(
                Data(
                    tlvFrame(type: 1, [UInt8](repeating: 0, count: 16))
                        + tlvFrame(type: 2, [UInt8](repeating: 0, count: 17))))
            _ = try? await c.receive(exactly: 1)
        }) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TCP() }.maximumMessageSize(16) }
            #expect(try await c.receive().content.count == 16)
            await #expect(throws: NWError.messageTooLarge(length: 17, limit: 16)) { try await c.receive() }
            #expect(await c.state == .failed(.messageTooLarge(length: 17, limit: 16)))
        }
    }

    @Test func sendingAboveTheLimitThrowsAndSendsNothing() async throws {
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP() }.maximumMessageSize(8) })
        try await withListener(
            listener,
            handler: { c in
                let m = try await c.receive()
                try await c.send(m.content, type: 99)
            }
        ) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TCP() }.maximumMessageSize(8) }
            await #expect(throws: NWError.messageTooLarge(length: 9, limit: 8)) {
                try await c.send(Data(count: 9), type: 1)
            }
            try await c.send(Data(count: 8), type: 1)
            #expect(try await c.receive().metadata.type == 99)
        }
    }

    @Test func typeBeyondIntIsMalformed() async throws {
        try await withRawPeer({ c in
            try await c.send(Data([0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]))
            _ = try? await c.receive(exactly: 1)
        }) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV(type: UInt64.self, length: UInt32.self) { TCP() } }
            await #expect(throws: NWError.malformedMessage("type 18374686479671623680 does not fit in Int")) {
                try await c.receive()
            }
        }
    }

    /// Twenty values there and back with `coder` on both sides.
    func roundTrip<C: NetworkCoder>(_ coder: C) async throws {
        let listener = NetworkListener(for: local(.any), using: { Coder(Ping.self, using: coder) { TCP() } })
        try await withListener(
            listener,
            handler: { c in
                for try await (ping, metadata) in c.messages {
                    #expect(metadata.encodedSize > 0)
                    try await c.send(Ping(text: ping.text.uppercased(), number: ping.number + 1))
                }
            }
        ) { port async throws in
            let c = NetworkConnection(to: local(port)) { Coder(Ping.self, using: coder) { TCP() } }
            for n in 0..<20 {
                try await c.send(Ping(text: "tic \(n) 🐨", number: n))
                #expect(try await c.receive().content == Ping(text: "TIC \(n) 🐨", number: n + 1))
            }
        }
    }

    @Test func coderRoundTripsWithApplesCoders() async throws {
        try await roundTrip(.json)
        try await roundTrip(.propertyList)
        try await roundTrip(NetworkPropertyListCoder(outputFormat: .xml))
        try await roundTrip(NetworkJSONCoder(encoder: { $0.outputFormatting = .sortedKeys }))
    }

    /// An app's own format: JSON with every byte inverted (what matters is that it is not one of ours).
    struct InvertedJSONCoder: NetworkCoder {
        func encode<T: Encodable>(_ value: T) throws -> Data { Data(try JSONEncoder().encode(value).map { ~$0 }) }
        func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
            try JSONDecoder().decode(type, from: Data(data.map { ~$0 }))
        }
    }

    @Test func coderTakesAnAppsOwnNetworkCoder() async throws {
        try await roundTrip(InvertedJSONCoder())
        // The connection's type names the coder, as Apple's `Coder<Sending, Receiving, CoderType>` does.
        let _: NetworkConnection<Coder<Ping, Ping, InvertedJSONCoder>> = NetworkConnection(to: local(1)) {
            Coder(Ping.self, using: InvertedJSONCoder()) { TCP() }
        }
    }

    @Test func coderSendingReceivingDifferentTypes() async throws {
        let listener = NetworkListener(
            for: local(.any),
            using: {
                Coder(sending: Response.self, receiving: Request.self, using: .json) { TCP() }
            })
        try await withListener(
            listener,
            handler: { c in
                loop: for try await (request, _) in c.messages {
                    switch request {
                    case .add(let a, let b): try await c.send(Response(sum: a + b))
                    case .quit: break loop
                    }
                }
            }
        ) { port async throws in
            let c = NetworkConnection(to: local(port)) {
                Coder(sending: Request.self, receiving: Response.self, using: .json) { TCP() }
            }
            try await c.send(.add(2, 3))
            #expect(try await c.receive().content == Response(sum: 5))
            try await c.send(.add(-7, 7))
            #expect(try await c.receive().content.sum == 0)
            try await c.send(.quit)
        }
    }

    @Test func coderWireFormatIsLengthThenJSON() async throws {
        let wire = Recorder<[UInt8]>()
        try await withRawPeer({ c in
            let n = try await c.receive(as: UInt32.self).content
            wire.append(Array(try await c.receive(exactly: Int(n)).content))
            let reply = Array(#"{"text":"ok","number":2}"#.utf8)
            try await c.send(Data([0, 0, 0, UInt8(reply.count)] + reply))
        }) { port async throws in
            let c = NetworkConnection(to: local(port)) { Coder(Ping.self, using: .json) { TCP() } }
            try await c.send(Ping(text: "hi", number: 1))
            #expect(try await c.receive().content == Ping(text: "ok", number: 2))
            let sent = try JSONDecoder().decode(Ping.self, from: Data(wire.all[0]))
            #expect(sent == Ping(text: "hi", number: 1))
        }
    }

    @Test func coderDecodeFailureLeavesTheConnectionUsable() async throws {
        try await withRawPeer({ c in
            for body in [
                Array("not json".utf8), Array(#"{"text":"x"}"#.utf8), Array(#"{"text":"ok","number":1}"#.utf8),
            ] {
                try await c.send(Data([0, 0, 0, UInt8(body.count)] + body))
            }
            _ = try? await c.receive(exactly: 1)
        }) { port async throws in
            let c = NetworkConnection(to: local(port)) { Coder(Ping.self, using: .json) { TCP() } }
            for _ in 0..<2 {
                do {
                    _ = try await c.receive()
                    Issue.record("decoding garbage must throw")
                } catch let NWError.decodingFailed(why) {
                    #expect(why.contains("Ping"))
                }
            }
            #expect(try await c.receive().content == Ping(text: "ok", number: 1))
            #expect(await c.state == .ready)
        }
    }

    @Test func coderPartialAndCoalesced() async throws {
        let bodies: [[UInt8]] = (0..<4).map { Array(#"{"text":"m\#($0)","number":\#($0)}"#.utf8) }
        let stream: [UInt8] = bodies.flatMap { body -> [UInt8] in [0, 0, 0, UInt8(body.count)] + body }
        try await withRawPeer({ c in
            for cut in stride(from: 1, to: stream.count, by: 3) {
                try await c.send(Data(stream[..<cut]))
                try await Task.sleep(for: .milliseconds(1))
                try await c.send(Data(stream[cut...]))
            }
        }) { port async throws in
            let c = NetworkConnection(to: local(port)) { Coder(Ping.self, using: .json) { TCP() } }
            for _ in stride(from: 1, to: stream.count, by: 3) {
                for i in 0..<4 { #expect(try await c.receive().content == Ping(text: "m\(i)", number: i)) }
            }
        }
    }

    @Test func coderOversizeFrame() async throws {
        try await withRawPeer({ c in
            try await c.send(Data([0xFF, 0xFF, 0xFF, 0xFF]))
            _ = try? await c.receive(exactly: 1)
        }) { port async throws in
            let c = NetworkConnection(to: local(port)) { Coder(Ping.self, using: .json) { TCP() } }
            await #expect(throws: NWError.messageTooLarge(length: 0xFFFF_FFFF, limit: 16 << 20)) {
                try await c.receive()
            }
        }
    }

    // MARK: FrameDecoder, the pure decoder the fuzz target drives

    @Test func decoderSplitsAtEveryPosition() throws {
        let stream = (0..<5).flatMap { tlvFrame(type: UInt32($0), Array(repeating: UInt8($0), count: $0 * 3)) }
        for cut in 0...stream.count {
            var d = FrameDecoder(typeWidth: 4, lengthWidth: 4, limit: 1 << 20)
            var got: [(Int, [UInt8])] = []
            for part in [stream[..<cut], stream[cut...]] {
                d.append(part)
                while let f = try d.next() { got.append(f) }
            }
            #expect(got.map(\.0) == [0, 1, 2, 3, 4])
            #expect(got.map(\.1) == (0..<5).map { Array(repeating: UInt8($0), count: $0 * 3) })
            #expect(d.bufferedByteCount == 0)
        }
    }

    @Test func decoderRejectsOversizeFromTheHeaderAlone() {
        var d = FrameDecoder(typeWidth: 0, lengthWidth: 4, limit: 100)
        d.append([0, 0, 0, 101])
        #expect(throws: FrameError.tooLarge(length: 101, limit: 100)) { try d.next() }
    }
}
