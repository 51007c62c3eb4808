import NIOCore
import NIOPosix
import NIOSSL

#if canImport(Glibc)
    import Glibc
#endif

/// An error reported by a connection or a listener, saying what happened.
///
/// `.posix` carries a `POSIXErrorCode` as Apple's does (`if case .posix(.ECONNREFUSED) = error`). Linux difference:
/// Apple's `.dns` carries a `DNSServiceErrorType` and `.tls` an `OSStatus`, codes of Apple's own DNS-SD and Security
/// libraries, which Linux does not have; here they carry text naming what failed (the host, the TLS alert or
/// check), and the other cases name failures Apple reports through those codes or its logs.
public enum NWError: Error, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// A system error (for example `.ECONNREFUSED`, `.ECONNRESET`, `.ETIMEDOUT`).
    case posix(POSIXErrorCode)
    /// Name resolution failed for the named host.
    case dns(String)
    /// The TLS handshake or record layer failed; the text gives the reason.
    case tls(String)
    /// A framed message announced a length beyond the configured maximum; no buffer was allocated.
    case messageTooLarge(length: UInt64, limit: Int)
    /// A frame could not be parsed.
    case malformedMessage(String)
    /// A Coder message could not be decoded into the receiving type.
    case decodingFailed(String)
    /// The peer closed the connection before the requested bytes arrived.
    case connectionClosed
    /// The connection or listener was cancelled.
    case cancelled
    /// Another failure of the transport below (the text says what).
    case transport(String)

    /// errno for a refused connection.
    public static let connectionRefused = NWError.posix(.ECONNREFUSED)
    /// errno for a reset connection.
    public static let connectionReset = NWError.posix(.ECONNRESET)
    /// errno for a timeout.
    public static let timedOut = NWError.posix(.ETIMEDOUT)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .posix(let code):
            let name: String
            switch code {
            case .ECONNREFUSED: name = "connection refused"
            case .ECONNRESET: name = "connection reset by peer"
            case .ETIMEDOUT: name = "timed out"
            case .EPIPE: name = "broken pipe"
            case .EADDRINUSE: name = "address already in use"
            case .ENETUNREACH: name = "network unreachable"
            case .EHOSTUNREACH: name = "host unreachable"
            default: name = String(cString: strerror(code.rawValue))
            }
            return "POSIX error \(code.rawValue): \(name)"
        case .dns(let host): return "name resolution failed for \(host)"
        case .tls(let reason): return "TLS failure: \(reason)"
        case .messageTooLarge(let length, let limit):
            return "message of \(length) bytes exceeds the maximum message size of \(limit) bytes"
        case .malformedMessage(let why): return "malformed message: \(why)"
        case .decodingFailed(let why): return "decoding failed: \(why)"
        case .connectionClosed: return "connection closed by peer"
        case .cancelled: return "cancelled"
        case .transport(let why): return "transport failure: \(why)"
        }
    }

    /// The same text as ``description``.
    public var debugDescription: String { description }

    /// Whether the error is worth retrying in the waiting state (the peer may become reachable).
    var isTransient: Bool {
        switch self {
        case .posix(let c):
            // ENOENT: a Unix domain socket path that does not exist yet.
            return [.ECONNREFUSED, .ENETUNREACH, .EHOSTUNREACH, .ECONNRESET, .ENOENT].contains(c)
        case .dns: return true
        default: return false
        }
    }

    /// Maps an error thrown by SwiftNIO or NIOSSL to an NWError.
    static func from(_ error: any Error, host: String? = nil) -> NWError {
        if let e = error as? NWError { return e }
        if let e = error as? FrameError {
            switch e {
            case .tooLarge(let length, let limit): return .messageTooLarge(length: length, limit: limit)
            case .malformed(let why): return .malformedMessage(why)
            }
        }
        if let e = error as? IOError { return .posix(POSIXErrorCode(rawValue: e.errnoCode) ?? .EIO) }
        if let e = error as? NIOConnectionError {
            if e.dnsAAAAError != nil && e.dnsAError != nil && e.connectionErrors.isEmpty {
                return .dns(e.host)
            }
            if let first = e.connectionErrors.first { return from(first.error) }
            return .dns(e.host)
        }
        if let e = error as? ChannelError {
            switch e {
            case .connectTimeout: return .timedOut
            case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed: return .connectionClosed
            default: return .transport("channel error: \(e)")
            }
        }
        if let e = error as? NIOSSLError {
            switch e {
            case .uncleanShutdown: return .connectionClosed
            default: return .tls(String(describing: e))
            }
        }
        if let e = error as? BoringSSLError { return .tls(String(describing: e)) }
        if let e = error as? NIOSSLExtraError { return .tls(String(describing: e)) }
        if error is CancellationError { return .cancelled }
        if let e = error as? SocketAddressError { return .dns(host ?? String(describing: e)) }
        return .transport(String(describing: error))
    }
}
