/// The host names a request's `Host` header may carry. A browser sends the name it looked up, so a page of
/// another site whose DNS answer was rebound to 127.0.0.1 still says its own name and is refused here.
struct HostAllowlist: Sendable, Equatable {
    /// Allowed names: lowercased, without a port, IPv6 addresses without brackets, no trailing dot.
    let names: Set<String>

    /// The loopback names every app answers to.
    static let loopbackNames: Set<String> = ["localhost", "127.0.0.1", "::1"]

    /// The loopback names and `extra` names (each a host name, IPv4 address or IPv6 address, with or without
    /// brackets).
    init(extra: [String] = []) {
        var names = HostAllowlist.loopbackNames
        for name in extra {
            if let normalized = HostAllowlist.hostName(ofAuthority: name) { names.insert(normalized) }
        }
        self.names = names
    }

    /// Whether a request with this `Host` (or HTTP/2 `:authority`) is served. A missing or malformed one is not.
    func allows(authority: String?) -> Bool {
        guard let authority, let name = HostAllowlist.hostName(ofAuthority: authority) else { return false }
        return names.contains(name)
    }

    /// The host name of an authority (`name`, `name:port`, `[v6]`, `[v6]:port`), lowercased, without a
    /// trailing dot; `nil` when it is malformed (empty, a bad port, a bare IPv6 address, characters a host
    /// name cannot have).
    static func hostName(ofAuthority authority: String) -> String? {
        let text = Substring(authority.lowercased())
        var name: Substring
        var rest: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            name = text[text.index(after: text.startIndex)..<close]
            rest = text[text.index(after: close)...]
            guard !name.isEmpty, name.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            let colons = text.filter { $0 == ":" }.count
            if colons == 0 {
                name = text
                rest = ""
            } else if colons == 1, let colon = text.firstIndex(of: ":") {
                name = text[..<colon]
                rest = text[colon...]
            } else {
                // A bare IPv6 address (no brackets) is the extra names' form, never a Host header's.
                guard text.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
                return String(text)
            }
            if name.hasSuffix(".") { name = name.dropLast() }
            let allowed = name.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "." }
            guard !name.isEmpty, allowed else { return nil }
        }
        if !rest.isEmpty {
            let port = rest.dropFirst()
            guard rest.first == ":", !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCII),
                port.allSatisfy(\.isNumber)
            else { return nil }
        }
        return String(name)
    }
}
