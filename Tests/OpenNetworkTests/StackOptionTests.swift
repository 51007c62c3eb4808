import Foundation
import Testing

@testable import OpenNetwork

#if canImport(Glibc)
    import Glibc
#endif

/// The stack's option modifiers reach the sockets, on connections and on the connections a listener
/// accepts; IP version picks the address family; the seed's `.parameters { }` form works.
@Suite("Stack options", .timeLimit(.minutes(1)))
struct StackOptionTests {
    static let tcp = Int32(IPPROTO_TCP), ip = Int32(IPPROTO_IP)

    /// TCP_NODELAY, SO_KEEPALIVE and IP_MTU_DISCOVER of a ready connection's socket.
    static func options<P>(_ c: NetworkConnection<P>) async throws -> [Int32?] {
        [
            try await c.core.socketOption(level: tcp, name: Int32(TCP_NODELAY)),
            try await c.core.socketOption(level: Int32(SOL_SOCKET), name: Int32(SO_KEEPALIVE)),
            try await c.core.socketOption(level: ip, name: Int32(IP_MTU_DISCOVER)),
        ]
    }

    @Test func defaultsAndModifiersOnTheClientSocket() async throws {
        let listener = NetworkListener(for: local(.any), using: { TCP() })
        try await withListener(listener, handler: { c in _ = try? await c.receive(exactly: 1 << 20) }) {
            port async throws in
            let plain = NetworkConnection(to: local(port)) { TCP() }
            try await plain.send(Data([1]))
            let defaults = try await Self.options(plain)
            #expect(defaults[0] == 1, "no-delay is on by default")
            #expect(defaults[1] == 0, "keep-alive is off by default")
            #expect(defaults[2] != Int32(IP_PMTUDISC_DO), "fragmentation is allowed by default")

            let tuned = NetworkConnection(to: local(port)) {
                TCP { IP().fragmentationEnabled(false) }.noDelay(false).enableKeepalive()
            }
            try await tuned.send(Data([1]))
            #expect(try await Self.options(tuned) == [0, 1, Int32(IP_PMTUDISC_DO)])
            await plain.cancel()
            await tuned.cancel()
        }
    }

    @Test func listenerAppliesItsStackOptionsToAcceptedSockets() async throws {
        let seen = Recorder<[Int32?]>()
        let listener = NetworkListener(
            for: local(.any),
            using: {
                TCP { IP().fragmentationEnabled(false) }.noDelay(false).enableKeepalive()
            })
        try await withListener(
            listener,
            handler: { c in
                seen.append(try await Self.options(c))
                _ = try? await c.receive(exactly: 1 << 20)
            }
        ) { port async throws in
            let c = NetworkConnection(to: local(port)) { TCP() }
            try await c.send(Data([1]))
            try await seen.waitFor("accepted socket options") { _ in true }
            #expect(seen.all == [[0, 1, Int32(IP_PMTUDISC_DO)]])
            await c.cancel()
        }
    }

    @Test(arguments: [(IP.Version.v4, "127.0.0.1"), (.v6, "::1")])
    func ipVersionPicksTheAddressFamily(version: IP.Version, expected: String) async throws {
        // The name resolves to both families; the IP layer's version keeps one.
        let listener = NetworkListener(for: .hostPort(host: "::", port: .any), using: { TLV { TCP() } })
        try await withListener(
            listener,
            handler: { c in
                for try await (content, metadata) in c.messages { try await c.send(content, type: metadata.type) }
            }
        ) { port async throws in
            let c = NetworkConnection(
                to: .hostPort(host: "dual.test", port: port),
                using: .parameters { TLV { TCP { IP().version(version) } } }
                    .resolvedAddresses(["::1", "127.0.0.1"]))
            try await c.send(Data("family".utf8), type: 4)
            #expect(try await c.receive().content == Data("family".utf8))
            let remote = await c.remoteAddress ?? ""
            #expect(remote.contains(expected), "\(remote)")
            await c.cancel()
        }
    }

    @Test func fragmentationDisabledOverIPv6StillConnects() async throws {
        // IP_MTU_DISCOVER is an IPv4 option: an IPv6 connection must not fail because of it.
        let listener = NetworkListener(for: .hostPort(host: "::1", port: .any), using: { TCP() })
        try await withListener(
            listener,
            handler: { c in
                let m = try await c.receive(exactly: 2)
                try await c.send(m.content)
            }
        ) { port async throws in
            let c = NetworkConnection(to: .hostPort(host: "::1", port: port)) {
                TCP { IP().fragmentationEnabled(false) }
            }
            try await c.send(Data([7, 8]))
            #expect(try await c.receive(exactly: 2).content == Data([7, 8]))
            await c.cancel()
        }
    }

    @Test func seedParametersFormWithPathOptions() async throws {
        // The seed's form: `using: .parameters { TLS { TCP { IP().fragmentationEnabled(false) } } }
        // .constrainedPathsProhibited(true)`. Linux has no constrained or expensive paths: recorded, no effect.
        let identity = try TLSIdentity.selfSigned()
        let parameters = NetworkParameters.parameters {
            TLS { TCP { IP().fragmentationEnabled(false) } }.trustRoots([identity.trustRoot])
        }.constrainedPathsProhibited(true).expensivePathsProhibited(true)
        #expect(parameters.prohibitsConstrainedPaths && parameters.prohibitsExpensivePaths)
        let listener = NetworkListener(for: local(.any), using: { TLS().localIdentity(identity) })
        try await withListener(
            listener,
            handler: { c in
                let m = try await c.receive(exactly: 5)
                try await c.send(m.content)
                _ = try? await c.receive(exactly: 1)
            }
        ) { port async throws in
            let connection = NetworkConnection(
                to: .hostPort(host: "localhost", port: port),
                using: .parameters {
                    TLS { TCP { IP().fragmentationEnabled(false) } }.trustRoots([identity.trustRoot])
                }.constrainedPathsProhibited(true))
            try await connection.send(Data("hello".utf8))
            #expect(try await connection.receive(exactly: 5).content == Data("hello".utf8))
            #expect(try await Self.options(connection)[2] == Int32(IP_PMTUDISC_DO))
            await connection.cancel()
        }
    }
}

/// QUIC has no implementation among Orchard's dependencies: code naming it compiles, and every use fails at once
/// with an error that says so, never a hang or a silent fallback to another transport.
@Suite("QUIC on Linux", .timeLimit(.minutes(1)))
struct QUICTests {
    @Test func aConnectionOverQUICFailsSayingWhy() async throws {
        let connection = NetworkConnection(to: .hostPort(host: "127.0.0.1", port: 4433)) {
            Coder(Ping.self, using: .json) { QUIC(alpn: ["orchard"]) }
        }
        await #expect(throws: QUIC.unavailable) { try await connection.send(Ping(text: "x", number: 1)) }
        guard case .failed(let error) = await connection.state else {
            Issue.record("the connection is not failed")
            return
        }
        #expect("\(error)".contains("QUIC is not available on Linux"))
    }

    @Test func aListenerOverQUICFailsSayingWhy() async throws {
        let listener = NetworkListener { Coder(Ping.self, using: .json) { QUIC(alpn: ["orchard"]) } }
        await #expect(throws: QUIC.unavailable) { try await listener.run { _ in } }
        #expect(listener.state == .failed(QUIC.unavailable))
    }
}
