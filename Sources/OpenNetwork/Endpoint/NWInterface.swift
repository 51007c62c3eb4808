import Foundation

/// A network interface: where a service was found, or a path goes.
public struct NWInterface: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of interfaces.
    public enum InterfaceType: Sendable, Hashable {
        /// A virtual or otherwise unclassified interface (veth pairs, tunnels).
        case other
        /// Wi-Fi.
        case wifi
        /// A cellular modem.
        case cellular
        /// Wired Ethernet.
        case wiredEthernet
        /// The loopback interface.
        case loopback
    }

    /// The interface's name (`eth0`).
    public let name: String
    /// The kernel's index of the interface.
    public let index: Int
    /// The interface's kind, read from /sys/class/net on Linux.
    public let type: InterfaceType

    init(name: String, index: Int) {
        self.name = name
        self.index = index
        type = Self.kind(of: name)
    }

    /// The name, as Apple's framework prints an interface.
    public var description: String { name }

    /// Linux says what an interface is in /sys/class/net/NAME: `wireless` for Wi-Fi, `device` for hardware.
    private static func kind(of name: String) -> InterfaceType {
        if name == "lo" { return .loopback }
        let base = "/sys/class/net/" + name
        if FileManager.default.fileExists(atPath: base + "/wireless") { return .wifi }
        if name.hasPrefix("wwan") { return .cellular }
        if FileManager.default.fileExists(atPath: base + "/device") { return .wiredEthernet }
        return .other
    }
}
