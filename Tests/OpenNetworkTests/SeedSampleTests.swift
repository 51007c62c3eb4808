import Foundation
import OpenNetwork
import Testing

@testable import SeedNetworkChunks
@testable import SeedNetworkCoder
@testable import SeedNetworkIPOptions
@testable import SeedNetworkParameters
@testable import SeedNetworkSendReceive
@testable import SeedNetworkTLS
@testable import SeedNetworkTLV
@testable import SeedNetworkWiFiAware

/// The network talk's samples, cut from ../shared/seeds at build time by the SeedSamples plugin (a missing seed
/// fails the build, and so these tests) with the fixes each target's seed-sample.json lists, compiled against
/// OpenNetwork: that they build is most of the test. Here their declarations are checked for the types the talk
/// gives them, and the game samples' messages travel over a real connection. The Wi-Fi Aware sample (17:39) builds
/// against Orchard's WiFiAware module and fails, when run, saying Linux has no Wi-Fi Aware.
@Suite("The network seed's samples")
struct SeedSampleTests {
    @Test func theConnectionSamplesDeclareWhatTheTalkSays() async {
        let _: NetworkConnection<TLS> = SeedNetworkTLS.connection
        let _: NetworkConnection<TLS> = SeedNetworkIPOptions.connection
        let _: NetworkConnection<TLS> = SeedNetworkParameters.connection
        // None of them connects until it is used.
        #expect(await SeedNetworkTLS.connection.state == .setup)
        // The functions exist with the talk's signatures.
        let _: () async throws -> Void = SeedNetworkSendReceive.sendAndReceiveWithTLS
        let _: () async throws -> Void = SeedNetworkChunks.sendAndReceiveWithTLS
        let _: () async throws -> Void = SeedNetworkTLV.sendWithTLV
        let _: () async throws -> Void = SeedNetworkTLV.receiveWithTLV
        let _: () async throws -> Void = SeedNetworkCoder.sendWithCoder
        let _: () async throws -> Void = SeedNetworkCoder.receiveWithCoder
        let _: () async throws -> Void = SeedNetworkCoder.listenForIncomingConnections
    }

    @Test func theWiFiAwareSampleBuildsAndSaysLinuxHasNoWiFiAware() async throws {
        do {
            try await SeedNetworkWiFiAware.findNearbyDevice()
            Issue.record("a Wi-Fi Aware browse succeeded on Linux")
        } catch {
            #expect("\(error)".contains("Wi-Fi Aware is not supported on Linux"), "\(error)")
        }
    }

    @Test func theTLVGameMessagesTravelAsTheTalkFramesThem() async throws {
        let listener = NetworkListener(for: .hostPort(host: "127.0.0.1", port: .any)) { TLV { TCP() } }
        try await withListener(
            listener,
            handler: { connection in
                let (data, metadata) = try await connection.receive()
                #expect(SeedNetworkTLV.GameMessage(rawValue: metadata.type) == .selectedCharacter)
                #expect(try JSONDecoder().decode(SeedNetworkTLV.GameCharacter.self, from: data).character == "🐨")
                let move = try JSONEncoder().encode(SeedNetworkTLV.GameMove(row: 1, column: 2))
                try await connection.send(move, type: SeedNetworkTLV.GameMessage.move.rawValue)
            }
        ) { port in
            let connection = NetworkConnection(to: .hostPort(host: "127.0.0.1", port: port)) { TLV { TCP() } }
            let character = try JSONEncoder().encode(SeedNetworkTLV.GameCharacter(character: "🐨"))
            try await connection.send(character, type: SeedNetworkTLV.GameMessage.selectedCharacter.rawValue)
            let (data, metadata) = try await connection.receive()
            #expect(metadata.type == 1)
            #expect(try JSONDecoder().decode(SeedNetworkTLV.GameMove.self, from: data).column == 2)
        }
    }

    @Test func theCoderGameMessagesRoundTrip() async throws {
        typealias Message = SeedNetworkCoder.GameMessage
        let listener = NetworkListener(for: .hostPort(host: "127.0.0.1", port: .any)) {
            Coder(Message.self, using: .json) { TCP() }
        }
        try await withListener(
            listener,
            handler: { connection in
                for try await (message, _) in connection.messages {
                    if case .selectedCharacter(let c) = message {
                        try await connection.send(.move(row: c.count, column: 0))
                    }
                }
            }
        ) { port in
            let connection = NetworkConnection(to: .hostPort(host: "127.0.0.1", port: port)) {
                Coder(Message.self, using: .json) { TCP() }
            }
            try await connection.send(.selectedCharacter("🐨"))
            guard case .move(let row, 0) = try await connection.receive().content else {
                Issue.record("no move came back")
                return
            }
            #expect(row == 1)
        }
    }
}
