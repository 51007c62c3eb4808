/// The TCP transport, with its options as modifiers: `TCP { IP().version(.v4) }.noDelay(true)`.
public struct TCP: StreamProtocolOptions {
    struct Options: Sendable {
        var noDelay = true
        var keepAlive = false
        var connectionTimeout: Duration?
        var idleTimeout: Duration?
        /// TCP_KEEPIDLE, TCP_KEEPINTVL and TCP_KEEPCNT in seconds and probes (0: the system's; set by NWProtocolTCP).
        var keepaliveIdle = 0
        var keepaliveInterval = 0
        var keepaliveCount = 0
    }
    var ip: IP
    var options = Options()

    /// TCP over default IP.
    public init() { ip = IP() }
    /// TCP over the declared IP options.
    public init(@ProtocolStackBuilderIP _ ip: () -> IP) { self.ip = ip() }

    /// Disables (true, the default here) or enables Nagle's algorithm.
    public func noDelay(_ enabled: Bool) -> TCP {
        var c = self
        c.options.noDelay = enabled
        return c
    }
    /// Enables TCP keep-alive probes (SO_KEEPALIVE).
    public func enableKeepalive(_ enabled: Bool = true) -> TCP {
        var c = self
        c.options.keepAlive = enabled
        return c
    }
    /// Fails the connection with ETIMEDOUT when it is not ready within the timeout (connect plus
    /// handshakes, including time spent waiting). Without a timeout a connection waits until cancelled.
    public func connectionTimeout(_ timeout: Duration) -> TCP {
        var c = self
        c.options.connectionTimeout = timeout
        return c
    }

    /// Fails the connection with ETIMEDOUT when nothing has been sent or received for `timeout` once it
    /// is established (OpenNetwork's addition, to shed idle or stalled peers; no timeout by default).
    /// In a listener's stack it applies to every accepted connection.
    public func idleTimeout(_ timeout: Duration) -> TCP {
        var c = self
        c.options.idleTimeout = timeout
        return c
    }

    /// The stack configuration of this TCP layer.
    public var stackConfiguration: ProtocolStackConfiguration {
        var s = ProtocolStackConfiguration()
        s.ip = ip
        s.tcp = options
        return s
    }
}

/// Builds the IP layer under TCP.
@resultBuilder
public enum ProtocolStackBuilderIP {
    /// Passes the IP options through.
    public static func buildBlock(_ ip: IP) -> IP { ip }
}
