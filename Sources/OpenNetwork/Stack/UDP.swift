/// UDP datagrams over IP: `NetworkConnection(to: endpoint) { UDP() }`; each `send` is one datagram and each
/// `receive` returns one. A connection is a connected socket (datagrams from other addresses are dropped by the
/// kernel). `NetworkListener { UDP() }` hands over one connection per remote address and port (a flow), as Apple's
/// listener does.
public struct UDP: DatagramProtocol {
    /// Metadata of a received datagram.
    public struct Metadata: Sendable {
        /// The datagram's size in bytes.
        public var size: Int
    }
    /// A received datagram: its content and metadata.
    public typealias Message<Content> = (content: Content, metadata: Metadata)

    var ip: IP

    /// UDP over default IP.
    public init() { ip = IP() }
    /// UDP over the declared IP options.
    public init(@ProtocolStackBuilderIP _ ip: () -> IP) { self.ip = ip() }

    /// The stack configuration of this UDP layer.
    public var stackConfiguration: ProtocolStackConfiguration {
        var s = ProtocolStackConfiguration()
        s.ip = ip
        s.transport = .udp
        return s
    }
}

/// A datagram protocol (UDP): every send and receive is one whole datagram.
public protocol DatagramProtocol: NetworkProtocolOptions {}
