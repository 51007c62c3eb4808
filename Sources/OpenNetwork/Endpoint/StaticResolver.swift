import NIOCore
import NIOPosix

/// A resolver answering with fixed addresses (IPv6 ones for AAAA, IPv4 ones for A): lets tests drive
/// the Happy Eyeballs race over loopback with a name that has both families.
struct StaticResolver: Resolver, Sendable {
    let addresses: [String]
    let eventLoop: EventLoop

    private func answer(port: Int, family: NIOBSDSocket.ProtocolFamily) -> EventLoopFuture<[SocketAddress]> {
        let found = addresses.compactMap { try? SocketAddress(ipAddress: $0, port: port) }
            .filter { $0.protocol == family }
        return eventLoop.makeSucceededFuture(found)
    }

    func initiateAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
        answer(port: port, family: .inet)
    }

    func initiateAAAAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
        answer(port: port, family: .inet6)
    }

    func cancelQueries() {}
}
