import Foundation
import NIOConcurrencyHelpers

/// WebSocket in an ``NWParameters`` stack, as the Network framework names it:
///
/// ```swift
/// let parameters = NWParameters.tls
/// let options = NWProtocolWebSocket.Options()
/// options.autoReplyPing = true
/// parameters.defaultProtocolStack.applicationProtocols.insert(options, at: 0)
/// let connection = NWConnection(to: .url(URL(string: "wss://example.com/chat")!), using: parameters)
/// let context = NWConnection.ContentContext(identifier: "text", metadata: [NWProtocolWebSocket.Metadata(opcode: .text)])
/// connection.send(content: Data("hello".utf8), contentContext: context, isComplete: true, completion: .idempotent)
/// ```
///
/// A message received comes with an ``Metadata`` (its opcode) in its context. An ``NWListener`` with these options
/// accepts upgrades on any path. Built on the same SwiftNIO WebSocket pipeline as ``WebSocket``.
public final class NWProtocolWebSocket {
    /// The definition that finds WebSocket metadata in a context: `context.protocolMetadata(definition:
    /// NWProtocolWebSocket.definition)`.
    public static let definition = NWProtocolDefinition(name: "websocket")

    /// The WebSocket protocol versions.
    public enum Version: Sendable {
        /// RFC 6455's version 13.
        case version13
    }

    /// What a message is.
    public enum Opcode: Sendable, Hashable {
        /// A continuation (never delivered: messages arrive whole).
        case cont
        /// UTF-8 text.
        case text
        /// Bytes.
        case binary
        /// A close (sending one starts the closing handshake; its code is the metadata's ``Metadata/closeCode``).
        case close
        /// A ping (delivered only when ``Options/autoReplyPing`` is false).
        case ping
        /// A pong.
        case pong

        var byte: UInt8 {
            switch self {
            case .cont: 0x0
            case .text: 0x1
            case .binary: 0x2
            case .close: 0x8
            case .ping: 0x9
            case .pong: 0xA
            }
        }

        init(byte: UInt8) {
            switch byte {
            case 0x1: self = .text
            case 0x8: self = .close
            case 0x9: self = .ping
            case 0xA: self = .pong
            default: self = .binary
            }
        }
    }

    /// A close frame's status code.
    public enum CloseCode: Sendable, Hashable {
        /// The codes RFC 6455 defines.
        public enum Defined: UInt16, Sendable {
            /// The purpose was fulfilled.
            case normalClosure = 1000
            /// The endpoint is going away.
            case goingAway = 1001
            /// A protocol error.
            case protocolError = 1002
            /// Data of a kind the endpoint cannot accept.
            case unsupportedData = 1003
            /// No status code was present (never sent).
            case noStatusReceived = 1005
            /// The connection closed without a close frame (never sent).
            case abnormalClosure = 1006
            /// A message's data was not consistent with its type.
            case invalidFramePayloadData = 1007
            /// A message violated the endpoint's policy.
            case policyViolation = 1008
            /// A message was too big to process.
            case messageTooBig = 1009
            /// The client expected an extension the server did not negotiate.
            case mandatoryExtension = 1010
            /// The server met an unexpected condition.
            case internalServerError = 1011
            /// The TLS handshake failed (never sent).
            case tlsHandshake = 1015
        }
        /// A code RFC 6455 defines.
        case protocolCode(Defined)
        /// A code registered by an application (3000–3999).
        case applicationCode(UInt16)
        /// A private code (4000–4999).
        case privateCode(UInt16)

        var rawValue: UInt16 {
            switch self {
            case .protocolCode(let code): code.rawValue
            case .applicationCode(let code), .privateCode(let code): code
            }
        }
    }

    /// WebSocket's options in a stack.
    public final class Options: NWProtocolOptions, @unchecked Sendable {  // Unchecked: fields read under `lock`.
        private var _autoReplyPing = false
        private var _maximumMessageSize = 16 << 20
        private var _headers: [(name: String, value: String)] = []

        /// Options for `version` (13, the only one).
        public init(_ version: Version = .version13) {}

        /// Whether the connection answers pings itself (default false, as Apple's: pings reach the app, which
        /// answers with a pong).
        public var autoReplyPing: Bool {
            get { lock.withLock { _autoReplyPing } }
            set { lock.withLock { _autoReplyPing = newValue } }
        }

        /// The largest message accepted, in bytes (default 16 MiB); a larger one fails the connection.
        public var maximumMessageSize: Int {
            get { lock.withLock { _maximumMessageSize } }
            set { lock.withLock { _maximumMessageSize = newValue } }
        }

        /// Headers a client adds to its upgrade request (an authorization token, say).
        public func setAdditionalHeaders(_ additionalHeaders: [(name: String, value: String)]) {
            lock.withLock { _headers = additionalHeaders }
        }

        /// The stack's WebSocket layer over `lower`.
        func declared<S: StreamProtocolOptions>(over lower: S) -> WebSocket {
            var webSocket = WebSocket { lower }.maximumMessageSize(maximumMessageSize)
            webSocket.settings.autoReplyPing = autoReplyPing
            webSocket.settings.additionalHeaders = lock.withLock { _headers }
            return webSocket
        }
    }

    /// A message's WebSocket metadata: its opcode (and a close's code).
    public final class Metadata: NWProtocolMetadata, @unchecked Sendable {  // Unchecked: `closeCode` under `lock`.
        private let lock = NIOLock()
        private var _closeCode = CloseCode.protocolCode(.normalClosure)
        /// What the message is.
        public let opcode: Opcode

        /// Metadata for a message of `opcode`.
        public init(opcode: Opcode) {
            self.opcode = opcode
            super.init(definition: NWProtocolWebSocket.definition)
        }

        /// The status code a close carries (default: normal closure).
        public var closeCode: CloseCode {
            get { lock.withLock { _closeCode } }
            set { lock.withLock { _closeCode = newValue } }
        }
    }
}
