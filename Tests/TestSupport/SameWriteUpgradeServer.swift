import Crypto
import Foundation

/// A one-connection WebSocket server on loopback that sends its first frames in the same write as its
/// `101 Switching Protocols`, so a client reads them together with the upgrade's response. A real server does this
/// whenever it speaks first and the client's reader is a little late; a client that mishandles it loses the frames.
///
/// After the write it reads what the client sends until the client closes (or 30 s pass), so a test can check the
/// client's close reply in `received`.
public final class SameWriteUpgradeServer: @unchecked Sendable {  // Unchecked: `bytes` is guarded by `lock`.
    /// The port it listens on (127.0.0.1).
    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var failure: String?
    private let done = DispatchSemaphore(value: 0)

    /// Listens on a free port; the first connection gets the 101 and `frames` in one write.
    public init(frames: [UInt8]) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        listener = fd
        guard fd >= 0, bound else { throw SameWriteUpgradeServerError("cannot listen on loopback: \(errno)") }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in
            defer { done.signal() }
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { return fail("accept failed: \(errno)") }
            defer { close(connection) }
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var request: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16384)
            while request.firstRange(of: [13, 10, 13, 10]) == nil {
                let count = recv(connection, &chunk, chunk.count, 0)
                guard count > 0 else { return fail("the client sent no upgrade request") }
                request += chunk[..<count]
            }
            let head = String(decoding: request, as: UTF8.self).components(separatedBy: "\r\n")
            guard
                let key = head.first(where: { $0.lowercased().hasPrefix("sec-websocket-key:") })?
                    .dropFirst("sec-websocket-key:".count).trimmingCharacters(in: .whitespaces)
            else { return fail("no Sec-WebSocket-Key in \(head)") }
            let accept = webSocketAccept(key: key)
            let response = Array(
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n"
                    .utf8)
            let out = response + frames
            guard out.withUnsafeBytes({ send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == out.count
            else { return fail("the one write was cut short") }
            while true {
                let count = recv(connection, &chunk, chunk.count, 0)
                if count <= 0 { return }
                lock.withLock { bytes += chunk[..<count] }
            }
        }.start()
    }

    deinit { close(listener) }

    private func fail(_ reason: String) { lock.withLock { failure = reason } }

    /// Waits for the client to close (30 s at most); returns what it sent after the upgrade request (masked frames),
    /// or throws what went wrong on the server's side.
    public func received() throws -> [UInt8] {
        _ = done.wait(timeout: .now() + 35)
        return try lock.withLock {
            if let failure { throw SameWriteUpgradeServerError(failure) }
            return bytes
        }
    }

    /// An unmasked frame, as a server sends it (payloads under 126 bytes).
    public static func frame(opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        precondition(payload.count < 126, "short frames only")
        return [0x80 | opcode, UInt8(payload.count)] + payload
    }

    /// Unmasks a client's frames; returns each one's opcode and payload.
    public static func clientFrames(_ bytes: [UInt8]) -> [(opcode: UInt8, payload: [UInt8])] {
        var frames: [(UInt8, [UInt8])] = []
        var index = 0
        while index + 6 <= bytes.count {
            let length = Int(bytes[index + 1] & 0x7f)
            guard length < 126, index + 6 + length <= bytes.count else { break }
            let mask = Array(bytes[(index + 2)..<(index + 6)])
            let payload = bytes[(index + 6)..<(index + 6 + length)].enumerated().map {
                $0.element ^ mask[$0.offset % 4]
            }
            frames.append((bytes[index] & 0x0f, payload))
            index += 6 + length
        }
        return frames
    }
}

/// The `Sec-WebSocket-Accept` a server answers a client's `Sec-WebSocket-Key` with (RFC 6455 4.2.2).
public func webSocketAccept(key: String) -> String {
    Data(Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
}

/// What went wrong on ``SameWriteUpgradeServer``'s side.
public struct SameWriteUpgradeServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
