import Foundation
import OpenNetwork
import Testing

/// receive(exactly:), receive(atLeast:atMost:) and receive(as:) on byte streams.
@Suite("Receive forms", .timeLimit(.minutes(1)))
struct ReceiveFormTests {
    /// A listener that sends `bytes` in one write and closes.
    func withSender(_ bytes: [UInt8], _ body: (NetworkConnection<TCP>) async throws -> Void) async throws {
        let listener = NetworkListener(for: local(.any), using: { TCP() })
        try await withListener(listener, handler: { c in try await c.send(Data(bytes)) }) { port async throws in
            try await body(NetworkConnection(to: local(port)) { TCP() })
        }
    }

    @Test func integersAreBigEndian() async throws {
        let bytes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0xAB, 0xCD, 0xFF, 0, 0, 0, 0, 0, 0, 0x01, 0x05,
                              0xFF, 0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0]
        try await withSender(bytes) { c async throws in
            #expect(try await c.receive(as: UInt32.self).content == 0x0102_0304)
            #expect(try await c.receive(as: UInt16.self).content == 0xABCD)
            #expect(try await c.receive(as: Int8.self).content == -1)
            #expect(try await c.receive(as: UInt64.self).content == 0x0105)
            #expect(try await c.receive(as: Int16.self).content == -2)
            #expect(try await c.receive(as: Int64.self).content == Int64.min)
        }
    }

    @Test func exactlyReturnsTheRequestedCount() async throws {
        try await withSender(Array("hello, world".utf8)) { c async throws in
            let first = try await c.receive(exactly: 5)
            #expect(first.content == Data("hello".utf8))
            #expect(first.metadata.isComplete == false)
            #expect(try await c.receive(exactly: 2).content == Data(", ".utf8))
            #expect(try await c.receive(exactly: 5).content == Data("world".utf8))
        }
    }

    @Test func exactlyThrowsWhenThePeerClosesEarly() async throws {
        try await withSender([1, 2, 3]) { c async throws in
            await #expect(throws: NWError.connectionClosed) { try await c.receive(exactly: 4) }
        }
    }

    @Test func atLeastAtMostBoundsTheChunk() async throws {
        let payload = Array(0..<200).map { UInt8($0) }
        try await withSender(payload) { c async throws in
            var received: [UInt8] = []
            var remaining = payload.count
            while remaining > 0 {
                let chunk = try await c.receive(atLeast: 1, atMost: min(remaining, 64)).content
                #expect(chunk.count >= 1 && chunk.count <= 64)
                received += chunk
                remaining -= chunk.count
            }
            #expect(received == payload)
        }
    }

    @Test func atLeastWaitsForTheMinimum() async throws {
        let listener = NetworkListener(for: local(.any), using: { TCP() })
        try await withListener(listener, handler: { c in
            for b in [UInt8](1...6) {
                try await c.send(Data([b]))
                try await Task.sleep(for: .milliseconds(2))
            }
        }) { port async throws in
            let c = NetworkConnection(to: local(port)) { TCP() }
            let chunk = try await c.receive(atLeast: 4, atMost: 100).content
            #expect(chunk.count >= 4)
            #expect(Array(chunk) == Array([UInt8](1...6).prefix(chunk.count)))
        }
    }

    @Test func atLeastReturnsTheRestWhenThePeerFinishes() async throws {
        try await withSender([9, 8, 7]) { c async throws in
            let last = try await c.receive(atLeast: 10, atMost: 10)
            #expect(last.content == Data([9, 8, 7]))
            #expect(last.metadata.isComplete)
            await #expect(throws: NWError.connectionClosed) { try await c.receive(atLeast: 1, atMost: 10) }
        }
    }

    @Test func imageStyleLengthPrefixedRead() async throws {
        // The seed's pattern: a UInt32 length, then chunks until that many bytes arrived.
        let image = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let n = UInt32(image.count)
        let header: [UInt8] = [UInt8(n >> 24), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)]
        try await withSender(header + image) { c async throws in
            let remaining32 = try await c.receive(as: UInt32.self).content
            var remaining = Int(remaining32)
            var got: [UInt8] = []
            while remaining > 0 {
                let chunk = try await c.receive(atLeast: 1, atMost: remaining).content
                remaining -= chunk.count
                got += chunk
            }
            #expect(got == image)
        }
    }
}
