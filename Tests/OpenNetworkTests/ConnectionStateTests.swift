import Foundation
import OpenNetwork
import Testing

/// Every state transition of NetworkConnection, seen through onStateUpdate.
@Suite("Connection states", .timeLimit(.minutes(1)))
struct ConnectionStateTests {
    @Test func setupPreparingReadyCancelled() async throws {
        let listener = NetworkListener(for: local(.any), using: { TCP() })
        try await withListener(listener, handler: { c in _ = try? await c.receive(exactly: 1) }) { port async throws in
            let states = Recorder<NetworkConnection<TCP>.State>()
            let connection = NetworkConnection(to: local(port)) { TCP() }
                .onStateUpdate { _, state in states.append(state) }
            #expect(await connection.state == .setup)
            try await connection.send(Data([1]))
            #expect(await connection.state == .ready)
            await connection.cancel()
            #expect(await connection.state == .cancelled)
            #expect(states.all == [.preparing, .ready, .cancelled])
        }
    }

    @Test func waitingWhileUnreachableThenReadyWhenThePeerAppears() async throws {
        let port = try await unusedPort()
        let states = Recorder<NetworkConnection<TLV>.State>()
        let connection = NetworkConnection(to: local(port)) { TLV { TCP() } }
            .onStateUpdate { _, state in states.append(state) }
        // receive before the connection can be ready: it waits for it.
        let reply = Task { try await connection.receive() }
        try await states.waitFor("waiting") { if case .waiting = $0 { true } else { false } }
        guard case .waiting(let why) = states.all.first(where: { if case .waiting = $0 { true } else { false } }) else {
            Issue.record("no waiting state"); return
        }
        #expect(why == .connectionRefused)
        let listener = NetworkListener(for: local(port), using: { TLV { TCP() } })
        try await withListener(listener, handler: { c in try await c.send(Data("hi".utf8), type: 3) }) { _ async throws in
            let message = try await reply.value
            #expect(message.content == Data("hi".utf8))
            #expect(message.metadata.type == 3)
        }
        let seen = states.all
        #expect(seen.first == .preparing)
        #expect(seen.last == .ready)
        // waiting is always followed by a retry (preparing), never straight to ready
        for (i, s) in seen.enumerated() where { if case .waiting = s { true } else { false } }() {
            #expect(seen[i + 1] == .preparing)
        }
    }

    @Test func cancellingTheTaskWhileWaitingCancelsTheConnection() async throws {
        let port = try await unusedPort()
        let states = Recorder<NetworkConnection<TCP>.State>()
        let connection = NetworkConnection(to: local(port)) { TCP() }
            .onStateUpdate { _, state in states.append(state) }
        let task = Task { try await connection.receive(exactly: 4) }
        try await states.waitFor("waiting") { if case .waiting = $0 { true } else { false } }
        task.cancel()
        let result = await task.result
        #expect(throws: NWError.cancelled) { try result.get() }
        #expect(await connection.state == .cancelled)
        #expect(states.all.last == .cancelled)
    }

    @Test func connectionTimeoutWhileWaitingFails() async throws {
        let port = try await unusedPort()
        let states = Recorder<NetworkConnection<TCP>.State>()
        let connection = NetworkConnection(to: local(port)) { TCP().connectionTimeout(.milliseconds(300)) }
            .onStateUpdate { _, state in states.append(state) }
        await #expect(throws: NWError.timedOut) { try await connection.send(Data([1])) }
        #expect(await connection.state == .failed(.timedOut))
        #expect(states.all.contains { if case .waiting = $0 { true } else { false } })
    }

    @Test func readyThenFailedWhenThePeerBreaksTheProtocol() async throws {
        let listener = NetworkListener(for: local(.any), using: { TCP() })
        // The peer announces a 1 GiB TLV frame: above the 16 MiB default.
        try await withListener(listener, handler: { c in
            try await c.send(Data(tlvFrame(type: 1, []).prefix(4) + [0x40, 0, 0, 0]))
            _ = try? await c.receive(exactly: 1)
        }) { port async throws in
            let states = Recorder<NetworkConnection<TLV>.State>()
            let connection = NetworkConnection(to: local(port)) { TLV { TCP() } }
                .onStateUpdate { _, state in states.append(state) }
            await #expect(throws: NWError.messageTooLarge(length: 1 << 30, limit: 16 << 20)) {
                try await connection.receive()
            }
            #expect(states.all == [.preparing, .ready, .failed(.messageTooLarge(length: 1 << 30, limit: 16 << 20))])
            // a failed connection stays failed
            await #expect(throws: NWError.messageTooLarge(length: 1 << 30, limit: 16 << 20)) {
                try await connection.send(Data([1]), type: 1)
            }
        }
    }

    @Test func refusedWithoutRetryIsReportedAsWaitingNotFailed() async throws {
        // NWConnection semantics: an unreachable peer is not fatal; only a timeout or cancel ends it.
        let port = try await unusedPort()
        let connection = NetworkConnection(to: local(port)) { TCP() }
        await connection.start()
        let states = Recorder<NetworkConnection<TCP>.State>()
        connection.onStateUpdate { _, s in states.append(s) }
        try await states.waitFor("retry") { $0 == .preparing }
        if case .failed = await connection.state { Issue.record("refused must not fail the connection") }
        await connection.cancel()
        #expect(await connection.state == .cancelled)
    }
}
