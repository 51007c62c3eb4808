import NIOSSL

/// TLS over TCP, with its options as modifiers: `TLS().serverName("example.com").trustRoots([pem])`.
///
/// On a connection TLS acts as a client; in a listener's stack it acts as a server and needs
/// ``localIdentity(_:)``.
public struct TLS: StreamProtocolOptions {
    /// TLS protocol versions.
    public enum Version: Sendable { case v1_2, v1_3 }

    struct Options: Sendable {
        var serverName: String?
        var trustRoots: [TLSCertificate]?
        var identity: TLSIdentity?
        var minimumVersion: Version = .v1_2
        var applicationProtocols: [String] = []
        var peerVerification = true
        var peerVerificationSet = false
        var handshakeTimeout: Duration = .seconds(10)
    }
    var tcp: TCP
    var options = Options()

    /// TLS over default TCP and IP.
    public init() { tcp = TCP() }
    /// TLS over the declared TCP layer.
    public init(@ProtocolStackBuilderTCP _ tcp: () -> TCP) { self.tcp = tcp() }

    /// The name sent in SNI and checked against the peer certificate (defaults to the endpoint's host).
    public func serverName(_ name: String) -> TLS {
        var c = self
        c.options.serverName = name
        return c
    }
    /// Certificates trusted as roots instead of the system trust store.
    public func trustRoots(_ roots: [TLSCertificate]) -> TLS {
        var c = self
        c.options.trustRoots = roots
        return c
    }
    /// The local identity: the server certificate in a listener, the client certificate on a connection.
    public func localIdentity(_ identity: TLSIdentity) -> TLS {
        var c = self
        c.options.identity = identity
        return c
    }
    /// The lowest TLS version accepted (default TLS 1.2).
    public func minimumVersion(_ version: Version) -> TLS {
        var c = self
        c.options.minimumVersion = version
        return c
    }
    /// ALPN protocol names offered (client) or accepted (server).
    public func applicationProtocols(_ names: [String]) -> TLS {
        var c = self
        c.options.applicationProtocols = names
        return c
    }
    /// Whether the peer's certificate is verified. Clients verify by default; servers request and verify
    /// a client certificate only when this is set to true.
    public func peerVerification(_ enabled: Bool) -> TLS {
        var c = self
        c.options.peerVerification = enabled
        c.options.peerVerificationSet = true
        return c
    }
    /// How long a TLS handshake may take before the connection fails with ETIMEDOUT (default 10 s).
    public func handshakeTimeout(_ timeout: Duration) -> TLS {
        var c = self
        c.options.handshakeTimeout = timeout
        return c
    }

    /// The stack configuration of this TLS layer.
    public var stackConfiguration: ProtocolStackConfiguration {
        var s = tcp.stackConfiguration
        s.tls = options
        return s
    }

    /// Builds the NIOSSL client configuration.
    func clientConfiguration(host: String?) -> TLSConfiguration {
        var config = TLSConfiguration.makeClientConfiguration()
        config.minimumTLSVersion = options.minimumVersion == .v1_3 ? .tlsv13 : .tlsv12
        if let roots = options.trustRoots {
            config.trustRoots = .certificates(roots.map(\.certificate))
        }
        if let identity = options.identity {
            config.certificateChain = identity.certificateChain.map { .certificate($0) }
            config.privateKey = .privateKey(identity.privateKey)
        }
        config.applicationProtocols = options.applicationProtocols
        config.certificateVerification = options.peerVerification ? .fullVerification : .none
        return config
    }
}

extension TLS.Options {
    /// Builds the NIOSSL server configuration; fails when no identity was given.
    func serverConfiguration() throws -> TLSConfiguration {
        guard let identity else {
            throw NWError.tls("a TLS listener needs a server identity: use TLS().localIdentity(...)")
        }
        var config = TLSConfiguration.makeServerConfiguration(
            certificateChain: identity.certificateChain.map { .certificate($0) },
            privateKey: .privateKey(identity.privateKey))
        config.minimumTLSVersion = minimumVersion == .v1_3 ? .tlsv13 : .tlsv12
        config.applicationProtocols = applicationProtocols
        if peerVerificationSet && peerVerification {
            config.certificateVerification = .fullVerification
            if let roots = trustRoots { config.trustRoots = .certificates(roots.map(\.certificate)) }
        } else {
            config.certificateVerification = .none
        }
        return config
    }
}

/// Builds the TCP layer under TLS.
@resultBuilder
public enum ProtocolStackBuilderTCP {
    /// Passes the TCP options through.
    public static func buildBlock(_ tcp: TCP) -> TCP { tcp }
}
