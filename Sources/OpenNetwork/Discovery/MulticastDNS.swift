import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// The process's multicast DNS responder and querier: ``MulticastDNSState`` driven on an event loop, with UDP sockets
/// on port 5353 on every suitable interface (up, multicast-capable, not loopback): one for IPv4 (224.0.0.251) when
/// the interface has an IPv4 address, one for IPv6 (ff02::fb) when it has an IPv6 one.
///
/// One runs per process, started on first use and kept for the process's life, as the system's mDNSResponder
/// serves every app on Apple's systems. Every question and announcement goes out on both families; the records it
/// publishes carry every address of the interface, link-local IPv6 ones included. A packet that does not parse is dropped and logged at debug level
/// (`OpenNetwork.MulticastDNS`) with the rule it broke: on a shared network, others' bad packets are not ours to
/// fail on.
final class MulticastDNS: Sendable {
    /// The responder of this process.
    static let shared = MulticastDNS()

    static let group4 = try! SocketAddress(ipAddress: "224.0.0.251", port: 5353)
    static let group6 = try! SocketAddress(ipAddress: "ff02::fb", port: 5353)
    let loop: any EventLoop
    private let running: NIOLoopBoundBox<Running>
    private let logger = Logger(label: "OpenNetwork.MulticastDNS")
    private let started: NIOLockedValueBox<EventLoopFuture<Void>?> = NIOLockedValueBox(nil)

    /// What is touched on the loop only.
    private struct Running {
        var state: MulticastDNSState?
        /// Each interface's sockets: IPv4, IPv6 or both.
        var channels: [Int: [Channel]] = [:]
        /// Packets sent in the last two seconds: multicast loopback brings them back, and they are not a peer's.
        var recentlySent: [(bytes: [UInt8], at: NIODeadline)] = []
        var timer: Scheduled<Void>?
        var nextID = 1
        var registrations: [Int: @Sendable (Event) -> Void] = [:]
        var browses: [Int: AsyncStream<[MulticastDNSState.Instance]>.Continuation] = [:]
        var resolves: [Int: EventLoopPromise<MulticastDNSState.Resolution>] = [:]
    }

    /// What a registration hears.
    enum Event: Sendable {
        case registered(name: String)
        case renamed(from: String, to: String)
    }

    private init() {
        loop = Transport.group.next()
        running = NIOLoopBoundBox.makeBoxSendingValue(Running(), eventLoop: loop)
    }

    // MARK: Starting

    /// Opens the sockets once; later calls wait for the first.
    func start() async throws {
        let future = started.withLockedValue { existing -> EventLoopFuture<Void> in
            if let existing { return existing }
            let promise = loop.makePromise(of: Void.self)
            promise.completeWithTask { try await self.open() }
            existing = promise.futureResult
            return promise.futureResult
        }
        do { try await future.get() } catch {
            // A start that failed (no multicast interface yet, the port taken) is forgotten: the next browse or
            // registration tries again.
            started.withLockedValue { if $0 === future { $0 = nil } }
            throw NWError.transport("multicast DNS could not start: \(error)")
        }
    }

    private func open() async throws {
        let all = try System.enumerateDevices()
        // Every multicast interface but loopback, with the families it has an address of (one entry per address).
        var families: [Int: (device: NIONetworkDevice, v4: NIONetworkDevice?, v6: NIONetworkDevice?)] = [:]
        for d in all where d.multicastSupported && !d.name.hasPrefix("lo") {
            guard let address = d.address else { continue }
            var entry = families[d.interfaceIndex] ?? (d, nil, nil)
            switch address {
            case .v4 where !(address.ipAddress ?? "").hasPrefix("127."): entry.v4 = entry.v4 ?? d
            case .v6 where address.ipAddress != "::1": entry.v6 = entry.v6 ?? d
            default: break
            }
            families[d.interfaceIndex] = entry
        }
        let usable = families.values.filter { $0.v4 != nil || $0.v6 != nil }.sorted {
            $0.device.interfaceIndex < $1.device.interfaceIndex
        }
        guard !usable.isEmpty else {
            throw NWError.transport("no interface with multicast (only loopback or none is up)")
        }
        var interfaces: [MulticastDNSState.Interface] = []
        var channels: [Int: [Channel]] = [:]
        do {
            for entry in usable {
                let index = entry.device.interfaceIndex
                if let v4 = entry.v4 { channels[index, default: []].append(try await openSocket(v4: v4)) }
                if let v6 = entry.v6 { channels[index, default: []].append(try await openSocket(v6: v6)) }
                // Link-local IPv6 addresses are published too: a peer on this link reaches them with the scope of
                // the interface it heard them on.
                let addresses = all.filter { $0.interfaceIndex == index }.compactMap(\.address).filter {
                    $0.protocol == .inet || $0.protocol == .inet6
                }
                interfaces.append(.init(index: index, name: entry.device.name, addresses: addresses.map(Self.bytes)))
            }
        } catch {
            // Nothing half-open stays behind a failed start.
            for channel in channels.values.joined() { channel.close(promise: nil) }
            throw error
        }
        let host = Self.hostLabel()
        let (finalChannels, finalInterfaces) = (channels, interfaces)
        try await loop.submit {
            self.running.value.channels = finalChannels
            self.running.value.state = MulticastDNSState(hostName: host, interfaces: finalInterfaces, now: .now())
            self.rearm()
        }.get()
    }

    /// A socket on port 5353 sharing the port with others (SO_REUSEPORT), hearing which interface each packet came in
    /// on; `any` is the family's wildcard address.
    private func bind(any: String, interface index: Int) async throws -> Channel {
        var bootstrap = DatagramBootstrap(group: loop)
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .channelOption(
                ChannelOptions.Types.SocketOption(level: .socket, name: .init(rawValue: SO_REUSEPORT)), value: 1
            )
            .channelOption(.receivePacketInfo, value: true)
            // A browse of many services gets bursts of answers: room for a few hundred packets.
            .channelOption(.socketOption(.so_rcvbuf), value: 1 << 20)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(InboundHandler(owner: self, interface: index))
                }
            }
        if any == "::" {
            // The IPv6 socket hears IPv6 only (the IPv4 socket hears IPv4); set before binding, as it must be.
            bootstrap = bootstrap.channelOption(
                ChannelOptions.Types.SocketOption(level: .ipv6, name: .init(rawValue: IPV6_V6ONLY)), value: 1)
        }
        return try await bootstrap.bind(host: any, port: 5353).get()
    }

    /// The IPv4 socket of an interface: joined to 224.0.0.251 there, sending from it.
    private func openSocket(v4 device: NIONetworkDevice) async throws -> Channel {
        let channel = try await bind(any: "0.0.0.0", interface: device.interfaceIndex)
        do {
            guard let multicast = channel as? MulticastChannel, let provider = channel as? SocketOptionProvider,
                case .v4(let v4) = device.address!
            else {
                throw NWError.transport("the UDP channel on \(device.name) cannot join multicast groups")
            }
            try await multicast.joinGroup(Self.group4, device: device).get()
            try await provider.setIPMulticastIF(v4.address.sin_addr).get()
            try await provider.setIPMulticastTTL(255).get()
            try await provider.setIPMulticastLoop(1).get()
            return channel
        } catch {
            channel.close(promise: nil)
            throw error
        }
    }

    /// The IPv6 socket of an interface (IPv6 only): joined to ff02::fb there, sending from it.
    private func openSocket(v6 device: NIONetworkDevice) async throws -> Channel {
        let channel = try await bind(any: "::", interface: device.interfaceIndex)
        do {
            guard let multicast = channel as? MulticastChannel, let provider = channel as? SocketOptionProvider else {
                throw NWError.transport("the UDP channel on \(device.name) cannot join multicast groups")
            }
            try await multicast.joinGroup(Self.group6, device: device).get()
            try await provider.setIPv6MulticastIF(CUnsignedInt(device.interfaceIndex)).get()
            try await provider.setIPv6MulticastHops(255).get()
            try await provider.setIPv6MulticastLoop(1).get()
            return channel
        } catch {
            channel.close(promise: nil)
            throw error
        }
    }

    /// The interface with this kernel index (nil when it is gone).
    static func interface(_ index: Int) -> NWInterface? {
        // `try?`: an interface list that cannot be read names no interface, which is what nil says.
        guard let device = (try? System.enumerateDevices())?.first(where: { $0.interfaceIndex == index }) else {
            return nil
        }
        return NWInterface(name: device.name, index: index)
    }

    /// This machine's host name as a DNS label.
    static func hostLabel() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, 255) == 0 else { return "orchard" }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let name = String(decoding: bytes, as: UTF8.self).split(separator: ".").first.map(String.init) ?? ""
        return name.isEmpty ? "orchard" : name
    }

    static func bytes(_ address: SocketAddress) -> [UInt8] {
        switch address {
        // Safe because: `in_addr` and `in6_addr` are plain C values; their bytes are copied out within the call.
        case .v4(let a): return withUnsafeBytes(of: a.address.sin_addr) { Array($0) }
        // Safe because: as above.
        case .v6(let a): return withUnsafeBytes(of: a.address.sin6_addr) { Array($0) }
        default: return []
        }
    }

    // MARK: The loop side

    /// Runs `body` on the state, performs what it returns and re-arms the timer. Loop only.
    private func step(_ body: (inout MulticastDNSState) -> [MulticastDNSState.Action]) {
        guard var state = running.value.state else { return }
        let actions = body(&state)
        running.value.state = state
        perform(actions)
        rearm()
    }

    private func rearm() {
        running.value.timer?.cancel()
        running.value.timer = nil
        guard let deadline = running.value.state?.nextDeadline else { return }
        running.value.timer = loop.scheduleTask(deadline: deadline) { [self] in
            self.running.value.timer = nil
            self.step { $0.timerFired(now: .now()) }
        }
    }

    private func perform(_ actions: [MulticastDNSState.Action]) {
        for action in actions {
            switch action {
            case .send(let message, let interface, let peer):
                let now = NIODeadline.now()
                running.value.recentlySent.removeAll { now - $0.at > .seconds(2) }
                let targets =
                    interface.map { i in running.value.channels[i] ?? [] }
                    ?? Array(running.value.channels.values.joined())
                for bytes in message.packets() {
                    running.value.recentlySent.append((bytes, now))
                    send(bytes, to: peer, on: targets)
                }
            case .registered(let id, let name): running.value.registrations[id]?(.registered(name: name))
            case .renamed(let id, let from, let to): running.value.registrations[id]?(.renamed(from: from, to: to))
            case .browseResults(let id, let found): running.value.browses[id]?.yield(found)
            case .resolved(let id, let resolution): running.value.resolves.removeValue(forKey: id)?.succeed(resolution)
            }
        }
    }

    /// Sends on each channel: to its family's group, or to `peer` on the channels of the peer's family.
    private func send(_ bytes: [UInt8], to peer: SocketAddress?, on channels: [Channel]) {
        for channel in channels {
            let family = channel.localAddress?.protocol
            if let peer, peer.protocol != family { continue }
            let destination = peer ?? (family == .inet6 ? Self.group6 : Self.group4)
            let envelope = AddressedEnvelope(remoteAddress: destination, data: channel.allocator.buffer(bytes: bytes))
            channel.writeAndFlush(envelope).whenFailure { [logger] error in
                logger.warning("multicast DNS send failed: \(error)")
            }
        }
    }

    fileprivate func received(_ envelope: AddressedEnvelope<ByteBuffer>, interface: Int) {
        if let info = envelope.metadata?.packetInfo, info.interfaceIndex != interface { return }
        let bytes = Array(envelope.data.readableBytesView)
        // Our own packets come back through multicast loopback: their records feed the cache (a browse in this
        // process sees this process's services), but they are no peer's answer or question.
        let fromSelf = running.value.recentlySent.contains { $0.bytes == bytes }
        let message: DNSMessage
        do { message = try DNSMessage(parsing: bytes) } catch {
            logger.debug("multicast DNS packet from \(envelope.remoteAddress) dropped: \(error)")
            return
        }
        logger.trace(
            "multicast DNS packet",
            metadata: [
                "from": "\(envelope.remoteAddress)", "self": "\(fromSelf)",
                "questions": "\(message.questions.map { "\($0.name) \($0.type)" })",
                "records": "\((message.answers + message.additionals).map { "\($0.name) \($0.data) ttl \($0.ttl)" })",
            ])
        step {
            $0.receive(message, from: envelope.remoteAddress, interface: interface, fromSelf: fromSelf, now: .now())
        }
    }

    // MARK: What the API calls

    /// Registers a service; `onEvent` hears when its name is established or changed. Returns the registration's id.
    func register(
        _ service: MulticastDNSState.Service, onEvent: @escaping @Sendable (Event) -> Void
    ) async throws -> Int {
        try await start()
        return try await loop.submit {
            let id = self.running.value.nextID
            self.running.value.nextID += 1
            self.running.value.registrations[id] = onEvent
            self.step { $0.register(id: id, service, now: .now()) }
            return id
        }.get()
    }

    /// Unregisters a service, sending its goodbye.
    func unregister(_ id: Int) {
        loop.execute {
            self.running.value.registrations[id] = nil
            self.step { $0.unregister(id: id) }
        }
    }

    /// Starts a browse; the stream yields the instances seen each time they change.
    func browse(type: String, domain: String) async throws -> (Int, AsyncStream<[MulticastDNSState.Instance]>) {
        try await start()
        let (stream, continuation) = AsyncStream<[MulticastDNSState.Instance]>.makeStream()
        let id = try await loop.submit {
            let id = self.running.value.nextID
            self.running.value.nextID += 1
            self.running.value.browses[id] = continuation
            self.step { $0.startBrowse(id: id, type: type, domain: domain, now: .now()) }
            return id
        }.get()
        continuation.onTermination = { _ in
            self.loop.execute {
                self.running.value.browses[id] = nil
                self.running.value.state?.stopBrowse(id: id)
                self.rearm()
            }
        }
        return (id, stream)
    }

    /// Resolves a service instance to its port, addresses and TXT strings; fails after `timeout`.
    func resolve(
        name: String, type: String, domain: String, timeout: TimeAmount = .seconds(5)
    ) async throws
        -> MulticastDNSState.Resolution
    {
        try await start()
        let promise = loop.makePromise(of: MulticastDNSState.Resolution.self)
        let id = try await loop.submit {
            let id = self.running.value.nextID
            self.running.value.nextID += 1
            self.running.value.resolves[id] = promise
            self.step { $0.startResolve(id: id, name: name, type: type, domain: domain, now: .now()) }
            return id
        }.get()
        let expiry = loop.scheduleTask(in: timeout) {
            self.running.value.state?.stopResolve(id: id)
            self.running.value.resolves.removeValue(forKey: id)?.fail(
                NWError.dns(
                    "\(name).\(type).\(domain): no SRV record and address within \(timeout.nanoseconds / 1_000_000) ms")
            )
        }
        return try await withTaskCancellationHandler {
            defer { expiry.cancel() }
            return try await promise.futureResult.get()
        } onCancel: {
            self.loop.execute {
                self.running.value.state?.stopResolve(id: id)
                self.running.value.resolves.removeValue(forKey: id)?.fail(CancellationError())
            }
        }
    }
}

/// Hands a socket's datagrams to the responder.
private final class InboundHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    let owner: MulticastDNS
    let interface: Int
    init(owner: MulticastDNS, interface: Int) {
        self.owner = owner
        self.interface = interface
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        owner.received(unwrapInboundIn(data), interface: interface)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A UDP socket's errors (an ICMP unreachable for a unicast reply) concern one packet, not the responder.
        Logger(label: "OpenNetwork.MulticastDNS").debug("multicast DNS socket error: \(error)")
    }
}
