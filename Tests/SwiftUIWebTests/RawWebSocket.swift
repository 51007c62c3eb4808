import Foundation
import TestSupport

/// A WebSocket client for tests (RFC 6455) on a plain blocking loopback socket, standing in for a browser's page.
///
/// Why not swift-websocket's `WebSocketClient` (1.6.2, over NIO 2.101.3's typed client upgrade): it loses frames that
/// arrive in the same read as the server's `101 Switching Protocols`, and then misses the close frame after them as
/// well, so its reader waits until the connection drops. A server that speaks first right after the upgrade (ours
/// does: a rebind, a reload, a reconnected window's content) made tests hang now and then under load, when the two
/// arrive together. `RawWebSocketTests.aFrameThatArrivesWithTheUpgradeIsRead` holds this client to it.
///
/// Used by one task at a time; every call blocks, so callers run it off the cooperative pool.
final class RawWebSocket: @unchecked Sendable {  // Unchecked: one caller at a time; `shutdown` only touches `fd`.
    /// A message the server sent.
    enum Message: Equatable {
        case text(String)
        case binary([UInt8])
    }

    /// The server's close frame.
    struct Close: Equatable, Sendable {
        let closeCode: CloseCode
        let reason: String
    }

    private let fd: Int32
    /// Bytes read and not yet parsed (the handshake's leftover is the start of the first frame).
    private var pending: [UInt8] = []
    private(set) var close: Close?
    private var closeSent = false
    private var ended = false
    /// The largest message this client takes (a server sending more is a failed test, not a hang).
    static let maximumMessage = 1 << 23

    /// Connects and upgrades. Throws when the connection or the upgrade is refused, saying which.
    init(url: String, headers: [(String, String)]) throws {
        guard let parsed = URL(string: url), parsed.scheme == "ws", let host = parsed.host, let port = parsed.port
        else { throw SocketError("not a ws:// URL with a port: \(url)") }
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host == "localhost" ? "127.0.0.1" : host)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw SocketError("connection to \(url) refused (errno \(errno))")
        }
        do { try handshake(parsed, host: host, port: port, headers: headers) } catch {
            Glibc.close(fd)
            throw error
        }
    }

    private func handshake(_ url: URL, host: String, port: Int, headers: [(String, String)]) throws {
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        var path = url.path.isEmpty ? "/" : url.path
        if let query = url.query { path += "?" + query }
        var request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        try write(Array((request + "\r\n").utf8))
        let end: Int
        while true {
            if let found = pending.firstRange(of: [13, 10, 13, 10]) {
                end = found.upperBound
                break
            }
            guard pending.count < 65536 else { throw SocketError("\(url): a response head over 64 KiB") }
            guard try fill() else { throw SocketError("\(url): the server closed the connection during the upgrade") }
        }
        let head = String(decoding: pending[..<end], as: UTF8.self)
        pending.removeFirst(end)
        let lines = head.components(separatedBy: "\r\n")
        guard lines[0].hasPrefix("HTTP/1.1 101") else { throw SocketError("\(url): upgrade refused: \(lines[0])") }
        let expected = webSocketAccept(key: key)
        let accept = lines.first { $0.lowercased().hasPrefix("sec-websocket-accept:") }
            .map { $0.dropFirst("sec-websocket-accept:".count).trimmingCharacters(in: .whitespaces) }
        guard accept == expected else { throw SocketError("\(url): wrong Sec-WebSocket-Accept \(accept ?? "none")") }
    }

    /// Reads more bytes into `pending`; false at the end of the stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &chunk, chunk.count, 0)
        if count < 0 {
            if errno == EINTR { return true }
            if errno == ECONNRESET { return false }  // the end, without a close frame (a browser's 1006)
            throw SocketError("recv failed: errno \(errno)")
        }
        if count == 0 { return false }
        pending.append(contentsOf: chunk[..<count])
        return true
    }

    private func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            // The server closed (say, on a message over its limit) while this was being sent: as a browser's
            // `send`, nothing to report here; the next read gives what the server said before it went.
            if count < 0 && (errno == ECONNRESET || errno == EPIPE) { return }
            guard count > 0 else { throw SocketError("send failed: errno \(errno)") }
            sent += count
        }
    }

    /// The next `count` bytes (nil: the stream ended first).
    private func take(_ count: Int) throws -> [UInt8]? {
        while pending.count < count { guard try fill() else { return nil } }
        let taken = Array(pending[..<count])
        pending.removeFirst(count)
        return taken
    }

    /// Sends one frame, masked as a client must (RFC 6455 5.3).
    func send(opcode: UInt8, _ payload: [UInt8]) throws {
        var frame: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case ..<126: frame.append(0x80 | UInt8(payload.count))
        case ..<65536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        default: frame += [0x80 | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xff) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try write(frame)
        if opcode == 0x8 { closeSent = true }
    }

    /// The next message; nil once the server closed (its close frame is in `close`) or the stream ended.
    /// Pings are answered; pongs are skipped.
    func next() throws -> Message? {
        var message: [UInt8] = []
        var messageOpcode: UInt8 = 0
        while !ended {
            guard let head = try take(2) else {
                ended = true
                return nil
            }
            let fin = head[0] & 0x80 != 0
            let opcode = head[0] & 0x0f
            guard head[1] & 0x80 == 0 else { throw SocketError("the server sent a masked frame") }
            var length = Int(head[1] & 0x7f)
            if length >= 126 {
                guard let extended = try take(length == 126 ? 2 : 8) else { throw SocketError("a cut frame header") }
                length = extended.reduce(0) { $0 << 8 | Int($1) }
            }
            guard length <= Self.maximumMessage - message.count else {
                throw SocketError("the server sent a message over \(Self.maximumMessage) bytes")
            }
            guard let payload = try take(length) else { throw SocketError("a frame cut after \(pending.count) bytes") }
            switch opcode {
            case 0x0, 0x1, 0x2:
                if opcode != 0 { messageOpcode = opcode }
                message += payload
                guard fin else { continue }
                return messageOpcode == 0x1 ? .text(String(decoding: message, as: UTF8.self)) : .binary(message)
            case 0x8:
                let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : 1005
                close = Close(
                    closeCode: CloseCode(code), reason: String(decoding: payload.dropFirst(2), as: UTF8.self))
                ended = true
                if !closeSent { try send(opcode: 0x8, Array(payload.prefix(2))) }  // the close handshake
                return nil
            case 0x9: try send(opcode: 0xA, payload)
            case 0xA: continue
            default: throw SocketError("the server sent unknown opcode \(opcode)")
            }
        }
        return nil
    }

    /// Ends the connection as a page that goes away does (a close frame, then the server's answer or the end of the
    /// stream); returns the server's close frame.
    func finish() throws -> Close? {
        defer { Glibc.close(fd) }
        if !closeSent && !ended {
            // The server may already have gone: then there is nothing to say goodbye to.
            do { try send(opcode: 0x8, [0x03, 0xe8]) } catch { return close }
        }
        while try next() != nil {}
        return close
    }

    /// Unblocks a read or write in progress (the watchdog's way to end a hung socket); the socket is closed by
    /// `finish` or, for a socket given up on, left to the process's end.
    func shutdown() { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
}

/// A WebSocket close code, as tests compare them.
enum CloseCode: Equatable, Sendable {
    case normalClosure
    case goingAway
    case messageTooLarge
    case other(UInt16)

    init(_ raw: UInt16) {
        switch raw {
        case 1000: self = .normalClosure
        case 1001: self = .goingAway
        case 1009: self = .messageTooLarge
        default: self = .other(raw)
        }
    }
}
