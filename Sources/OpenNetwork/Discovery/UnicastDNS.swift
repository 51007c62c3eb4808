import Foundation

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
        let bytes = Data(question.serialized())
        var answer = try await withTimeout(server: server) {
            let connection = NetworkConnection(to: .hostPort(host: .init(server), port: 53)) { UDP() }
            defer { Task { await connection.cancel() } }
            try await connection.send(bytes)
            while true {
                let (datagram, _) = try await connection.receive()
                // An answer to another query (a late one) is not this one's: keep waiting. (`try?`: a datagram that
                // does not parse is not this query's answer either.)
                if let message = try? DNSMessage(parsing: Array(datagram)), message.id == id, message.isResponse {
                    return message
                }
            }
        }
        if answer.flags & 0x0200 != 0 {
            answer = try await withTimeout(server: server) {
                let connection = NetworkConnection(to: .hostPort(host: .init(server), port: 53)) { TCP() }
                defer { Task { await connection.cancel() } }
                try await connection.send(Data([UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)]) + bytes)
                let (length, _) = try await connection.receive(as: UInt16.self)
                let (body, _) = try await connection.receive(exactly: Int(length))
                let message = try DNSMessage(parsing: Array(body))
                guard message.id == id, message.isResponse else {
                    throw NWError.dns("\(server) answered another query over TCP")
                }
                return message
            }
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

    /// `body`'s result, or a timeout error naming the server once ``timeout`` passed.
    private static func withTimeout<T: Sendable>(
        server: String, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw NWError.dns("\(server) did not answer within \(timeout)")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw NWError.dns("\(server): no answer") }
            return first
        }
    }
}
