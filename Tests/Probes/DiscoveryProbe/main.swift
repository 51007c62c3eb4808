// A second host for OpenNetwork's discovery tests: run in a network namespace (`ip netns exec`), it advertises,
// browses or connects, and prints one line per event for the test to read. It stops when its standard input
// closes (the test holds the other end), so a test that dies takes its probes with it.
import Foundation
import Logging
import OpenNetwork
import Synchronization

// ORCHARD_TRACE=1 prints every multicast DNS packet on standard error.
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = ProcessInfo.processInfo.environment["ORCHARD_TRACE"] == nil ? .info : .trace
    return handler
}

let arguments = CommandLine.arguments.dropFirst()
let started = ContinuousClock.now

func elapsed() -> Int {
    let d = ContinuousClock.now - started
    return Int(d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000)
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Runs `body` until standard input closes, then cancels it and exits.
func untilStdinCloses(_ body: @escaping @Sendable () async throws -> Void) -> Never {
    let task = Task {
        do { try await body() } catch is CancellationError {} catch {
            say("error \(error)")
        }
    }
    Thread {
        while !FileHandle.standardInput.availableData.isEmpty {}
        task.cancel()
    }.start()
    let done = DispatchSemaphore(value: 0)
    Task {
        _ = await task.result
        // The goodbye goes out on the responder's event loop; give it a moment to leave.
        try? await Task.sleep(for: .milliseconds(200))  // `try?`: a sleep is not cancelled here
        done.signal()
    }
    done.wait()
    say("stopped")
    exit(0)
}

/// Milliseconds, with three decimals.
func ms(_ d: Duration) -> String {
    String(format: "%.3f", Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15)
}

/// A count shared between listeners' handlers.
final class Counter: Sendable {
    private let value = Mutex(0)
    /// Adds one; returns the new count.
    func increment() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}

/// Echoes every TLV message back.
func echo(_ connection: NetworkConnection<TLV>) async throws {
    for try await (message, metadata) in connection.messages {
        try await connection.send(message, type: metadata.type)
    }
}

switch arguments.first {
case "advertise":
    // advertise NAME TYPE [key=value ...]
    let args = Array(arguments.dropFirst())
    var txt = NWTXTRecord()
    for pair in args.dropFirst(2) {
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        txt[parts[0]] = parts.count > 1 ? parts[1] : ""
    }
    let service = NetworkListener<TLV>.Service(name: args[0], type: args[1], txtRecord: txt)
    untilStdinCloses {
        let listener = NetworkListener { TLV { TCP() } }
            .service(service)
            .onStateUpdate { listener, state in
                if state == .ready { say("listening \(listener.port?.rawValue ?? 0)") }
            }
            .onServiceRegistrationUpdate { _, change in
                switch change {
                case .add(let endpoint): say("added \(endpoint)")
                case .remove(let endpoint): say("removed \(endpoint)")
                }
            }
        try await listener.run { connection in try await echo(connection) }
    }
case "browse":
    // browse TYPE [--txt]: prints the names found each time they change
    let args = Array(arguments.dropFirst())
    let withTXT = args.contains("--txt")
    untilStdinCloses {
        let _: Int = try await NetworkBrowser(for: .bonjour(args[0], includeTxtRecord: withTXT)).run { endpoints in
            var names: [String] = []
            for endpoint in endpoints {
                guard case .service(let name, _, _, _) = endpoint else { continue }
                names.append(withTXT ? "\(name)[\(endpoint.txtRecord?.description ?? "-")]" : name)
            }
            say("found \(elapsed()) \(names.joined(separator: "|"))")
            return .continue
        }
    }
case "connect":
    // connect TYPE MESSAGE [DOMAIN]: the first service found (in DOMAIN, unicast DNS-SD, when given), connected to
    // with TLV, one echo
    let args = Array(arguments.dropFirst())
    untilStdinCloses {
        let domain = args.count > 2 ? args[2] : nil
        let endpoint = try await NetworkBrowser(for: .bonjour(args[0], domain: domain)).run { endpoints in
            endpoints.isEmpty ? .continue : .finish(endpoints[0])
        }
        let discovered = elapsed()
        let connection = NetworkConnection(to: endpoint) { TLV { TCP() } }
        try await connection.send(Data(args[1].utf8), type: 1)
        let (reply, _) = try await connection.receive()
        say(
            "echo \(String(decoding: reply, as: UTF8.self)) discovered \(discovered) connected \(elapsed() - discovered)"
        )
        await connection.cancel()
        while !Task.isCancelled { try await Task.sleep(for: .seconds(1)) }
    }
case "advertise-tls":
    // advertise-tls NAME TYPE CERTFILE: a TLS listener whose fresh self-signed certificate (for NAME.local) is
    // written to CERTFILE for the client to trust
    let args = Array(arguments.dropFirst())
    let identity = try TLSIdentity.selfSigned(commonName: "\(args[0]).local", dnsNames: ["\(args[0]).local"])
    try identity.certificatePEM.write(toFile: args[2], atomically: true, encoding: .utf8)
    untilStdinCloses {
        try await NetworkListener { TLV { TLS().localIdentity(identity) } }
            .service(.init(name: args[0], type: args[1]))
            .onServiceRegistrationUpdate { _, change in
                if case .add(let endpoint) = change { say("added \(endpoint)") }
            }
            .run { connection in try await echo(connection) }
    }
case "connect-tls":
    // connect-tls TYPE MESSAGE CERTFILE SERVERNAME: the first service found, over TLS trusting only CERTFILE and
    // checking the certificate names SERVERNAME; one echo
    let args = Array(arguments.dropFirst())
    let root = try TLSCertificate(pemFile: args[2])
    untilStdinCloses {
        let endpoint = try await NetworkBrowser(for: .bonjour(args[0])).run { endpoints in
            endpoints.isEmpty ? .continue : .finish(endpoints[0])
        }
        let connection = NetworkConnection(to: endpoint) {
            TLV { TLS().trustRoots([root]).serverName(args[3]) }
        }
        do {
            try await connection.send(Data(args[1].utf8), type: 1)
            let (reply, _) = try await connection.receive()
            say("echo \(String(decoding: reply, as: UTF8.self)) over TLS")
        } catch {
            say("refused \(error)")
        }
        await connection.cancel()
        while !Task.isCancelled { try await Task.sleep(for: .seconds(1)) }
    }
case "nw-advertise":
    // nw-advertise NAME TYPE [PASSCODE]: an NWListener advertising a service, echoing with the callback API (over TLS
    // keyed by the passcode when one is given)
    let args = Array(arguments.dropFirst())
    untilStdinCloses {
        let queue = DispatchQueue(label: "nw-advertise")
        let listener = try NWListener(
            service: .init(name: args[0], type: args[1], txtRecord: NWTXTRecord(["api": "nw"])),
            using: parameters(passcode: args.count > 2 ? args[2] : nil))
        listener.serviceRegistrationUpdateHandler = { change in
            if case .add(let endpoint) = change { say("added \(endpoint)") }
        }
        listener.newConnectionHandler = { connection in
            connection.start(queue: queue)
            connection.receive(minimumIncompleteLength: 1, maximumLength: 1024) { data, _, _, _ in
                connection.send(content: data, contentContext: .finalMessage, completion: .idempotent)
            }
        }
        listener.start(queue: queue)
        defer { listener.cancel() }
        while !Task.isCancelled { try await Task.sleep(for: .seconds(1)) }
    }
case "nw-connect":
    // nw-connect TYPE MESSAGE [PASSCODE or -] [DOMAIN]: NWBrowser finds the service (with its TXT record; in DOMAIN by
    // unicast DNS-SD when given), NWConnection sends one message (over TLS keyed by the passcode when one is given)
    let args = Array(arguments.dropFirst())
    untilStdinCloses {
        let queue = DispatchQueue(label: "nw-connect")
        let browser = NWBrowser(
            for: .bonjourWithTXTRecord(type: args[0], domain: args.count > 3 ? args[3] : nil), using: .tcp)
        let found = AsyncStream<NWBrowser.Result>.makeStream()
        browser.browseResultsChangedHandler = { results, _ in
            if let first = results.first { found.continuation.yield(first) }
        }
        browser.start(queue: queue)
        var iterator = found.stream.makeAsyncIterator()
        guard let result = await iterator.next() else { return }
        browser.cancel()
        if case .bonjour(let txt) = result.metadata { say("txt \(txt)") }
        let passcode = args.count > 2 && args[2] != "-" ? args[2] : nil
        let connection = NWConnection(to: result.endpoint, using: parameters(passcode: passcode))
        let reply = AsyncStream<String>.makeStream()
        connection.start(queue: queue)
        connection.send(content: Data(args[1].utf8), completion: .idempotent)
        connection.receiveMessage { data, _, _, error in
            reply.continuation.yield(
                data.map { String(decoding: $0, as: UTF8.self) } ?? "error \(String(describing: error))")
        }
        var replies = reply.stream.makeAsyncIterator()
        say("echo \(await replies.next() ?? "")")
        connection.cancel()
        while !Task.isCancelled { try await Task.sleep(for: .seconds(1)) }
    }
case "discover":
    // discover TYPE: ms from the browse's start to the first endpoint ("discovered"), then ms to resolve it, connect
    // and get one echo back ("connected")
    let args = Array(arguments.dropFirst())
    untilStdinCloses {
        let start = ContinuousClock.now
        let endpoint = try await NetworkBrowser(for: .bonjour(args[0])).run { endpoints in
            endpoints.isEmpty ? .continue : .finish(endpoints[0])
        }
        let found = ContinuousClock.now
        say("discovered \(ms(found - start))")
        let connection = NetworkConnection(to: endpoint) { TLV { TCP() } }
        try await connection.send(Data("ping".utf8), type: 1)
        _ = try await connection.receive()
        let connected = ContinuousClock.now
        await connection.cancel()
        say("connected \(ms(connected - found))")
        while !Task.isCancelled { try await Task.sleep(for: .seconds(1)) }
    }
case "advertise-many":
    // advertise-many COUNT TYPE: COUNT listeners, each advertised as "Service N"
    let args = Array(arguments.dropFirst())
    let count = Int(args[0]) ?? 1
    let added = Counter()
    untilStdinCloses {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<count {
                group.addTask {
                    try await NetworkListener { TLV { TCP() } }
                        .service(.init(name: "Service \(i)", type: args[1]))
                        .onServiceRegistrationUpdate { _, change in
                            if case .add = change, added.increment() == count { say("added-all \(count)") }
                        }
                        .run { connection in try await echo(connection) }
                }
            }
            try await group.waitForAll()
        }
    }
case "count":
    // count TYPE N: ms from the browse's start until N endpoints are seen
    let args = Array(arguments.dropFirst())
    let wanted = Int(args[1]) ?? 1
    untilStdinCloses {
        let start = ContinuousClock.now
        let seen = try await NetworkBrowser(for: .bonjour(args[0])).run { endpoints in
            endpoints.count >= wanted ? .finish(endpoints.count) : .continue
        }
        let d = ContinuousClock.now - start
        say("counted \(seen) \(Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15)")
        while !Task.isCancelled { try await Task.sleep(for: .seconds(1)) }
    }
default:
    say("usage: DiscoveryProbe advertise NAME TYPE [k=v ...] | browse TYPE [--txt] | connect TYPE MESSAGE")
    exit(2)
}

/// TCP, or TLS keyed by `passcode` (a pre-shared key, as Apple's peer-to-peer sample sets it up).
func parameters(passcode: String?) -> NWParameters {
    guard let passcode else { return .tcp }
    let tls = NWProtocolTLS.Options()
    let key = Data(passcode.utf8).withUnsafeBytes { DispatchData(bytes: $0) }
    let identity = Data("probe".utf8).withUnsafeBytes { DispatchData(bytes: $0) }
    sec_protocol_options_add_pre_shared_key(tls.securityProtocolOptions, key, identity)
    return NWParameters(tls: tls)
}
