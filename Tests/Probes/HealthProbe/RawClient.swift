import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A client that speaks the daemon's framing by hand (a 4-byte big-endian length, then JSON), to send what
/// `HKHealthStore` never would.
enum RawClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func connectSocket(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8.prefix(107)) + [0]
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw Failure(description: "connect \(path): \(String(cString: strerror(errno)))")
        }
        // Writes and reads give up after 200 ms, so a daemon that stops reading cannot hold the probe past its
        // deadline.
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    static func frame(_ json: String) -> [UInt8] {
        let body = Array(json.utf8)
        let length = UInt32(body.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)] + body
    }

    /// Writes all of `bytes` or until `deadline`; returns how many were written.
    static func write(_ fd: Int32, _ bytes: [UInt8], until deadline: Date) -> Int {
        var sent = 0
        while sent < bytes.count && Date() < deadline {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { sent += n } else if n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { break }
        }
        return sent
    }

    /// Reads what arrives within `seconds` (until the peer closes); returns it and whether the peer closed.
    static func drain(_ fd: Int32, seconds: Double) -> (bytes: Int, closed: Bool, text: String) {
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return (collected.count, true, String(decoding: collected.prefix(2000), as: UTF8.self)) }
            if n > 0 {
                collected += buffer[0..<n]
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                return (collected.count, true, String(decoding: collected.prefix(2000), as: UTF8.self))
            }
        }
        return (collected.count, false, String(decoding: collected.prefix(2000), as: UTF8.self))
    }

    static let hello = frame(#"{"id":1,"call":{"hello":{}}}"#)

    /// Introduces itself, then writes `count` change-counter queries without reading a reply, for at most
    /// `seconds`.
    static func flood(_ path: String, count: Int, seconds: Double) throws -> [String: Any] {
        let fd = try connectSocket(path)
        defer { close(fd) }
        let deadline = Date().addingTimeInterval(seconds)
        guard write(fd, hello, until: deadline) == hello.count else { throw Failure(description: "hello not sent") }
        var batch: [UInt8] = []
        for index in 0..<1000 { batch += frame(#"{"id":\#(index + 2),"call":{"changeCounter":{}}}"#) }
        var written = 0
        while written < count && Date() < deadline {
            let n = write(fd, batch, until: deadline)
            if n < batch.count { break }
            written += 1000
        }
        return ["written": written, "deadline": Date() >= deadline]
    }

    /// Sends one kind of garbage and reports how the daemon answered.
    static func garbage(_ path: String, kind: String) throws -> [String: Any] {
        let fd = try connectSocket(path)
        defer { close(fd) }
        let deadline = Date().addingTimeInterval(5)
        var bytes: [UInt8]
        switch kind {
        case "junk": bytes = (0..<65536).map { _ in UInt8.random(in: 0...255) }
        case "huge": bytes = [0xff, 0xff, 0xff, 0xf0] + Array(repeating: 0x41, count: 1024)
        case "json": bytes = hello + frame(#"{"id":2,"call":{"samples":{"type":42}}}"#)
        case "badjson": bytes = frame(#"{"id": tru"#)
        case "no-hello": bytes = frame(#"{"id":7,"call":{"changeCounter":{}}}"#)
        case "half":
            // Half a frame, then gone.
            let whole = hello + frame(#"{"id":8,"call":{"changeCounter":{}}}"#)
            let sent = write(fd, Array(whole.prefix(whole.count - 10)), until: deadline)
            return ["sent": sent, "closed": true, "reply": ""]
        case "leave-waiting":
            // A long poll, then gone before the answer.
            let sent = write(fd, hello + frame(#"{"id":9,"call":{"waitForChange":{"after":9999999,"timeoutMilliseconds":30000}}}"#), until: deadline)
            usleep(100_000)
            return ["sent": sent, "closed": true, "reply": ""]
        case "deep":
            let nested =
                String(repeating: #"{"not":{"_0":"#, count: 200) + #"{"constant":{"_0":true}}"#
                + String(repeating: "}}", count: 200)
            bytes = hello + frame(#"{"id":3,"call":{"medications":{"predicate":\#(nested)}}}"#)
        case "hostile-predicate":
            // A predicate on an attribute no client may compare, and a regular expression.
            bytes =
                hello
                + frame(
                    #"{"id":4,"call":{"samples":{"type":"HKMedicationDoseEventTypeIdentifierMedicationDoseEvent","sort":[],"predicate":{"compare":{"key":"sourceBundle","operator":4,"value":{"string":{"_0":"x"}},"options":0}}}}}"#
                )
                + frame(
                    #"{"id":5,"call":{"medications":{"predicate":{"compare":{"key":"displayText","operator":6,"value":{"string":{"_0":"(a+)+$"}},"options":0}}}}}"#
                )
        default: throw Failure(description: "unknown garbage \(kind)")
        }
        let sent = write(fd, bytes, until: deadline)
        let answer = drain(fd, seconds: 3)
        return ["sent": sent, "closed": answer.closed, "reply": answer.text]
    }
}
