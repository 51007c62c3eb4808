import Foundation

/// Sends and receives Codable values: `Coder(GameMessage.self, using: .json) { TLS() }`.
///
/// Framing: each value is encoded by the ``NetworkCoder`` (`.json`, `.propertyList` or the app's own) and sent as a
/// 4-byte big-endian length followed by the encoded bytes. A length above ``maximumMessageSize(_:)`` (default 16 MiB)
/// fails the connection before allocating; bytes that do not decode as `Receiving` make `receive`
/// throw ``NWError/decodingFailed(_:)`` and leave the connection usable for the next message.
public struct Coder<Sending: Encodable & Sendable, Receiving: Decodable & Sendable, CoderType: NetworkCoder>:
    CoderProtocol
{
    /// A received message: its decoded content and metadata.
    public typealias Message<Content> = (content: Content, metadata: CoderMetadata)

    var lower: ProtocolStackConfiguration
    /// What encodes and decodes the values.
    public let coder: CoderType
    var maximumMessageSize = 16 * 1024 * 1024

    /// Sends `sending` and receives `receiving` values, encoded by `coder`, over the declared stream protocol.
    public init<S: StreamProtocolOptions>(
        sending: Sending.Type, receiving: Receiving.Type, using coder: CoderType,
        @ProtocolStackBuilder _ stack: () -> S
    ) {
        lower = stack().stackConfiguration
        self.coder = coder
    }

    /// Sets the largest accepted encoded message in bytes.
    public func maximumMessageSize(_ bytes: Int) -> Coder {
        var c = self
        c.maximumMessageSize = bytes
        return c
    }

    /// The stack configuration with Coder framing on top.
    public var stackConfiguration: ProtocolStackConfiguration {
        var s = lower
        s.framing = .coder
        s.maximumMessageSize = maximumMessageSize
        return s
    }
}

extension Coder where Sending == Receiving {
    /// Sends and receives values of one type, encoded by `coder`, over the declared stream protocol.
    public init<S: StreamProtocolOptions>(
        _ type: Sending.Type, using coder: CoderType, @ProtocolStackBuilder _ stack: () -> S
    ) {
        self.init(sending: type, receiving: type, using: coder, stack)
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
    /// What encodes and decodes the values.
    associatedtype CoderType: NetworkCoder
    /// What encodes and decodes the values.
    var coder: CoderType { get }
}
