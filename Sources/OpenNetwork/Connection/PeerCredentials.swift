import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The process at the other end of a Unix domain socket, as the kernel recorded it when the socket connected
/// (`SO_PEERCRED`). An Orchard addition for Linux (Apple's Network framework has no such property): a local
/// daemon uses it to know who is asking without trusting what the client says about itself.
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The peer's process ID at connect time.
    public let processIdentifier: Int32
    /// The peer's effective user ID at connect time.
    public let userIdentifier: UInt32
    /// The peer's effective group ID at connect time.
    public let groupIdentifier: UInt32

    /// Credentials as the kernel reports them.
    public init(processIdentifier: Int32, userIdentifier: UInt32, groupIdentifier: UInt32) {
        self.processIdentifier = processIdentifier
        self.userIdentifier = userIdentifier
        self.groupIdentifier = groupIdentifier
    }

    /// `pid N uid N gid N`.
    public var description: String { "pid \(processIdentifier) uid \(userIdentifier) gid \(groupIdentifier)" }
}

/// Reads `SO_PEERCRED` from a connected Unix domain socket channel: the one place OpenNetwork reads a socket option
/// into a C structure.
enum PeerCredentialsReader {
    /// The peer's credentials, read on the channel's event loop, where the channel answers at once: as soon as the
    /// channel is active, before a read can find the peer gone and close the socket (a peer that writes and leaves at
    /// once). Nil for a channel that is not a connected Unix domain socket, or when the kernel refuses the option
    /// (the caller then knows nothing about the peer, which is what nil says).
    static func readOnLoop(_ channel: any Channel) -> PeerCredentials? {
        channel.eventLoop.preconditionInEventLoop()
        guard channel.localAddress?.protocol == .unix, let provider = channel as? any SocketOptionProvider else {
            return nil
        }
        // Safe because SO_PEERCRED fills a `struct ucred` (pid_t, uid_t, gid_t: three 4-byte integers, 12 bytes),
        // and a tuple of three 4-byte integers is laid out the same way; NIO passes the tuple's size as the length.
        let option: EventLoopFuture<(pid: Int32, uid: UInt32, gid: UInt32)> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        var credentials: PeerCredentials?
        // On its loop the option is read before the future returns, so the callback has run by the next line.
        option.assumeIsolated().whenSuccess {
            credentials = PeerCredentials(processIdentifier: $0.pid, userIdentifier: $0.uid, groupIdentifier: $0.gid)
        }
        return credentials
    }
}
