import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// The process's multicast DNS responder and querier: ``MulticastDNSState`` driven on an event loop, with one UDP
/// socket on port 5353 per suitable interface (up, IPv4, multicast-capable, not loopback).
///
/// One runs per process, started on first use and kept for the process's life, as the system's mDNSResponder
/// serves every app on Apple's systems. It sends and answers over IPv4 (224.0.0.251); the records it publishes and
/// resolves carry IPv6 addresses too. A packet that does not parse is dropped and logged at debug level
/// (`OpenNetwork.MulticastDNS`) with the rule it broke: on a shared network, others' bad packets are not ours to
/// fail on.
final class MulticastDNS: Sendable {
    /// The responder of this process.
    static let shared = MulticastDNS()

    static let group4 = try! SocketAddress(ipAddress: "224.0.0.251", port: 5353)
    let loop: any EventLoop
    private let running: NIOLoopBoundBox<Running>
    private let logger = Logger(label: "OpenNetwork.MulticastDNS")
    private let started: NIOLockedValueBox<EventLoopFuture<Void>?> = NIOLockedValueBox(nil)

    /// What is touched on the loop only.
    private struct Running {
        var state: MulticastDNSState?
        var channels: [Int: Channel] = [:]
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
        let candidates = try System.enumerateDevices().filter { d in
            guard let address = d.address, case .v4 = address, d.multicastSupported else { return false }
            return !d.name.hasPrefix("lo") && !(address.ipAddress ?? "").hasPrefix("127.")
        }
        // One socket per interface (an interface with several IPv4 addresses is listed once per address).
        var seen: Set<Int> = []
        let devices = candidates.filter { seen.insert($0.interfaceIndex).inserted }
        guard !devices.isEmpty else {
            throw NWError.transport("no interface with IPv4 multicast (only loopback or none is up)")
        }
        var interfaces: [MulticastDNSState.Interface] = []
        var channels: [Int: Channel] = [:]
        let all = try System.enumerateDevices()
        do {
            try await openSockets(on: devices, all: all, into: &channels, interfaces: &interfaces)
        } catch {
            // Nothing half-open stays behind a failed start.
            for channel in channels.values { channel.close(promise: nil) }
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

    /// Binds a socket on port 5353 for each device, joined to the multicast group there, sending from it; adds each
    /// to `channels` as soon as it is bound (so that a failure closes it too).
    private func openSockets(
        on devices: [NIONetworkDevice], all: [NIONetworkDevice], into channels: inout [Int: Channel],
        interfaces: inout [MulticastDNSState.Interface]
    ) async throws {
        for device in devices {
            let index = device.interfaceIndex
            let channel = try await DatagramBootstrap(group: loop)
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
                .bind(host: "0.0.0.0", port: 5353).get()
            channels[index] = channel
            guard let multicast = channel as? MulticastChannel, let provider = channel as? SocketOptionProvider,
                case .v4(let v4) = device.address!
            else {
                throw NWError.transport("the UDP channel on \(device.name) cannot join multicast groups")
            }
            try await multicast.joinGroup(Self.group4, device: device).get()
            try await provider.setIPMulticastIF(v4.address.sin_addr).get()
            try await provider.setIPMulticastTTL(255).get()
            try await provider.setIPMulticastLoop(1).get()
            let addresses = all.filter { $0.interfaceIndex == index }.compactMap(\.address).filter {
                // Link-local IPv6 addresses need a scope a peer cannot use off this link: only global ones are published.
                $0.protocol == .inet || !($0.ipAddress ?? "").lowercased().hasPrefix("fe80")
            }
            interfaces.append(.init(index: index, name: device.name, addresses: addresses.map(Self.bytes)))
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
                    interface.map { i in running.value.channels[i].map { [$0] } ?? [] }
                    ?? Array(running.value.channels.values)
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

    private func send(_ bytes: [UInt8], to peer: SocketAddress?, on channels: [Channel]) {
        for channel in channels {
            let envelope = AddressedEnvelope(
                remoteAddress: peer ?? Self.group4, data: channel.allocator.buffer(bytes: bytes))
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
