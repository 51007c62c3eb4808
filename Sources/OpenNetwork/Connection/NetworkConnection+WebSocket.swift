import Foundation
import NIOCore

extension NetworkConnection where ApplicationProtocol == WebSocket {
    /// Sends one binary message; returns once the connection has taken it (as `send` of bytes).
    nonisolated(nonsending) public func send(_ content: Data) async throws {
        try await send(content, opcode: .binary)
    }

    /// Sends one text message.
    nonisolated(nonsending) public func send(_ text: String) async throws {
        try await send(Data(text.utf8), opcode: .text)
    }

    /// Sends one message, text or binary (text must be UTF-8).
    nonisolated(nonsending) public func send(_ content: Data, opcode: WebSocket.Opcode) async throws {
        let limit = core.config.maximumMessageSize
        guard content.count <= limit else {
            throw NWError.messageTooLarge(length: UInt64(content.count), limit: limit)
        }
        if opcode == .text, String(validating: content, as: UTF8.self) == nil {
            throw NWError.malformedMessage("a WebSocket text message must be UTF-8")
        }
        let kind = opcode == .text ? WebSocketMessageHandler.text : WebSocketMessageHandler.binary
        try await withIO { io in
            try await io.send(byteCount: content.count + 1) { buffer in
                buffer.writeInteger(kind)
                buffer.writeBytes(content)
            }
        }
    }

    /// Receives one whole message (fragments joined) with its opcode. Throws ``NWError/connectionClosed`` once the
    /// peer closed the WebSocket.
    nonisolated(nonsending) public func receive() async throws -> WebSocket.Message<Data> {
        try await withIO { io in
            var message = try await io.readDatagram()
            let kind = message.readInteger(as: UInt8.self)
            let opcode: WebSocket.Opcode = kind == WebSocketMessageHandler.text ? .text : .binary
            return (message.receivedData, WebSocket.Metadata(opcode: opcode))
        }
    }

    /// Sends one message with the RFC 6455 opcode `opcode` (the NW API's pings, pongs and closes as well).
    nonisolated(nonsending) func send(_ content: Data, opcodeByte: UInt8) async throws {
        try await withIO { io in
            try await io.send(byteCount: content.count + 1) { buffer in
                buffer.writeInteger(opcodeByte)
                buffer.writeBytes(content)
            }
        }
    }

    /// Receives one message with its RFC 6455 opcode.
    nonisolated(nonsending) func receiveWithOpcode() async throws -> (Data, UInt8) {
        try await withIO { io in
            var message = try await io.readDatagram()
            let kind = message.readInteger(as: UInt8.self) ?? WebSocketMessageHandler.binary
            return (message.receivedData, kind)
        }
    }

    /// Every received message, until the peer closes (then the sequence ends) or the connection fails.
    public var messages: NetworkMessages<Data, WebSocket.Metadata> {
        NetworkMessages { [self] _ in
            do { return try await receive() } catch NWError.connectionClosed { return nil }
        }
    }
}
