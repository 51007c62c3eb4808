import NIOCore

/// The last handler of a connection's pipeline: hands received bytes to its ``ConnectionIO``, writes what the
/// connection's sends queued (one write and one flush for all of it), and holds back the channel's reads while
/// the inbound buffer is full.
///
/// A failure the channel reports (a reset, a failed write) terminates the data path with that error, so the
/// next send or receive throws it; a clean close lets reads take what is buffered first.
final class ConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let io: ConnectionIO
    private var context: ChannelHandlerContext?
    /// Reading is held back (the inbound buffer is over its mark).
    private var readingPaused = false
    /// The channel asked to read while reading was held back.
    private var readRequested = false

    init(io: ConnectionIO) {
        self.io = io
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        io.attach(.init(loop: context.eventLoop, handler: NIOLoopBound(self, eventLoop: context.eventLoop)))
        if context.channel.isActive { io.recordPeerCredentials(PeerCredentialsReader.readOnLoop(context.channel)) }
    }

    /// The socket is connected and nothing was read yet: the moment to ask the kernel who the peer is (a Unix
    /// domain socket), before a peer that writes and leaves at once has the socket closed.
    func channelActive(context: ChannelHandlerContext) {
        io.recordPeerCredentials(PeerCredentialsReader.readOnLoop(context.channel))
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if io.received(unwrapInboundIn(data)) { readingPaused = true }
    }

    func read(context: ChannelHandlerContext) {
        if readingPaused {
            readRequested = true
        } else {
            context.read()
        }
    }

    /// A read took the buffer below its mark: read from the socket again.
    func resumeReading() {
        guard readingPaused, let context else { return }
        readingPaused = false
        if readRequested {
            readRequested = false
            context.read()
        }
    }

    /// Writes everything the sends queued since the last flush, and flushes once. `backstop`: the backstop timer's
    /// flush (see ``ConnectionBuffers``); a flush that found a stream sets the next timer from here, on the event
    /// loop, so a stream costs no wakeup of it.
    func flushOutbound(backstop: Bool = false) {
        guard let context else { return }
        let (stream, datagrams, rearm) = io.takeOutbound(backstop: backstop)
        if rearm {
            context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(ConnectionBuffers.flushDelay)) {
                self.flushOutbound(backstop: true)
            }
        }
        guard stream != nil || !datagrams.isEmpty else { return }
        let promise = context.eventLoop.makePromise(of: Void.self)
        let io = self.io
        promise.futureResult.whenFailure { error in io.terminate(NWError.from(error)) }
        if let stream {
            context.write(wrapOutboundOut(stream), promise: promise)
        } else {
            for (index, datagram) in datagrams.enumerated() {
                context.write(wrapOutboundOut(datagram), promise: index == datagrams.count - 1 ? promise : nil)
            }
        }
        context.flush()
        io.channelWritabilityChanged(context.channel.isWritable)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        io.channelWritabilityChanged(context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { io.inputEnded() }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        io.terminate(NWError.from(error))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        io.closed()
        context.fireChannelInactive()
    }
}
