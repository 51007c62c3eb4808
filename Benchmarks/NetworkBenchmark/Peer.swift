import BenchmarkKit
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import OpenNetwork

// The peer process: every server the workloads talk to, in a process of its own, so the sending side's CPU
// time is its own and the two sides of a connection don't share a core's run queue by construction.
//
//   NetworkBenchmark peer CERT.pem KEY.pem
// prints "ports SINK SINK_TLS LENGTH_ECHO TLV_ECHO TLV_ECHO_TLS CODER_NIO CODER_ASYNC CODER_OURS", then reads commands
// on standard input:
// "expect N" arms the sinks for the next connection (answers "armed"); when that connection has brought
// N bytes it prints "done". "cpu" answers "cpu SECONDS", the peer's CPU time so far.

/// Counts a connection's bytes; tells the parent when the armed count arrived.
final class CountingSink: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    let expected: Int
    var count = 0

    init(expected: Int) { self.expected = expected }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let before = count
        count += unwrapInboundIn(data).readableBytes
        if before < expected, count >= expected { PeerControl.reply("done") }
    }
}

/// Echoes frames unchanged: `headerSize` bytes of header whose last 4 are the big-endian payload length.
final class FrameEcho: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let headerSize: Int
    var buffer = ByteBuffer()

    init(headerSize: Int) { self.headerSize = headerSize }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        buffer.writeBuffer(&incoming)
        var wrote = false
        while let length = buffer.getInteger(at: buffer.readerIndex + headerSize - 4, as: UInt32.self),
            buffer.readableBytes >= headerSize + Int(length)
        {
            let frame = buffer.readSlice(length: headerSize + Int(length))!
            context.write(wrapOutboundOut(frame), promise: nil)
            wrote = true
        }
        if wrote { context.flush() }
        buffer.discardReadBytes()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) { context.close(promise: nil) }
}

/// Answers each 4-byte-length JSON `Ping` with the `Ping` decoded and encoded again: a Coder server written as a
/// SwiftNIO channel handler.
final class PingEcho: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    var buffer = ByteBuffer()
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        buffer.writeBuffer(&incoming)
        var wrote = false
        while let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self),
            buffer.readableBytes >= 4 + Int(length)
        {
            buffer.moveReaderIndex(forwardBy: 4)
            let body = buffer.readSlice(length: Int(length))!
            do {
                let reply = try echo(body, encoder: encoder, decoder: decoder)
                context.write(wrapOutboundOut(reply), promise: nil)
                wrote = true
            } catch {
                context.close(promise: nil)
                return
            }
        }
        if wrote { context.flush() }
        buffer.discardReadBytes()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) { context.close(promise: nil) }
}

/// The reply frame to one request body: the `Ping` decoded from JSON and encoded again, length first.
func echo(_ body: ByteBuffer, encoder: JSONEncoder, decoder: JSONDecoder) throws -> ByteBuffer {
    let ping = try decoder.decode(Ping.self, from: Data(body.readableBytesView))
    let encoded = try encoder.encode(ping)
    var frame = ByteBuffer()
    frame.reserveCapacity(4 + encoded.count)
    frame.writeInteger(UInt32(encoded.count))
    frame.writeBytes(encoded)
    return frame
}

/// The same server written with `NIOAsyncChannel`: a task per connection reads frames and writes the replies.
func pingEchoAsync(group: any EventLoopGroup) throws -> Int {
    let bound = DispatchSemaphore(value: 0)
    let port = NIOLockedValueBox<Result<Int, any Error>>(.success(0))
    Task.detached {
        do {
            let server = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 1024)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .bind(host: "127.0.0.1", port: 0) { ch in
                    ch.eventLoop.makeCompletedFuture {
                        try ch.pipeline.syncOperations.addHandler(ByteToMessageHandler(LengthPrefixDecoder()))
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: ch)
                    }
                }
            port.withLockedValue { $0 = .success(server.channel.localAddress!.port!) }
            bound.signal()
            try await server.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in connections {
                        group.addTask {
                            let encoder = JSONEncoder()
                            let decoder = JSONDecoder()
                            // A client that goes away ends only its own task.
                            try? await connection.executeThenClose { inbound, outbound in
                                for try await body in inbound {
                                    try await outbound.write(try echo(body, encoder: encoder, decoder: decoder))
                                }
                            }
                        }
                    }
                }
            }
        } catch {
            // Before it was bound, the error fails the peer's start-up; after, the server's end is said here.
            let first = port.withLockedValue { old in
                defer { old = .failure(error) }
                return (try? old.get()) == 0  // `try?`: only whether a port was published matters here
            }
            if first { bound.signal() } else { PeerControl.fail("the NIOAsyncChannel Coder server ended: \(error)") }
        }
    }
    bound.wait()
    return try port.withLockedValue { $0 }.get()
}

/// The same server on OpenNetwork: a `NetworkListener` with a `Coder` stack, a handler per connection.
func pingEchoOurs() -> (NetworkListener<Coder<Ping, Ping, NetworkJSONCoder>>, Int) {
    let listener = NetworkListener(for: .hostPort(host: "127.0.0.1", port: 0)) {
        Coder(Ping.self, using: .json) { TCP() }
    }
    let settled = DispatchSemaphore(value: 0)
    listener.onStateUpdate { _, state in
        switch state {
        case .ready, .failed: settled.signal()
        default: break
        }
    }
    Task.detached {
        do {
            try await listener.run { connection in
                for try await (ping, _) in connection.messages { try await connection.send(ping) }
            }
        } catch {
            PeerControl.fail("the OpenNetwork Coder listener failed: \(error)")
        }
    }
    settled.wait()
    guard let port = listener.port else { PeerControl.fail("the OpenNetwork Coder listener did not start") }
    return (listener, Int(port.rawValue))
}

/// The parent's commands and the peer's answers.
enum PeerControl {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var armed: Int?

    static func reply(_ line: String) {
        lock.withLock { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
    }

    /// The armed byte count, taken by the next sink connection.
    static func take() -> Int? {
        lock.withLock {
            defer { armed = nil }
            return armed
        }
    }

    /// Says why the peer cannot go on, and ends it (the parent then fails reading its answers).
    static func fail(_ reason: String) -> Never {
        FileHandle.standardError.write(Data("peer: \(reason)\n".utf8))
        exit(2)
    }

    static func arm(_ bytes: Int) {
        lock.withLock { armed = bytes }
        reply("armed")
    }
}

/// Runs the peer until its standard input closes.
func runPeer(certificate: String, key: String) throws -> Never {
    let group = MultiThreadedEventLoopGroup.singleton
    let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
    let tls = try NIOSSLContext(
        configuration: .makeServerConfiguration(
            certificateChain: chain, privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))))
    func server(tls useTLS: Bool, _ handler: @escaping @Sendable () -> (any ChannelHandler)?) throws -> Int {
        let channel = try ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { ch in
                ch.eventLoop.makeCompletedFuture {
                    if useTLS { try ch.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                    if let handler = handler() { try ch.pipeline.syncOperations.addHandler(handler) }
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        return channel.localAddress!.port!
    }
    let sinkHandler: @Sendable () -> (any ChannelHandler)? = { PeerControl.take().map { CountingSink(expected: $0) } }
    let ports = [
        try server(tls: false, sinkHandler),
        try server(tls: true, sinkHandler),
        try server(tls: false) { FrameEcho(headerSize: 4) },
        try server(tls: false) { FrameEcho(headerSize: 8) },
        try server(tls: true) { FrameEcho(headerSize: 8) },
        try server(tls: false) { PingEcho() },
        try pingEchoAsync(group: group),
    ]
    let (listener, oursPort) = pingEchoOurs()
    PeerControl.reply("ports " + (ports + [oursPort]).map(String.init).joined(separator: " "))
    while let line = readLine() {
        let words = line.split(separator: " ")
        if words.count == 2, words[0] == "expect", let bytes = Int(words[1]) {
            PeerControl.arm(bytes)
        } else if words == ["cpu"] {
            PeerControl.reply("cpu \(cpuSeconds())")
        } else {
            FileHandle.standardError.write(Data("peer: unknown command '\(line)'\n".utf8))
            exit(2)
        }
    }
    withExtendedLifetime(listener) {}
    exit(0)
}

/// The parent's handle on the peer process.
final class Peer {
    let process = Process()
    private let input = Pipe(), output = Pipe()
    private var pending = Data()
    let sink: Int, sinkTLS: Int, lengthEcho: Int, tlvEcho: Int, tlvEchoTLS: Int
    /// The three Coder (JSON `Ping`) servers: a SwiftNIO handler, NIOAsyncChannel, an OpenNetwork listener.
    let pingNIO: Int, pingAsync: Int, pingOurs: Int

    init(certificate: String, key: String) throws {
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["peer", certificate, key]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let words = try Peer.readLine(output, &pending).split(separator: " ")
        guard words.count == 9, words[0] == "ports" else {
            throw PeerError(description: "peer said '\(words.joined(separator: " "))', not its ports")
        }
        let ports = words.dropFirst().compactMap { Int($0) }
        (sink, sinkTLS, lengthEcho, tlvEcho, tlvEchoTLS) = (ports[0], ports[1], ports[2], ports[3], ports[4])
        (pingNIO, pingAsync, pingOurs) = (ports[5], ports[6], ports[7])
    }

    /// Arms the sinks for the next connection bringing `bytes`.
    func expect(_ bytes: Int) throws {
        input.fileHandleForWriting.write(Data("expect \(bytes)\n".utf8))
        let answer = try Peer.readLine(output, &pending)
        guard answer == "armed" else { throw PeerError(description: "peer said '\(answer)' to expect") }
    }

    /// The peer process's CPU time so far (every thread's), in seconds.
    func cpuSeconds() throws -> Double {
        input.fileHandleForWriting.write(Data("cpu\n".utf8))
        let words = try Peer.readLine(output, &pending).split(separator: " ")
        guard words.count == 2, words[0] == "cpu", let seconds = Double(words[1]) else {
            throw PeerError(description: "peer said '\(words.joined(separator: " "))' to cpu")
        }
        return seconds
    }

    /// Blocks until the sink reports the armed bytes arrived.
    func waitDone() throws {
        let answer = try Peer.readLine(output, &pending)
        guard answer == "done" else { throw PeerError(description: "peer said '\(answer)', not done") }
    }

    func stop() {
        try? input.fileHandleForWriting.close()  // the peer exits when its input closes; a close error changes nothing
        process.waitUntilExit()
    }

    private static func readLine(_ pipe: Pipe, _ pending: inout Data) throws -> String {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                return line
            }
            let more = pipe.fileHandleForReading.availableData
            guard !more.isEmpty else { throw PeerError(description: "the peer process ended") }
            pending.append(more)
        }
    }
}

struct PeerError: Error, CustomStringConvertible { var description: String }
