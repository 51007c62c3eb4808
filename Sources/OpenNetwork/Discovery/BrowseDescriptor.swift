/// What a ``NetworkBrowser`` looks for.
public protocol BrowseDescriptor: Sendable {}

/// Bonjour services of one type in one domain: `.bonjour("_orchard._tcp")`.
public struct BonjourBrowseDescriptor: BrowseDescriptor, Hashable {
    /// The service type, `_name._tcp` or `_name._udp`.
    public let type: String
    /// The domain; nil browses the default domain (`local.`).
    public let domain: String?
    /// Whether found endpoints carry their TXT record (``NWEndpoint/txtRecord``).
    public let includeTxtRecord: Bool

    /// Services of `type` in `domain` (nil: `local.`), with their TXT records when `includeTxtRecord` is true.
    public init(type: String, domain: String? = nil, includeTxtRecord: Bool = false) {
        self.type = type
        self.domain = domain
        self.includeTxtRecord = includeTxtRecord
    }
}

extension BrowseDescriptor where Self == BonjourBrowseDescriptor {
    /// Bonjour services of `type` (`_orchard._tcp`) in `domain` (nil: `local.`).
    public static func bonjour(_ type: String, domain: String? = nil, includeTxtRecord: Bool = false) -> Self {
        BonjourBrowseDescriptor(type: type, domain: domain, includeTxtRecord: includeTxtRecord)
    }
}
