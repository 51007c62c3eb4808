import Foundation
import Logging
import Testing

@testable import OpenNetwork

/// What a connection handler throws is logged, not dropped, and ends only its own connection.
@Suite("Listener handler errors", .timeLimit(.minutes(1)))
struct ListenerErrorTests {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "the handler refused the request" }
    }

    /// A log handler that keeps what it is given.
    struct Capture: LogHandler {
        let lines: Recorder<String>
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            lines.append("\(event.level) \(event.message) \(event.metadata ?? [:])")
        }
    }

    @Test func aHandlersErrorIsLoggedAndTheListenerServesOn() async throws {
        let lines = Recorder<String>()
        let listener = NetworkListener(for: local(.any), using: { TLV { TCP() } })
        listener.logger = Logger(label: "test") { _ in Capture(lines: lines) }
        try await withListener(
            listener,
            handler: { c in
                let (content, _) = try await c.receive()
                if content == Data("refuse".utf8) { throw Refused() }
                try await c.send(content, type: 1)
            }
        ) { port async throws in
            let refused = NetworkConnection(to: local(port)) { TLV { TCP() } }
            try await refused.send(Data("refuse".utf8), type: 1)
            // The handler's error closed that connection...
            await #expect(throws: NWError.connectionClosed) { try await refused.receive() }
            try await lines.waitFor("the log line") { $0.contains("the handler refused the request") }
            #expect(lines.all.contains { $0.hasPrefix("error") && $0.contains("peer") && $0.contains("Refused") })
            // ...and only that one.
            let next = NetworkConnection(to: local(port)) { TLV { TCP() } }
            try await next.send(Data("hello".utf8), type: 1)
            #expect(try await next.receive().content == Data("hello".utf8))
        }
    }
}
