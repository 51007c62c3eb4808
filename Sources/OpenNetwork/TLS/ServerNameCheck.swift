import NIOSSL
import X509

/// Checks that a peer certificate is valid for a DNS name (subject alternative names, one-label wildcards).
enum ServerNameCheck {
    /// nil when `certificate` is valid for `name`; otherwise why not.
    static func problem(certificate: NIOSSLCertificate, name: String) -> String? {
        let wanted = name.lowercased().trimmingSuffix(".")
        let parsed: Certificate
        do {
            parsed = try Certificate(derEncoded: try certificate.toDERBytes())
        } catch {
            return "cannot read the peer certificate: \(error)"
        }
        let dnsNames: [String] = ((try? parsed.extensions.subjectAlternativeNames) ?? nil)?.compactMap {
            if case .dnsName(let n) = $0 { return n.lowercased().trimmingSuffix(".") } else { return nil }
        } ?? []
        if dnsNames.contains(where: { matches(pattern: $0, name: wanted) }) { return nil }
        let listed = dnsNames.isEmpty ? "no DNS names" : dnsNames.joined(separator: ", ")
        return "certificate is not valid for host name \(name) (it names \(listed))"
    }

    /// Exact match, or `*.rest` matching exactly one leading label.
    static func matches(pattern: String, name: String) -> Bool {
        if pattern == name { return true }
        guard pattern.hasPrefix("*."), let dot = name.firstIndex(of: ".") else { return false }
        return name[dot...] == pattern.dropFirst(1) && dot != name.startIndex
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
