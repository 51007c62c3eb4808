import BenchmarkKit
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS

// The plain SwiftNIO baselines: channel handlers on the event loop, as a SwiftNIO developer writes them.

let group = MultiThreadedEventLoopGroup.singleton

/// Completes when a TLS handshake finished (or at once without TLS).
final class Ready: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    let promise: EventLoopPromise<Void>
    let waitsForTLS: Bool

    init(promise: EventLoopPromise<Void>, waitsForTLS: Bool) {
        self.promise = promise
        self.waitsForTLS = waitsForTLS
    }

    func channelActive(context: ChannelHandlerContext) {
        if !waitsForTLS { promise.succeed() }
        context.fireChannelActive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? TLSUserEvent, case .handshakeCompleted = event { promise.succeed() }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        promise.fail(error)
        context.close(promise: nil)
    }
}

/// Writes `count` TLV frames (type 1, the 1 KiB payload) from the event loop: each frame built in its own
/// buffer, a flush every 64 frames, pausing while the channel is not writable.
final class FramePump: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let payload: [UInt8]
    var remaining = 0
    var context: ChannelHandlerContext?

    init(payload: [UInt8]) { self.payload = payload }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    /// Starts pumping `count` frames (call on the event loop).
    func start(_ count: Int) {
        remaining = count
        pump()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { pump() }
        context.fireChannelWritabilityChanged()
    }

    private func pump() {
        guard let context else { return }
        var unflushed = 0
        while remaining > 0, context.channel.isWritable {
            var frame = context.channel.allocator.buffer(capacity: 8 + payload.count)
            frame.writeInteger(UInt32(1))
            frame.writeInteger(UInt32(payload.count))
            frame.writeBytes(payload)
            context.write(wrapOutboundOut(frame), promise: nil)
            remaining -= 1
            unflushed += 1
            if unflushed == 64 {
                context.flush()
                unflushed = 0
            }
        }
        if unflushed > 0 { context.flush() }
    }
}

/// Request/response on the event loop: sends a frame, waits for its echo, records the round trip, sends
/// the next; `encode` makes request `i` (with its header), `matches` checks reply `i`.
final class PingPong: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let headerSize: Int
    let count: Int
    let encode: (Int, inout ByteBuffer) -> Void
    let matches: (Int, ByteBuffer) -> Bool
    let done: EventLoopPromise<[Double]>
    var buffer = ByteBuffer()
    var samples: [Double] = []
    var index = 0
    var sentAt = 0.0
    var context: ChannelHandlerContext?

    init(
        headerSize: Int, count: Int, done: EventLoopPromise<[Double]>,
        encode: @escaping (Int, inout ByteBuffer) -> Void, matches: @escaping (Int, ByteBuffer) -> Bool
    ) {
        self.headerSize = headerSize
        self.count = count
        self.done = done
        self.encode = encode
        self.matches = matches
        samples.reserveCapacity(count)
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    /// Sends the first request (call on the event loop).
    func start() {
        guard let context else {
            done.fail(PeerError(description: "the handler is not in a pipeline"))
            return
        }
        send(context)
    }

    private func send(_ context: ChannelHandlerContext) {
        var out = context.channel.allocator.buffer(capacity: 128)
        encode(index, &out)
        sentAt = wallSeconds()
        context.writeAndFlush(wrapOutboundOut(out), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        buffer.writeBuffer(&incoming)
        while let length = buffer.getInteger(at: buffer.readerIndex + headerSize - 4, as: UInt32.self),
            buffer.readableBytes >= headerSize + Int(length)
        {
            buffer.moveReaderIndex(forwardBy: headerSize)
            let body = buffer.readSlice(length: Int(length))!
            guard matches(index, body) else {
                done.fail(PeerError(description: "reply \(index) does not match its request"))
                return
            }
            samples.append(wallSeconds() - sentAt)
            index += 1
            if index == count {
                done.succeed(samples)
                return
            }
            send(context)
        }
        buffer.discardReadBytes()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        done.fail(error)
        context.close(promise: nil)
    }
}

/// Connects a plain NIO client with `handlers` (after TLS if given); returns once connected and, with TLS,
/// once the handshake is done.
func connectNIO(
    port: Int, tls: NIOSSLContext?, _ handlers: @escaping @Sendable () -> [any ChannelHandler]
) async throws -> Channel {
    let ready = group.next().makePromise(of: Void.self)
    let channel = try await ClientBootstrap(group: group)
        .channelOption(.socketOption(.tcp_nodelay), value: 1)
        .channelInitializer { ch in
            ch.eventLoop.makeCompletedFuture {
                if let tls {
                    try ch.pipeline.syncOperations.addHandler(
                        NIOSSLClientHandler(context: tls, serverHostname: "localhost"))
                }
                try ch.pipeline.syncOperations.addHandler(Ready(promise: ready, waitsForTLS: tls != nil))
                for handler in handlers() { try ch.pipeline.syncOperations.addHandler(handler) }
            }
        }
        .connect(host: "127.0.0.1", port: port).get()
    try await ready.futureResult.get()
    return channel
}

/// The TLV frame of request `i` for the 64-byte workloads: type 1, 64 bytes whose first 8 are `i`.
func tlvRequest(_ i: Int, _ out: inout ByteBuffer) {
    out.writeInteger(UInt32(1))
    out.writeInteger(UInt32(64))
    out.writeInteger(UInt64(i))
    out.writeRepeatingByte(7, count: 56)
}

/// Whether a 64-byte reply is request `i`'s.
func tlvMatches(_ i: Int, _ body: ByteBuffer) -> Bool {
    body.readableBytes == 64 && body.getInteger(at: body.readerIndex, as: UInt64.self) == UInt64(i)
}
