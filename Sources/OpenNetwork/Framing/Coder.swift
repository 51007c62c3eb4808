import Foundation

/// Sends and receives Codable values: `Coder(GameMessage.self, using: .json) { TLS() }`.
///
/// Framing: each value is encoded (JSON or binary property list) and sent as a 4-byte big-endian
/// length followed by the encoded bytes. A length above ``maximumMessageSize(_:)`` (default 16 MiB)
/// fails the connection before allocating; bytes that do not decode as `Receiving` make `receive`
/// throw ``NWError/decodingFailed(_:)`` and leave the connection usable for the next message.
public struct Coder<Sending: Encodable & Sendable, Receiving: Decodable & Sendable, Format: Sendable>: CoderProtocol {
    /// A received message: its decoded content and metadata.
    public typealias Message<Content> = (content: Content, metadata: CoderMetadata)

    var lower: ProtocolStackConfiguration
    /// The serialization format.
    public let format: CoderFormat
    var maximumMessageSize = 16 * 1024 * 1024

    /// Sends and receives `sending`/`receiving` values in `format` over the declared stream protocol.
    public init<S: StreamProtocolOptions>(
        sending: Sending.Type, receiving: Receiving.Type, using format: CoderFormat,
        @ProtocolStackBuilder _ stack: () -> S
    ) where Format == CoderFormat {
        lower = stack().stackConfiguration
        self.format = format
    }

    /// Sets the largest accepted encoded message in bytes.
    public func maximumMessageSize(_ bytes: Int) -> Coder { var c = self; c.maximumMessageSize = bytes; return c }

    /// The stack configuration with Coder framing on top.
    public var stackConfiguration: ProtocolStackConfiguration {
        var s = lower
        s.framing = .coder
        s.maximumMessageSize = maximumMessageSize
        return s
    }
}

extension Coder where Sending == Receiving, Format == CoderFormat {
    /// Sends and receives values of one type in `format` over the declared stream protocol.
    public init<S: StreamProtocolOptions>(_ type: Sending.Type, using format: CoderFormat,
                                          @ProtocolStackBuilder _ stack: () -> S) {
        self.init(sending: type, receiving: type, using: format, stack)
    }
}

/// Metadata of a received Coder message.
public struct CoderMetadata: Sendable {
    /// Size of the encoded message in bytes.
    public var encodedSize: Int
}

/// A message protocol that sends and receives Codable values (``Coder``).
public protocol CoderProtocol: MessageProtocol {
    /// The type sent.
    associatedtype Sending: Encodable & Sendable
    /// The type received.
    associatedtype Receiving: Decodable & Sendable
    /// The serialization format.
    var format: CoderFormat { get }
}
