/// A Wi-Fi Aware service this app subscribes to (browses for), as the WiFiAware framework names it.
///
/// Linux difference: Wi-Fi Aware (Neighbor Awareness Networking) needs Apple's driver and framework, which Linux does
/// not have. The types exist so code written for Apple's systems compiles; browsing or listening with them fails
/// with ``WiFiAwareError/unsupported``. Services are named in code (`WASubscribableService(name:)`) since Linux apps
/// have no Info.plist to declare them in.
public struct WASubscribableService: Sendable, Hashable {
    /// The service name, `_name._tcp` or `_name._udp`.
    public let name: String

    /// The service named `name`.
    public init(name: String) { self.name = name }

    /// The services the app declared, by name. Linux apps declare none: this is empty.
    public static var allServices: [String: WASubscribableService] { [:] }
}

/// A Wi-Fi Aware service this app publishes (advertises), as the WiFiAware framework names it. See
/// ``WASubscribableService`` for the Linux difference.
public struct WAPublishableService: Sendable, Hashable {
    /// The service name, `_name._tcp` or `_name._udp`.
    public let name: String

    /// The service named `name`.
    public init(name: String) { self.name = name }

    /// The services the app declared, by name. Linux apps declare none: this is empty.
    public static var allServices: [String: WAPublishableService] { [:] }
}

/// Which paired devices a browser or listener reaches.
public struct WAPairedDevicesSelector: Sendable, Hashable {
    private let all: Bool

    /// Every device paired with this one.
    public static let allPairedDevices = WAPairedDevicesSelector(all: true)
}

/// Why Wi-Fi Aware cannot be used here.
public enum WiFiAwareError: Error, Sendable, CustomStringConvertible {
    /// Linux has no Wi-Fi Aware support.
    case unsupported

    /// The reason, for logs and alerts.
    public var description: String {
        "Wi-Fi Aware is not supported on Linux: it needs Apple's Wi-Fi Aware driver and framework; "
            + "find peers with Bonjour (.bonjour(_:)) instead"
    }
}
