import Foundation
import OpenNetwork
import Testing

/// Records state updates from `onStateUpdate` handlers (called on other threads).
final class Recorder<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []

    func append(_ item: Element) { lock.withLock { items.append(item) } }
    var all: [Element] { lock.withLock { items } }

    /// Waits (bounded, polling) until some recorded element matches.
    func waitFor(
        _ what: String = "state", timeout: Duration = .seconds(20),
        _ matches: (Element) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if all.contains(where: matches) { return }
            try await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("timed out waiting for \(what); have \(all)")
        throw NWError.timedOut
    }
}

/// A counter shared between tasks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add(_ k: Int = 1) { lock.withLock { n += k } }
    /// Adds one and returns the new value, at once.
    func next() -> Int {
        lock.withLock {
            n += 1
            return n
        }
    }
    var value: Int { lock.withLock { n } }
}

/// Waits (bounded) for a listener to be ready and returns its port (nil for Unix socket listeners).
func waitReady<P>(_ listener: NetworkListener<P>) async throws -> NWEndpoint.Port? {
    for _ in 0..<4000 {
        switch listener.state {
        case .ready: return listener.port
        case .failed(let e): throw e
        default: try await Task.sleep(for: .milliseconds(5))
        }
    }
    throw NWError.timedOut
}

/// Runs `listener` with `handler` while `body` runs, then cancels the listener and waits for `run` to return.
func withListener<P: NetworkProtocolOptions, R: Sendable>(
    _ listener: NetworkListener<P>,
    handler: @escaping @Sendable (NetworkConnection<P>) async throws -> Void,
    body: (NWEndpoint.Port) async throws -> R
) async throws -> R {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await listener.run(handler) }
        do {
            let port = try await waitReady(listener) ?? .any
            let result = try await body(port)
            group.cancelAll()
            try await group.waitForAll()
            return result
        } catch {
            group.cancelAll()
            throw error
        }
    }
}

/// A loopback TCP port nobody listens on (bound once by a listener, then released).
func unusedPort() async throws -> NWEndpoint.Port {
    let listener = NetworkListener(for: .hostPort(host: "127.0.0.1", port: 0), using: { TCP() })
    return try await withListener(listener, handler: { _ in }) { port in port }
}

/// The endpoint of a loopback port.
func local(_ port: NWEndpoint.Port) -> NWEndpoint { .hostPort(host: "127.0.0.1", port: port) }

/// A fresh path for a Unix domain socket.
func socketPath() -> String {
    NSTemporaryDirectory() + "orchard-net-\(UUID().uuidString.prefix(8)).sock"
}

/// TLV header bytes: 4-byte type, 4-byte length, big-endian.
func tlvFrame(type: UInt32, _ value: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: type >> UInt32(shift))) }
    let n = UInt32(value.count)
    for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: n >> UInt32(shift))) }
    return out + value
}

/// Whether `error` is an NWError equal to `expected`.
func isError(_ error: any Error, _ expected: NWError) -> Bool { (error as? NWError) == expected }

struct Ping: Codable, Sendable, Equatable {
    var text: String
    var number: Int
}
