// Tic-Tac-Toe over OpenNetwork, from the WWDC25 session "Use structured concurrency with Network framework":
// a listener referees two clients that play each other, first with Coder over TLS, then with TLV
// (JSON values, message type in the TLV type field) over TLS, then with the Network framework's callback API
// (NWListener, NWConnection, a custom NWProtocolFramer, TLS keyed by a passcode). Each game ends by itself.
import Foundation
import OpenNetwork

/// Waits for a listener to be ready and returns its port.
func readyPort<P>(_ listener: NetworkListener<P>) async throws -> NWEndpoint.Port {
    while true {
        if case .failed(let error) = listener.state { throw error }
        if case .ready = listener.state, let port = listener.port { return port }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// Runs one game: a refereeing listener and two players, then stops the listener.
func game<P: NetworkProtocolOptions>(
    _ title: String,
    listener: NetworkListener<P>,
    serve: @escaping @Sendable (NetworkConnection<P>) async throws -> Wire,
    player: @escaping @Sendable (NWEndpoint.Port, String) async throws -> String
) async throws {
    print("== \(title)")
    let referee = Referee()
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            try await listener.run { connection in try await referee.serve(try await serve(connection)) }
        }
        let port = try await readyPort(listener)
        async let koala = player(port, "🐨")
        async let tiger = player(port, "🐯")
        print("  \(try await koala); \(try await tiger)")
        print("  referee: \(await referee.outcome())")
        group.cancelAll()
    }
}

let identity = try TLSIdentity.selfSigned()
let local = NWEndpoint.hostPort(host: "127.0.0.1", port: .any)

let watchdog = Task {
    try await Task.sleep(for: .seconds(60))
    print("the games did not finish in 60 s")
    exit(1)
}

try await game(
    "Coder(GameMessage.self, using: .json) { TLS() }",
    listener: NetworkListener(for: local) {
        Coder(GameMessage.self, using: .json) { TLS().localIdentity(identity) }
    },
    serve: { Wire($0) },
    player: { port, character in
        let connection = NetworkConnection(to: .hostPort(host: "localhost", port: port)) {
            Coder(GameMessage.self, using: .json) { TLS().trustRoots([identity.trustRoot]) }
        }
        let outcome = try await play(as: character, over: Wire(connection))
        await connection.cancel()
        return outcome
    })

try await game(
    "TLV { TLS() }",
    listener: NetworkListener(for: local) { TLV { TLS().localIdentity(identity) } },
    serve: { Wire($0) },
    player: { port, character in
        let connection = NetworkConnection(to: .hostPort(host: "localhost", port: port)) {
            TLV { TLS().trustRoots([identity.trustRoot]) }
        }
        let outcome = try await play(as: character, over: Wire(connection))
        await connection.cancel()
        return outcome
    })

print("== NWConnection + NWProtocolFramer, TLS with a passcode")
let referee = Referee()
let nwQueue = DispatchQueue(label: "tictactoe")
let nwListener = try NWListener(using: NWParameters(passcode: "2025"))
let nwReady = AsyncStream<NWEndpoint.Port>.makeStream()
nwListener.stateUpdateHandler = { [weak nwListener] state in
    if state == .ready, let port = nwListener?.port { nwReady.continuation.yield(port) }
    if case .failed(let error) = state {
        print("listener failed: \(error)")
        exit(1)
    }
}
nwListener.newConnectionHandler = { connection in
    connection.start(queue: nwQueue)
    Task { try await referee.serve(Wire(connection)) }
}
nwListener.start(queue: nwQueue)
/// The first value of a stream.
func first<T>(_ stream: AsyncStream<T>) async -> T? {
    for await value in stream { return value }
    return nil
}
guard let nwPort = await first(nwReady.stream) else { exit(1) }
@Sendable func nwPlayer(_ character: String) async throws -> String {
    let connection = NWConnection(host: "127.0.0.1", port: nwPort, using: NWParameters(passcode: "2025"))
    connection.start(queue: nwQueue)
    defer { connection.cancel() }
    return try await play(as: character, over: Wire(connection))
}
async let koala = nwPlayer("🐨")
async let tiger = nwPlayer("🐯")
print("  \(try await koala); \(try await tiger)")
print("  referee: \(await referee.outcome())")
nwListener.cancel()

watchdog.cancel()
