import Foundation
import OpenNetwork
import Testing

/// TLS over loopback with self-signed identities: success, and each way verification must fail.
@Suite("TLS", .timeLimit(.minutes(1)))
struct TLSTests {
    static let identity = try! TLSIdentity.selfSigned()

    /// Runs an echo TLS listener with `identity`; `body` gets the port.
    func withTLSListener(_ identity: TLSIdentity = identity, alpn: [String] = [],
                         _ body: (NWEndpoint.Port) async throws -> Void) async throws {
        let listener = NetworkListener(for: local(.any), using: {
            TLV { TLS().localIdentity(identity).applicationProtocols(alpn) }
        })
        try await withListener(listener, handler: { c in
            for try await (content, metadata) in c.messages { try await c.send(content, type: metadata.type) }
        }, body: body)
    }

    /// Expects a TLS failure and returns its reason.
    func tlsFailure(_ operation: () async throws -> Void) async -> String? {
        do {
            try await operation()
            Issue.record("expected a TLS failure")
            return nil
        } catch NWError.tls(let why) {
            return why
        } catch {
            Issue.record("expected a TLS failure, got \(error)")
            return nil
        }
    }

    @Test func trustedCertificateAndRightName() async throws {
        try await withTLSListener { port async throws in
            let c = NetworkConnection(to: local(port)) {
                TLV { TLS().serverName("localhost").trustRoots([Self.identity.trustRoot]) }
            }
            try await c.send(Data("secret".utf8), type: 1)
            #expect(try await c.receive().content == Data("secret".utf8))
        }
    }

    @Test func ipAddressSANWithoutServerName() async throws {
        try await withTLSListener { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TLS().trustRoots([Self.identity.trustRoot]) } }
            try await c.send(Data("x".utf8), type: 1)
            #expect(try await c.receive().content == Data("x".utf8))
        }
    }

    @Test func untrustedCertificateIsRejected() async throws {
        try await withTLSListener { port async throws in
            let states = Recorder<NetworkConnection<TLV>.State>()
            let other = try TLSIdentity.selfSigned()
            let c = NetworkConnection(to: local(port)) {
                TLV { TLS().serverName("localhost").trustRoots([other.trustRoot]) }
            }.onStateUpdate { _, s in states.append(s) }
            let why = await tlsFailure { try await c.send(Data([1]), type: 1) }
            #expect(why?.contains("CERTIFICATE_VERIFY_FAILED") == true, "\(why ?? "")")
            // A TLS failure is final: no waiting and retrying.
            #expect(!states.all.contains { if case .waiting = $0 { true } else { false } })
            if case .failed(.tls) = await c.state {} else { Issue.record("state \(await c.state)") }
        }
    }

    @Test func systemTrustStoreDoesNotTrustASelfSignedCertificate() async throws {
        try await withTLSListener { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TLS().serverName("localhost") } }
            _ = await tlsFailure { try await c.send(Data([1]), type: 1) }
        }
    }

    @Test func wrongHostNameIsRejected() async throws {
        try await withTLSListener { port async throws in
            let c = NetworkConnection(to: local(port)) {
                TLV { TLS().serverName("www.example.com").trustRoots([Self.identity.trustRoot]) }
            }
            let why = await tlsFailure { try await c.send(Data([1]), type: 1) }
            #expect(why != nil)
        }
    }

    @Test func expiredCertificateIsRejected() async throws {
        let expired = try TLSIdentity.selfSigned(notBefore: Date().addingTimeInterval(-7200),
                                                 notAfter: Date().addingTimeInterval(-3600))
        try await withTLSListener(expired) { port async throws in
            let c = NetworkConnection(to: local(port)) {
                TLV { TLS().serverName("localhost").trustRoots([expired.trustRoot]) }
            }
            let why = await tlsFailure { try await c.send(Data([1]), type: 1) }
            #expect(why != nil)
        }
    }

    @Test func peerVerificationOffAcceptsAnyCertificate() async throws {
        try await withTLSListener { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TLS().peerVerification(false) } }
            try await c.send(Data("ok".utf8), type: 2)
            #expect(try await c.receive().metadata.type == 2)
        }
    }

    @Test func minimumVersionTLS13() async throws {
        try await withTLSListener { port async throws in
            let c = NetworkConnection(to: local(port)) {
                TLV { TLS().minimumVersion(.v1_3).trustRoots([Self.identity.trustRoot]) }
            }
            try await c.send(Data("13".utf8), type: 13)
            #expect(try await c.receive().metadata.type == 13)
        }
    }

    @Test func alpnIsNegotiated() async throws {
        try await withTLSListener(alpn: ["orchard/2", "orchard/1"]) { port async throws in
            let c = NetworkConnection(to: local(port)) {
                TLV { TLS().trustRoots([Self.identity.trustRoot]).applicationProtocols(["orchard/1"]) }
            }
            try await c.send(Data("a".utf8), type: 1)
            _ = try await c.receive()
            #expect(await c.negotiatedApplicationProtocol == "orchard/1")
        }
    }

    @Test func clientCertificateRequiredByTheServer() async throws {
        let client = try TLSIdentity.selfSigned(commonName: "client")
        let listener = NetworkListener(for: local(.any), using: {
            TLV { TLS().localIdentity(Self.identity).peerVerification(true).trustRoots([client.trustRoot]) }
        })
        try await withListener(listener, handler: { c in
            let m = try await c.receive()
            try await c.send(m.content, type: m.metadata.type)
        }) { port async throws in
            let withCert = NetworkConnection(to: local(port)) {
                TLV { TLS().trustRoots([Self.identity.trustRoot]).localIdentity(client) }
            }
            try await withCert.send(Data("me".utf8), type: 5)
            #expect(try await withCert.receive().metadata.type == 5)
            let without = NetworkConnection(to: local(port)) { TLV { TLS().trustRoots([Self.identity.trustRoot]) } }
            // With TLS 1.3 the client learns of the rejection on its first read.
            await #expect(throws: (any Error).self) {
                try await without.send(Data("anon".utf8), type: 5)
                _ = try await without.receive()
            }
        }
    }

    @Test func handshakeTimeoutAgainstASilentServer() async throws {
        // A plain TCP listener that never answers the ClientHello.
        let listener = NetworkListener(for: local(.any), using: { TCP() })
        try await withListener(listener, handler: { c in _ = try? await c.receive(exactly: 1 << 20) }) { port async throws in
            let c = NetworkConnection(to: local(port)) { TLV { TLS().handshakeTimeout(.milliseconds(200)) } }
            await #expect(throws: NWError.timedOut) { try await c.send(Data([1]), type: 1) }
        }
    }

    @Test func listenerHandshakeTimeoutShedsASilentClient() async throws {
        // A client that connects to a TLS listener and never sends its ClientHello is dropped after the
        // listener's handshake timeout; its handler never runs and other clients are still served.
        let handled = Counter()
        let listener = NetworkListener(for: local(.any), using: {
            TLV { TLS().localIdentity(Self.identity).handshakeTimeout(.milliseconds(300)) }
        })
        try await withListener(listener, handler: { c in
            handled.add()
            for try await (content, metadata) in c.messages { try await c.send(content, type: metadata.type) }
        }) { port async throws in
            let silent = NetworkConnection(to: local(port)) { TCP() }
            await silent.start()
            await #expect(throws: NWError.connectionClosed) { _ = try await silent.receive(exactly: 1) }
            #expect(handled.value == 0)
            let good = NetworkConnection(to: local(port)) { TLV { TLS().trustRoots([Self.identity.trustRoot]) } }
            try await good.send(Data("after".utf8), type: 2)
            #expect(try await good.receive().content == Data("after".utf8))
            #expect(handled.value == 1)
        }
    }

    @Test func identityFromPEMFiles() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("orchard-pem-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let id = try TLSIdentity.selfSigned()
        try id.certificatePEM.write(to: dir.appendingPathComponent("cert.pem"), atomically: true, encoding: .utf8)
        try id.privateKeyPEM.write(to: dir.appendingPathComponent("key.pem"), atomically: true, encoding: .utf8)
        let loaded = try TLSIdentity(certificateFile: dir.appendingPathComponent("cert.pem").path,
                                     privateKeyFile: dir.appendingPathComponent("key.pem").path)
        try await withTLSListener(loaded) { port async throws in
            let root = try TLSCertificate(pemFile: dir.appendingPathComponent("cert.pem").path)
            let c = NetworkConnection(to: local(port)) { TLV { TLS().trustRoots([root]) } }
            try await c.send(Data("pem".utf8), type: 1)
            #expect(try await c.receive().content == Data("pem".utf8))
        }
        #expect(throws: NWError.self) { try TLSIdentity(certificatePEM: "junk", privateKeyPEM: "junk") }
    }
}
