import Logging
import NIOCore
import NIOPosix

extension NetworkListener {
    /// Serves a UDP stack: every new remote address and port (a flow) becomes a connection of its own.
    ///
    /// One socket receives every datagram; ``UDPDemultiplexer`` hands each to its flow's ``UDPFlowChannel`` (made when
    /// a peer's first datagram arrives), so each flow sees its peer's datagrams in the order the socket received
    /// them, and only its peer's. A flow ends when its connection is cancelled; the peer's next datagram starts a new
    /// one.
    func runUDP(
        config: ProtocolStackConfiguration, applicationProtocol proto: ApplicationProtocol,
        _ handler: @escaping @Sendable (NetworkConnection<ApplicationProtocol>) async throws -> Void
    ) async throws {
        guard case .hostPort(let host, let port) = local else {
            let e = NWError.transport("a UDP listener binds to a host and port, not \(local)")
            set(.failed(e))
            throw e
        }
        let (flows, newFlows) = AsyncStream<Transport.Established>.makeStream()
        let demux = UDPDemultiplexer(config: config, newFlows: newFlows)
        let server: any Channel
        do {
            server = try await DatagramBootstrap(group: Transport.group)
                .channelOption(.socketOption(.so_reuseaddr), value: 1)
                // Every flow's datagrams arrive here: room for bursts (the kernel caps it at net.core.rmem_max).
                .channelOption(.socketOption(.so_rcvbuf), value: 1 << 20)
                // A datagram can be up to 65,507 bytes over IPv4; NIO's default read buffer (2 KiB) would truncate it.
                .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 65_536))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(demux) }
                }
                .bind(host: host.name, port: Int(port.rawValue)).get()
        } catch {
            let e = NWError.from(error)
            set(.failed(e))
            throw e
        }
        shared.withLockedValue { $0.port = server.localAddress?.port.map { NWEndpoint.Port(rawValue: UInt16($0)) } }
        let withdraw: (@Sendable () -> Void)?
        do {
            withdraw = try await advertise()
        } catch {
            let e = NWError.from(error)
            set(.failed(e))
            server.close(promise: nil)
            throw e
        }
        defer { withdraw?() }
        set(.ready)
        await withTaskCancellationHandler {
            await withDiscardingTaskGroup { group in
                for await established in flows {
                    guard await admitOne() else {
                        established.channel.close(promise: nil)
                        break
                    }
                    group.addTask {
                        let connection = NetworkConnection(
                            accepted: established, applicationProtocol: proto, config: config)
                        await connection.start()
                        guard await connection.waitUntilEstablished() else { return }
                        do {
                            try await handler(connection)
                        } catch {
                            // As for TCP: a handler's error ends its own flow, and is logged, never dropped.
                            await self.report(error, from: connection)
                        }
                        await connection.cancel()
                    }
                }
                group.cancelAll()
            }
        } onCancel: {
            server.close(promise: nil)
            newFlows.finish()
        }
        server.close(promise: nil)
        set(.cancelled)
    }
}

/// On the listening socket: routes each datagram to its peer's flow, making the flow (and announcing it) on the
/// peer's first datagram. Runs on the socket's event loop, as do the flows.
final class UDPDemultiplexer: ChannelInboundHandler, @unchecked Sendable {  // Unchecked: state confined to the loop.
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    /// Flows open at once; a datagram from a further new peer is dropped (and counted) until one ends.
    static let flowLimit = 4_096

    private let config: ProtocolStackConfiguration
    private let newFlows: AsyncStream<Transport.Established>.Continuation
    private var flows: [SocketAddress: UDPFlowChannel] = [:]
    /// Datagrams dropped because ``flowLimit`` flows were open.
    private var refused = 0
    private let logger = Logger(label: "OpenNetwork.NetworkListener")

    init(config: ProtocolStackConfiguration, newFlows: AsyncStream<Transport.Established>.Continuation) {
        self.config = config
        self.newFlows = newFlows
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        if let flow = flows[envelope.remoteAddress] {
            flow.received(envelope.data)
            return
        }
        guard flows.count < Self.flowLimit else {
            refused += 1
            if refused % 1_000 == 1 {
                logger.warning(
                    "UDP listener at its limit of \(Self.flowLimit) flows: datagrams from new peers are dropped",
                    metadata: ["dropped": "\(refused)"])
            }
            return
        }
        let flow = UDPFlowChannel(parent: context.channel, peer: envelope.remoteAddress) { [weak self] peer in
            self?.flows.removeValue(forKey: peer)
        }
        let established: Transport.Established
        do {
            established = try Transport.configure(channel: flow, config: config, tls: nil)
        } catch {
            // Adding handlers to a fresh pipeline on its own loop does not fail; if it did, this datagram is dropped
            // and the next one from the peer tries again.
            context.fireErrorCaught(error)
            return
        }
        flows[envelope.remoteAddress] = flow
        flow.received(envelope.data)
        if case .terminated = newFlows.yield(established) {
            flow.close(promise: nil)
            return
        }
        // As a socket with autoRead: the first read request.
        flow.pipeline.read()
    }

    func channelInactive(context: ChannelHandlerContext) {
        // The listening socket closed: every flow ends with it.
        for flow in flows.values { flow.close(promise: nil) }
        flows.removeAll()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // One datagram's error (an ICMP answer, say) must not end the listener or its flows: it is logged.
        logger.error("UDP listener: \(error)")
    }
}
