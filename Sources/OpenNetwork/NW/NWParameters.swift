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
        private var _keepaliveIdle = 0
        private var _keepaliveInterval = 0
        private var _keepaliveCount = 0

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

        /// Seconds a connection stays idle before the first keep-alive probe (TCP_KEEPIDLE; 0: the system's).
        public var keepaliveIdle: Int {
            get { lock.withLock { _keepaliveIdle } }
            set { lock.withLock { _keepaliveIdle = newValue } }
        }
        /// Seconds between keep-alive probes (TCP_KEEPINTVL; 0: the system's).
        public var keepaliveInterval: Int {
            get { lock.withLock { _keepaliveInterval } }
            set { lock.withLock { _keepaliveInterval = newValue } }
        }
        /// Unanswered probes after which the connection drops (TCP_KEEPCNT; 0: the system's).
        public var keepaliveCount: Int {
            get { lock.withLock { _keepaliveCount } }
            set { lock.withLock { _keepaliveCount = newValue } }
        }

        /// The declared TCP layer these options describe.
        var declared: TCP {
            var tcp = TCP().noDelay(noDelay).enableKeepalive(enableKeepalive)
            tcp.options.keepaliveIdle = keepaliveIdle
            tcp.options.keepaliveInterval = keepaliveInterval
            tcp.options.keepaliveCount = keepaliveCount
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

/// TLS's options, as the Network framework names them: the system's trust roots and the host name connected to by
/// default; pre-shared keys, cipher suites, versions, ALPN and identities through the `sec_protocol_options_*`
/// functions on ``Options/securityProtocolOptions`` (their Linux differences are in ``sec_protocol_options_t``).
public final class NWProtocolTLS {
    /// TLS options: `sec_protocol_options_add_pre_shared_key(options.securityProtocolOptions, key, identity)`.
    public final class Options: NWProtocolOptions, @unchecked Sendable {  // Unchecked: its one field is immutable.
        /// The settings the `sec_protocol_options_*` functions change.
        public let securityProtocolOptions = sec_protocol_options_t()

        /// TLS with the system's defaults.
        public override init() {}

        /// The declared TLS layer over `tcp`.
        func declared(over tcp: TCP) -> TLS {
            var tls = TLS { tcp }
            tls.options = securityProtocolOptions.current
            if !tls.options.preSharedKeys.isEmpty && !tls.options.peerVerificationSet {
                // Authenticated by the key: there is no certificate to ask for.
                tls.options.peerVerification = false
            }
            return tls
        }
    }
}

/// How a connection or listener is built: its protocol stack (application protocols such as TLS and framers, the
/// transport, IP) and options.
///
/// `NWParameters.tcp`, `.tls`, `.udp`, or `NWParameters(tls: tlsOptions, tcp: tcpOptions)`; a framer goes in with
/// `parameters.defaultProtocolStack.applicationProtocols.insert(framerOptions, at: 0)`. Each access of the static
/// properties gives a new object, as Apple's do.
public final class NWParameters: @unchecked Sendable, CustomDebugStringConvertible {  // Unchecked: fields under `lock`.
    /// The layers of a connection, top down: application protocols (TLS, framers), the transport, IP.
    public final class ProtocolStack: @unchecked Sendable {  // Unchecked: fields read under `lock`.
        private let lock = NIOLock()
        private var _applicationProtocols: [NWProtocolOptions]
        private var _transportProtocol: NWProtocolOptions?

        init(applicationProtocols: [NWProtocolOptions], transportProtocol: NWProtocolOptions?) {
            _applicationProtocols = applicationProtocols
            _transportProtocol = transportProtocol
        }

        /// The protocols above the transport, top first: a framer inserted at 0 runs over TLS.
        public var applicationProtocols: [NWProtocolOptions] {
            get { lock.withLock { _applicationProtocols } }
            set { lock.withLock { _applicationProtocols = newValue } }
        }
        /// The transport: ``NWProtocolTCP/Options`` or ``NWProtocolUDP/Options``.
        public var transportProtocol: NWProtocolOptions? {
            get { lock.withLock { _transportProtocol } }
            set { lock.withLock { _transportProtocol = newValue } }
        }
    }

    enum Transport: Sendable { case tcp, udp }
    private let lock = NIOLock()
    private var _includePeerToPeer = false

    /// The connection's layers.
    public let defaultProtocolStack: ProtocolStack

    /// TCP, with TLS when `tls` is given.
    public init(tls: NWProtocolTLS.Options?, tcp: NWProtocolTCP.Options = NWProtocolTCP.Options()) {
        defaultProtocolStack = ProtocolStack(applicationProtocols: tls.map { [$0] } ?? [], transportProtocol: tcp)
    }

    /// TCP with its default options.
    public convenience init() { self.init(tls: nil) }

    private init(udp: NWProtocolUDP.Options) {
        defaultProtocolStack = ProtocolStack(applicationProtocols: [], transportProtocol: udp)
    }

    /// TCP.
    public static var tcp: NWParameters { NWParameters(tls: nil) }
    /// TLS over TCP.
    public static var tls: NWParameters { NWParameters(tls: NWProtocolTLS.Options()) }
    /// UDP.
    public static var udp: NWParameters { NWParameters(udp: NWProtocolUDP.Options()) }

    /// Whether peer-to-peer links (Apple's AWDL) may be used. Linux has no such links: connections, listeners and
    /// browsers use the interfaces the system has either way; the value is kept for code that reads it back.
    public var includePeerToPeer: Bool {
        get { lock.withLock { _includePeerToPeer } }
        set { lock.withLock { _includePeerToPeer = newValue } }
    }

    /// The transport the stack declares.
    var transport: Transport { defaultProtocolStack.transportProtocol is NWProtocolUDP.Options ? .udp : .tcp }
    /// The TCP options the stack declares (defaults when it declares another transport).
    var tcpOptions: NWProtocolTCP.Options {
        defaultProtocolStack.transportProtocol as? NWProtocolTCP.Options ?? NWProtocolTCP.Options()
    }
    /// The TLS options among the application protocols, if any.
    var tlsOptions: NWProtocolTLS.Options? {
        defaultProtocolStack.applicationProtocols.lazy.compactMap { $0 as? NWProtocolTLS.Options }.first
    }

    /// The WebSocket options among the application protocols, if any.
    var webSocketOptions: NWProtocolWebSocket.Options? {
        defaultProtocolStack.applicationProtocols.lazy.compactMap { $0 as? NWProtocolWebSocket.Options }.first
    }

    /// The framer the stack puts over TLS or TCP, if any; throws for a stack that cannot be built here (two framers,
    /// a framer under TLS, a framer over UDP), saying which.
    func framer() throws -> NWProtocolFramer.Options? {
        let protocols = defaultProtocolStack.applicationProtocols
        let framers = protocols.compactMap { $0 as? NWProtocolFramer.Options }
        if webSocketOptions != nil && (!framers.isEmpty || transport == .udp) {
            throw NWError.transport(
                "WebSocket runs over TCP or TLS, without a framer, on Linux; this stack has "
                    + (transport == .udp ? "UDP" : "a framer"))
        }
        guard let framer = framers.first else { return nil }
        guard framers.count == 1 else {
            throw NWError.transport("a stack with \(framers.count) framers: one framer per stack is supported on Linux")
        }
        if let tls = protocols.firstIndex(where: { $0 is NWProtocolTLS.Options }),
            let index = protocols.firstIndex(where: { $0 === framer }), index > tls
        {
            throw NWError.transport("a framer under TLS: put it above (insert it at index 0 of applicationProtocols)")
        }
        guard transport == .tcp else {
            throw NWError.transport("a framer over UDP is not supported on Linux; frame over TCP or TLS")
        }
        return framer
    }

    /// The transport and its security, as Apple prints parameters.
    public var debugDescription: String {
        let layers = defaultProtocolStack.applicationProtocols.map { options -> String in
            switch options {
            case let framer as NWProtocolFramer.Options: framer.definition.name
            case is NWProtocolTLS.Options: "tls"
            case is NWProtocolWebSocket.Options: "websocket"
            default: "\(type(of: options))"
            }
        }
        return (layers + [transport == .udp ? "udp" : "tcp"]).joined(separator: ", ")
    }
}
