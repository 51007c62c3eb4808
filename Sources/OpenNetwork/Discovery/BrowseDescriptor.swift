/// What a ``NetworkBrowser`` looks for.
///
/// A descriptor for a kind of discovery Linux cannot do (Wi-Fi Aware) says why in ``unsupportedReason``; a browse
/// with it throws that reason.
public protocol BrowseDescriptor: Sendable {
    /// Why browsing with this descriptor cannot work here; nil when it can.
    var unsupportedReason: String? { get }
}

extension BrowseDescriptor {
    /// Nil: the descriptor's kind of discovery works.
    public var unsupportedReason: String? { nil }
}

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
