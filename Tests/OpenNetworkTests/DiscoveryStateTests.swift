import Foundation
import NIOCore
import Testing

@testable import OpenNetwork

/// The multicast DNS packet format and the responder/querier logic, driven without sockets: a fixed clock, fixed
/// random delays, packets built by hand.
@Suite("Multicast DNS logic")
struct DiscoveryStateTests {
    static let t0 = NIODeadline.uptimeNanoseconds(1_000_000_000_000)
    static let peer = try! SocketAddress(ipAddress: "10.1.0.2", port: 5353)
    static let interface = MulticastDNSState.Interface(index: 7, name: "veth0", addresses: [[10, 1, 0, 1]])

    static func state() -> MulticastDNSState {
        var s = MulticastDNSState(hostName: "orchard", interfaces: [interface], now: t0)
        s.random = { $0.lowerBound }
        return s
    }

    /// Runs the clock from `now` until `until`, firing every deadline; returns the actions and the new time.
    static func advance(
        _ s: inout MulticastDNSState, from now: NIODeadline, until end: NIODeadline
    )
        -> [MulticastDNSState.Action]
    {
        var actions: [MulticastDNSState.Action] = []
        var clock = now
        while let next = s.nextDeadline, next <= end {
            clock = max(clock, next)
            actions += s.timerFired(now: clock)
        }
        return actions
    }

    static func sent(_ actions: [MulticastDNSState.Action]) -> [DNSMessage] {
        actions.compactMap { if case .send(let m, _, _) = $0 { return m } else { return nil } }
    }

    // MARK: Packets

    @Test func aResponseRoundTripsWithCompressedNames() throws {
        let instance = DNSName(labels: ["Living Room.1", "_orchard", "_tcp", "local"])
        let message = DNSMessage.response(
            answers: [
                DNSRecord(name: DNSName("_orchard._tcp.local"), data: .ptr(instance), ttl: 4500),
                DNSRecord(
                    name: instance, data: .srv(priority: 0, weight: 0, port: 8080, target: DNSName("orchard.local")),
                    ttl: 120, cacheFlush: true),
                DNSRecord(name: instance, data: .txt([Array("a=1".utf8), []]), ttl: 4500, cacheFlush: true),
            ],
            additionals: [
                DNSRecord(name: DNSName("orchard.local"), data: .a([10, 1, 0, 1]), ttl: 120, cacheFlush: true),
                DNSRecord(
                    name: DNSName("orchard.local"), data: .nsec(next: DNSName("orchard.local"), types: [1, 28]),
                    ttl: 120),
            ])
        let bytes = message.serialized()
        #expect(try DNSMessage(parsing: bytes) == message)
        // "_orchard._tcp.local" is written once; every later use is a two-byte pointer.
        let whole = bytes.count
        let uncompressed = 12 + 3 * (21 + 10) + 2 * (15 + 10) + 21 + 14 + 6 + 15 + 15 + 4 + 6 + 5 + 6
        #expect(whole < uncompressed)
        #expect(
            DNSMessage.query([DNSQuestion(name: instance, type: DNSType.any, unicastResponse: true)]).serialized()
                .suffix(4) == [0, 255, 0x80, 1])
    }

    @Test func malformedPacketsAreRefusedNamingTheRule() {
        func refusal(_ bytes: [UInt8]) -> String {
            do {
                _ = try DNSMessage(parsing: bytes)
                return "parsed"
            } catch { return error.description }
        }
        let header: [UInt8] = [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]
        // A pointer to itself, and one pointing forwards: no loop is ever followed.
        #expect(refusal(header + [0xC0, 12, 0, 1, 0, 1]).contains("does not point backwards"))
        #expect(refusal(header + [0xC0, 20, 0, 1, 0, 1, 0, 0, 0]).contains("does not point backwards"))
        // Two names pointing at each other.
        let two: [UInt8] = [
            0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 1, 0x61, 0xC0, 20, 0, 1, 0, 1, 1, 0x62, 0xC0, 12, 0, 1, 0, 1,
        ]
        #expect(refusal(two).contains("does not point backwards"))
        // Counts the packet cannot hold are refused before anything is read.
        #expect(refusal([0, 0, 0x84, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).contains("header counts"))
        // A truncated record, a label past the end, a name over 255 bytes, an oversized packet.
        #expect(
            refusal([0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 120, 0, 4, 10, 1]).contains(
                "truncated"))
        #expect(refusal(header + [9, 0x61, 0, 0, 1, 0, 1]).contains("truncated"))
        let label: [UInt8] = [63] + Array(repeating: 0x61, count: 63)
        let long: [UInt8] = Array(Array(repeating: label, count: 5).joined())
        #expect(refusal(header + long + [0, 0, 1, 0, 1]).contains("longer than 255"))
        #expect(refusal(Array(repeating: 0, count: 9001)).contains("9000-byte limit"))
        // Record data whose content does not fill its stated length exactly.
        let shortA: [UInt8] = [0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 12, 0, 1, 0, 0, 0, 1, 0, 3, 1, 2, 3]
        #expect(refusal(shortA).contains("truncated") || refusal(shortA).contains("is 3 bytes"))
    }

    @Test func largeMessagesAreSplitIntoPacketsThatEachParse() throws {
        let type = DNSName("_orchard._tcp.local")
        let records = (0..<300).map { i in
            DNSRecord(name: type, data: .ptr(type.prepending("Service number \(i)")), ttl: 4500)
        }
        let response = DNSMessage.response(answers: records)
        let packets = response.packets()
        #expect(packets.count > 1 && packets.allSatisfy { $0.count <= DNSMessage.packetSize })
        let parsed = try packets.map { try DNSMessage(parsing: $0) }
        #expect(parsed.flatMap(\.answers) == records)
        // A query's known answers go on in further packets; all but the last say so with the TC bit.
        let query = DNSMessage.query([DNSQuestion(name: type, type: DNSType.ptr)], knownAnswers: records)
        let queries = try query.packets().map { try DNSMessage(parsing: $0) }
        #expect(queries.count > 1 && queries.first?.questions.count == 1)
        #expect(queries.dropLast().allSatisfy { $0.flags & 0x0200 != 0 } && queries.last!.flags & 0x0200 == 0)
        #expect(queries.flatMap(\.answers) == records)
    }

    // MARK: Responding

    /// Runs a fresh responder with one service until it is announced.
    static func registered(
        _ service: MulticastDNSState.Service = .init(name: "Kitchen", type: "_orchard._tcp", port: 8080)
    )
        -> (MulticastDNSState, [MulticastDNSState.Action])
    {
        var s = state()
        var actions = s.register(id: 1, service, now: t0)
        actions += advance(&s, from: t0, until: t0 + .seconds(5))
        return (s, actions)
    }

    @Test func aServiceIsProbedThenAnnouncedTwice() {
        let (_, actions) = Self.registered()
        let messages = Self.sent(actions)
        let hostProbes = messages.filter { !$0.isResponse && $0.questions.first?.name == DNSName("orchard.local") }
        let serviceProbes = messages.filter {
            !$0.isResponse && $0.questions.first?.name == DNSName(labels: ["Kitchen", "_orchard", "_tcp", "local"])
        }
        #expect(hostProbes.count == 3 && serviceProbes.count == 3)
        #expect(serviceProbes.allSatisfy { $0.authorities.contains { $0.type == DNSType.srv } })
        #expect(serviceProbes.first?.questions.first?.unicastResponse == true)
        let announcements = messages.filter { $0.isResponse && $0.answers.contains { $0.type == DNSType.ptr } }
        #expect(announcements.count == 2)
        #expect(actions.contains(.registered(id: 1, name: "Kitchen")))
    }

    @Test func aConflictWhileProbingRenamesTheService() {
        var s = Self.state()
        _ = s.register(id: 1, .init(name: "Kitchen", type: "_orchard._tcp", port: 8080), now: Self.t0)
        // The host name is announced (0.75 s); the service's first probe has gone, its third not yet.
        var actions = Self.advance(&s, from: Self.t0, until: Self.t0 + .milliseconds(800))
        #expect(Self.sent(actions).contains { $0.questions.first?.name.labels.first == "Kitchen" })
        let theirs = DNSMessage.response(answers: [
            DNSRecord(
                name: DNSName(labels: ["Kitchen", "_orchard", "_tcp", "local"]),
                data: .srv(priority: 0, weight: 0, port: 4242, target: DNSName("peer.local")), ttl: 120,
                cacheFlush: true)
        ])
        let now = Self.t0 + .milliseconds(850)
        actions = s.receive(theirs, from: Self.peer, interface: 7, now: now)
        #expect(actions == [.renamed(id: 1, from: "Kitchen", to: "Kitchen (2)")])
        actions = Self.advance(&s, from: now, until: now + .seconds(5))
        #expect(actions.contains(.registered(id: 1, name: "Kitchen (2)")))
        #expect(!actions.contains(.registered(id: 1, name: "Kitchen")))
    }

    @Test func twoServicesOfOneProcessWithOneNameGetTwoNames() {
        var s = Self.state()
        _ = s.register(id: 1, .init(name: "Kitchen", type: "_orchard._tcp", port: 1), now: Self.t0)
        _ = s.register(id: 2, .init(name: "kitchen", type: "_orchard._tcp", port: 2), now: Self.t0)
        let actions = Self.advance(&s, from: Self.t0, until: Self.t0 + .seconds(5))
        #expect(actions.contains(.registered(id: 1, name: "Kitchen")))
        #expect(actions.contains(.registered(id: 2, name: "kitchen (2)")))
    }

    @Test func queriesAreAnsweredWithoutWhatTheAskerKnows() {
        var (s, _) = Self.registered()
        let now = Self.t0 + .seconds(10)
        let type = DNSName("_orchard._tcp.local")
        let ptr = DNSRecord(
            name: type, data: .ptr(DNSName(labels: ["Kitchen", "_orchard", "_tcp", "local"])), ttl: 4500)
        // Asked plainly: a shared answer, 20 ms later, with SRV, TXT and the address as additional records.
        #expect(
            s.receive(.query([DNSQuestion(name: type, type: DNSType.ptr)]), from: Self.peer, interface: 7, now: now)
                .isEmpty)
        let reply = Self.sent(Self.advance(&s, from: now, until: now + .milliseconds(200)))
        #expect(reply.count == 1 && reply[0].answers == [ptr])
        #expect(Set(reply[0].additionals.map(\.type)) == [DNSType.srv, DNSType.txt, DNSType.a])
        // Asked with the answer already known at full TTL: nothing to say.
        let later = now + .seconds(1)
        _ = s.receive(
            .query([DNSQuestion(name: type, type: DNSType.ptr)], knownAnswers: [ptr]), from: Self.peer, interface: 7,
            now: later)
        #expect(Self.sent(Self.advance(&s, from: later, until: later + .milliseconds(200))).isEmpty)
        // Known with less than half its TTL left: answered again.
        var stale = ptr
        stale.ttl = 2000
        let then = later + .seconds(1)
        _ = s.receive(
            .query([DNSQuestion(name: type, type: DNSType.ptr)], knownAnswers: [stale]), from: Self.peer, interface: 7,
            now: then)
        #expect(Self.sent(Self.advance(&s, from: then, until: then + .milliseconds(200))).count == 1)
    }

    @Test func aLegacyUnicastQueryGetsAUnicastReplyWithItsIDAndShortTTLs() throws {
        var (s, _) = Self.registered()
        let asker = try SocketAddress(ipAddress: "10.1.0.2", port: 40000)
        var query = DNSMessage.query([DNSQuestion(name: DNSName("orchard.local"), type: DNSType.a)])
        query.id = 0x1234
        let actions = s.receive(query, from: asker, interface: 7, now: Self.t0 + .seconds(10))
        guard case .send(let reply, 7, asker)? = actions.first else {
            Issue.record("no unicast reply: \(actions)")
            return
        }
        #expect(reply.id == 0x1234 && reply.questions == query.questions)
        #expect(
            reply.answers.map(\.data) == [.a([10, 1, 0, 1])]
                && reply.answers.allSatisfy { $0.ttl <= 10 && !$0.cacheFlush })
    }

    @Test func unregisteringSaysGoodbye() {
        var (s, _) = Self.registered()
        let messages = Self.sent(s.unregister(id: 1))
        #expect(messages.count == 1)
        #expect(messages[0].answers.count == 4 && messages[0].answers.allSatisfy { $0.ttl == 0 })
        #expect(Self.sent(s.unregister(id: 1)).isEmpty)
    }

    @Test func aSimultaneousProbeWithLaterDataWins() {
        var s = Self.state()
        _ = s.register(id: 1, .init(name: "Kitchen", type: "_orchard._tcp", port: 1), now: Self.t0)
        let probing = Self.t0 + .milliseconds(800)
        _ = Self.advance(&s, from: Self.t0, until: probing)
        // Their SRV has a later port (data compares byte by byte): we lose, wait a second and probe again.
        let name = DNSName(labels: ["Kitchen", "_orchard", "_tcp", "local"])
        let theirs = DNSMessage.query(
            [DNSQuestion(name: name, type: DNSType.any)],
            authorities: [
                DNSRecord(
                    name: name, data: .srv(priority: 0, weight: 0, port: 9, target: DNSName("peer.local")), ttl: 120)
            ])
        _ = s.receive(theirs, from: Self.peer, interface: 7, now: probing)
        func probes(_ actions: [MulticastDNSState.Action]) -> Int {
            Self.sent(actions).filter { !$0.isResponse && $0.questions.first?.name == name }.count
        }
        #expect(probes(Self.advance(&s, from: probing, until: probing + .milliseconds(950))) == 0)
        #expect(probes(Self.advance(&s, from: probing, until: probing + .milliseconds(1050))) == 1)
    }

    // MARK: Browsing

    @Test func aBrowseSeesServicesComeAndGo() {
        var s = Self.state()
        let start = Self.t0 + .seconds(3)
        _ = Self.advance(&s, from: Self.t0, until: start)
        #expect(s.startBrowse(id: 2, type: "_orchard._tcp", domain: "local", now: start) == [.browseResults(id: 2, [])])
        let queries = Self.sent(Self.advance(&s, from: start, until: start + .milliseconds(3500)))
            .filter { $0.questions.first?.type == DNSType.ptr }
        #expect(queries.count == 3)  // at 20 ms, then 1 s and 2 s later
        let name = DNSName(labels: ["Den", "_orchard", "_tcp", "local"])
        let found = start + .seconds(4)
        let actions = s.receive(
            .response(
                answers: [DNSRecord(name: DNSName("_orchard._tcp.local"), data: .ptr(name), ttl: 4500)],
                additionals: [DNSRecord(name: name, data: .txt([Array("k=v".utf8)]), ttl: 4500, cacheFlush: true)]),
            from: Self.peer, interface: 7, now: found)
        #expect(
            actions == [
                .browseResults(
                    id: 2,
                    [.init(name: "Den", type: "_orchard._tcp", domain: "local", interface: 7, txt: [Array("k=v".utf8)])]
                )
            ])
        // The next query lists it as a known answer.
        let next = Self.sent(Self.advance(&s, from: found, until: found + .seconds(4)))
            .first { $0.questions.first?.type == DNSType.ptr }
        #expect(next?.answers.first?.data == .ptr(name))
        // A goodbye removes it one second later.
        let bye = found + .seconds(5)
        _ = s.receive(
            .response(answers: [DNSRecord(name: DNSName("_orchard._tcp.local"), data: .ptr(name), ttl: 0)]),
            from: Self.peer, interface: 7, now: bye)
        #expect(Self.advance(&s, from: bye, until: bye + .milliseconds(1100)).contains(.browseResults(id: 2, [])))
    }

    @Test func cachedRecordsAreRefreshedThenExpire() {
        var s = Self.state()
        _ = Self.advance(&s, from: Self.t0, until: Self.t0 + .seconds(3))
        let now = Self.t0 + .seconds(3)
        _ = s.startBrowse(id: 2, type: "_orchard._tcp", domain: "local", now: now)
        let name = DNSName(labels: ["Den", "_orchard", "_tcp", "local"])
        _ = s.receive(
            .response(answers: [DNSRecord(name: DNSName("_orchard._tcp.local"), data: .ptr(name), ttl: 100)]),
            from: Self.peer, interface: 7, now: now)
        let actions = Self.advance(&s, from: now, until: now + .seconds(101))
        // Re-asked at 80, 85, 90 and 95 % of its TTL (beside the browse's own schedule), then gone.
        let refreshes = Self.sent(actions).filter { $0.questions.first?.type == DNSType.ptr && $0.answers.isEmpty }
        #expect(refreshes.count >= 4)
        #expect(actions.last == .browseResults(id: 2, []))
    }

    @Test func aResolveWaitsForTheSRVRecordAndAnAddress() {
        var s = Self.state()
        let now = Self.t0 + .seconds(3)
        _ = Self.advance(&s, from: Self.t0, until: now)
        let asked = Self.sent(
            s.startResolve(id: 3, name: "Den", type: "_orchard._tcp", domain: "local", now: now)
                + s.timerFired(now: now))
        #expect(asked.contains { $0.questions.map(\.type) == [DNSType.srv, DNSType.txt] })
        let name = DNSName(labels: ["Den", "_orchard", "_tcp", "local"])
        var actions = s.receive(
            .response(answers: [
                DNSRecord(
                    name: name, data: .srv(priority: 0, weight: 0, port: 7000, target: DNSName("den.local")), ttl: 120,
                    cacheFlush: true)
            ]), from: Self.peer, interface: 7, now: now)
        #expect(actions.isEmpty)
        actions = s.receive(
            .response(answers: [
                DNSRecord(name: DNSName("den.local"), data: .a([10, 1, 0, 2]), ttl: 120, cacheFlush: true),
                DNSRecord(
                    name: DNSName("den.local"), data: .aaaa([0xFE, 0x80] + Array(repeating: 0, count: 13) + [1]),
                    ttl: 120, cacheFlush: true),
            ]), from: Self.peer, interface: 7, now: now)
        // The link-local IPv6 address is kept: the resolution names the interface that gives it its scope.
        let linkLocal: [UInt8] = [0xFE, 0x80] + Array(repeating: 0, count: 13) + [1]
        #expect(
            actions == [
                .resolved(id: 3, .init(port: 7000, addresses: [[10, 1, 0, 2], linkLocal], txt: [], interface: 7))
            ])
    }

    // MARK: TXT records

    @Test func txtRecordsFollowRFC6763() throws {
        var record = NWTXTRecord(["color": "red"])
        record.setEntry(.none, for: "flag")
        record.setEntry(.empty, for: "blank")
        #expect(
            record["COLOR"] == "red" && record["flag"] == "" && record.getEntry(for: "flag") == NWTXTRecord.Entry.none)
        let withEquals = record.setEntry(.string("x"), for: "a=b")
        let tooLong = record.setEntry(.string(String(repeating: "x", count: 260)), for: "long")
        #expect(!withEquals && !tooLong)
        let back = try #require(NWTXTRecord(record.data))
        #expect(back == record && back.count == 3)
        // The first occurrence of a key counts; a length past the end is refused.
        #expect(NWTXTRecord(Data([3]) + Data("a=1".utf8) + Data([3]) + Data("A=2".utf8))?["a"] == "1")
        #expect(NWTXTRecord(Data([9, 0x61])) == nil)
        record["color"] = nil
        #expect(record.getEntry(for: "color") == nil && record.description == "flag blank=")
    }
}
