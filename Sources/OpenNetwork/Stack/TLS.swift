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
        /// Pre-shared keys (set through `sec_protocol_options_add_pre_shared_key`).
        var preSharedKeys: [PreSharedKey] = []
        /// A listener's look-up of the key for a client's identity (set through ``TLS/preSharedKeys(_:)``).
        var preSharedKeyLookup: (@Sendable (String) -> [UInt8]?)?
        /// IANA numbers of the cipher suites asked for (empty: BoringSSL's defaults).
        var cipherSuites: [UInt16] = []
        /// Versions set through `sec_protocol_options_set_min/max_tls_protocol_version`.
        var minimumProtocol: tls_protocol_version_t?
        var maximumProtocol: tls_protocol_version_t?
    }

    /// A pre-shared key and the identity that names it.
    struct PreSharedKey: Sendable {
        var key: [UInt8]
        var identity: [UInt8]

        /// The identity as BoringSSL carries it (a C string): UTF-8 without NUL as it is, other bytes in hexadecimal.
        var identityText: String {
            if !identity.contains(0), let text = String(validating: identity, as: UTF8.self) { return text }
            return identity.map { String(format: "%02x", $0) }.joined()
        }
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

    /// Authenticates both ends by a key they share instead of certificates (TLS 1.2 with ECDHE-PSK suites): on a
    /// connection, the key to present and the identity that names it.
    ///
    /// Orchard's own modifier: Apple's stacks reach the same setting through the TLS options'
    /// `sec_protocol_options_add_pre_shared_key`, which ``NWParameters`` also takes here.
    public func preSharedKey(_ key: some Collection<UInt8>, identity: String) -> TLS {
        var c = self
        c.options.preSharedKeys.append(.init(key: Array(key), identity: Array(identity.utf8)))
        return c
    }

    /// Authenticates clients by pre-shared keys that a listener looks up as they connect: `lookup` gets the
    /// identity a client presents and returns its key, or nil to refuse the client. It runs during each handshake
    /// (on the connection's event loop), so a listener can admit keys added after it started and count attempts.
    ///
    /// Orchard's own modifier (see ``preSharedKey(_:identity:)``).
    public func preSharedKeys(_ lookup: @escaping @Sendable (String) -> [UInt8]?) -> TLS {
        var c = self
        c.options.preSharedKeyLookup = lookup
        return c
    }

    /// The stack configuration of this TLS layer.
    public var stackConfiguration: ProtocolStackConfiguration {
        var s = tcp.stackConfiguration
        s.tls = options
        return s
    }

    /// Builds the NIOSSL client configuration.
    func clientConfiguration(host: String?) throws -> TLSConfiguration {
        var config = TLSConfiguration.makeClientConfiguration()
        config.minimumTLSVersion = options.minimumVersion == .v1_3 ? .tlsv13 : .tlsv12
        if let psk = options.preSharedKeys.first {
            // Authenticated by the key: no certificate to verify.
            let key = psk.key
            let identity = psk.identityText
            config.pskClientProvider = { _ in PSKClientIdentityResponse(key: NIOSSLSecureBytes(key), identity: identity)
            }
            config.certificateVerification = .none
        }
        try options.applyVersionsAndSuites(to: &config)
        if !options.preSharedKeys.isEmpty {
            config.applicationProtocols = options.applicationProtocols
            return config
        }
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
    /// Whether the ends authenticate by pre-shared keys (given, or looked up by a listener).
    var usesPreSharedKeys: Bool { !preSharedKeys.isEmpty || preSharedKeyLookup != nil }

    /// Builds the NIOSSL server configuration; fails when no identity was given.
    func serverConfiguration() throws -> TLSConfiguration {
        if usesPreSharedKeys && identity == nil {
            var config = TLSConfiguration.makePreSharedKeyConfiguration()
            let keys = preSharedKeys
            let lookup = preSharedKeyLookup
            config.pskServerProvider = { context in
                if let psk = keys.first(where: { $0.identityText == context.clientIdentity }) {
                    return PSKServerIdentityResponse(key: NIOSSLSecureBytes(psk.key))
                }
                guard let key = lookup?(context.clientIdentity) else {
                    throw NWError.tls("the client presented an unknown pre-shared key identity")
                }
                return PSKServerIdentityResponse(key: NIOSSLSecureBytes(key))
            }
            config.minimumTLSVersion = .tlsv12
            config.applicationProtocols = applicationProtocols
            try applyVersionsAndSuites(to: &config)
            return config
        }
        guard let identity else {
            throw NWError.tls(
                "a TLS listener needs a server identity or a pre-shared key: use TLS().localIdentity(...), or "
                    + "sec_protocol_options_set_local_identity / sec_protocol_options_add_pre_shared_key")
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
        try applyVersionsAndSuites(to: &config)
        return config
    }

    /// The BoringSSL names of the TLS 1.2 suites this layer's IANA numbers ask for (TLS 1.3's are always on).
    static let suiteNames: [UInt16: String] = [
        0x008C: "PSK-AES128-CBC-SHA", 0x008D: "PSK-AES256-CBC-SHA", 0xC035: "ECDHE-PSK-AES128-CBC-SHA",
        0xC036: "ECDHE-PSK-AES256-CBC-SHA", 0xCCAC: "ECDHE-PSK-CHACHA20-POLY1305",
        // BoringSSL has no PSK suite with AES-GCM: the ECDHE-PSK suites, authenticated by the same key, stand in.
        0x00A8: "ECDHE-PSK-CHACHA20-POLY1305:ECDHE-PSK-AES128-CBC-SHA",
        0x00A9: "ECDHE-PSK-CHACHA20-POLY1305:ECDHE-PSK-AES256-CBC-SHA",
        0x009C: "AES128-GCM-SHA256", 0x009D: "AES256-GCM-SHA384", 0xC02B: "ECDHE-ECDSA-AES128-GCM-SHA256",
        0xC02C: "ECDHE-ECDSA-AES256-GCM-SHA384", 0xC02F: "ECDHE-RSA-AES128-GCM-SHA256",
        0xC030: "ECDHE-RSA-AES256-GCM-SHA384", 0xCCA8: "ECDHE-RSA-CHACHA20-POLY1305",
        0xCCA9: "ECDHE-ECDSA-CHACHA20-POLY1305",
    ]

    /// Sets the versions and cipher suites asked for; a pre-shared key limits the connection to TLS 1.2 (BoringSSL
    /// takes external PSKs there only) and to PSK suites.
    func applyVersionsAndSuites(to config: inout TLSConfiguration) throws {
        func version(_ v: tls_protocol_version_t) throws -> TLSVersion {
            switch v {
            case .TLSv12: return .tlsv12
            case .TLSv13: return .tlsv13
            default: throw NWError.tls("TLS version \(v) is not supported here: TLS 1.2 and 1.3 are")
            }
        }
        if let minimumProtocol { config.minimumTLSVersion = try version(minimumProtocol) }
        if let maximumProtocol { config.maximumTLSVersion = try version(maximumProtocol) }
        var suites: [String] = []
        for number in cipherSuites where !(0x1301...0x1303).contains(number) {
            guard let name = Self.suiteNames[number] else {
                throw NWError.tls("cipher suite 0x\(String(number, radix: 16)) is not available in BoringSSL")
            }
            suites.append(name)
        }
        if usesPreSharedKeys {
            config.maximumTLSVersion = .tlsv12
            config.minimumTLSVersion = .tlsv12
            if suites.isEmpty { suites = ["ECDHE-PSK-CHACHA20-POLY1305:ECDHE-PSK-AES128-CBC-SHA:PSK-AES128-CBC-SHA"] }
        }
        if !suites.isEmpty { config.cipherSuites = suites.joined(separator: ":") }
    }
}

/// Builds the TCP layer under TLS.
@resultBuilder
public enum ProtocolStackBuilderTCP {
    /// Passes the TCP options through.
    public static func buildBlock(_ tcp: TCP) -> TCP { tcp }
}
