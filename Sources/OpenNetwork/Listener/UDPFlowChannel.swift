import NIOCore

/// One remote address and port of a UDP listener (a flow), as a channel of its own: its pipeline carries the flow's
/// connection handler; its datagrams come from the listening socket (routed by ``UDPDemultiplexer``) and its writes go
/// out through that socket to the peer. One socket for every flow keeps each peer's datagrams in the order the socket
/// received them, and never hands one peer's datagram to another's flow.
///
/// Every member runs on the listening channel's event loop (the flow shares it).
final class UDPFlowChannel: Channel, ChannelCore, @unchecked Sendable {  // Unchecked: state confined to `eventLoop`.
    /// Datagrams held for the flow while its handler has not asked for more; further ones are dropped, as a
    /// socket's full receive buffer drops them.
    static let heldLimit = 1_024

    let parent: (any Channel)?
    let peer: SocketAddress
    let eventLoop: any EventLoop
    private let onClose: (SocketAddress) -> Void
    private let closePromise: EventLoopPromise<Void>
    private var _pipeline: ChannelPipeline!
    private var held: [ByteBuffer] = []
    private var readRequested = false
    private var open = true

    init(parent: any Channel, peer: SocketAddress, onClose: @escaping (SocketAddress) -> Void) {
        self.parent = parent
        self.peer = peer
        self.eventLoop = parent.eventLoop
        self.onClose = onClose
        closePromise = parent.eventLoop.makePromise()
        _pipeline = ChannelPipeline(channel: self)
    }

    // MARK: Channel

    var allocator: ByteBufferAllocator { parent?.allocator ?? ByteBufferAllocator() }
    var closeFuture: EventLoopFuture<Void> { closePromise.futureResult }
    var pipeline: ChannelPipeline { _pipeline }
    var localAddress: SocketAddress? { parent?.localAddress }
    var remoteAddress: SocketAddress? { peer }
    var isWritable: Bool { open && (parent?.isWritable ?? false) }
    var isActive: Bool { open }
    var _channelCore: any ChannelCore { self }

    func setOption<Option: ChannelOption>(_ option: Option, value: Option.Value) -> EventLoopFuture<Void> {
        // A flow has no socket of its own: its options are the listening socket's.
        eventLoop.makeSucceededVoidFuture()
    }

    func getOption<Option: ChannelOption>(_ option: Option) -> EventLoopFuture<Option.Value> {
        guard let parent else { return eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel) }
        return parent.getOption(option)
    }

    // MARK: Datagrams in

    /// A datagram from the peer (on the event loop).
    func received(_ datagram: ByteBuffer) {
        guard open else { return }
        if held.count < Self.heldLimit { held.append(datagram) }
        if readRequested { deliverHeld() }
    }

    private func deliverHeld() {
        guard !held.isEmpty else { return }
        readRequested = false
        let batch = held
        held = []
        for datagram in batch { pipeline.fireChannelRead(datagram) }
        pipeline.fireChannelReadComplete()
        // As a socket with autoRead: ask for more (the connection's handler holds the request while it is full).
        if open { pipeline.read() }
    }

    // MARK: ChannelCore

    func localAddress0() throws -> SocketAddress {
        guard let address = parent?.localAddress else { throw ChannelError.ioOnClosedChannel }
        return address
    }
    func remoteAddress0() throws -> SocketAddress { peer }
    func register0(promise: EventLoopPromise<Void>?) { promise?.succeed() }
    func registerAlreadyConfigured0(promise: EventLoopPromise<Void>?) { promise?.succeed() }
    func bind0(to: SocketAddress, promise: EventLoopPromise<Void>?) {
        promise?.fail(ChannelError.operationUnsupported)
    }
    func connect0(to: SocketAddress, promise: EventLoopPromise<Void>?) {
        promise?.fail(ChannelError.operationUnsupported)
    }

    func write0(_ data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard open, let parent else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        let datagram = unwrapData(data, as: ByteBuffer.self)
        parent.write(AddressedEnvelope(remoteAddress: peer, data: datagram), promise: promise)
    }

    func flush0() { parent?.flush() }

    func read0() {
        readRequested = true
        deliverHeld()
    }

    func close0(error: any Error, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard open else {
            promise?.succeed()
            return
        }
        open = false
        held = []
        onClose(peer)
        pipeline.fireChannelInactive()
        pipeline.fireChannelUnregistered()
        eventLoop.execute {
            // After the inactive event has run through the pipeline, as a socket channel closes.
            self.removeHandlers(pipeline: self.pipeline)
            self.closePromise.succeed()
        }
        promise?.succeed()
    }

    func triggerUserOutboundEvent0(_ event: Any, promise: EventLoopPromise<Void>?) {
        promise?.fail(ChannelError.operationUnsupported)
    }

    func channelRead0(_ data: NIOAny) {
        // Reached the pipeline's end unconsumed: nothing more to do with it.
    }

    func errorCaught0(error: any Error) {
        // Reached the pipeline's end: the connection's handler reported it already.
    }
}
