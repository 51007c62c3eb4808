import Foundation
@testable import OpenNetwork
import Testing

/// Backpressure, cancellation of a connection mid-transfer, Happy Eyeballs, task-scoped lifetime.
@Suite("Flow control and cancellation", .timeLimit(.minutes(1)))
struct FlowControlTests {
    @Test func sendWaitsUntilTheTransportTakesTheBytes() async throws {
        let chunk = 1 << 20
        let total = 256
        let readNow = Recorder<Bool>()
        let received = Counter()
        let listener = NetworkListener(for: local(.any), using: { TCP() })
        try await withListener(listener, handler: { c in
            // Read nothing until told to.
            try await readNow.waitFor("go", timeout: .seconds(50)) { $0 }
            while received.value < chunk * total {
                received.add(try await c.receive(atLeast: 1, atMost: 1 << 20).content.count)
            }
        }) { port async throws in
            let sent = Counter()
            let c = NetworkConnection(to: local(port)) { TCP() }
            let sender = Task {
                let data = Data(count: chunk)
                for _ in 0..<total {
                    try await c.send(data)
                    sent.add()
                }
            }
            // Let the sender run until it stalls (no progress for a while).
            var last = -1
            while sent.value != last {
                last = sent.value
                try await Task.sleep(for: .milliseconds(300))
            }
            // The peer reads nothing: only what fits in socket buffers and the small in-flight
            // window was taken, far from the 256 MiB the sender wanted to push.
            #expect(sent.value * chunk < 64 << 20, "sent \(sent.value) MiB while the peer read nothing")
            readNow.append(true)
            try await sender.value
            #expect(sent.value == total)
            try await readNow.waitFor { _ in received.value == chunk * total }
        }
    }

    @Test func cancellingTheTaskCancelsTheConnectionMidTransfer() async throws {
        let serverError = Recorder<String>()
        let listener = NetworkListener(for: local(.any), using: { TCP() })
        try await withListener(listener, handler: { c in
            do {
                while true { try await c.send(Data(count: 64 * 1024)) }
            } catch {
                serverError.append("\(error)")
            }
        }) { port async throws in
            let c = NetworkConnection(to: local(port)) { TCP() }
            let got = Counter()
            let reader = Task {
                while true { got.add(try await c.receive(atLeast: 1, atMost: 65536).content.count) }
            }
            while got.value < 1 << 20 { try await Task.sleep(for: .milliseconds(5)) }
            reader.cancel()
            let result = await reader.result
            #expect(throws: NWError.cancelled) { try result.get() }
            #expect(await c.state == .cancelled)
            await #expect(throws: NWError.cancelled) { try await c.send(Data([1])) }
            // The server's sends fail once the connection is gone.
            try await serverError.waitFor("server failure") { _ in true }
        }
    }

    @Test func connectionLivesInItsTask() async throws {
        let closed = Recorder<Bool>()
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP() } })
        try await withListener(listener, handler: { c in
            do { for try await _ in c.messages {} } catch {}
            closed.append(true)
        }) { port async throws in
            let task = Task {
                let c = NetworkConnection(to: local(port)) { TLV { TCP() } }
                try await c.send(Data("hello".utf8), type: 1)
                _ = try await c.receive()   // never answered
            }
            try await Task.sleep(for: .milliseconds(50))
            task.cancel()
            _ = await task.result
            // The server sees the connection end once its task is cancelled.
            try await closed.waitFor("server saw the close") { $0 }
        }
    }

    @Test func hostNameResolvesAndConnects() async throws {
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP() } })
        try await withListener(listener, handler: { c in
            let m = try await c.receive()
            try await c.send(m.content, type: 1)
        }) { port async throws in
            let c = NetworkConnection(to: .hostPort(host: "localhost", port: port)) { TLV { TCP() } }
            try await c.send(Data("by name".utf8), type: 1)
            #expect(try await c.receive().content == Data("by name".utf8))
            #expect(await c.remoteAddress?.contains("127.0.0.1") == true)
        }
    }

    @Test func happyEyeballsFallsBackAcrossFamilies() async throws {
        // ::1 refuses (nothing listens there), 127.0.0.1 accepts: the race ends on IPv4.
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP() } })
        try await withListener(listener, handler: { c in
            let m = try await c.receive()
            try await c.send(m.content, type: 2)
        }) { port async throws in
            let addresses = ["::1", "127.0.0.1"]
            let c = NetworkConnection(to: .hostPort(host: "dual.test", port: port),
                                      using: .parameters { TLV { TCP() } }.resolvedAddresses(addresses))
            try await c.send(Data("race".utf8), type: 1)
            #expect(try await c.receive().metadata.type == 2)
            #expect(await c.remoteAddress?.contains("127.0.0.1") == true)
        }
    }

    @Test func happyEyeballsPrefersIPv6WhenBothWork() async throws {
        let listener = NetworkListener(for: .hostPort(host: "::", port: .any), using: { TLV { TCP() } })
        try await withListener(listener, handler: { c in
            let m = try await c.receive()
            try await c.send(m.content, type: 2)
        }) { port async throws in
            let addresses = ["127.0.0.1", "::1"]
            let c = NetworkConnection(to: .hostPort(host: "dual.test", port: port),
                                      using: .parameters { TLV { TCP() } }.resolvedAddresses(addresses))
            try await c.send(Data("race".utf8), type: 1)
            #expect(try await c.receive().metadata.type == 2)
            #expect(await c.remoteAddress?.contains("::1") == true)
        }
    }

    @Test func unknownHostWaitsWithADNSError() async throws {
        let states = Recorder<NetworkConnection<TCP>.State>()
        let c = NetworkConnection(to: .hostPort(host: "no-such-host.invalid", port: 1)) {
            TCP().connectionTimeout(.seconds(5))
        }.onStateUpdate { _, s in states.append(s) }
        let task = Task { try await c.send(Data([1])) }
        try await states.waitFor("waiting") { if case .waiting(.dns) = $0 { true } else { false } }
        task.cancel()
        _ = await task.result
    }
}
