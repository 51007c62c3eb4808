import NIOConcurrencyHelpers

/// Options of a protocol in an ``NWParameters`` stack.
public class NWProtocolOptions: @unchecked Sendable {  // Unchecked: subclasses keep their fields under `lock`.
    let lock = NIOLock()
}

/// TCP's options, as the Network framework names them.
public final class NWProtocolTCP {
    /// TCP options: `let tcp = NWProtocolTCP.Options(); tcp.noDelay = true`.
    public final class Options: NWProtocolOptions, @unchecked Sendable {  // Unchecked: fields read under `lock`.
        private var _noDelay = false
        private var _enableKeepalive = false
        private var _connectionTimeout = 0
        private var _connectionDropTime = 0

        /// An options set with TCP's defaults (Nagle's algorithm on, no keep-alive, no timeouts).
        public override init() {}

        /// Disables Nagle's algorithm (TCP_NODELAY).
        public var noDelay: Bool {
            get { lock.withLock { _noDelay } }
            set { lock.withLock { _noDelay = newValue } }
        }
        /// Sends keep-alive probes on an idle connection (SO_KEEPALIVE).
        public var enableKeepalive: Bool {
            get { lock.withLock { _enableKeepalive } }
            set { lock.withLock { _enableKeepalive = newValue } }
        }
        /// Seconds to wait for the connection to be established (0: no limit).
        public var connectionTimeout: Int {
            get { lock.withLock { _connectionTimeout } }
            set { lock.withLock { _connectionTimeout = newValue } }
        }
        /// Seconds after which a connection whose sent data stays unacknowledged is dropped (0: the system's).
        public var connectionDropTime: Int {
            get { lock.withLock { _connectionDropTime } }
            set { lock.withLock { _connectionDropTime = newValue } }
        }

        /// The declared TCP layer these options describe.
        var declared: TCP {
            var tcp = TCP().noDelay(noDelay).enableKeepalive(enableKeepalive)
            if connectionTimeout > 0 { tcp = tcp.connectionTimeout(.seconds(connectionTimeout)) }
            if connectionDropTime > 0 { tcp = tcp.idleTimeout(.seconds(connectionDropTime)) }
            return tcp
        }
    }
}

/// UDP's options, as the Network framework names them.
public final class NWProtocolUDP {
    /// UDP options (none apply on Linux beyond the defaults).
    public final class Options: NWProtocolOptions, @unchecked Sendable {  // Unchecked: no fields of its own.
        /// UDP's defaults.
        public override init() {}
    }
}

/// TLS's options, as the Network framework names them. The connection checks the server's certificate against the
/// system's trust roots and the host name it connects to.
///
/// Linux difference: Apple configures TLS further through the `sec_protocol_options_*` C functions (identities,
/// pre-shared keys, verify blocks); they are not built yet, so a listener cannot be given an identity through
/// `NWParameters` and ``NWListener`` refuses TLS parameters with an error saying so.
public final class NWProtocolTLS {
    /// TLS options with the system's defaults.
    public final class Options: NWProtocolOptions, @unchecked Sendable {  // Unchecked: no fields of its own.
        /// TLS with the system's defaults.
        public override init() {}
    }
}

/// How a connection or listener is built: transport, TLS and their options.
///
/// `NWParameters.tcp`, `.tls`, `.udp`, or `NWParameters(tls: tlsOptions, tcp: tcpOptions)`. Each access of the
/// static properties gives a new object, as Apple's do.
public final class NWParameters: Sendable, CustomDebugStringConvertible {
    enum Transport: Sendable { case tcp, udp }
    let transport: Transport
    let tcpOptions: NWProtocolTCP.Options
    let tlsOptions: NWProtocolTLS.Options?

    /// TCP, with TLS when `tls` is given.
    public init(tls: NWProtocolTLS.Options?, tcp: NWProtocolTCP.Options = NWProtocolTCP.Options()) {
        transport = .tcp
        tcpOptions = tcp
        tlsOptions = tls
    }

    /// TCP with its default options.
    public convenience init() { self.init(tls: nil) }

    private init(udp: NWProtocolUDP.Options) {
        transport = .udp
        tcpOptions = NWProtocolTCP.Options()
        tlsOptions = nil
    }

    /// TCP.
    public static var tcp: NWParameters { NWParameters(tls: nil) }
    /// TLS over TCP.
    public static var tls: NWParameters { NWParameters(tls: NWProtocolTLS.Options()) }
    /// UDP.
    public static var udp: NWParameters { NWParameters(udp: NWProtocolUDP.Options()) }

    /// The transport and its security, as Apple prints parameters.
    public var debugDescription: String {
        switch (transport, tlsOptions) {
        case (.udp, _): "udp"
        case (.tcp, nil): "tcp"
        case (.tcp, _): "tls, tcp"
        }
    }
}
