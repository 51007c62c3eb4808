import Foundation

/// A local or remote endpoint: where a connection goes or a listener binds.
public enum NWEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// A host name or address literal and a port. Names are resolved (IPv4 and IPv6) and the resolved
    /// addresses are raced Happy-Eyeballs style.
    case hostPort(host: Host, port: Port)
    /// A Unix domain socket path.
    case unix(path: String)
    /// A Bonjour service instance, found by a ``NetworkBrowser`` or named by hand: `name` ("Living Room"),
    /// `type` ("_orchard._tcp"), `domain` ("local."), and the interface it was found on, if any. Connecting
    /// resolves its SRV and address records with multicast DNS first.
    case service(name: String, type: String, domain: String, interface: NWInterface?)
    /// A URL: its host and port (the scheme's default when it has none: 443 for `wss` and `https`, 80 otherwise),
    /// and for a WebSocket stack the path and query to upgrade at. A `wss` or `https` URL needs TLS in the stack.
    case url(URL)

    /// A host name or an IPv4/IPv6 address literal.
    public struct Host: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The textual name or address.
        public var name: String
        /// Creates a host from a name or address literal.
        public init(_ name: String) { self.name = name }
        /// The textual form of a 4-byte IPv4 or 16-byte IPv6 address.
        init(bytes: [UInt8]) {
            if bytes.count == 4 {
                name = bytes.map(String.init).joined(separator: ".")
            } else {
                name = stride(from: 0, to: bytes.count, by: 2).map {
                    String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
                }
                .joined(separator: ":")
            }
        }
        /// Creates a host from a string literal.
        public init(stringLiteral value: String) { self.name = value }
        /// The name or address.
        public var description: String { name }
    }

    /// A TCP or UDP port number.
    public struct Port: Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
        /// The port number in host byte order.
        public var rawValue: UInt16
        /// Creates a port from its number.
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        /// Creates a port from an integer literal.
        public init(integerLiteral value: UInt16) { self.rawValue = value }
        /// Port 0: the system chooses an ephemeral port when a listener binds.
        public static let any = Port(rawValue: 0)
        /// The decimal port number.
        public var description: String { String(rawValue) }
    }

    /// A readable form of the endpoint.
    public var description: String {
        switch self {
        case .hostPort(let host, let port):
            return host.name.contains(":") ? "[\(host.name)]:\(port)" : "\(host.name):\(port)"
        case .unix(let path): return "unix:\(path)"
        case .service(let name, let type, let domain, _): return "\(name).\(type).\(domain)"
        case .url(let url): return url.absoluteString
        }
    }
}

extension NWEndpoint {
    /// The TXT record a browse with `includeTxtRecord: true` saw with this service endpoint; nil for other
    /// endpoints, or when the browse did not ask for TXT records.
    public var txtRecord: NWTXTRecord? {
        guard case .service = self else { return nil }
        return DiscoveredTXTRecords.shared.withLockedValue { $0[self] }
    }
}
