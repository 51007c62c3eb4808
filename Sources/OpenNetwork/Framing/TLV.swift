/// Type-length-value framing over a stream protocol: `TLV { TLS() }`.
///
/// Wire format (our choice; Apple documents none): each message is a type field, then a length field,
/// both unsigned big-endian integers, then `length` bytes of value. The default widths are 4 bytes for
/// the type and 4 bytes for the length; `init(type:length:_:)` picks other unsigned widths.
/// A length above ``maximumMessageSize(_:)`` (default 16 MiB) fails the connection with
/// ``NWError/messageTooLarge(length:limit:)`` before any buffer is allocated.
public struct TLV: MessageProtocol {
    /// Metadata of a received TLV message.
    public struct Metadata: Sendable {
        /// The message's type field.
        public var type: Int
    }
    /// A received message: its content and metadata.
    public typealias Message<Content> = (content: Content, metadata: Metadata)

    var lower: ProtocolStackConfiguration
    let typeWidth: Int
    let lengthWidth: Int
    var maximumMessageSize = 16 * 1024 * 1024

    /// TLV with 4-byte type and length over the declared stream protocol.
    public init<S: StreamProtocolOptions>(@ProtocolStackBuilder _ stack: () -> S) {
        self.init(type: UInt32.self, length: UInt32.self, stack)
    }

    /// TLV with the given unsigned integer widths for the type and length fields.
    public init<
        T: UnsignedInteger & FixedWidthInteger, L: UnsignedInteger & FixedWidthInteger, S: StreamProtocolOptions
    >(
        type: T.Type, length: L.Type, @ProtocolStackBuilder _ stack: () -> S
    ) {
        lower = stack().stackConfiguration
        typeWidth = T.bitWidth / 8
        lengthWidth = L.bitWidth / 8
    }

    /// Sets the largest accepted message (value length) in bytes.
    public func maximumMessageSize(_ bytes: Int) -> TLV {
        var c = self
        c.maximumMessageSize = bytes
        return c
    }

    /// The stack configuration with TLV framing on top.
    public var stackConfiguration: ProtocolStackConfiguration {
        var s = lower
        s.framing = .tlv(typeWidth: typeWidth, lengthWidth: lengthWidth)
        s.maximumMessageSize = maximumMessageSize
        return s
    }
}
