/// A protocol that can sit in a connection's or listener's protocol stack (TCP, TLS, TLV, Coder, ...).
///
/// The stack is declared from the application protocol downwards, for example
/// `TLV { TLS { TCP { IP() } } }`; each type contributes its options to a ``ProtocolStackConfiguration``.
public protocol NetworkProtocolOptions: Sendable {
    /// The resolved configuration of the stack rooted at this protocol.
    var stackConfiguration: ProtocolStackConfiguration { get }
}

/// A byte-stream protocol (TCP, TLS): receive calls say how many bytes they want.
public protocol StreamProtocolOptions: NetworkProtocolOptions {}

/// A message protocol (TLV, Coder): send and receive whole messages.
public protocol MessageProtocol: NetworkProtocolOptions {}

/// Metadata that comes with bytes received over a stream protocol (TCP, TLS).
public struct StreamMetadata: Sendable {
    /// Whether the peer has finished sending (end of stream reached after these bytes).
    public var isComplete: Bool
}

/// The flattened configuration of a protocol stack: transport, IP, TLS and framing options.
public struct ProtocolStackConfiguration: Sendable {
    var ip = IP()
    var tcp = TCP.Options()
    var tls: TLS.Options?
    var framing: Framing = .none
    var maximumMessageSize: Int = 16 * 1024 * 1024
    var transport: TransportKind = .tcp
    /// TCP half-closure: the peer finishing its sending leaves ours open, and ours can finish on its own.
    var halfClosure = false

    enum TransportKind: Sendable { case tcp, udp, quic }
    /// Fixed name-resolution answers (tests of the Happy Eyeballs race); nil resolves with getaddrinfo.
    var resolvedAddresses: [String]?

    enum Framing: Sendable {
        case none
        case tlv(typeWidth: Int, lengthWidth: Int)
        case coder
        /// WebSocket messages, after an HTTP upgrade.
        case webSocket(WebSocketSettings)
    }

    /// Whether each message travels as one buffer of the data path (datagrams, WebSocket messages).
    var isMessageTransport: Bool {
        if transport == .udp { return true }
        if case .webSocket = framing { return true }
        return false
    }
}

/// What a WebSocket layer is configured with (by ``WebSocket``, and by ``NWProtocolWebSocket/Options``).
struct WebSocketSettings: Sendable {
    /// The request target of the upgrade.
    var path = "/"
    /// Whether pings are answered by the connection (false: they are delivered to the app, NW API only).
    var autoReplyPing = true
    /// Headers added to a client's upgrade request.
    var additionalHeaders: [(name: String, value: String)] = []
}

/// Builds a protocol stack from a declaration such as `TLS { TCP { IP() } }`.
@resultBuilder
public enum ProtocolStackBuilder {
    /// Passes the single declared protocol through.
    public static func buildBlock<P: NetworkProtocolOptions>(_ protocolOptions: P) -> P { protocolOptions }
    /// Passes an expression through.
    public static func buildExpression<P: NetworkProtocolOptions>(_ protocolOptions: P) -> P { protocolOptions }
}
