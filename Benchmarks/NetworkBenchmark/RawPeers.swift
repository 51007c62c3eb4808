import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Raw SwiftNIO pieces the OpenNetwork figures are compared with: a byte-counting sink server, a
/// length-prefixed echo server, and NIOAsyncChannel clients.
enum Raw {
    static let group = MultiThreadedEventLoopGroup.singleton

    /// Counts inbound bytes and completes `done` when `expected` have arrived.
    final class CountingSink: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let expected: Int
        let done: EventLoopPromise<Void>
        var count = 0
        init(expected: Int, done: EventLoopPromise<Void>) { self.expected = expected; self.done = done }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            count += unwrapInboundIn(data).readableBytes
            if count >= expected { done.succeed() }
        }
    }

    /// A server that counts bytes per connection; `expect` sets what the next connection should bring.
    final class SinkServer: @unchecked Sendable {
        let channel: Channel
        private let lock = NSLock()
        private var pending: (Int, EventLoopPromise<Void>)?

        init(tls: NIOSSLContext?) async throws {
            let box = Box()
            channel = try await ServerBootstrap(group: Raw.group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { ch in
                    ch.eventLoop.makeCompletedFuture {
                        guard let (expected, promise) = box.server?.take() else { return }
                        if let tls { try ch.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                        try ch.pipeline.syncOperations.addHandler(CountingSink(expected: expected, done: promise))
                    }
                }
                .bind(host: "127.0.0.1", port: 0).get()
            box.server = self
        }

        final class Box: @unchecked Sendable { weak var server: SinkServer? }

        func take() -> (Int, EventLoopPromise<Void>)? { lock.withLock { defer { pending = nil }; return pending } }

        /// Arms the server for one connection bringing `bytes`; the future completes when they arrived.
        func expect(_ bytes: Int) -> EventLoopFuture<Void> {
            let p = Raw.group.next().makePromise(of: Void.self)
            lock.withLock { pending = (bytes, p) }
            return p.futureResult
        }

        var port: Int { channel.localAddress!.port! }
    }

    /// Echoes 4-byte-length-prefixed frames back unchanged (no decoding).
    final class FrameEcho: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        var buffer = ByteBuffer()
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var b = unwrapInboundIn(data)
            buffer.writeBuffer(&b)
            while let n = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self),
                  buffer.readableBytes >= 4 + Int(n) {
                let frame = buffer.readSlice(length: 4 + Int(n))!
                context.write(wrapOutboundOut(frame), promise: nil)
            }
            context.flush()
            buffer.discardReadBytes()
        }
    }

    static func echoServer() async throws -> Channel {
        try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { ch in
                ch.eventLoop.makeCompletedFuture { try ch.pipeline.syncOperations.addHandler(FrameEcho()) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    /// An NIOAsyncChannel client, optionally over TLS (handshake done before returning).
    static func client(port: Int, tls: NIOSSLContext?) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        try await ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: "127.0.0.1", port: port) { ch in
                ch.eventLoop.makeCompletedFuture {
                    if let tls {
                        try ch.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: "localhost"))
                    }
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(
                        wrappingChannelSynchronously: ch,
                        configuration: .init(backPressureStrategy: .init(lowWatermark: 4, highWatermark: 16)))
                }
            }
    }
}
