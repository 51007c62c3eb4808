import Foundation
import OpenNetwork
import Testing

/// First end-to-end checks of OpenNetwork on loopback: a listener and a client exchanging TLV frames
/// over TCP, and Codable messages over TLS with a self-signed identity.
@Suite("Loopback smoke")
struct LoopbackSmokeTests {
    struct Ping: Codable, Sendable, Equatable { var text: String; var number: Int }

    /// Waits (bounded) for a listener to report its port.
    func port<P>(of listener: NetworkListener<P>) async throws -> NWEndpoint.Port {
        for _ in 0..<500 {
            if let port = listener.port, port.rawValue != 0 { return port }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw CancellationError()
    }

    @Test(.timeLimit(.minutes(1))) func tlvEchoOverTCP() async throws {
        let listener = NetworkListener(for: .hostPort(host: "127.0.0.1", port: 0), using: { TLV { TCP() } })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await listener.run { connection in
                    let message = try await connection.receive()
                    try await connection.send(message.content, type: message.metadata.type + 1)
                }
            }
            let port = try await port(of: listener)
            let connection = NetworkConnection(to: .hostPort(host: "127.0.0.1", port: port)) { TLV { TCP() } }
            try await connection.send(Data("hello".utf8), type: 7)
            let reply = try await connection.receive()
            #expect(reply.content == Data("hello".utf8))
            #expect(reply.metadata.type == 8)
            group.cancelAll()
        }
    }

    @Test(.timeLimit(.minutes(1))) func coderRoundTripOverTLS() async throws {
        let identity = try TLSIdentity.selfSigned()
        let listener = NetworkListener(for: .hostPort(host: "127.0.0.1", port: 0), using: {
            Coder(Ping.self, using: .json) { TLS().localIdentity(identity) }
        })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await listener.run { connection in
                    let ping = try await connection.receive().content
                    try await connection.send(Ping(text: ping.text.uppercased(), number: ping.number + 1))
                }
            }
            let port = try await port(of: listener)
            let connection = NetworkConnection(to: .hostPort(host: "127.0.0.1", port: port)) {
                Coder(Ping.self, using: .json) { TLS().serverName("localhost").trustRoots([identity.trustRoot]) }
            }
            try await connection.send(Ping(text: "tic", number: 1))
            #expect(try await connection.receive().content == Ping(text: "TIC", number: 2))
            group.cancelAll()
        }
    }
}
