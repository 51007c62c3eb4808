import OpenNetwork

/// Browses for a Wi-Fi Aware service on paired devices: `NetworkBrowser(for: .wifiAware(.connecting(to:
/// .allPairedDevices, from: .myService)))`. On Linux the browser's `run` throws ``WiFiAwareError/unsupported``.
public struct WASubscriberBrowser: BrowseDescriptor, Hashable {
    /// The devices browsed.
    public let devices: WAPairedDevicesSelector
    /// The service browsed for.
    public let service: WASubscribableService

    /// Browses `devices` for `service`.
    public static func connecting(
        to devices: WAPairedDevicesSelector, from service: WASubscribableService
    ) -> WASubscriberBrowser {
        WASubscriberBrowser(devices: devices, service: service)
    }

    /// Why a browse with this descriptor fails here.
    public var unsupportedReason: String? { WiFiAwareError.unsupported.description }
}

extension BrowseDescriptor where Self == WASubscriberBrowser {
    /// Wi-Fi Aware browsing (fails on Linux with ``WiFiAwareError/unsupported``).
    public static func wifiAware(_ browser: WASubscriberBrowser) -> WASubscriberBrowser { browser }
}
