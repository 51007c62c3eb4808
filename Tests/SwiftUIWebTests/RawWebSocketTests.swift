import Foundation
import SwiftUIWebDriver
import TestSupport
import Testing

/// The tests' own WebSocket client (``RawWebSocket``) reads what a server sends in the same write as its upgrade
/// response: the case swift-websocket's client loses (see ``RawWebSocket``'s comment), which made socket tests hang.
@Suite struct RawWebSocketTests {
    @Test func aFrameThatArrivesWithTheUpgradeIsRead() async throws {
        let server = try SameWriteUpgradeServer(
            frames: SameWriteUpgradeServer.frame(opcode: 0x1, Array(#"{"rebind":"x"}"#.utf8))
                + SameWriteUpgradeServer.frame(opcode: 0x8, [0x03, 0xE9] + Array("bye".utf8)))
        let (message, after, close) = try await offCooperativePool {
            () -> (RawWebSocket.Message?, RawWebSocket.Message?, RawWebSocket.Close?) in
            let socket = try RawWebSocket(url: "ws://127.0.0.1:\(server.port)/ws", headers: [])
            let message = try socket.next()
            let after = try socket.next()  // the server's close: the end
            return (message, after, try socket.finish())
        }
        #expect(message == .text(#"{"rebind":"x"}"#) && after == nil)
        #expect(close == RawWebSocket.Close(closeCode: .goingAway, reason: "bye"))
        // The client answered the server's close with its code, masked, as RFC 6455 asks.
        let frames = SameWriteUpgradeServer.clientFrames(try await offCooperativePool { try server.received() })
        #expect(frames.map(\.opcode) == [0x8] && frames.first?.payload == [0x03, 0xE9])
    }
}
