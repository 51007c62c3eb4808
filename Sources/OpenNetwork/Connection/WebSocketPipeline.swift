import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Sets up a WebSocket channel: the HTTP upgrade (client: a GET with the upgrade headers; server: NIO's HTTP server
/// pipeline with the WebSocket upgrader), then, once upgraded, NIO's frame aggregator, ``WebSocketMessageHandler``
/// and the connection's handler. The connection is ready when the upgrade is done.
enum WebSocketPipeline {
    /// Adds the handlers; returns the future that completes once the upgrade is done (or fails saying why not).
    static func configure(
        channel: any Channel, io: ConnectionIO, isServer: Bool, host: String?, settings: WebSocketSettings,
        maximumMessageSize: Int
    ) throws -> EventLoopFuture<Void> {
        let sync = channel.pipeline.syncOperations
        let watcher = WebSocketUpgradeWatcher(promise: channel.eventLoop.makePromise())
        // The handler for the HTTP side (the client's request writer, the server's 426 responder): it goes at the
        // upgrade, with the watcher.
        let httpSide: any RemovableChannelHandler =
            isServer
            ? UpgradeRequiredResponder()
            : UpgradeRequestWriter(
                host: host ?? "localhost", path: settings.path, headers: settings.additionalHeaders)
        let bound = NIOLoopBound((watcher, httpSide), eventLoop: channel.eventLoop)
        let frameLimit = min(maximumMessageSize, Int(UInt32.max))
        let finish: @Sendable (any Channel) -> EventLoopFuture<Void> = { channel in
            channel.eventLoop.makeCompletedFuture {
                // NIO's upgrader has put the frame encoder and decoder last; ours follow them.
                let (watcher, httpSide) = bound.value
                let sync = channel.pipeline.syncOperations
                sync.removeHandler(httpSide, promise: nil)
                sync.removeHandler(watcher, promise: nil)
                try sync.addHandler(
                    NIOWebSocketFrameAggregator(
                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 4_096,
                        maxAccumulatedFrameSize: maximumMessageSize))
                try sync.addHandler(WebSocketMessageHandler(isClient: !isServer, autoReplyPing: settings.autoReplyPing))
                try sync.addHandler(ConnectionHandler(io: io))
                watcher.upgraded()
            }
        }
        if isServer {
            let upgrader = NIOWebSocketServerUpgrader(
                maxFrameSize: frameLimit, automaticErrorHandling: true,
                shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                upgradePipelineHandler: { channel, _ in finish(channel) })
            try sync.configureHTTPServerPipeline(
                withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }), withErrorHandling: true)
        } else {
            let upgrader = NIOWebSocketClientUpgrader(
                maxFrameSize: frameLimit, automaticErrorHandling: true,
                upgradePipelineHandler: { channel, _ in finish(channel) })
            // Frames the server sends right after its 101 can arrive in the same read as the response: the HTTP
            // decoder hands them on when it is removed (NIO's default drops them, and the first messages with them).
            try sync.addHTTPClientHandlers(
                leftOverBytesStrategy: .forwardBytes,
                withClientUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
        }
        try sync.addHandler(httpSide)
        try sync.addHandler(watcher)
        return watcher.promise.futureResult
    }
}

/// Turns WebSocket frames into the connection's messages (one buffer each: a byte for the opcode, then the payload)
/// and back; answers pings, answers a close with a close and ends the connection, and says goodbye with a close
/// frame when the connection closes first.
final class WebSocketMessageHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = WebSocketFrame

    /// The opcode byte in front of a message on the data path (RFC 6455's opcode values).
    static let text: UInt8 = 0x1
    static let binary: UInt8 = 0x2
    static let close: UInt8 = 0x8
    static let ping: UInt8 = 0x9
    static let pong: UInt8 = 0xA

    private let isClient: Bool
    private let autoReplyPing: Bool
    private var closeSent = false

    init(isClient: Bool, autoReplyPing: Bool = true) {
        self.isClient = isClient
        self.autoReplyPing = autoReplyPing
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var frame = unwrapInboundIn(data)
        // A client masks every frame and a server none (RFC 6455 5.1): a peer that does otherwise is closed with
        // 1002 (protocol error), its frame unread.
        guard (frame.maskKey != nil) == !isClient else {
            var code = context.channel.allocator.buffer(capacity: 2)
            code.writeInteger(UInt16(1002))
            if !closeSent {
                closeSent = true
                send(context: context, opcode: .connectionClose, data: code, promise: nil)
            }
            context.flush()
            context.fireErrorCaught(
                NWError.malformedMessage(
                    isClient ? "a WebSocket server sent a masked frame" : "a WebSocket client sent an unmasked frame"))
            return
        }
        switch frame.opcode {
        case .text, .binary:
            var message = context.channel.allocator.buffer(capacity: frame.length + 1)
            message.writeInteger(frame.opcode == .text ? Self.text : Self.binary)
            var payload = frame.unmaskedData
            message.writeBuffer(&payload)
            context.fireChannelRead(wrapInboundOut(message))
        case .ping where autoReplyPing:
            send(context: context, opcode: .pong, data: frame.unmaskedData, promise: nil)
            context.flush()
        case .ping, .pong:
            // Without automatic replies (the NW API's autoReplyPing false) pings and pongs reach the app as
            // messages; with them, a pong (an answer to a ping the app sent) is dropped as carrying nothing.
            guard !autoReplyPing else { return }
            var message = context.channel.allocator.buffer(capacity: frame.length + 1)
            message.writeInteger(frame.opcode == .ping ? Self.ping : Self.pong)
            var payload = frame.unmaskedData
            message.writeBuffer(&payload)
            context.fireChannelRead(wrapInboundOut(message))
        case .connectionClose:
            // The peer closes: answer with its code (RFC 6455 5.5.1), then end the connection.
            var data = frame.unmaskedData
            let code = data.readInteger(as: UInt16.self)
            var reply = context.channel.allocator.buffer(capacity: 2)
            if let code { reply.writeInteger(code) }
            if !closeSent {
                closeSent = true
                send(context: context, opcode: .connectionClose, data: reply, promise: nil)
            }
            context.flush()
            context.close(promise: nil)
        default:
            // Continuations (the aggregator joined them already) and unknown control frames carry nothing more.
            frame.data.clear()
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var message = unwrapOutboundIn(data)
        guard let kind = message.readInteger(as: UInt8.self), let opcode = WebSocketOpcode(encodedWebSocketOpcode: kind)
        else {
            promise?.fail(NWError.malformedMessage("a WebSocket message buffer without its opcode"))
            return
        }
        if opcode == .connectionClose {
            // The app closes (NW API): the peer answers with its own close, which ends the connection.
            guard !closeSent else {
                promise?.succeed()
                return
            }
            closeSent = true
        }
        send(context: context, opcode: opcode, data: message, promise: promise)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .all, !closeSent, context.channel.isActive {
            // A normal closure (1000) before the socket closes, as a polite peer does.
            closeSent = true
            var code = context.channel.allocator.buffer(capacity: 2)
            code.writeInteger(UInt16(1000))
            send(context: context, opcode: .connectionClose, data: code, promise: nil)
            context.flush()
        }
        context.close(mode: mode, promise: promise)
    }

    private func send(
        context: ChannelHandlerContext, opcode: WebSocketOpcode, data: ByteBuffer, promise: EventLoopPromise<Void>?
    ) {
        // A client masks every frame (RFC 6455 5.3); a server never does.
        let mask: WebSocketMaskingKey? = isClient ? .random() : nil
        context.write(
            wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, maskKey: mask, data: data)), promise: promise)
    }
}

/// A client's upgrade request: a GET of the path with the Host header, written when the channel becomes active (the
/// upgrade handler adds the WebSocket headers to it).
final class UpgradeRequestWriter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let host: String
    private let path: String
    private let extraHeaders: [(name: String, value: String)]
    private var written = false

    init(host: String, path: String, headers: [(name: String, value: String)] = []) {
        self.host = host
        self.path = path
        extraHeaders = headers
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { writeRequest(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        writeRequest(context: context)
        context.fireChannelActive()
    }

    private func writeRequest(context: ChannelHandlerContext) {
        guard !written else { return }
        written = true
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: host)
        headers.add(name: "Content-Length", value: "0")
        for (name, value) in extraHeaders { headers.add(name: name, value: value) }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

/// On a listener's WebSocket connection: a request that is not a WebSocket upgrade gets 426 (Upgrade Required), and
/// the connection closes.
final class UpgradeRequiredResponder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head = unwrapInboundIn(data) else { return }
        var headers = HTTPHeaders()
        headers.add(name: "Upgrade", value: "websocket")
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Content-Length", value: "0")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .upgradeRequired, headers: headers))),
            promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}

/// The last handler until the upgrade is done: completes the connection's readiness when it is, fails it with the
/// reason when the upgrade fails or the channel closes first.
final class WebSocketUpgradeWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    let promise: EventLoopPromise<Void>
    private var done = false

    init(promise: EventLoopPromise<Void>) { self.promise = promise }

    func upgraded() {
        guard !done else { return }
        done = true
        promise.succeed()
    }

    private func fail(_ error: NWError) {
        guard !done else { return }
        done = true
        promise.fail(error)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !done {
            fail(.transport("WebSocket upgrade failed: \(error)"))
            context.close(promise: nil)
        }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(.transport("the connection closed before the WebSocket upgrade completed"))
        context.fireChannelInactive()
    }
}
