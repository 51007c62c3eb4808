import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS

#if canImport(Glibc)
    import Glibc
#endif

/// Builds NIO channels for a protocol stack: socket options, TLS handlers and the connection's own handler.
enum Transport {
    /// A configured channel, its data path, and a future that completes when it is ready (TLS handshake done),
    /// with the ALPN protocol negotiated, if any.
    typealias Established = (channel: any Channel, io: ConnectionIO, ready: EventLoopFuture<String?>)

    static var group: MultiThreadedEventLoopGroup { .singleton }

    /// Opens a connected UDP socket to `endpoint`; datagrams travel as ByteBuffers through the async wrapper.
    static func connectUDP(to endpoint: NWEndpoint, config: ProtocolStackConfiguration) async throws -> Established {
        guard case .hostPort(let host, let port) = endpoint else {
            throw NWError.transport("UDP needs a host and port endpoint, not \(endpoint)")
        }
        let addresses: [SocketAddress]
        if let fixed = config.resolvedAddresses {
            addresses = fixed.compactMap { try? SocketAddress(ipAddress: $0, port: Int(port.rawValue)) }
        } else if isIPLiteral(host.name) {
            addresses = [try SocketAddress(ipAddress: host.name, port: Int(port.rawValue))]
        } else {
            var found: [SocketAddress] = []
            for family in config.ip.version == .any ? [IP.Version.v6, .v4] : [config.ip.version] {
                found += (try? resolve(host.name, port: Int(port.rawValue), version: family)) ?? []
            }
            addresses = found
        }
        let usable = addresses.filter {
            switch config.ip.version {
            case .any: true
            case .v4: $0.protocol == .inet
            case .v6: $0.protocol == .inet6
            }
        }
        guard let address = usable.first else { throw NWError.dns(host.name) }
        // A datagram can be up to 65,507 bytes over IPv4; NIO's default read buffer (2 KiB) would truncate it.
        return try await DatagramBootstrap(group: group)
            .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 65_536))
            .connect(to: address) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(DatagramEnvelopeHandler())
                    return try configure(channel: channel, config: config, tls: nil)
                }
            }
    }

    /// Connects to `endpoint` with the stack's options.
    static func connect(to endpoint: NWEndpoint, config: ProtocolStackConfiguration) async throws -> Established {
        if case .service(let name, let type, let domain, _) = endpoint,
            NetworkBrowser<BonjourBrowseDescriptor>.normalized(domain).lowercased() != "local"
        {
            // A service in a unicast DNS domain: its SRV record from the system's DNS servers, then its target host.
            let bare = NetworkBrowser<BonjourBrowseDescriptor>.normalized(domain)
            let found = try await UnicastDNS.resolve(name: name, type: type, domain: bare)
            return try await connect(
                to: .hostPort(host: .init(found.host), port: .init(rawValue: found.port)), config: config)
        }
        if case .service(let name, let type, let domain, _) = endpoint {
            // A Bonjour service: its SRV and address records first, then each address in turn (IPv6 ones first).
            let found = try await MulticastDNS.shared.resolve(name: name, type: type, domain: domain)
            // A link-local IPv6 address is reached through the interface it was heard on: it gets that scope.
            let scope = MulticastDNS.interface(found.interface)?.name
            let hosts = found.addresses.sorted { $0.count > $1.count }.compactMap { bytes -> NWEndpoint.Host? in
                let host = NWEndpoint.Host(bytes: bytes)
                guard bytes.count == 16, bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 else { return host }
                return scope.map { NWEndpoint.Host("\(host.name)%\($0)") }
            }
            var lastError: any Error = NWError.dns(endpoint.description)
            for host in hosts {
                do {
                    return try await connect(
                        to: .hostPort(host: host, port: .init(rawValue: found.port)), config: config)
                } catch {
                    lastError = error
                }
            }
            throw lastError
        }
        if case .url(let url) = endpoint {
            let (hostPort, adjusted) = try resolve(url, config: config)
            return try await connect(to: hostPort, config: adjusted)
        }
        if config.transport == .quic { throw QUIC.unavailable }
        if config.transport == .udp { return try await connectUDP(to: endpoint, config: config) }
        // One read per wakeup: the inbound buffer's mark holds within one read (see ConnectionBuffers.largestRead).
        var bootstrap = ClientBootstrap(group: group).channelOption(.maxMessagesPerRead, value: 1)
            .channelOption(.allowRemoteHalfClosure, value: config.halfClosure)
        if let timeout = config.tcp.connectionTimeout {
            bootstrap = bootstrap.connectTimeout(.nanoseconds(nanoseconds(timeout)))
        }
        let tlsContext: NIOSSLContext?
        var serverName: String?
        if let tls = config.tls {
            let host: String? = { if case .hostPort(let h, _) = endpoint { return h.name } else { return nil } }()
            serverName = tls.serverName ?? host.flatMap { isIPLiteral($0) ? nil : $0 }
            let options = TLS(options: tls)
            tlsContext = try NIOSSLContext(configuration: try options.clientConfiguration(host: serverName))
        } else {
            tlsContext = nil
        }
        let sni = serverName
        // The Host header of a WebSocket upgrade: the name (or address) and port connected to.
        let webSocketHost: String? = {
            guard case .hostPort(let h, let p) = endpoint else { return nil }
            return h.name.contains(":") ? "[\(h.name)]:\(p.rawValue)" : "\(h.name):\(p.rawValue)"
        }()
        let initializer: @Sendable (Channel) -> EventLoopFuture<Established> = { channel in
            channel.eventLoop.makeCompletedFuture {
                try configure(
                    channel: channel, config: config,
                    tls: tlsContext.map { ctx in
                        { try NIOSSLClientHandler(context: ctx, serverHostname: sni) }
                    },
                    expectedName: config.tls?.peerVerification == true && config.tls?.usesPreSharedKeys == false
                        ? sni : nil, host: webSocketHost)
            }
        }
        switch endpoint {
        case .service, .url: preconditionFailure("service and URL endpoints are resolved above")
        case .unix(let path):
            return try await bootstrap.connect(unixDomainSocketPath: path, channelInitializer: initializer)
        case .hostPort(let host, let port):
            bootstrap = applySocketOptions(bootstrap, config: config)
            if let fixed = config.resolvedAddresses {
                bootstrap = bootstrap.resolver(StaticResolver(addresses: fixed, eventLoop: group.next()))
            }
            if config.resolvedAddresses == nil,
                let literal = try? SocketAddress(ipAddress: host.name, port: Int(port.rawValue)),
                config.ip.version == .any || (config.ip.version == .v4) == (literal.protocol == .inet)
            {
                // An address needs no resolving (nor a race of families): connect to it directly. (`try?`: a name
                // that is not an address literal is resolved below.)
                return try await bootstrap.connect(to: literal, channelInitializer: initializer)
            }
            if config.ip.version == .any {
                // NIO's connect-by-name resolves A and AAAA and races the addresses (Happy Eyeballs v2,
                // RFC 8305): IPv6 first, IPv4 250 ms later or as soon as an attempt fails.
                return try await bootstrap.connect(
                    host: host.name, port: Int(port.rawValue), channelInitializer: initializer)
            }
            let addresses: [SocketAddress]
            if let fixed = config.resolvedAddresses {
                addresses = fixed.compactMap { try? SocketAddress(ipAddress: $0, port: Int(port.rawValue)) }
                    .filter { $0.protocol == (config.ip.version == .v4 ? .inet : .inet6) }
            } else {
                addresses = try resolve(host.name, port: Int(port.rawValue), version: config.ip.version)
            }
            var lastError: any Error = NWError.dns(host.name)
            for address in addresses {
                do { return try await bootstrap.connect(to: address, channelInitializer: initializer) } catch {
                    lastError = error
                }
            }
            throw lastError
        }
    }

    /// A URL endpoint as a host and port, and the stack with a WebSocket layer's path taken from the URL.
    static func resolve(
        _ url: URL, config: ProtocolStackConfiguration
    ) throws -> (NWEndpoint, ProtocolStackConfiguration) {
        guard let host = url.host, !host.isEmpty else { throw NWError.transport("the URL \(url) has no host") }
        let scheme = url.scheme?.lowercased() ?? ""
        let secure = scheme == "wss" || scheme == "https"
        if secure && config.tls == nil {
            throw NWError.transport("the URL \(url) asks for TLS (\(scheme)) but the stack has none")
        }
        guard let port = UInt16(exactly: url.port ?? (secure ? 443 : 80)) else {
            throw NWError.transport("the URL \(url) has an invalid port")
        }
        var adjusted = config
        if case .webSocket(var settings) = config.framing {
            var target = url.path.isEmpty ? "/" : url.path
            if let query = url.query { target += "?" + query }
            settings.path = target
            adjusted.framing = .webSocket(settings)
        }
        return (.hostPort(host: NWEndpoint.Host(host), port: NWEndpoint.Port(rawValue: port)), adjusted)
    }

    /// Adds TLS (if any), the handshake observer and the connection's handler (with a fresh data path) to a fresh
    /// channel.
    static func configure(
        channel: Channel, config: ProtocolStackConfiguration,
        tls: (() throws -> ChannelHandler)?, expectedName: String? = nil, isServer: Bool = false, host: String? = nil
    ) throws -> Established {
        let sync = channel.pipeline.syncOperations
        let ready: EventLoopFuture<String?>
        if let tls {
            try sync.addHandler(tls())
            let observer = HandshakeObserver(
                timeout: config.tls?.handshakeTimeout ?? .seconds(10),
                expectedName: expectedName,
                promise: channel.eventLoop.makePromise())
            try sync.addHandler(observer)
            ready = observer.promise.futureResult
        } else {
            ready = channel.eventLoop.makeSucceededFuture(nil)
        }
        if let idle = config.tcp.idleTimeout {
            try sync.addHandler(IdleStateHandler(allTimeout: .nanoseconds(nanoseconds(idle))))
            try sync.addHandler(IdleTimeoutHandler())
        }
        let io = ConnectionIO(isDatagram: config.isMessageTransport)
        if case .webSocket(let settings) = config.framing {
            // The connection's handler joins the pipeline once the upgrade is done; ready after TLS and the upgrade.
            let upgraded = try WebSocketPipeline.configure(
                channel: channel, io: io, isServer: isServer, host: host, settings: settings,
                maximumMessageSize: config.maximumMessageSize)
            return (channel, io, ready.flatMap { alpn in upgraded.map { alpn } })
        }
        try sync.addHandler(ConnectionHandler(io: io))
        return (channel, io, ready)
    }

    /// The socket options a TCP stack asks for: TCP_NODELAY (on or off), SO_KEEPALIVE, and with
    /// fragmentation disabled IP_MTU_DISCOVER = IP_PMTUDISC_DO (the Don't Fragment bit, IPv4 only).
    static func socketOptions(
        config: ProtocolStackConfiguration, family: NIOBSDSocket.ProtocolFamily?
    )
        -> [(ChannelOptions.Types.SocketOption, SocketOptionValue)]
    {
        var options: [(ChannelOptions.Types.SocketOption, SocketOptionValue)] = [
            (.init(level: .tcp, name: .tcp_nodelay), config.tcp.noDelay ? 1 : 0)
        ]
        if config.tcp.keepAlive { options.append((.init(level: .socket, name: .so_keepalive), 1)) }
        for (name, value) in [
            (TCP_KEEPIDLE, config.tcp.keepaliveIdle), (TCP_KEEPINTVL, config.tcp.keepaliveInterval),
            (TCP_KEEPCNT, config.tcp.keepaliveCount),
        ] where value > 0 {
            options.append((.init(level: .tcp, name: .init(rawValue: name)), SocketOptionValue(value)))
        }
        if !config.ip.fragmentationEnabled && config.ip.version != .v6 && family != .inet6 {
            options.append(
                (
                    ChannelOptions.Types.SocketOption(
                        level: SocketOptionLevel(IPPROTO_IP),
                        name: SocketOptionName(IP_MTU_DISCOVER)),
                    SocketOptionValue(IP_PMTUDISC_DO)
                ))
        }
        return options
    }

    static func applySocketOptions(_ b: ClientBootstrap, config: ProtocolStackConfiguration) -> ClientBootstrap {
        var b = b
        for (option, value) in socketOptions(config: config, family: nil) { b = b.channelOption(option, value: value) }
        return b
    }

    /// Sets the stack's socket options on an accepted TCP channel (a listener's child; not Unix sockets).
    static func applySocketOptions(to channel: Channel, config: ProtocolStackConfiguration) throws {
        guard let family = channel.localAddress?.protocol, family != .unix, let sync = channel.syncOptions else {
            return
        }
        for (option, value) in socketOptions(config: config, family: family) {
            try sync.setOption(option, value: value)
        }
    }

    /// Closes a channel that will not be served.
    static func discard(_ channel: any Channel) async {
        // Absence is the meaning: a channel already closed needs nothing more.
        try? await channel.close()
    }

    /// A Duration as whole nanoseconds (for NIO's TimeAmount).
    static func nanoseconds(_ d: Duration) -> Int64 {
        let (s, atto) = d.components
        return s * 1_000_000_000 + atto / 1_000_000_000
    }

    static func isIPLiteral(_ s: String) -> Bool {
        (try? SocketAddress(ipAddress: s, port: 0)) != nil
    }

    /// Resolves a name restricted to one IP family.
    static func resolve(_ host: String, port: Int, version: IP.Version) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = version == .v4 ? AF_INET : AF_INET6
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &result)
        guard rc == 0, let first = result else { throw NWError.dns(host) }
        defer { freeaddrinfo(first) }
        var out: [SocketAddress] = []
        var p: UnsafeMutablePointer<addrinfo>? = first
        while let a = p {
            if let sa = a.pointee.ai_addr {
                if a.pointee.ai_family == AF_INET {
                    sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        out.append(SocketAddress($0.pointee, host: host))
                    }
                } else if a.pointee.ai_family == AF_INET6 {
                    sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        out.append(SocketAddress($0.pointee, host: host))
                    }
                }
            }
            p = a.pointee.ai_next
        }
        guard !out.isEmpty else { throw NWError.dns(host) }
        return out
    }
}

extension TLS {
    init(options: Options) {
        self.init()
        self.options = options
    }
}

/// Completes a promise when the TLS handshake finishes, fails it on error, close or timeout.
final class HandshakeObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    let promise: EventLoopPromise<String?>
    let timeout: Duration
    /// The DNS name the peer's certificate must be valid for (clients that verify, with a server name).
    let expectedName: String?
    private var done = false
    private var timer: Scheduled<Void>?

    init(timeout: Duration, expectedName: String?, promise: EventLoopPromise<String?>) {
        self.timeout = timeout
        self.expectedName = expectedName
        self.promise = promise
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let nanos = Transport.nanoseconds(timeout)
        timer = context.eventLoop.scheduleTask(in: .nanoseconds(nanos)) {
            let (me, ctx) = bound.value
            me.finish(.failure(NWError.timedOut))
            ctx.close(promise: nil)
        }
    }

    private func finish(_ result: Result<String?, any Error>) {
        guard !done else { return }
        done = true
        timer?.cancel()
        switch result {
        case .success(let alpn): promise.succeed(alpn)
        case .failure(let e): promise.fail(e)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let e = event as? TLSUserEvent, case .handshakeCompleted(let alpn) = e {
            // NIOSSL accepts a certificate whose IP address entry matches the peer even when a server
            // name was asked for; the name itself must match too.
            // (`try?`: the TLS handler is gone only when the channel is already closing: nothing left to check.)
            if let name = expectedName,
                let tls = try? context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self),
                let certificate = tls.peerCertificate,
                let problem = ServerNameCheck.problem(certificate: certificate, name: name)
            {
                finish(.failure(NWError.tls(problem)))
                context.close(promise: nil)
                return
            }
            finish(.success(alpn))
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(error))
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(NWError.tls("peer closed the connection during the TLS handshake")))
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish(.failure(NWError.cancelled))
    }
}

/// Turns an idle event (nothing read or written for the idle timeout) into an ETIMEDOUT failure.
final class IdleTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .all {
            context.fireErrorCaught(NWError.timedOut)
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Turns a connected datagram channel's envelopes into plain ByteBuffers (one per datagram) and back.
final class DatagramEnvelopeHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(wrapInboundOut(unwrapInboundIn(data).data))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let remote = context.channel.remoteAddress else {
            promise?.fail(NWError.connectionClosed)
            return
        }
        context.write(
            wrapOutboundOut(AddressedEnvelope(remoteAddress: remote, data: unwrapOutboundIn(data))),
            promise: promise)
    }
}
