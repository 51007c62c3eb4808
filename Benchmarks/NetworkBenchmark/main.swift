// OpenNetwork benchmark: each workload next to a raw SwiftNIO baseline in the same run, ratio printed.
//   swift run -c release NetworkBenchmark [seconds-per-measurement]
// 1. 1 KiB TLV messages one way over TCP: NetworkConnection<TLV>.send vs an NIOAsyncChannel writer
//    sending the same frames (target >= 80%); 2. the same over TLS vs NIO + NIOSSL (target >= 70%);
// 3. Coder request/response round trip (small JSON) p50 vs raw NIO with the same framing and JSON
//    coding (target <= 1.25x); 4. 1,000 concurrent connections to one listener, memory per idle connection.
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import OpenNetwork

let seconds = CommandLine.arguments.count > 1 ? Double(CommandLine.arguments[1]) ?? 2 : 2
let payload = Data((0..<1024).map { UInt8(truncatingIfNeeded: $0) })
let frameSize = 8 + payload.count

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
func fmt(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }

/// The process's resident memory in bytes.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
}

// MARK: one-way throughput

/// Sends `count` TLV frames with OpenNetwork; returns messages per second as the sink saw them.
func openNetworkOneWay(count: Int, port: Int, sink: Raw.SinkServer, tls: TLSCertificate?) async throws -> Double {
    let done = sink.expect(count * frameSize)
    let endpoint = NWEndpoint.hostPort(host: "127.0.0.1", port: .init(rawValue: UInt16(port)))
    let c = if let tls {
        NetworkConnection(to: endpoint) { TLV { TLS().serverName("localhost").trustRoots([tls]) } }
    } else {
        NetworkConnection(to: endpoint) { TLV { TCP() } }
    }
    await c.start()
    try await c.send(payload, type: 1)   // connection (and TLS handshake) outside the timing
    let start = now()
    for _ in 1..<count { try await c.send(payload, type: 1) }
    try await done.get()
    let elapsed = now() - start
    await c.cancel()
    return Double(count - 1) / (Double(elapsed) / 1e9)
}

/// Sends `count` identical frames through an NIOAsyncChannel writer.
func rawOneWay(count: Int, port: Int, sink: Raw.SinkServer, tls: NIOSSLContext?) async throws -> Double {
    let done = sink.expect(count * frameSize)
    let channel = try await Raw.client(port: port, tls: tls)
    return try await channel.executeThenClose { inbound, outbound in
        func frame() -> ByteBuffer {
            var b = ByteBuffer()
            b.reserveCapacity(frameSize)
            b.writeInteger(UInt32(1))
            b.writeInteger(UInt32(payload.count))
            b.writeBytes(payload)
            return b
        }
        try await outbound.write(frame())
        let start = now()
        for _ in 1..<count { try await outbound.write(frame()) }
        try await done.get()
        let elapsed = now() - start
        return Double(count - 1) / (Double(elapsed) / 1e9)
    }
}

/// Picks a message count that takes about `seconds` at the given rate.
func countFor(rate: Double) -> Int { max(10_000, Int(rate * seconds)) }

func oneWay(tls: Bool) async throws -> (ours: Double, raw: Double) {
    let identity = try TLSIdentity.selfSigned()
    let serverContext: NIOSSLContext? = tls ? try NIOSSLContext(configuration: .makeServerConfiguration(
        certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(identity.certificatePEM.utf8)).map { .certificate($0) },
        privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem)))) : nil
    var clientConfig = TLSConfiguration.makeClientConfiguration()
    clientConfig.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(identity.certificatePEM.utf8)))
    let clientContext: NIOSSLContext? = tls ? try NIOSSLContext(configuration: clientConfig) : nil
    let sink = try await Raw.SinkServer(tls: serverContext)
    // warm-up and calibration
    let probe = try await rawOneWay(count: 20_000, port: sink.port, sink: sink, tls: clientContext)
    _ = try await openNetworkOneWay(count: 20_000, port: sink.port, sink: sink, tls: tls ? identity.trustRoot : nil)
    let n = countFor(rate: probe)
    var ours: [Double] = [], raw: [Double] = []
    for _ in 0..<3 {   // interleaved, best of three each
        raw.append(try await rawOneWay(count: n, port: sink.port, sink: sink, tls: clientContext))
        ours.append(try await openNetworkOneWay(count: n, port: sink.port, sink: sink, tls: tls ? identity.trustRoot : nil))
    }
    try await sink.channel.close()
    return (ours.max()!, raw.max()!)
}

// MARK: request/response round trip

struct Ping: Codable, Sendable { var text: String; var number: Int; var flag: Bool }

func percentile(_ xs: [UInt64], _ p: Double) -> Double {
    let s = xs.sorted()
    return Double(s[min(s.count - 1, Int(Double(s.count) * p))]) / 1000
}

func openNetworkRoundTrips(port: Int, count: Int) async throws -> [UInt64] {
    let c = NetworkConnection(to: .hostPort(host: "127.0.0.1", port: .init(rawValue: UInt16(port)))) {
        Coder(Ping.self, using: .json) { TCP() }
    }
    var samples: [UInt64] = []
    samples.reserveCapacity(count)
    for i in 0..<count {
        let t = now()
        try await c.send(Ping(text: "tic-tac-toe", number: i, flag: true))
        let reply = try await c.receive().content
        precondition(reply.number == i)
        samples.append(now() - t)
    }
    await c.cancel()
    return samples
}

func rawRoundTrips(port: Int, count: Int) async throws -> [UInt64] {
    let channel = try await Raw.client(port: port, tls: nil)
    return try await channel.executeThenClose { inbound, outbound in
        var iterator = inbound.makeAsyncIterator()
        var buffer = ByteBuffer()
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        let encoder = JSONEncoder(), decoder = JSONDecoder()
        for i in 0..<count {
            let t = now()
            let body = try encoder.encode(Ping(text: "tic-tac-toe", number: i, flag: true))
            var out = ByteBuffer()
            out.writeInteger(UInt32(body.count))
            out.writeBytes(body)
            try await outbound.write(out)
            while true {
                if let n = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self), buffer.readableBytes >= 4 + Int(n) {
                    buffer.moveReaderIndex(forwardBy: 4)
                    let reply = try decoder.decode(Ping.self, from: Data(buffer.readBytes(length: Int(n))!))
                    precondition(reply.number == i)
                    break
                }
                guard var more = try await iterator.next() else { throw NWError.connectionClosed }
                buffer.writeBuffer(&more)
            }
            buffer.discardReadBytes()
            samples.append(now() - t)
        }
        return samples
    }
}

// MARK: many connections

func manyConnections(_ count: Int) async throws -> (served: Int, perIdle: Double, seconds: Double) {
    let served = ManagedCounter()
    let listener = NetworkListener(for: .hostPort(host: "127.0.0.1", port: .any), using: { TLV { TCP() } })
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            try await listener.run { c in
                for try await (content, metadata) in c.messages {
                    try await c.send(content, type: metadata.type)
                    if metadata.type == 3 { served.add() }
                }
            }
        }
        while listener.port == nil { try await Task.sleep(for: .milliseconds(5)) }
        let port = listener.port!
        let before = residentBytes()
        let start = now()
        // Connect all and exchange one message each, then hold them idle.
        let connections = try await withThrowingTaskGroup(of: NetworkConnection<TLV>.self) { connect in
            for _ in 0..<count {
                connect.addTask {
                    let c = NetworkConnection(to: .hostPort(host: "127.0.0.1", port: port)) { TLV { TCP() } }
                    try await c.send(Data("hello".utf8), type: 1)
                    _ = try await c.receive()
                    return c
                }
            }
            var all: [NetworkConnection<TLV>] = []
            for try await c in connect { all.append(c) }
            return all
        }
        try await Task.sleep(for: .milliseconds(300))
        let idle = residentBytes()
        // Every connection exchanges more messages, all at once.
        try await withThrowingTaskGroup(of: Void.self) { exchange in
            for c in connections {
                exchange.addTask {
                    for type in [2, 3] {
                        try await c.send(payload, type: type)
                        _ = try await c.receive()
                    }
                }
            }
            try await exchange.waitForAll()
        }
        let elapsed = Double(now() - start) / 1e9
        for c in connections { await c.cancel() }
        group.cancelAll()
        return (served.value, Double(idle - before) / Double(count), elapsed)
    }
}

final class ManagedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.withLock { n += 1 } }
    var value: Int { lock.withLock { n } }
}

// MARK: run

print("OpenNetwork benchmark (release, loopback, \(ProcessInfo.processInfo.activeProcessorCount) cores)")
let tcp = try await oneWay(tls: false)
print("1 KiB TLV one way over TCP: OpenNetwork \(fmt(tcp.ours / 1000))k msg/s, raw NIOAsyncChannel \(fmt(tcp.raw / 1000))k msg/s: \(fmt(100 * tcp.ours / tcp.raw))% (target >= 80%)")
let tls = try await oneWay(tls: true)
print("1 KiB TLV one way over TLS: OpenNetwork \(fmt(tls.ours / 1000))k msg/s, raw NIO+NIOSSL \(fmt(tls.raw / 1000))k msg/s: \(fmt(100 * tls.ours / tls.raw))% (target >= 70%)")

let echo = try await Raw.echoServer()
let echoPort = echo.localAddress!.port!
_ = try await rawRoundTrips(port: echoPort, count: 2000)
_ = try await openNetworkRoundTrips(port: echoPort, count: 2000)
var oursRT: [UInt64] = [], rawRT: [UInt64] = []
for _ in 0..<3 {
    rawRT += try await rawRoundTrips(port: echoPort, count: 5000)
    oursRT += try await openNetworkRoundTrips(port: echoPort, count: 5000)
}
let p50o = percentile(oursRT, 0.5), p50r = percentile(rawRT, 0.5)
print("Coder round trip (JSON, \(oursRT.count) each): OpenNetwork p50 \(fmt(p50o)) µs p99 \(fmt(percentile(oursRT, 0.99))) µs, raw NIO p50 \(fmt(p50r)) µs p99 \(fmt(percentile(rawRT, 0.99))) µs: \(fmt(p50o / p50r, 2))x (target <= 1.25x)")
try await echo.close().get()

let many = try await manyConnections(1000)
print("1,000 concurrent connections to one listener: \(many.served) served in \(fmt(many.seconds, 2)) s; memory per idle connection \(fmt(many.perIdle / 1024)) KiB (client and server ends both in this process: \(fmt(many.perIdle / 2048)) KiB per end)")
