/// QUIC: `Coder(GameMessage.self, using: .json) { QUIC(alpn: ["tictactoe"]) }`.
///
/// Linux difference: none of Orchard's dependencies implements QUIC (SwiftNIO has no QUIC transport, and
/// swift-nio-ssl offers no QUIC TLS). A stack with QUIC is accepted so that code written for Apple's systems
/// compiles; a connection over it fails as soon as it starts, and a listener's `run` throws, each with
/// ``NWError/transport(_:)`` saying so and naming TLS over TCP (`TLS()`) as what works here.
public struct QUIC: StreamProtocolOptions {
    /// The application protocols offered in the TLS handshake (ALPN); QUIC requires at least one.
    public var alpn: [String]

    /// QUIC with these application protocols.
    public init(alpn: [String]) { self.alpn = alpn }

    /// The error every use of QUIC ends with on Linux.
    static let unavailable = NWError.transport(
        "QUIC is not available on Linux: none of Orchard's dependencies implements it; use TLS over TCP (TLS()) instead"
    )

    /// The stack configuration of this QUIC layer.
    public var stackConfiguration: ProtocolStackConfiguration {
        var s = ProtocolStackConfiguration()
        s.transport = .quic
        return s
    }
}
