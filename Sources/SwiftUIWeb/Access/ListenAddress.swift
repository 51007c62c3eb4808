import NIOCore

/// What an address the server listens on reaches: this machine only (loopback), or beyond it.
enum ListenAddress {
    /// Whether `address` reaches this machine only: `localhost`, 127.0.0.0/8 or `::1`.
    static func isLoopback(_ address: String) -> Bool {
        if address.lowercased() == "localhost" { return true }
        guard let canonical = canonicalIP(address) else { return false }
        return canonical == "::1" || (!canonical.contains(":") && canonical.hasPrefix("127."))
    }

    /// Whether `address` listens on every interface (`0.0.0.0` or `::`).
    static func isWildcard(_ address: String) -> Bool {
        let canonical = canonicalIP(address)
        return canonical == "0.0.0.0" || canonical == "::"
    }

    /// `address` as the host part of a URL: IPv6 addresses in brackets.
    static func urlHost(_ address: String) -> String {
        address.contains(":") && !address.hasPrefix("[") ? "[\(address)]" : address
    }

    /// An IP address in its canonical text form (`::1` for `0:0:0:0:0:0:0:1`), or `nil` for a name.
    private static func canonicalIP(_ address: String) -> String? {
        let bare = address.hasPrefix("[") && address.hasSuffix("]") ? String(address.dropFirst().dropLast()) : address
        // A name rather than an address: absence is the answer.
        return (try? SocketAddress(ipAddress: bare, port: 0))?.ipAddress
    }
}
