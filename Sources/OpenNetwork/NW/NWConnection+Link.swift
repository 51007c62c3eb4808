import Foundation

extension NWConnection {
    /// The transport under an ``NWConnection``: one ``NetworkConnection`` whatever its stack, seen through the few
    /// operations the callback API needs (so the connection's code does not switch over stacks).
    struct Link: Sendable {
        /// The connection's core (state, cancellation).
        let core: ConnectionCore
        /// Whether each receive is one datagram (UDP) rather than bytes of a stream.
        let isDatagram: Bool
        /// Starts connecting.
        let start: @Sendable () async -> Void
        /// Closes gracefully: what was sent is delivered first.
        let close: @Sendable () async -> Void
        /// Sends bytes (one datagram over UDP).
        let send: @Sendable (Data) async throws -> Void
        /// Receives between `atLeast` and `atMost` bytes of a stream (one datagram over UDP, whatever its size);
        /// the flag says the peer finished sending.
        let receive: @Sendable (_ atLeast: Int, _ atMost: Int) async throws -> (Data, isComplete: Bool)
        /// Closes the sending side only (TCP); nil where the stack cannot half-close.
        let finishSending: (@Sendable () async throws -> Void)?
        /// Installs the state handler and reads the current state.
        let follow: @Sendable (_ report: @escaping @Sendable (ConnectionState) -> Void) -> Void
        /// WebSocket only: sends a message with its RFC 6455 opcode, and receives one with it.
        var sendWebSocket: (@Sendable (Data, UInt8) async throws -> Void)? = nil
        var receiveWebSocket: (@Sendable () async throws -> (Data, UInt8))? = nil

        /// A TCP connection.
        static func tcp(_ c: NetworkConnection<TCP>) -> Link { stream(c) }

        /// A TLS connection.
        static func tls(_ c: NetworkConnection<TLS>) -> Link { stream(c) }

        /// A byte stream (TCP, TLS): it half-closes.
        private static func stream<P: StreamProtocolOptions>(_ c: NetworkConnection<P>) -> Link {
            over(
                c, isDatagram: false, send: { try await c.send($0) },
                receive: { least, most in
                    let (data, metadata) = try await c.receive(atLeast: least, atMost: most)
                    return (data, metadata.isComplete)
                },
                finishSending: { try await c.core.finishSending() })
        }

        /// A WebSocket connection (over TCP or TLS): message by message, each with its opcode.
        static func webSocket(_ c: NetworkConnection<WebSocket>) -> Link {
            var link = over(
                c, isDatagram: true, send: { try await c.send($0, opcodeByte: WebSocketMessageHandler.binary) },
                receive: { _, _ in (try await c.receiveWithOpcode().0, false) }, finishSending: nil)
            link.sendWebSocket = { try await c.send($0, opcodeByte: $1) }
            link.receiveWebSocket = { try await c.receiveWithOpcode() }
            return link
        }

        /// A UDP connection.
        static func udp(_ c: NetworkConnection<UDP>) -> Link {
            over(
                c, isDatagram: true, send: { try await c.send($0) },
                receive: { _, _ in (try await c.receive().content, false) }, finishSending: nil)
        }

        /// What every stack shares: its core, starting, closing, and following its states.
        private static func over<P>(
            _ c: NetworkConnection<P>, isDatagram: Bool, send: @escaping @Sendable (Data) async throws -> Void,
            receive: @escaping @Sendable (Int, Int) async throws -> (Data, isComplete: Bool),
            finishSending: (@Sendable () async throws -> Void)?
        ) -> Link {
            Link(
                core: c.core, isDatagram: isDatagram, start: { await c.start() }, close: { await c.cancel() },
                send: send, receive: receive, finishSending: finishSending,
                follow: { report in
                    c.onStateUpdate { _, s in report(s) }
                    Task { report(await c.state) }
                })
        }
    }
}
