import Foundation
import NIOCore
import NIOPosix

/// DNS-SD over unicast DNS (RFC 6763 against the system's DNS servers): browsing and resolving services in a domain
/// other than `local.`.
///
/// The servers are the `nameserver` lines of /etc/resolv.conf, asked in turn. A query goes over UDP from a connected
/// socket (the kernel drops datagrams from anyone but the server) with a random ID that the answer must echo with
/// the question; a truncated answer is asked again over TCP. An answer's RCODE other than NOERROR or NXDOMAIN fails
/// with an error naming the server and the code.
enum UnicastDNS {
    /// How long one server has to answer one query.
    static let timeout: Duration = .seconds(2)

    /// The `nameserver` addresses of a resolv.conf (the system's by default).
    static func nameservers(resolvConf path: String = "/etc/resolv.conf") throws -> [String] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw NWError.dns("no DNS servers: \(path) cannot be read (\(error))")
        }
        let servers = text.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, fields[0] == "nameserver" else { return nil }
            return String(fields[1])
        }
        guard !servers.isEmpty else { throw NWError.dns("no DNS servers: \(path) names no nameserver") }
        return servers
    }

    /// The records (answers and additionals) the first server to answer gives for `name` and `type`; empty when the
    /// name does not exist.
    static func query(_ name: DNSName, type: UInt16) async throws -> [DNSRecord] {
        var lastError: any Error = NWError.dns("\(name): no DNS server answered")
        for server in try nameservers() {
            do {
                return try await query(name, type: type, server: server)
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    /// One query to one server: UDP, then TCP when the answer was truncated.
    static func query(_ name: DNSName, type: UInt16, server: String) async throws -> [DNSRecord] {
        let id = UInt16.random(in: 0...UInt16.max)
        // RD (recursion desired): the server may be a recursive resolver.
        let question = DNSMessage(id: id, flags: 0x0100, questions: [DNSQuestion(name: name, type: type)])
        let bytes = question.serialized()
        let address: SocketAddress
        do {
            address = try SocketAddress(ipAddress: server, port: 53)
        } catch {
            throw NWError.dns("the DNS server \(server) is not an address")
        }
        var answer = try await exchange(bytes, id: id, with: address, overTCP: false)
        if answer.flags & 0x0200 != 0 {
            answer = try await exchange(bytes, id: id, with: address, overTCP: true)
        }
        guard answer.questions.first.map({ $0.name == name && $0.type == type }) ?? false else {
            throw NWError.dns("\(server) answered a question other than \(name)")
        }
        switch answer.flags & 0x000F {
        case 0: return answer.answers + answer.additionals
        case 3: return []  // NXDOMAIN: no such name.
        case let code: throw NWError.dns("\(server) answered RCODE \(code) for \(name)")
        }
    }

    /// Sends the query and waits (at most ``timeout``) for the response with its ID: over UDP from a connected socket,
    /// or over TCP with the two-byte length in front (RFC 1035 4.2.2).
    private static func exchange(
        _ bytes: [UInt8], id: UInt16, with server: SocketAddress, overTCP: Bool
    ) async throws -> DNSMessage {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let promise = loop.makePromise(of: DNSMessage.self)
        // The handler completes the promise, exactly once, on the loop (also when connecting fails, below).
        let handler: AnswerHandler =
            overTCP ? StreamAnswerHandler(id: id, promise: promise) : DatagramAnswerHandler(id: id, promise: promise)
        let box = NIOLoopBoundBox.makeBoxSendingValue(handler, eventLoop: loop)
        let answers: @Sendable (Channel) -> EventLoopFuture<Void> = { channel in
            channel.eventLoop.makeCompletedFuture {
                let handler = box.value
                let sync = channel.pipeline.syncOperations
                if let stream = handler as? StreamAnswerHandler {
                    try sync.addHandler(stream)
                } else if let datagram = handler as? DatagramAnswerHandler {
                    try sync.addHandler(datagram)
                }
            }
        }
        let channel: Channel
        do {
            channel =
                overTCP
                ? try await ClientBootstrap(group: loop).channelInitializer(answers).connect(to: server).get()
                : try await DatagramBootstrap(group: loop).channelInitializer(answers).connect(to: server).get()
        } catch {
            let failure = NWError.dns("the DNS server \(server) cannot be reached: \(error)")
            loop.execute { box.value.finish(failure) }
            throw failure
        }
        // Closing the channel (always, at the end) makes the handler fail a promise nothing answered.
        defer { channel.close(promise: nil) }
        do {
            if overTCP {
                var framed = channel.allocator.buffer(capacity: bytes.count + 2)
                framed.writeInteger(UInt16(bytes.count))
                framed.writeBytes(bytes)
                try await channel.writeAndFlush(framed)
            } else {
                try await channel.writeAndFlush(
                    AddressedEnvelope(remoteAddress: server, data: channel.allocator.buffer(bytes: bytes)))
            }
        } catch {
            throw NWError.dns("the query could not be sent to \(server): \(error)")
        }
        return try await withThrowingTaskGroup(of: DNSMessage.self) { group in
            group.addTask {
                // Closing the channel ends a wait the timeout cut short: the handler fails the promise then.
                try await withTaskCancellationHandler {
                    try await promise.futureResult.get()
                } onCancel: {
                    channel.close(promise: nil)
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw NWError.dns("\(server) did not answer within \(timeout)")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw NWError.dns("\(server): no answer") }
            return first
        }
    }

    /// The service instances of `type` in `domain` (PTR records), with the shortest TTL among them.
    static func browse(type: String, domain: String) async throws -> (instances: [String], ttl: UInt32) {
        let name = DNSName("\(type).\(domain)")
        let records = try await query(name, type: DNSType.ptr)
        var instances: [String] = []
        var ttl = UInt32.max
        for record in records where record.name == name {
            guard case .ptr(let target) = record.data, let label = target.labels.first else { continue }
            if !instances.contains(label) { instances.append(label) }
            ttl = min(ttl, record.ttl)
        }
        return (instances, ttl == .max ? 60 : ttl)
    }

    /// A service instance's target host and port (its SRV record), and its TXT strings if asked for.
    static func resolve(
        name: String, type: String, domain: String, withTXT: Bool = false
    ) async throws -> (host: String, port: UInt16, txt: [[UInt8]]?) {
        let instance = DNSName("\(type).\(domain)").prepending(name)
        let records = try await query(instance, type: DNSType.srv)
        guard
            let srv = records.lazy.compactMap({ record -> (DNSName, UInt16)? in
                guard record.name == instance, case .srv(_, _, let port, let target) = record.data else { return nil }
                return (target, port)
            }).first
        else { throw NWError.dns("\(instance): no SRV record") }
        var txt: [[UInt8]]?
        if withTXT {
            let records = try await query(instance, type: DNSType.txt)
            txt =
                records.lazy.compactMap { record -> [[UInt8]]? in
                    guard record.name == instance, case .txt(let strings) = record.data else { return nil }
                    return strings
                }.first
        }
        return (srv.0.labels.joined(separator: "."), srv.1, txt)
    }
}

/// Takes a DNS server's answer off a channel: the first whole response with the query's ID (other datagrams, late
/// answers to other queries or ones that do not parse, are not this query's answer and are skipped); over TCP, once
/// its length-prefixed message is all there. A channel error or close before it fails the wait.
private class AnswerHandler {
    private let id: UInt16
    private let promise: EventLoopPromise<DNSMessage>
    private var done = false

    init(id: UInt16, promise: EventLoopPromise<DNSMessage>) {
        self.id = id
        self.promise = promise
    }

    func take(_ bytes: [UInt8]) {
        // `try?`: a packet that does not parse is not this query's answer.
        guard !done, let message = try? DNSMessage(parsing: bytes), message.id == id, message.isResponse else { return }
        done = true
        promise.succeed(message)
    }

    func finish(_ error: NWError) {
        guard !done else { return }
        done = true
        promise.fail(error)
    }
}

/// ``AnswerHandler`` on a datagram channel.
private final class DatagramAnswerHandler: AnswerHandler, ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        take(Array(unwrapInboundIn(data).data.readableBytesView))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // An ICMP port unreachable on the connected socket says no server listens there.
        finish(NWError.dns("the DNS server answered with an error: \(error)"))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(NWError.dns("the socket to the DNS server closed before an answer"))
        context.fireChannelInactive()
    }
}

/// ``AnswerHandler`` on a TCP channel.
private final class StreamAnswerHandler: AnswerHandler, ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private var stream = ByteBuffer()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var chunk = unwrapInboundIn(data)
        stream.writeBuffer(&chunk)
        guard let length = stream.getInteger(at: stream.readerIndex, as: UInt16.self),
            stream.readableBytes >= 2 + Int(length)
        else { return }
        stream.moveReaderIndex(forwardBy: 2)
        take(stream.readBytes(length: Int(length)) ?? [])
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(NWError.dns("the connection to the DNS server failed: \(error)"))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(NWError.dns("the connection to the DNS server closed before an answer"))
        context.fireChannelInactive()
    }
}
