/// The IP layer of a stack, with its options as modifiers.
public struct IP: Sendable {
    /// Which IP version to use.
    public enum Version: Sendable { case any, v4, v6 }
    var version: Version = .any
    var fragmentationEnabled = true

    /// IP with default options (any version, fragmentation allowed).
    public init() {}

    /// Restricts the connection to one IP version (resolved addresses of the other family are skipped).
    public func version(_ version: Version) -> IP {
        var c = self
        c.version = version
        return c
    }

    /// Enables or disables IP fragmentation. On Linux, `false` sets IP_MTU_DISCOVER to IP_PMTUDISC_DO
    /// (the Don't Fragment bit) on IPv4 sockets; on IPv6 the kernel never fragments in transit anyway.
    public func fragmentationEnabled(_ enabled: Bool) -> IP {
        var c = self
        c.fragmentationEnabled = enabled
        return c
    }
}
