import Foundation
import OpenNetwork
import Testing

/// UDP connections against a python3 datagram peer (a peer nobody here wrote).
@Suite("UDP", .timeLimit(.minutes(1)), .serialized)
struct UDPTests {
    @Test func datagramsKeepTheirBoundaries() async throws {
        let portFile = FileManager.default.temporaryDirectory.appendingPathComponent("orchard-udp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: portFile) }
        let script = """
        import socket, sys
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
        import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
        for _ in range(3):
            data, peer = s.recvfrom(65536)
            s.sendto(data[::-1], peer)
        """
        let python = try await InteropTests.Tool(["python3", "-c", script, portFile.path])
        var port: UInt16?
        for _ in 0..<1000 where port == nil {
            if let text = try? String(contentsOf: portFile, encoding: .utf8) { port = UInt16(text) }
            else { try await Task.sleep(for: .milliseconds(10)) }
        }
        let c = NetworkConnection(to: local(.init(rawValue: try #require(port)))) { UDP() }
        for text in ["tic", "tac-toe", String(repeating: "x", count: 9000)] {
            try await c.send(Data(text.utf8))
            let reply = try await c.receive()
            #expect(reply.content == Data(text.utf8.reversed()))
            #expect(reply.metadata.size == text.utf8.count)
        }
        #expect(try await python.finish().status == 0)
        await c.cancel()
        #expect(await c.state == .cancelled)
    }

    @Test func nobodyListeningIsRefused() async throws {
        let port = try await unusedPort()
        let c = NetworkConnection(to: local(port)) { UDP() }
        try await c.send(Data("anyone?".utf8))
        await #expect(throws: NWError.connectionRefused) { try await c.receive() }
    }
}
