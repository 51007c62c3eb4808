/// WebSocket (RFC 6455) over a stream protocol: `NetworkConnection(to: .hostPort(host: "example.com", port: 443)) {
/// WebSocket(path: "/chat") { TLS() } }`. A connection opens with the HTTP upgrade handshake, then sends and receives
/// whole messages, each text or binary (``Metadata/opcode``). Pings are answered; a close from the peer ends the
/// connection (receives throw ``NWError/connectionClosed``). In a ``NetworkListener``'s stack it accepts upgrades on any
/// path, answers other HTTP requests 426 (Upgrade Required) and closes them.
///
/// Built on SwiftNIO's WebSocket support (NIOWebSocket's upgraders, frame codec and aggregator). The talk mentions
/// WebSocket support without showing its stack element; this one's shape (`WebSocket(path:) { TLS() }`, `send(_:)` of
/// text or data, an opcode in the metadata) follows the other stack types, and `.url(_:)` endpoints give it a path
/// as `NWProtocolWebSocket` takes it on Apple's systems.
public struct WebSocket: MessageProtocol {
    /// What a message is.
    public enum Opcode: Sendable, Hashable {
        /// UTF-8 text.
        case text
        /// Bytes.
        case binary
    }

    /// Metadata of a message.
    public struct Metadata: Sendable {
        /// Whether the message is text or binary.
        public var opcode: Opcode
    }

    /// A received message: its content and metadata.
    public typealias Message<Content> = (content: Content, metadata: Metadata)

    var lower: ProtocolStackConfiguration
    var settings = WebSocketSettings()
    var maximumMessageSize = 16 * 1024 * 1024

    /// WebSocket at `path` (the request target of the upgrade: `/`, `/chat?room=1`) over the declared stream protocol.
    public init<S: StreamProtocolOptions>(path: String = "/", @ProtocolStackBuilder _ stack: () -> S) {
        lower = stack().stackConfiguration
        settings.path = path
    }

    /// Sets the largest accepted message in bytes (default 16 MiB); a larger one fails the connection.
    public func maximumMessageSize(_ bytes: Int) -> WebSocket {
        var c = self
        c.maximumMessageSize = bytes
        return c
    }

    /// The stack configuration with WebSocket on top.
    public var stackConfiguration: ProtocolStackConfiguration {
        var s = lower
        s.framing = .webSocket(settings)
        s.maximumMessageSize = maximumMessageSize
        return s
    }
}
