import Foundation
import TestSupport
import Testing

/// Bonjour between two hosts: our listener and browser (DiscoveryProbe) in one network namespace, our probe or
/// avahi (avahi-daemon, avahi-browse, avahi-publish: independent implementations) in the other, on a veth link.
/// scripts/install-test-deps installs avahi.
@Suite("Discovery between two hosts", .serialized, .timeLimit(.minutes(2)))
struct DiscoveryNamespaceTests {
    static var probe: String { builtExecutable("DiscoveryProbe").path }

    /// Runs `body` with two fresh hosts, and removes them afterwards whatever happens.
    func withHosts(_ body: (TwoHosts) async throws -> Void) async throws {
        let hosts = try await TwoHosts()
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
