import Dispatch
import Foundation
import NIOConcurrencyHelpers

/// Dispatch's data type under the name Apple's `sec_protocol_options_*` functions declare, so code that writes
/// `data as __DispatchData` compiles (on Linux the cast is to the same type).
public typealias __DispatchData = DispatchData

/// A TLS cipher suite's IANA number, as Security names it.
public typealias SSLCipherSuite = UInt16

/// TLS_PSK_WITH_AES_128_GCM_SHA256 (RFC 5487). BoringSSL lacks it: see ``sec_protocol_options_append_tls_ciphersuite(_:_:)``.
public let TLS_PSK_WITH_AES_128_GCM_SHA256: SSLCipherSuite = 0x00A8
/// TLS_PSK_WITH_AES_256_GCM_SHA384 (RFC 5487). BoringSSL lacks it: see ``sec_protocol_options_append_tls_ciphersuite(_:_:)``.
public let TLS_PSK_WITH_AES_256_GCM_SHA384: SSLCipherSuite = 0x00A9
/// TLS_PSK_WITH_AES_128_CBC_SHA (RFC 4279).
public let TLS_PSK_WITH_AES_128_CBC_SHA: SSLCipherSuite = 0x008C
/// TLS_PSK_WITH_AES_256_CBC_SHA (RFC 4279).
public let TLS_PSK_WITH_AES_256_CBC_SHA: SSLCipherSuite = 0x008D
/// TLS_ECDHE_PSK_WITH_AES_128_CBC_SHA (RFC 5489).
public let TLS_ECDHE_PSK_WITH_AES_128_CBC_SHA: SSLCipherSuite = 0xC035
/// TLS_ECDHE_PSK_WITH_AES_256_CBC_SHA (RFC 5489).
public let TLS_ECDHE_PSK_WITH_AES_256_CBC_SHA: SSLCipherSuite = 0xC036
/// TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256 (RFC 7905).
public let TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256: SSLCipherSuite = 0xCCAC

/// A TLS cipher suite, as Apple's `tls_ciphersuite_t`: any IANA number is accepted (as Apple's open C enum is), and
/// the named ones are static members.
public struct tls_ciphersuite_t: RawRepresentable, Hashable, Sendable {
    /// The IANA number.
    public let rawValue: UInt16
    /// The suite with this IANA number (never nil, as Apple's).
    public init?(rawValue: UInt16) { self.rawValue = rawValue }
    private init(_ value: UInt16) { rawValue = value }

    /// TLS_RSA_WITH_AES_128_GCM_SHA256.
    public static let RSA_WITH_AES_128_GCM_SHA256 = tls_ciphersuite_t(0x009C)
    /// TLS_RSA_WITH_AES_256_GCM_SHA384.
    public static let RSA_WITH_AES_256_GCM_SHA384 = tls_ciphersuite_t(0x009D)
    /// TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256.
    public static let ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 = tls_ciphersuite_t(0xC02B)
    /// TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384.
    public static let ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 = tls_ciphersuite_t(0xC02C)
    /// TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256.
    public static let ECDHE_RSA_WITH_AES_128_GCM_SHA256 = tls_ciphersuite_t(0xC02F)
    /// TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384.
    public static let ECDHE_RSA_WITH_AES_256_GCM_SHA384 = tls_ciphersuite_t(0xC030)
    /// TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256.
    public static let ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256 = tls_ciphersuite_t(0xCCA8)
    /// TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256.
    public static let ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256 = tls_ciphersuite_t(0xCCA9)
    /// TLS 1.3's TLS_AES_128_GCM_SHA256.
    public static let AES_128_GCM_SHA256 = tls_ciphersuite_t(0x1301)
    /// TLS 1.3's TLS_AES_256_GCM_SHA384.
    public static let AES_256_GCM_SHA384 = tls_ciphersuite_t(0x1302)
    /// TLS 1.3's TLS_CHACHA20_POLY1305_SHA256.
    public static let CHACHA20_POLY1305_SHA256 = tls_ciphersuite_t(0x1303)
}

/// A TLS protocol version, as Apple's `tls_protocol_version_t`.
public enum tls_protocol_version_t: UInt16, Sendable {
    /// TLS 1.0 (refused here: BoringSSL is configured for 1.2 and later).
    case TLSv10 = 0x0301
    /// TLS 1.1 (refused here, as 1.0).
    case TLSv11 = 0x0302
    /// TLS 1.2.
    case TLSv12 = 0x0303
    /// TLS 1.3.
    case TLSv13 = 0x0304
    /// DTLS 1.0 (no DTLS here).
    case DTLSv10 = 0xFEFF
    /// DTLS 1.2 (no DTLS here).
    case DTLSv12 = 0xFEFD
}

/// The TLS settings of an ``NWProtocolTLS/Options``, set through the `sec_protocol_options_*` functions as on Apple's
/// systems.
///
/// Linux differences: Security's identities (`sec_identity_t`) and trust evaluation (`sec_trust_t`, verify blocks)
/// do not exist here. A local identity is set with the ``sec_protocol_options_set_local_identity(_:_:)`` overload
/// that takes a ``TLSIdentity``; trust roots other than the system's with
/// ``sec_protocol_options_set_trust_roots(_:_:)``.
public final class sec_protocol_options_t: @unchecked Sendable {  // Unchecked: `settings` is read under `lock`.
    private let lock = NIOLock()
    private var settings = TLS.Options()

    init() {}

    /// The settings now.
    var current: TLS.Options { lock.withLock { settings } }

    func update(_ body: (inout TLS.Options) -> Void) { lock.withLock { body(&settings) } }
}

/// Adds a pre-shared key and its identity: the connection then authenticates with the key instead of certificates
/// (TLS 1.2, PSK cipher suites). A listener accepts a client that presents any of the identities it was given, with
/// the matching key; a client presents the first.
///
/// The identity travels as text: bytes that are UTF-8 without a NUL as they are, others as their hexadecimal form
/// (BoringSSL's identities are C strings).
public func sec_protocol_options_add_pre_shared_key(
    _ options: sec_protocol_options_t, _ psk: __DispatchData, _ psk_identity: __DispatchData
) {
    let key = [UInt8](psk)
    let identity = [UInt8](psk_identity)
    options.update { $0.preSharedKeys.append(.init(key: key, identity: identity)) }
}

/// Adds a cipher suite to those the connection offers or accepts (the first call replaces BoringSSL's defaults).
///
/// Linux difference: BoringSSL has no PSK suite with AES-GCM. ``TLS_PSK_WITH_AES_128_GCM_SHA256`` and
/// ``TLS_PSK_WITH_AES_256_GCM_SHA384`` (what Apple's peer-to-peer sample asks for) are replaced by
/// TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256 and TLS_ECDHE_PSK_WITH_AES_128_CBC_SHA, which are authenticated by the
/// same key (and add forward secrecy); two Orchard peers agree on them, a peer that offers only the GCM suite does
/// not. A suite BoringSSL lacks otherwise fails the connection with an error naming it.
public func sec_protocol_options_append_tls_ciphersuite(
    _ options: sec_protocol_options_t, _ ciphersuite: tls_ciphersuite_t
) {
    options.update { $0.cipherSuites.append(ciphersuite.rawValue) }
}

/// The lowest TLS version the connection accepts (TLS 1.2 or 1.3 here; earlier ones fail the connection).
public func sec_protocol_options_set_min_tls_protocol_version(
    _ options: sec_protocol_options_t, _ version: tls_protocol_version_t
) {
    options.update { $0.minimumProtocol = version }
}

/// The highest TLS version the connection accepts.
public func sec_protocol_options_set_max_tls_protocol_version(
    _ options: sec_protocol_options_t, _ version: tls_protocol_version_t
) {
    options.update { $0.maximumProtocol = version }
}

/// Adds an ALPN protocol name offered (client) or accepted (server).
public func sec_protocol_options_add_tls_application_protocol(
    _ options: sec_protocol_options_t, _ application_protocol: String
) {
    options.update { $0.applicationProtocols.append(application_protocol) }
}

/// The name sent in SNI and checked against the server's certificate (defaults to the host connected to).
public func sec_protocol_options_set_tls_server_name(_ options: sec_protocol_options_t, _ server_name: String) {
    options.update { $0.serverName = server_name }
}

/// Whether the peer must authenticate with a certificate: clients require it by default; a listener asks a client
/// for one only when this is true.
public func sec_protocol_options_set_peer_authentication_required(
    _ options: sec_protocol_options_t, _ peer_authentication_required: Bool
) {
    options.update {
        $0.peerVerification = peer_authentication_required
        $0.peerVerificationSet = true
    }
}

/// The local identity (a listener's certificate, or a client certificate): Linux's form of Apple's function, which
/// takes a Security `sec_identity_t`.
public func sec_protocol_options_set_local_identity(_ options: sec_protocol_options_t, _ identity: TLSIdentity) {
    options.update { $0.identity = identity }
}

/// Certificates trusted as roots instead of the system's (Orchard's addition: Apple's apps do this in a verify
/// block, which has no Linux form).
public func sec_protocol_options_set_trust_roots(_ options: sec_protocol_options_t, _ roots: [TLSCertificate]) {
    options.update { $0.trustRoots = roots }
}
