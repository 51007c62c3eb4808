import Foundation
import OpenNetwork
import TestSupport
import Testing

/// Bonjour between two hosts: our listener and browser (DiscoveryProbe) in one network namespace, our probe or
/// avahi (avahi-daemon, avahi-browse, avahi-publish: independent implementations) in the other, on a veth link.
/// scripts/install-test-deps installs avahi.
@Suite("Discovery between two hosts", .serialized, .timeLimit(.minutes(2)))
struct DiscoveryNamespaceTests {
    static var probe: String { builtExecutable("DiscoveryProbe").path }

    /// Runs `body` with two fresh hosts, and removes them afterwards whatever happens.
    func withHosts(ipv4: Bool = true, _ body: (TwoHosts) async throws -> Void) async throws {
        let hosts = try await TwoHosts(ipv4: ipv4)
        do {
            try await body(hosts)
        } catch {
            await hosts.remove()
            throw error
        }
        await hosts.remove()
    }

    @Test func ourBrowserFindsOurListenerResolvesAndConnects() async throws {
        try await withHosts { hosts in
            let server = try HostProcess(in: hosts.a, [Self.probe, "advertise", "Kitchen", "_orchard._tcp"])
            try await server.line("the registration") { $0.hasPrefix("added Kitchen._orchard._tcp.local.") }
            let client = try HostProcess(in: hosts.b, [Self.probe, "connect", "_orchard._tcp", "hello over bonjour"])
            try await client.line("the echo") { $0.hasPrefix("echo hello over bonjour") }
            await client.stop()
            await server.stop()
            #expect(server.lines.contains("removed Kitchen._orchard._tcp.local."))
        }
    }

    @Test func aDiscoveredServiceIsReachedOverTLSAndOnlyWithTheRightTrust() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orchard-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stranger = try TLSIdentity.selfSigned(commonName: "Kitchen.local", dnsNames: ["Kitchen.local"])
        try stranger.certificatePEM.write(
            toFile: folder.appendingPathComponent("other.pem").path, atomically: true, encoding: .utf8)
        try await withHosts { hosts in try await tlsScenario(hosts, folder: folder) }
        try FileManager.default.removeItem(at: folder)
    }

    /// A TLS listener on host A; on host B a client trusting its certificate gets its echo, one trusting another
    /// certificate (`other.pem` in `folder`) or expecting another name gets nothing through.
    func tlsScenario(_ hosts: TwoHosts, folder: URL) async throws {
        let certificate = folder.appendingPathComponent("kitchen.pem").path
        let other = folder.appendingPathComponent("other.pem").path
        let server = try HostProcess(
            in: hosts.a, [Self.probe, "advertise-tls", "Kitchen", "_orchard-tls._tcp", certificate])
        try await server.line("the registration") { $0.hasPrefix("added Kitchen._orchard-tls._tcp.local.") }
        let client = try HostProcess(
            in: hosts.b, [Self.probe, "connect-tls", "_orchard-tls._tcp", "secret", certificate, "Kitchen.local"])
        try await client.line("the echo") { $0 == "echo secret over TLS" }
        await client.stop()
        let untrusting = try HostProcess(
            in: hosts.b, [Self.probe, "connect-tls", "_orchard-tls._tcp", "secret", other, "Kitchen.local"])
        try await untrusting.line("the refusal") { $0.hasPrefix("refused ") }
        let misnamed = try HostProcess(
            in: hosts.b, [Self.probe, "connect-tls", "_orchard-tls._tcp", "secret", certificate, "Den.local"])
        try await misnamed.line("the refusal") { $0.hasPrefix("refused ") && $0.contains("Den.local") }
        let echoed = (untrusting.lines + misnamed.lines).contains { $0.hasPrefix("echo") }
        #expect(!echoed)
        await untrusting.stop()
        await misnamed.stop()
        await server.stop()
    }

    /// Malformed multicast DNS packets from the other host: compression loops, pointers forwards, truncated
    /// records, impossible counts, random bytes, and a query with 60,000 questions claimed; sent from the address
    /// given as the first argument.
    static let hostilePackets = #"""
        import os, random, socket, struct, sys
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 255)
        s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(sys.argv[1]))
        s.bind(("0.0.0.0", 5353))
        header = lambda flags, qd, an: struct.pack(">HHHHHH", 0, flags, qd, an, 0, 0)
        name = b"\x08_orchard\x04_tcp\x05local\x00"
        packets = [
            header(0, 1, 0) + b"\xc0\x0c" + struct.pack(">HH", 12, 1),
            header(0, 1, 0) + b"\xc0\x20" + struct.pack(">HH", 12, 1) + bytes(20),
            header(0x8400, 0, 1) + name + struct.pack(">HHIH", 12, 1, 4500, 200) + b"xx",
            header(0x8400, 0xFFFF, 0xFFFF) + bytes(40),
            header(0, 60000, 0) + (name + struct.pack(">HH", 12, 1)) * 50,
        ]
        random.seed(7)
        for i in range(2000):
            packet = packets[i % len(packets)] if i % 2 else os.urandom(random.randint(0, 1500))
            s.sendto(packet, ("224.0.0.251", 5353))
        print("sent", flush=True)
        """#

    @Test func hostilePacketsLeaveTheResponderServing() async throws {
        try await withHosts { hosts in
            let server = try HostProcess(in: hosts.a, [Self.probe, "advertise", "Kitchen", "_orchard._tcp"])
            try await server.line("the registration") { $0.hasPrefix("added Kitchen._orchard._tcp.local.") }
            let attacker = try HostProcess(in: hosts.b, ["python3", "-c", Self.hostilePackets, hosts.addressB])
            try await attacker.line("the packets sent") { $0 == "sent" }
            await attacker.stop()
            // The responder still answers, still owns its name, and still serves its connections.
            let client = try HostProcess(in: hosts.b, [Self.probe, "connect", "_orchard._tcp", "still here"])
            try await client.line("the echo") { $0.hasPrefix("echo still here") }
            await client.stop()
            await server.stop()
            let failed = server.lines.contains { $0.hasPrefix("error") || $0.contains("Fatal") }
            let saidGoodbye = server.lines.contains("removed Kitchen._orchard._tcp.local.")
            #expect(!failed && saidGoodbye)
        }
    }

    @Test func theNWAPIAdvertisesBrowsesAndConnects() async throws {
        try await withHosts { hosts in
            let server = try HostProcess(in: hosts.a, [Self.probe, "nw-advertise", "Den", "_orchard-nw._tcp"])
            try await server.line("the registration") { $0 == "added Den._orchard-nw._tcp.local." }
            let client = try HostProcess(in: hosts.b, [Self.probe, "nw-connect", "_orchard-nw._tcp", "over NW"])
            try await client.line("the TXT record") { $0 == "txt api=nw" }
            try await client.line("the echo") { $0 == "echo over NW" }
            await client.stop()
            await server.stop()
        }
    }

    /// Apple's peer-to-peer pattern between two hosts: Bonjour finds the peer, TLS keyed by a passcode admits only a
    /// peer that knows it.
    @Test func theNWAPIWithAPasscodeAdmitsOnlyAPeerThatKnowsIt() async throws {
        try await withHosts { hosts in
            let server = try HostProcess(
                in: hosts.a, [Self.probe, "nw-advertise", "Game", "_orchard-psk._tcp", "4711"])
            try await server.line("the registration") { $0 == "added Game._orchard-psk._tcp.local." }
            let friend = try HostProcess(
                in: hosts.b, [Self.probe, "nw-connect", "_orchard-psk._tcp", "with the passcode", "4711"])
            try await friend.line("the echo") { $0 == "echo with the passcode" }
            await friend.stop()
            let stranger = try HostProcess(
                in: hosts.b, [Self.probe, "nw-connect", "_orchard-psk._tcp", "without it", "1234"])
            let refused = try await stranger.line("the refusal") { $0.hasPrefix("echo ") }
            #expect(refused.hasPrefix("echo error"), "\(refused)")
            await stranger.stop()
            await server.stop()
        }
    }

    /// A link with IPv6 link-local addresses only: discovery runs over IPv6 multicast (ff02::fb), the service's
    /// address is link-local, and the connection reaches it through the interface it was heard on.
    @Test func discoveryAndConnectionWorkOverIPv6Only() async throws {
        try await withHosts(ipv4: false) { hosts in
            let server = try HostProcess(in: hosts.a, [Self.probe, "advertise", "Attic", "_orchard6._tcp"])
            try await server.line("the registration") { $0.hasPrefix("added Attic._orchard6._tcp.local.") }
            let client = try HostProcess(in: hosts.b, [Self.probe, "connect", "_orchard6._tcp", "over IPv6"])
            try await client.line("the echo") { $0.hasPrefix("echo over IPv6") }
            await client.stop()
            await server.stop()
        }
    }

    /// A DNS server (a few lines of Python, not ours) on host A serves a zone with a service in it; host B's resolv.conf
    /// names that server. Our browser on B finds the service by unicast DNS-SD, resolves its SRV record and target
    /// host through the same server, and connects.
    @Test func unicastDNSSDFindsAServiceInAConfiguredDomain() async throws {
        try await withHosts { hosts in
            let server = try HostProcess(in: hosts.a, [Self.probe, "advertise", "Office", "_orchard-uc._tcp"])
            let listening = try await server.line("the port") { $0.hasPrefix("listening ") }
            let port = String(listening.dropFirst("listening ".count))
            let dns = try HostProcess(in: hosts.a, ["python3", "-u", "-c", Self.dnsServer, hosts.addressA, port])
            try await dns.line("the DNS server") { $0 == "serving" }
            try hosts.setResolvConf("nameserver \(hosts.addressA)\n", in: hosts.b)
            let client = try HostProcess(
                in: hosts.b, [Self.probe, "connect", "_orchard-uc._tcp", "over unicast DNS", "example.test."])
            try await client.line("the echo") { $0.hasPrefix("echo over unicast DNS") }
            await client.stop()
            // The NW API's browser finds it the same way, with its TXT record (the probe prints it before connecting).
            let nw = try HostProcess(
                in: hosts.b, [Self.probe, "nw-connect", "_orchard-uc._tcp", "unused", "-", "example.test."])
            try await nw.line("the TXT record") { $0 == "txt v=1" }
            await nw.stop()
            await dns.terminate()
            await server.stop()
            // The browse asked for the PTR, the connection for the SRV, then the target's address.
            #expect(dns.lines.contains("PTR _orchard-uc._tcp.example.test"), "\(dns.lines)")
            #expect(dns.lines.contains("SRV Office._orchard-uc._tcp.example.test"), "\(dns.lines)")
            #expect(dns.lines.contains("A hosta.example.test"), "\(dns.lines)")
        }
    }

    /// The zone: a PTR for the service type, the instance's SRV (to hosta, the given port) and TXT, hosta's address;
    /// other names get NXDOMAIN, other types of known names an empty answer.
    static let dnsServer = """
        import socket, struct, sys
        address, port = sys.argv[1], int(sys.argv[2])
        def name(n):
            return b"".join(bytes([len(l)]) + l.encode() for l in n.split(".") if l) + b"\\0"
        zone = {
            ("_orchard-uc._tcp.example.test", 12): [name("Office._orchard-uc._tcp.example.test")],
            ("office._orchard-uc._tcp.example.test", 33): [struct.pack(">HHH", 0, 0, port) + name("hosta.example.test")],
            ("office._orchard-uc._tcp.example.test", 16): [b"\\x03v=1"],
            ("hosta.example.test", 1): [socket.inet_aton(address)],
        }
        names = {n for n, _ in zone}
        types = {1: "A", 12: "PTR", 16: "TXT", 28: "AAAA", 33: "SRV"}
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind((address, 53))
        print("serving")
        while True:
            packet, peer = s.recvfrom(512)
            qid, flags, qd = struct.unpack(">HHH", packet[:6])
            i, labels = 12, []
            while packet[i]:
                labels.append(packet[i + 1 : i + 1 + packet[i]].decode())
                i += 1 + packet[i]
            qtype = struct.unpack(">H", packet[i + 1 : i + 3])[0]
            question = packet[12 : i + 5]
            qname = ".".join(labels)
            print(types.get(qtype, str(qtype)), qname)
            key = (qname.lower(), qtype)
            answers = zone.get(key, [])
            rcode = 0 if qname.lower() in names else 3
            body = b"".join(name(qname) + struct.pack(">HHIH", qtype, 1, 60, len(d)) + d for d in answers)
            s.sendto(struct.pack(">HHHHHH", qid, 0x8400 | rcode, 1, len(answers), 0, 0) + question + body, peer)
        """

    @Test func avahiSeesOurServiceWithItsTXTRecordAndItsGoodbye() async throws {
        try await withHosts { hosts in
            let avahi = try await AvahiDaemon(in: hosts.b, interface: hosts.interfaceB, hostName: "peer-b")
            let browse = try avahi.client(["avahi-browse", "-p", "-r", "_orchard._tcp"])
            let server = try HostProcess(
                in: hosts.a, [Self.probe, "advertise", "Living Room", "_orchard._tcp", "color=red", "v=1"])
            let listening = try await server.line("the port") { $0.hasPrefix("listening ") }
            let port = String(listening.dropFirst("listening ".count))
            // avahi resolved our SRV (our port), our A record (host A's address) and our TXT record.
            let resolved = try await browse.line("avahi resolving our service") {
                $0.hasPrefix("=;") && $0.contains("Living\\032Room")
            }
            let fields = resolved.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            #expect(fields[7] == hosts.addressA)
            #expect(fields[8] == port)
            #expect(fields[9].contains("\"color=red\"") && fields[9].contains("\"v=1\""))
            // Stopping the listener sends a goodbye: avahi drops the service at once, not when its TTL runs out.
            await server.stop()
            try await browse.line("avahi seeing the goodbye", timeout: .seconds(5)) {
                $0.hasPrefix("-;") && $0.contains("Living\\032Room")
            }
            await browse.terminate()
            await avahi.stop()
        }
    }

    @Test func ourBrowserFindsWhatAvahiPublishesWithItsTXTRecord() async throws {
        try await withHosts { hosts in
            let avahi = try await AvahiDaemon(in: hosts.b, interface: hosts.interfaceB, hostName: "peer-b")
            let publish = try avahi.client([
                "avahi-publish", "-s", "Avahi Peer", "_orchard._tcp", "4242", "color=green",
            ])
            try await publish.line("avahi's registration") { $0.contains("Established under name 'Avahi Peer'") }
            let browser = try HostProcess(in: hosts.a, [Self.probe, "browse", "_orchard._tcp", "--txt"])
            try await browser.line("the service with its TXT record") { $0.hasSuffix(" Avahi Peer[color=green]") }
            // avahi withdraws it: the browse's endpoints become empty again.
            let seen = browser.lines.count
            await publish.terminate()
            try await browser.line("the service gone", after: seen, timeout: .seconds(5)) {
                $0.hasPrefix("found ") && $0.split(separator: " ").count == 2
            }
            await browser.stop()
            await avahi.stop()
        }
    }

    @Test func aTakenNameIsRenamedAsBonjourDoes() async throws {
        try await withHosts { hosts in
            let avahi = try await AvahiDaemon(in: hosts.b, interface: hosts.interfaceB, hostName: "peer-b")
            let publish = try avahi.client(["avahi-publish", "-s", "Kitchen", "_orchard._tcp", "4242"])
            try await publish.line("avahi's registration") { $0.contains("Established under name 'Kitchen'") }
            let server = try HostProcess(in: hosts.a, [Self.probe, "advertise", "Kitchen", "_orchard._tcp"])
            try await server.line("the new name") { $0 == "added Kitchen (2)._orchard._tcp.local." }
            #expect(!server.lines.contains("added Kitchen._orchard._tcp.local."))
            // avahi sees both, each under its own name.
            let browse = try avahi.client(["avahi-browse", "-p", "-t", "-r", "_orchard._tcp"])
            // avahi-browse escapes the space and the parentheses in decimal: "Kitchen\032\0402\041".
            try await browse.line("our renamed service") {
                $0.hasPrefix("=;") && $0.contains("Kitchen\\032\\0402\\041") && $0.contains(hosts.addressA)
            }
            await browse.terminate()
            await server.stop()
            await publish.terminate()
            await avahi.stop()
        }
    }
}
