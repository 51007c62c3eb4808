import Dispatch
import Foundation
import OpenNetwork
import Testing

/// UDP listeners: one connection per remote address and port (a flow), as Apple's listener hands them over; each
/// flow gets its own datagrams, in order, the first ones included; a flow that ended opens anew.
@Suite("UDP listeners", .timeLimit(.minutes(1)), .serialized)
struct UDPListenerTests {
    /// Echoes every datagram of a flow with the flow's number in front, until the client says "bye".
    static func serve(_ listener: NetworkListener<UDP>, flows: Counter) -> Task<Void, any Error> {
        Task {
            try await listener.run { connection in
                let number = flows.next()
                for try await (data, _) in connection.messages {
                    if data == Data("bye".utf8) { return }
                    try await connection.send(Data("\(number):".utf8) + data)
                }
            }
        }
    }

    @Test func eachPeerIsAConnectionOfItsOwnWithAllItsDatagrams() async throws {
        let listener = NetworkListener { UDP() }
        let flows = Counter()
        let serving = Self.serve(listener, flows: flows)
        defer { serving.cancel() }
        let port = try #require(try await waitReady(listener))

        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<3 {
                group.addTask {
                    let host: NWEndpoint.Host = client == 2 ? "::1" : "127.0.0.1"
                    let connection = NetworkConnection(to: .hostPort(host: host, port: port)) { UDP() }
                    // A burst before any reply: the first datagrams reach the listening socket before the flow's
                    // own socket exists, and must still come back in order.
                    for i in 0..<40 { try await connection.send(Data("c\(client) #\(i)".utf8)) }
                    var flow: Substring?
                    for i in 0..<40 {
                        let (data, _) = try await connection.receive()
                        let text = String(decoding: data, as: UTF8.self)
                        let parts = text.split(separator: ":", maxSplits: 1)
                        #expect(parts.count == 2 && parts[1] == "c\(client) #\(i)", "\(text)")
                        if flow == nil { flow = parts.first }
                        #expect(parts.first == flow, "one flow per peer: \(text)")
                    }
                    try await connection.send(Data("bye".utf8))
                    await connection.cancel()
                }
            }
            try await group.waitForAll()
        }
        #expect(flows.value == 3)

        // The flow ended with "bye": the same peer address starts a new one.
        let again = NetworkConnection(to: .hostPort(host: "127.0.0.1", port: port)) { UDP() }
        try await again.send(Data("hello".utf8))
        let (data, _) = try await again.receive()
        #expect(String(decoding: data, as: UTF8.self) == "4:hello")
        await again.cancel()
    }

    /// 200 peers at once, each a socket of its own sending five datagrams without waiting: every peer gets its five
    /// answers, in order, from a flow of its own (the datagrams that race each flow's setup included).
    @Test func twoHundredPeersAtOnceEachGetTheirOwnAnswersInOrder() async throws {
        let listener = NetworkListener { UDP() }
        let flows = Counter()
        let serving = Self.serve(listener, flows: flows)
        defer { serving.cancel() }
        let port = try #require(try await waitReady(listener))
        let script = """
            import socket, sys, time
            port = int(sys.argv[1])
            peers = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(200)]
            for s in peers:
                for i in range(5):
                    s.sendto(b"p%d" % i, ("127.0.0.1", port))
            bad = 0
            flows = set()
            for n, s in enumerate(peers):
                s.settimeout(10)
                for i in range(5):
                    data = s.recv(100).decode()
                    flow, text = data.split(":", 1)
                    flows.add(flow)
                    if text != "p%d" % i:
                        bad += 1
            print(len(flows), bad)
            """
        let python = try await InteropTests.Tool(["python3", "-c", script, "\(port.rawValue)"])
        let result = try await python.finish(timeout: .seconds(40))
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.trimmingCharacters(in: .whitespacesAndNewlines) == "200 0", "\(result.out)")
        #expect(flows.value == 200)
    }

    @Test func anNWListenerOverUDPHandsOverAConnectionPerPeer() async throws {
        let queue = DispatchQueue(label: "udp-listener")
        let listener = try NWListener(using: .udp)
        let ready = NWAPITests.Once<NWEndpoint.Port?>()
        listener.stateUpdateHandler = { [weak listener] state in
            if state == .ready { ready.resume(listener?.port) }
        }
        let peers = Recorder<String>()
        listener.newConnectionHandler = { connection in
            peers.append("\(connection.endpoint)")
            connection.start(queue: queue)
            @Sendable func echo() {
                connection.receiveMessage { data, _, _, error in
                    guard let data, error == nil else { return }
                    connection.send(content: Data("echo ".utf8) + data, completion: .idempotent)
                    echo()
                }
            }
            echo()
        }
        listener.start(queue: queue)
        defer { listener.cancel() }
        let port = try #require(await ready.wait())

        for name in ["first", "second"] {
            let connection = NWConnection(host: "127.0.0.1", port: port, using: .udp)
            connection.start(queue: queue)
            connection.send(content: Data(name.utf8), completion: .idempotent)
            let reply = await withCheckedContinuation { (got: CheckedContinuation<Data?, Never>) in
                connection.receiveMessage { data, _, _, _ in got.resume(returning: data) }
            }
            #expect(reply == Data("echo \(name)".utf8))
            connection.cancel()
        }
        #expect(peers.all.count == 2)
        #expect(peers.all.allSatisfy { $0.contains("127.0.0.1") }, "\(peers.all)")
    }
}
