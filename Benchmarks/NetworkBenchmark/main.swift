// OpenNetwork benchmark: every workload next to plain SwiftNIO doing the same work (channel handlers on the
// event loop, frames built per message, batched flushes), and the one-way and Coder workloads also next to
// NIOAsyncChannel (what an async SwiftNIO user writes). Every server runs in a peer process of its own
// (`NetworkBenchmark peer`), so the figures are the sending process's work; loopback only. Allocations are
// counted by a malloc wrapper in BenchmarkKitC that every side runs with.
//
//   scripts/bench network            # or: swift run -c release NetworkBenchmark [--quick] [--runs N]
import BenchmarkKit
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import OpenNetwork

if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "peer" {
    try runPeer(certificate: CommandLine.arguments[2], key: CommandLine.arguments[3])
}
if CommandLine.arguments.count == 5, CommandLine.arguments[1] == "idle",
    let port = Int(CommandLine.arguments[3]), let count = Int(CommandLine.arguments[4])
{
    print(try await idleHeapPerConnection(ours: CommandLine.arguments[2] == "ours", port: port, count: count))
    exit(0)
}

let bench = Bench(module: "network", title: "OpenNetwork benchmark")
let oneWayCount = bench.quick ? 10_000 : 100_000
let roundTrips = bench.quick ? 200 : 2_000
let perConnection = bench.quick ? 20 : 100
let setups = bench.quick ? 100 : 1_000
let idleConnections = bench.quick ? 100 : 1_000
let payload = Data((0..<1024).map { UInt8(truncatingIfNeeded: $0) })
let payloadBytes = Array(payload)
let frameSize = 8 + payload.count

// TLS: one self-signed identity; the peer serves it, both clients trust it.
let identity = try TLSIdentity.selfSigned()
let folder = try bench.temporaryDirectory("network-bench")
let certificateFile = folder.appendingPathComponent("cert.pem").path
let keyFile = folder.appendingPathComponent("key.pem").path
try Data(identity.certificatePEM.utf8).write(to: URL(fileURLWithPath: certificateFile))
try Data(identity.privateKeyPEM.utf8).write(to: URL(fileURLWithPath: keyFile))
var clientConfiguration = TLSConfiguration.makeClientConfiguration()
clientConfiguration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(identity.certificatePEM.utf8)))
let clientTLS = try NIOSSLContext(configuration: clientConfiguration)
let peer = try Peer(certificate: certificateFile, key: keyFile)
bench.onFinish { peer.stop() }

func endpoint(_ port: Int) -> NWEndpoint { .hostPort(host: "127.0.0.1", port: .init(rawValue: UInt16(port))) }

// MARK: 1–2. 1 KiB TLV messages one way, TCP and TLS

for useTLS in [false, true] {
    let port = useTLS ? peer.sinkTLS : peer.sink
    try await bench.compare(
        "1 KiB TLV messages one way over \(useTLS ? "TLS" : "TCP") (\(oneWayCount) a run)", unit: .rate("msg/s"),
        target: useTLS ? "≥ 80% of plain SwiftNIO (issue 25)" : "≥ 80% of plain SwiftNIO (issue 25)",
        note:
            "from the first timed send until the peer process counted every byte; connection and handshake before the timer; CPU is the sending process's",
        ours: Contender("OpenNetwork") {
            try peer.expect(oneWayCount * frameSize)
            let c =
                if useTLS {
                    NetworkConnection(to: endpoint(port)) {
                        TLV { TLS().serverName("localhost").trustRoots([identity.trustRoot]) }
                    }
                } else {
                    NetworkConnection(to: endpoint(port)) { TLV { TCP() } }
                }
            try await c.send(payload, type: 1)  // connects (and shakes hands) before the timer
            let (_, t) = try await timedAsync {
                for _ in 1..<oneWayCount { try await c.send(payload, type: 1) }
                try peer.waitDone()
            }
            await c.cancel()
            return .rate(oneWayCount - 1, t)
        },
        baselines: [
            Contender("SwiftNIO, flush per 64") {
                try peer.expect(oneWayCount * frameSize)
                let pump = FramePump(payload: payloadBytes)
                let channel = try await connectNIO(port: port, tls: useTLS ? clientTLS : nil) { [pump] }
                let count = oneWayCount
                let (_, t) = try await timedAsync {
                    channel.eventLoop.execute { pump.start(count) }
                    try peer.waitDone()
                }
                try await channel.close()
                return .rate(oneWayCount, t)
            },
            Contender("NIOAsyncChannel writer") {
                try peer.expect(oneWayCount * frameSize)
                let channel = try await ClientBootstrap(group: group)
                    .channelOption(.socketOption(.tcp_nodelay), value: 1)
                    .connect(host: "127.0.0.1", port: port) { ch in
                        ch.eventLoop.makeCompletedFuture {
                            if useTLS {
                                try ch.pipeline.syncOperations.addHandler(
                                    NIOSSLClientHandler(context: clientTLS, serverHostname: "localhost"))
                            }
                            return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: ch)
                        }
                    }
                return try await channel.executeThenClose { _, outbound in
                    func frame() -> ByteBuffer {
                        var b = ByteBuffer()
                        b.reserveCapacity(frameSize)
                        b.writeInteger(UInt32(1))
                        b.writeInteger(UInt32(payload.count))
                        b.writeBytes(payloadBytes)
                        return b
                    }
                    try await outbound.write(frame())  // connects (and shakes hands) before the timer
                    let (_, t) = try await timedAsync {
                        for _ in 1..<oneWayCount { try await outbound.write(frame()) }
                        try peer.waitDone()
                    }
                    return .rate(oneWayCount - 1, t)
                }
            },
        ])
}

// MARK: 2b. Allocations per 1 KiB message sent

try await bench.compare(
    "allocations per 1 KiB TLV message sent over TCP (\(oneWayCount) a run)", unit: .count("allocs/msg"),
    target: "≤ plain SwiftNIO's + 1 (issue 25)",
    note:
        "allocator calls of the whole sending process (every thread's) from the first timed send until the peer counted every byte, divided by the messages; both sides run with the same counting malloc",
    ours: Contender("OpenNetwork") {
        try peer.expect(oneWayCount * frameSize)
        let c = NetworkConnection(to: endpoint(peer.sink)) { TLV { TCP() } }
        try await c.send(payload, type: 1)  // connects before the count
        let before = allocationCount()
        for _ in 1..<oneWayCount { try await c.send(payload, type: 1) }
        try peer.waitDone()
        let used = allocationCount() - before
        await c.cancel()
        return Measured(values: [Double(used) / Double(oneWayCount - 1)])
    },
    baselines: [
        Contender("SwiftNIO, flush per 64") {
            try peer.expect(oneWayCount * frameSize)
            let pump = FramePump(payload: payloadBytes)
            let channel = try await connectNIO(port: peer.sink, tls: nil) { [pump] }
            let count = oneWayCount
            let before = allocationCount()
            channel.eventLoop.execute { pump.start(count) }
            try peer.waitDone()
            let used = allocationCount() - before
            try await channel.close()
            return Measured(values: [Double(used) / Double(oneWayCount)])
        }
    ])

// MARK: 3. Coder request/response, one connection

struct Ping: Codable, Sendable, Equatable {
    var text: String
    var number: Int
    var flag: Bool
}
try await bench.compare(
    "Coder (JSON) request/response, one connection (\(roundTrips) a run)", unit: .time,
    target: "p50 ≤ 1.1x plain SwiftNIO (issue 25)",
    note:
        "a latency sample per round trip, JSON encoded and decoded on both sides, 4-byte length framing; the peer echoes",
    ours: Contender("OpenNetwork") {
        // In a task of its own (not the main actor the harness runs on), as a client or server does its networking.
        let port = peer.lengthEcho
        let (samples, used) = try await Task.detached {
            let c = NetworkConnection(to: endpoint(port)) { Coder(Ping.self, using: .json) { TCP() } }
            try await c.send(Ping(text: "warm", number: -1, flag: true))
            _ = try await c.receive()
            var samples: [Double] = []
            samples.reserveCapacity(roundTrips)
            let cpu = cpuSeconds()
            for i in 0..<roundTrips {
                let start = wallSeconds()
                try await c.send(Ping(text: "tic-tac-toe", number: i, flag: true))
                let reply = try await c.receive().content
                samples.append(wallSeconds() - start)
                guard reply.number == i else { throw PeerError(description: "reply \(reply.number) to request \(i)") }
            }
            let used = cpuSeconds() - cpu
            await c.cancel()
            return (samples, used)
        }.value
        return .latencies(samples, cpu: used, check: "\(samples.count)")
    },
    baselines: [
        Contender("SwiftNIO handler") { try await pingClient(port: peer.lengthEcho) },
        // What the same exchange costs any task-based code on SwiftNIO: two hops between the task and the event
        // loop per round trip (the handler above never leaves the event loop).
        Contender("NIOAsyncChannel from a task") {
            let port = peer.lengthEcho
            let (samples, used) = try await Task.detached {
                let channel = try await ClientBootstrap(group: group)
                    .channelOption(.socketOption(.tcp_nodelay), value: 1)
                    .connect(host: "127.0.0.1", port: port) { ch in
                        ch.eventLoop.makeCompletedFuture {
                            try ch.pipeline.syncOperations.addHandler(ByteToMessageHandler(LengthPrefixDecoder()))
                            return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: ch)
                        }
                    }
                return try await channel.executeThenClose { inbound, outbound in
                    let encoder = JSONEncoder()
                    let decoder = JSONDecoder()
                    var replies = inbound.makeAsyncIterator()
                    var samples: [Double] = []
                    samples.reserveCapacity(roundTrips)
                    let cpu = cpuSeconds()
                    for i in 0..<roundTrips {
                        let start = wallSeconds()
                        let body = try encoder.encode(Ping(text: "tic-tac-toe", number: i, flag: true))
                        var frame = ByteBuffer()
                        frame.writeInteger(UInt32(body.count))
                        frame.writeBytes(body)
                        try await outbound.write(frame)
                        guard let reply = try await replies.next() else { throw PeerError(description: "closed") }
                        let ping = try decoder.decode(Ping.self, from: Data(reply.readableBytesView))
                        samples.append(wallSeconds() - start)
                        guard ping.number == i else { throw PeerError(description: "reply \(ping.number) to \(i)") }
                    }
                    return (samples, cpuSeconds() - cpu)
                }
            }.value
            return .latencies(samples, cpu: used, check: "\(samples.count)")
        },
    ])

// MARK: 3b. Coder request/response, the server's side

try await bench.compare(
    "Coder (JSON) request/response served, one connection (\(roundTrips) a run)", unit: .time,
    target: "p50 ≤ 1.1x plain SwiftNIO (issue 25)",
    note:
        "the same SwiftNIO handler client sends each request after the last reply; the servers, in the peer process, decode the request from JSON and answer it encoded again; CPU is the server's (the peer process's)",
    ours: Contender("OpenNetwork NetworkListener") { try await pingClient(port: peer.pingOurs, serverCPU: true) },
    baselines: [
        Contender("SwiftNIO handler") { try await pingClient(port: peer.pingNIO, serverCPU: true) },
        Contender("NIOAsyncChannel, a task per connection") {
            try await pingClient(port: peer.pingAsync, serverCPU: true)
        },
    ])

/// Runs the Coder round trips from a SwiftNIO handler on the event loop (the fastest client SwiftNIO allows):
/// JSON `Ping`s with 4-byte length framing, each sent when the reply to the last arrived. `serverCPU`: report the
/// peer process's CPU time over the round trips instead of this process's.
@MainActor func pingClient(port: Int, serverCPU: Bool = false) async throws -> Measured {
    let done = group.next().makePromise(of: [Double].self)
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()
    let handler = PingPong(
        headerSize: 4, count: roundTrips, done: done,
        encode: { i, out in
            // Encoding a fixed-shape value cannot fail; a failure would show as a mismatched reply.
            let body = (try? encoder.encode(Ping(text: "tic-tac-toe", number: i, flag: true))) ?? Data()
            out.writeInteger(UInt32(body.count))
            out.writeBytes(body)
        },
        matches: { i, body in
            (try? decoder.decode(Ping.self, from: Data(body.readableBytesView)))?.number == i  // nil: not a reply
        })
    let channel = try await connectNIO(port: port, tls: nil) { [handler] }
    let cpu = serverCPU ? try peer.cpuSeconds() : cpuSeconds()
    channel.eventLoop.execute { handler.start() }
    let samples = try await done.futureResult.get()
    let used = (serverCPU ? try peer.cpuSeconds() : cpuSeconds()) - cpu
    try await channel.close()
    return .latencies(samples, cpu: used, check: "\(samples.count)")
}

/// Splits a stream into the values of 4-byte-length frames.
struct LengthPrefixDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer
    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self),
            buffer.readableBytes >= 4 + Int(length)
        else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 4)
        context.fireChannelRead(NIOAny(buffer.readSlice(length: Int(length))!))
        return .continue
    }
}

// MARK: 4. 64-byte request/response over 100 concurrent connections

/// Request `i` of the 64-byte workloads as Data.
func request(_ i: Int) -> Data {
    var data = Data(count: 64)
    withUnsafeBytes(of: UInt64(i).bigEndian) { data.replaceSubrange(0..<8, with: $0) }
    return data
}
func replyNumber(_ data: Data) -> UInt64 { data.prefix(8).reduce(0) { $0 << 8 | UInt64($1) } }

try await bench.compare(
    "64-byte request/response over 100 concurrent connections (\(perConnection) each a run)", unit: .time,
    target: "p99 ≤ 1.2x plain SwiftNIO (issue 25)",
    note:
        "a latency sample per round trip; every connection runs its round trips one after another, all connections at once",
    ours: Contender("OpenNetwork") {
        let port = peer.tlvEcho
        let each = perConnection
        let connections = try await withThrowingTaskGroup(of: NetworkConnection<TLV>.self) { connect in
            for _ in 0..<100 {
                connect.addTask {
                    let c = NetworkConnection(to: endpoint(port)) { TLV { TCP() } }
                    try await c.send(request(0), type: 1)
                    _ = try await c.receive()
                    return c
                }
            }
            var all: [NetworkConnection<TLV>] = []
            while let c = try await connect.next() { all.append(c) }
            return all
        }
        let cpu = cpuSeconds()
        let samples = try await withThrowingTaskGroup(of: [Double].self) { tasks in
            for c in connections {
                tasks.addTask {
                    var samples: [Double] = []
                    for i in 0..<each {
                        let start = wallSeconds()
                        try await c.send(request(i), type: 1)
                        let reply = try await c.receive()
                        samples.append(wallSeconds() - start)
                        guard replyNumber(reply.content) == UInt64(i) else {
                            throw PeerError(description: "reply to \(i) mismatched")
                        }
                    }
                    return samples
                }
            }
            var all: [Double] = []
            while let some = try await tasks.next() { all += some }
            return all
        }
        let used = cpuSeconds() - cpu
        for c in connections { await c.cancel() }
        return .latencies(samples, cpu: used, check: "\(samples.count)")
    },
    baselines: [
        Contender("SwiftNIO handler") {
            var handlers: [PingPong] = []
            var channels: [Channel] = []
            for _ in 0..<100 {
                let handler = PingPong(
                    headerSize: 8, count: perConnection, done: group.next().makePromise(), encode: tlvRequest,
                    matches: tlvMatches)
                channels.append(try await connectNIO(port: peer.tlvEcho, tls: nil) { [handler] })
                handlers.append(handler)
            }
            let cpu = cpuSeconds()
            for (handler, channel) in zip(handlers, channels) { channel.eventLoop.execute { handler.start() } }
            var samples: [Double] = []
            for handler in handlers { samples += try await handler.done.futureResult.get() }
            let used = cpuSeconds() - cpu
            for channel in channels { try await channel.close() }
            return .latencies(samples, cpu: used, check: "\(samples.count)")
        }
    ])

// MARK: 5. Connection set-up rate

/// OpenSSL's own client as a TLS floor: `openssl s_time` makes full handshakes one after another for two
/// seconds (no message exchanged); the rate is its count over the wall time we measure around it.
@MainActor func opensslSetups(port: Int) -> Contender {
    Contender("openssl s_time (C; one at a time, handshake only)") {
        let (result, t) = try timed {
            try runProcess(
                ["s_time", "-connect", "127.0.0.1:\(port)", "-new", "-time", "2"], executable: "/usr/bin/openssl")
        }
        // No CPU figure: what this process used while openssl ran says nothing of openssl.
        guard let line = result.output.split(separator: "\n").first(where: { $0.contains(" connections in ") }),
            let count = line.split(separator: " ").first.flatMap({ Int($0) })
        else {
            throw PeerError(description: "openssl s_time printed no connection count: \(result.output.suffix(300))")
        }
        return Measured(values: [Double(count) / t.wall])
    }
}

for useTLS in [false, true] {
    let port = useTLS ? peer.tlvEchoTLS : peer.tlvEcho
    try await bench.compare(
        "connections set up over \(useTLS ? "TLS" : "TCP"): connect, one 64-byte exchange, close (\(setups), 10 at a time)",
        unit: .rate("conn/s"), target: "≥ 80% of plain SwiftNIO (issue 25)",
        ours: Contender("OpenNetwork") {
            let each = setups / 10
            let trust = identity.trustRoot
            let (_, t) = try await timedAsync {
                try await withThrowingTaskGroup(of: Void.self) { workers in
                    for _ in 0..<10 {
                        workers.addTask {
                            for i in 0..<each {
                                let c =
                                    if useTLS {
                                        NetworkConnection(to: endpoint(port)) {
                                            TLV { TLS().serverName("localhost").trustRoots([trust]) }
                                        }
                                    } else {
                                        NetworkConnection(to: endpoint(port)) { TLV { TCP() } }
                                    }
                                try await c.send(request(i), type: 1)
                                let reply = try await c.receive()
                                guard replyNumber(reply.content) == UInt64(i) else {
                                    throw PeerError(description: "reply to \(i) mismatched")
                                }
                                await c.cancel()
                            }
                        }
                    }
                    try await workers.waitForAll()
                }
            }
            return .rate(setups, t)
        },
        baselines: [
            Contender("SwiftNIO handler") {
                let each = setups / 10
                let tls = useTLS ? clientTLS : nil
                let (_, t) = try await timedAsync {
                    try await withThrowingTaskGroup(of: Void.self) { workers in
                        for _ in 0..<10 {
                            workers.addTask {
                                for _ in 0..<each {
                                    let handler = PingPong(
                                        headerSize: 8, count: 1, done: group.next().makePromise(), encode: tlvRequest,
                                        matches: tlvMatches)
                                    let channel = try await connectNIO(port: port, tls: tls) { [handler] }
                                    channel.eventLoop.execute { handler.start() }
                                    _ = try await handler.done.futureResult.get()
                                    try await channel.close()
                                }
                            }
                        }
                        try await workers.waitForAll()
                    }
                }
                return .rate(setups, t)
            }
        ] + (useTLS ? [opensslSetups(port: port)] : []))
}

// MARK: 6. Memory per idle connection

/// Heap bytes per connection while `count` client connections to `port` are open after one exchange each,
/// measured in a fresh child process (`NetworkBenchmark idle ours|nio PORT COUNT`), so no earlier workload's
/// memory is freed or reused meanwhile.
func idleHeapPerConnection(ours: Bool, port: Int, count: Int) async throws -> Double {
    let before = heapInUseBytes()
    var held: [Any] = []
    for i in 0..<count {
        if ours {
            let c = NetworkConnection(to: endpoint(port)) { TLV { TCP() } }
            try await c.send(request(i), type: 1)
            _ = try await c.receive()
            held.append(c)
        } else {
            let handler = PingPong(
                headerSize: 8, count: 1, done: group.next().makePromise(), encode: tlvRequest, matches: tlvMatches)
            let channel = try await connectNIO(port: port, tls: nil) { [handler] }
            channel.eventLoop.execute { handler.start() }
            _ = try await handler.done.futureResult.get()
            held.append(channel)
        }
    }
    try await Task.sleep(for: .milliseconds(200))  // writes and reads settle
    let grown = heapInUseBytes() - before
    withExtendedLifetime(held) {}
    return Double(grown) / Double(count)
}

/// Runs `idleHeapPerConnection` in a child process.
@MainActor func idleChild(_ side: String) throws -> Measured {
    let text = try runProcess(["idle", side, String(peer.tlvEcho), String(idleConnections)]).output
    guard let bytes = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw PeerError(description: "idle child (\(side)) printed '\(text)', not a byte count")
    }
    return Measured(values: [bytes])
}

try await bench.compare(
    "memory per idle client connection (\(idleConnections) open, one exchange each)", unit: .bytes,
    note:
        "heap bytes a fresh client process holds while the connections are open (glibc mallinfo2), divided by their number: client ends only (the servers are in the peer process), kernel socket buffers not included",
    warmups: 0,
    ours: Contender("OpenNetwork") { try idleChild("ours") },
    baselines: [Contender("SwiftNIO handler") { try idleChild("nio") }])

try bench.finish()
