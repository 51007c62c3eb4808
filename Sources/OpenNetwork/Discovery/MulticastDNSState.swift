import NIOCore

/// The logic of a multicast DNS responder and querier (RFC 6762) with DNS-SD naming (RFC 6763), as a value that
/// takes events (a packet, a registration, a browse, the clock) and returns what to do.
///
/// It owns no socket and reads no clock: every call gets `now`, and ``nextDeadline`` says when to call
/// ``timerFired(now:)`` next. ``MulticastDNS`` drives it on an event loop; tests drive it directly.
///
/// What it does:
/// - **Names it owns** (the host name and each registered service instance) are probed three times 250 ms apart,
///   then announced twice 1 s apart (§8). A response during probing that carries other data for the name is a
///   conflict: a service becomes "Name (2)", "Name (3)"..., the host "host-2"... and probing starts again (§9).
///   A simultaneous probe is settled by comparing the proposed data (§8.2): the lexicographically later wins.
/// - **Queries** are answered from established names: shared records (PTR) after 20–120 ms, unique ones at once,
///   without the answers the query already lists with at least half their TTL (known-answer suppression, §7.1),
///   with SRV, TXT and addresses as additional records. A query from a port other than 5353 is a legacy unicast
///   query (§6.7): it gets a unicast reply with its id, its questions and TTLs of at most 10 s.
/// - **Unregistering** sends a goodbye (the records with TTL 0, §10.1).
/// - **Browsing** sends a PTR query at once, then after 1 s, 2 s, 4 s... up to an hour (§5.2), listing the
///   answers already known. Records received are cached until their TTL runs out; a goodbye expires its record
///   after 1 s, a cache-flush record replaces other data for its name and type (§10.2); records a browse uses
///   are re-queried at 80, 85, 90 and 95 % of their TTL (§5.2).
/// - **Resolving** a service asks for its SRV and TXT records, then for its target's addresses, once a second.
struct MulticastDNSState {
    /// An interface the responder sends and answers on, with its addresses (4 bytes for IPv4, 16 for IPv6).
    struct Interface: Sendable, Equatable {
        var index: Int
        var name: String
        var addresses: [[UInt8]]
    }

    /// A service to register: its instance name, type (`_orchard._tcp`), domain, port and TXT strings.
    struct Service: Sendable, Equatable {
        var name: String
        var type: String
        var domain = "local"
        var port: UInt16
        var txt: [[UInt8]] = []
    }

    /// A service instance found by a browse.
    struct Instance: Sendable, Hashable {
        var name: String
        var type: String
        var domain: String
        var interface: Int
        /// The instance's TXT strings, once seen (a change is reported as a change of the browse's results).
        var txt: [[UInt8]]?
    }

    /// A resolved service: where to connect and its TXT strings.
    struct Resolution: Sendable, Equatable {
        var port: UInt16
        var addresses: [[UInt8]]
        var txt: [[UInt8]]
        var interface: Int
    }

    /// What the driver does.
    enum Action: Sendable, Equatable {
        /// Send `message` on the interface with this index (every interface when nil), multicast unless
        /// `unicastTo` names a peer.
        case send(DNSMessage, interface: Int?, unicastTo: SocketAddress? = nil)
        /// A registration's name is established (announced) under this instance name.
        case registered(id: Int, name: String)
        /// A registration lost its name in a conflict and is probing again under a new one.
        case renamed(id: Int, from: String, to: String)
        /// The instances a browse sees changed.
        case browseResults(id: Int, [Instance])
        /// A resolve finished.
        case resolved(id: Int, Resolution)
    }

    static let probeInterval = TimeAmount.milliseconds(250)
    static let announceInterval = TimeAmount.seconds(1)
    static let hostTTL: UInt32 = 120
    static let serviceTTL: UInt32 = 4500

    private(set) var interfaces: [Interface]
    /// The host name's first label ("orchard" in "orchard.local.").
    private(set) var hostLabel: String
    private var hostBase: String
    private var hostPhase: Phase
    private var hostConflicts = 0
    private var services: [Int: Registration] = [:]
    /// Registrations by their instance name (a host with a thousand services checks each packet by name).
    private var instanceIndex: [DNSName: Int] = [:]
    private var browses: [Int: Browse] = [:]
    private var resolves: [Int: Resolve] = [:]
    /// Cached records by owner name (a browse of a thousand services reads its instances' records by name).
    private var cache: [DNSName: [CacheEntry]] = [:]
    private var pending: [PendingResponse] = []
    /// Known answers listed by queries in the last second, per interface: a delayed response leaves out what any
    /// asker already has, including what a truncated query's later packets listed (§7.2).
    private var knownAnswers: [(record: DNSRecord, interface: Int, at: NIODeadline)] = []
    /// Random delays (milliseconds in a range); tests fix them.
    var random: @Sendable (ClosedRange<Int64>) -> Int64 = { Int64.random(in: $0) }

    enum Phase: Equatable {
        case waiting  // a service waits for the host name
        case probing(sent: Int, next: NIODeadline)
        case announcing(sent: Int, next: NIODeadline)
        case established
    }

    private struct Registration {
        var service: Service {
            didSet { instance = type.prepending(service.name) }
        }
        /// `_orchard._tcp.local.`
        let type: DNSName
        /// `Name._orchard._tcp.local.`
        private(set) var instance: DNSName
        var base: String
        var conflicts = 0
        var phase: Phase = .waiting
        var announcedName: String?
    }

    private struct Browse {
        var type: DNSName
        var next: NIODeadline
        var interval: TimeAmount
        var reported: [Instance]?
    }

    private struct Resolve {
        var instance: DNSName
        var next: NIODeadline
    }

    private struct CacheEntry {
        var record: DNSRecord
        var interface: Int
        var received: NIODeadline
        var expires: NIODeadline
        var refreshes = 0
        var refreshDeadline: NIODeadline {
            received + .nanoseconds(Int64(Double(record.ttl) * (0.80 + 0.05 * Double(refreshes)) * 1e9))
        }
    }

    private struct PendingResponse {
        var at: NIODeadline
        var interface: Int
        var answers: [DNSRecord]
    }

    init(hostName: String, interfaces: [Interface], now: NIODeadline) {
        self.interfaces = interfaces
        hostBase = hostName
        hostLabel = hostName
        hostPhase = .probing(sent: 0, next: now)
    }

    // MARK: Names and records

    var hostName: DNSName { DNSName(labels: [hostLabel, "local"]) }

    private static let servicesName = DNSName("_services._dns-sd._udp.local")

    private func hostRecords(on interface: Int, ttl: UInt32 = hostTTL) -> [DNSRecord] {
        guard let i = interfaces.first(where: { $0.index == interface }) else { return [] }
        return i.addresses.map { address in
            DNSRecord(
                name: hostName, data: address.count == 4 ? .a(address) : .aaaa(address), ttl: ttl, cacheFlush: true)
        }
    }

    private func uniqueRecords(_ r: Registration, ttl: UInt32? = nil) -> [DNSRecord] {
        let name = r.instance
        return [
            DNSRecord(
                name: name, data: .srv(priority: 0, weight: 0, port: r.service.port, target: hostName),
                ttl: ttl ?? Self.hostTTL, cacheFlush: true),
            DNSRecord(name: name, data: .txt(r.service.txt), ttl: ttl ?? Self.serviceTTL, cacheFlush: true),
        ]
    }

    private func sharedRecords(_ r: Registration, ttl: UInt32? = nil) -> [DNSRecord] {
        return [
            DNSRecord(name: r.type, data: .ptr(r.instance), ttl: ttl ?? Self.serviceTTL),
            DNSRecord(name: Self.servicesName, data: .ptr(r.type), ttl: ttl ?? Self.serviceTTL),
        ]
    }

    /// The records this responder answers `question` with on `interface` (established names only).
    private func ownRecords(answering question: DNSQuestion, on interface: Int) -> [DNSRecord] {
        guard hostPhase == .established else { return [] }
        var records: [DNSRecord] = []
        if question.name == hostName { records += hostRecords(on: interface) }
        if let id = instanceIndex[question.name], let r = services[id], r.phase == .established {
            records += uniqueRecords(r)
        }
        if question.name == Self.servicesName {
            var types: Set<DNSName> = []
            for r in services.values where r.phase == .established && types.insert(r.type).inserted {
                records.append(DNSRecord(name: Self.servicesName, data: .ptr(r.type), ttl: Self.serviceTTL))
            }
        } else if question.name.labels.first?.hasPrefix("_") == true {
            for r in services.values where r.phase == .established && r.type == question.name {
                records.append(DNSRecord(name: r.type, data: .ptr(r.instance), ttl: Self.serviceTTL))
            }
        }
        return records.filter(question.isAnswered)
    }

    // MARK: Registration

    mutating func register(id: Int, _ service: Service, now: NIODeadline) -> [Action] {
        let type = DNSName("\(service.type).\(service.domain)")
        var r = Registration(service: service, type: type, instance: type.prepending(service.name), base: service.name)
        // Another registration of this process holds the name: its packets come back as our own, so no probe would
        // see the clash. It is renamed here, as a peer's answer would have it renamed.
        while instanceIndex[r.instance] != nil && services[instanceIndex[r.instance]!] != nil {
            r.conflicts += 1
            r.service.name = "\(r.base) (\(r.conflicts + 1))"
        }
        instanceIndex[r.instance] = id
        if hostPhase == .established { r.phase = .probing(sent: 0, next: now + .milliseconds(random(0...250))) }
        services[id] = r
        return []
    }

    mutating func unregister(id: Int) -> [Action] {
        guard let r = services.removeValue(forKey: id) else { return [] }
        instanceIndex[r.instance] = nil
        // Anything announced (even once) gets its goodbye; a name still probing was never claimed.
        guard r.announcedName == r.service.name else { return [] }
        // Goodbye: every record with TTL 0.
        return interfaces.map { i in
            .send(.response(answers: sharedRecords(r, ttl: 0) + uniqueRecords(r, ttl: 0)), interface: i.index)
        }
    }

    /// The name a registration goes by now.
    func currentName(of id: Int) -> String? { services[id]?.service.name }

    // MARK: Browsing and resolving

    mutating func startBrowse(id: Int, type: String, domain: String, now: NIODeadline) -> [Action] {
        browses[id] = Browse(
            type: DNSName("\(type).\(domain)"), next: now + .milliseconds(random(20...120)), interval: .seconds(1))
        return reportBrowses()
    }

    mutating func stopBrowse(id: Int) { browses[id] = nil }

    mutating func startResolve(id: Int, name: String, type: String, domain: String, now: NIODeadline) -> [Action] {
        resolves[id] = Resolve(instance: DNSName("\(type).\(domain)").prepending(name), next: now)
        return checkResolves(now: now)
    }

    mutating func stopResolve(id: Int) { resolves[id] = nil }

    // MARK: Time

    /// When ``timerFired(now:)`` has work next.
    var nextDeadline: NIODeadline? {
        var all: [NIODeadline] = pending.map(\.at) + browses.values.map(\.next) + resolves.values.map(\.next)
        if case .probing(_, let next) = hostPhase { all.append(next) }
        if case .announcing(_, let next) = hostPhase { all.append(next) }
        for r in services.values {
            if case .probing(_, let next) = r.phase { all.append(next) }
            if case .announcing(_, let next) = r.phase { all.append(next) }
        }
        for e in cache.values.joined() {
            all.append(e.expires)
            if e.refreshes < 4, isWanted(e.record) { all.append(e.refreshDeadline) }
        }
        return all.min()
    }

    mutating func timerFired(now: NIODeadline) -> [Action] {
        var actions: [Action] = []
        // Probing and announcing the host name, then the services.
        switch hostPhase {
        case .probing(let sent, let next) where next <= now:
            if sent == 3 {
                hostPhase = .announcing(sent: 0, next: now)
                actions += timerFired(now: now)
                return actions
            }
            actions += interfaces.map { i in
                .send(
                    .query(
                        [DNSQuestion(name: hostName, type: DNSType.any, unicastResponse: sent == 0)],
                        authorities: hostRecords(on: i.index)), interface: i.index)
            }
            hostPhase = .probing(sent: sent + 1, next: now + Self.probeInterval)
        case .announcing(let sent, let next) where next <= now:
            actions += interfaces.map { i in .send(.response(answers: hostRecords(on: i.index)), interface: i.index) }
            hostPhase = sent + 1 >= 2 ? .established : .announcing(sent: sent + 1, next: now + Self.announceInterval)
            if sent == 0 {
                for id in services.keys where services[id]?.phase == .waiting {
                    services[id]?.phase = .probing(sent: 0, next: now + .milliseconds(random(0...250)))
                }
            }
        default: break
        }
        for id in services.keys.sorted() {
            guard var r = services[id] else { continue }
            switch r.phase {
            case .probing(let sent, let next) where next <= now:
                if sent == 3 {
                    r.phase = .announcing(sent: 0, next: now)
                    services[id] = r
                    continue
                }
                let name = r.instance
                actions.append(
                    .send(
                        .query(
                            [DNSQuestion(name: name, type: DNSType.any, unicastResponse: sent == 0)],
                            authorities: uniqueRecords(r)), interface: nil))
                r.phase = .probing(sent: sent + 1, next: now + Self.probeInterval)
            case .announcing(let sent, let next) where next <= now:
                for i in interfaces {
                    actions.append(
                        .send(
                            .response(
                                answers: sharedRecords(r) + uniqueRecords(r), additionals: hostRecords(on: i.index)),
                            interface: i.index))
                }
                r.phase = sent + 1 >= 2 ? .established : .announcing(sent: sent + 1, next: now + Self.announceInterval)
                if sent == 0 {
                    r.announcedName = r.service.name
                    actions.append(.registered(id: id, name: r.service.name))
                }
            default: break
            }
            services[id] = r
        }
        // A service that reached announcing in this pass sends its first announcement now.
        if services.values.contains(where: {
            if case .announcing(0, let n) = $0.phase { return n <= now } else { return false }
        }) {
            actions += timerFired(now: now)
        }
        // Delayed responses.
        let due = pending.filter { $0.at <= now }
        pending.removeAll { $0.at <= now }
        knownAnswers.removeAll { now - $0.at > .seconds(1) }
        for var p in due {
            var known: [DNSRecord: UInt32] = [:]
            for k in knownAnswers where k.interface == p.interface {
                let key = DNSRecord(name: k.record.name, data: k.record.data, ttl: 0)
                known[key] = max(known[key] ?? 0, k.record.ttl)
            }
            p.answers.removeAll { r in (known[DNSRecord(name: r.name, data: r.data, ttl: 0)] ?? 0) >= max(r.ttl / 2, 1)
            }
            if p.answers.isEmpty { continue }
            actions.append(
                .send(
                    .response(answers: p.answers, additionals: additionals(for: p.answers, on: p.interface)),
                    interface: p.interface))
        }
        // Browse queries, with the answers already known.
        for id in browses.keys.sorted() {
            guard var b = browses[id], b.next <= now else { continue }
            let known = (cache[b.type] ?? []).filter {
                $0.record.type == DNSType.ptr
                    && $0.expires - now > .nanoseconds(Int64($0.record.ttl) * 500_000_000)
            }.map { entry -> DNSRecord in
                var r = entry.record
                r.ttl = UInt32(max(0, (entry.expires - now).nanoseconds / 1_000_000_000))
                return r
            }
            actions.append(
                .send(.query([DNSQuestion(name: b.type, type: DNSType.ptr)], knownAnswers: known), interface: nil))
            b.next = now + b.interval
            b.interval = min(.nanoseconds(b.interval.nanoseconds * 2), .hours(1))
            browses[id] = b
        }
        // Resolves ask again each second.
        for id in resolves.keys.sorted() {
            guard let r = resolves[id], r.next <= now else { continue }
            actions.append(.send(.query(questions(for: r.instance)), interface: nil))
            resolves[id]?.next = now + .seconds(1)
        }
        // Cache: refresh what a browse uses, expire what ran out.
        var refresh: [DNSQuestion] = []
        for name in cache.keys {
            for i in cache[name]!.indices {
                let e = cache[name]![i]
                guard e.refreshes < 4, isWanted(e.record), e.refreshDeadline <= now else { continue }
                cache[name]![i].refreshes += 1
                let q = DNSQuestion(name: e.record.name, type: e.record.type)
                if !refresh.contains(q) { refresh.append(q) }
            }
        }
        if !refresh.isEmpty { actions.append(.send(.query(refresh), interface: nil)) }
        var expired = false
        for name in Array(cache.keys) where cache[name]!.contains(where: { $0.expires <= now }) {
            cache[name]!.removeAll { $0.expires <= now }
            if cache[name]!.isEmpty { cache[name] = nil }
            expired = true
        }
        if expired { actions += reportBrowses() }
        return actions
    }

    private func questions(for instance: DNSName) -> [DNSQuestion] {
        var q = [DNSQuestion(name: instance, type: DNSType.srv), DNSQuestion(name: instance, type: DNSType.txt)]
        for e in cache[instance] ?? [] {
            if case .srv(_, _, _, let target) = e.record.data {
                q += [DNSQuestion(name: target, type: DNSType.a), DNSQuestion(name: target, type: DNSType.aaaa)]
            }
        }
        return q
    }

    /// Whether a cached record is in use by a browse (worth refreshing before it expires).
    private func isWanted(_ record: DNSRecord) -> Bool {
        record.type == DNSType.ptr && browses.values.contains { $0.type == record.name }
    }

    // MARK: Receiving

    /// Handles a packet that arrived on `interface` from `source`.
    ///
    /// A packet this responder sent itself (`fromSelf`, back through multicast loopback) only feeds the cache.
    mutating func receive(
        _ message: DNSMessage, from source: SocketAddress, interface: Int, fromSelf: Bool = false, now: NIODeadline
    ) -> [Action] {
        if message.isResponse {
            guard source.port == 5353 else { return [] }  // RFC 6762 §11: responses come from port 5353
            var actions = fromSelf ? [] : checkConflicts(in: message.answers + message.additionals, now: now)
            actions += cacheRecords(message.answers + message.additionals, interface: interface, now: now)
            return actions
        }
        if fromSelf { return [] }
        var actions = settleSimultaneousProbes(message, now: now)
        actions += answer(message, from: source, interface: interface, now: now)
        return actions
    }

    private mutating func checkConflicts(in records: [DNSRecord], now: NIODeadline) -> [Action] {
        var actions: [Action] = []
        let mine = interfaces.flatMap { hostRecords(on: $0.index) }
        if hostPhase != .waiting,
            records.contains(where: {
                $0.name == hostName && ($0.type == DNSType.a || $0.type == DNSType.aaaa)
                    && !mine.contains(where: $0.isSameRecord)
            })
        {
            hostConflicts += 1
            hostLabel = "\(hostBase)-\(hostConflicts + 1)"
            hostPhase = .probing(sent: 0, next: now + .milliseconds(random(0...250)))
            for id in services.keys { services[id]?.phase = .waiting }
        }
        // Only another SRV record (another port or host) for one of our names is a conflict; another TXT record
        // alone is not.
        var clashing: [Int] = []
        for other in records where other.type == DNSType.srv {
            guard let id = instanceIndex[other.name], let r = services[id], r.phase != .waiting,
                !uniqueRecords(r).contains(where: other.isSameRecord), !clashing.contains(id)
            else { continue }
            clashing.append(id)
        }
        for id in clashing {
            guard var r = services[id] else { continue }
            let old = r.service.name
            instanceIndex[r.instance] = nil
            r.conflicts += 1
            r.service.name = "\(r.base) (\(r.conflicts + 1))"
            r.phase = .probing(sent: 0, next: now + .milliseconds(random(0...250)))
            instanceIndex[r.instance] = id
            services[id] = r
            actions.append(.renamed(id: id, from: old, to: r.service.name))
        }
        return actions
    }

    /// RFC 6762 §8.2: two hosts probing the same name at once compare their proposed records; the one whose data
    /// sorts earlier defers (waits a second and probes again) and gets renamed only if the name stays taken.
    private mutating func settleSimultaneousProbes(_ message: DNSMessage, now: NIODeadline) -> [Action] {
        guard !message.authorities.isEmpty else { return [] }
        let probed = Set(message.authorities.compactMap { instanceIndex[$0.name] })
        for id in probed.sorted() {
            guard let r = services[id], case .probing = r.phase else { continue }
            let name = r.instance
            let theirs = message.authorities.filter { $0.name == name }
            guard !theirs.isEmpty else { continue }
            let ours = uniqueRecords(r)
            if Self.compare(ours, theirs) < 0 {
                services[id]?.phase = .probing(sent: 0, next: now + .seconds(1))
            }
        }
        if case .probing = hostPhase {
            let theirs = message.authorities.filter { $0.name == hostName }
            let ours = interfaces.flatMap { hostRecords(on: $0.index) }
            if !theirs.isEmpty, Self.compare(ours, theirs) < 0 {
                hostPhase = .probing(sent: 0, next: now + .seconds(1))
            }
        }
        return []
    }

    /// Lexicographic comparison of two record sets as RFC 6762 §8.2 defines it (class, type, then raw data).
    static func compare(_ a: [DNSRecord], _ b: [DNSRecord]) -> Int {
        func key(_ r: DNSRecord) -> [UInt8] {
            let bytes = DNSMessage.response(answers: [DNSRecord(name: DNSName(labels: []), data: r.data, ttl: 0)])
                .serialized()
            return [UInt8(r.type >> 8), UInt8(r.type & 0xFF)] + bytes.dropFirst(12 + 1 + 10)
        }
        let x = a.map(key).sorted { $0.lexicographicallyPrecedes($1) }
        let y = b.map(key).sorted { $0.lexicographicallyPrecedes($1) }
        for (p, q) in zip(x, y) where p != q { return p.lexicographicallyPrecedes(q) ? -1 : 1 }
        return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
    }

    private mutating func answer(
        _ query: DNSMessage, from source: SocketAddress, interface: Int, now: NIODeadline
    )
        -> [Action]
    {
        for known in query.answers { knownAnswers.append((known, interface, now)) }
        // The asker's known answers by record (TTL aside), with the longest TTL it listed.
        var known: [DNSRecord: UInt32] = [:]
        for k in query.answers {
            let key = DNSRecord(name: k.name, data: k.data, ttl: 0)
            known[key] = max(known[key] ?? 0, k.ttl)
        }
        var unique: [DNSRecord] = []
        var shared: [DNSRecord] = []
        var chosen: Set<DNSRecord> = []
        for q in query.questions {
            for r in ownRecords(answering: q, on: interface) {
                // Known-answer suppression: the asker already has it with at least half its TTL.
                if let ttl = known[DNSRecord(name: r.name, data: r.data, ttl: 0)], ttl >= r.ttl / 2 { continue }
                guard chosen.insert(r).inserted else { continue }
                if r.cacheFlush { unique.append(r) } else { shared.append(r) }
            }
        }
        if unique.isEmpty && shared.isEmpty { return [] }
        if source.port != 5353 {
            // Legacy unicast (§6.7): the asker's id and questions, TTLs of at most 10 s, no cache-flush bits.
            let capped = (unique + shared).map { r -> DNSRecord in
                var r = r
                r.ttl = min(r.ttl, 10)
                r.cacheFlush = false
                return r
            }
            var reply = DNSMessage.response(answers: capped)
            reply.id = query.id
            reply.questions = query.questions
            return [.send(reply, interface: interface, unicastTo: source)]
        }
        var actions: [Action] = []
        if !unique.isEmpty {
            actions.append(
                .send(
                    .response(answers: unique, additionals: additionals(for: unique, on: interface)),
                    interface: interface))
        }
        if !shared.isEmpty {
            // Shared answers wait 20–120 ms (§6) so that several responders do not answer at once; answers already
            // waiting for the interface are merged.
            // A truncated query (TC) has more known answers coming: wait 400–500 ms for them (§7.2).
            let delay = query.flags & 0x0200 != 0 ? random(400...500) : random(20...120)
            if let i = pending.firstIndex(where: { $0.interface == interface }) {
                for r in shared where !pending[i].answers.contains(r) { pending[i].answers.append(r) }
                if query.flags & 0x0200 != 0 { pending[i].at = max(pending[i].at, now + .milliseconds(delay)) }
            } else {
                pending.append(PendingResponse(at: now + .milliseconds(delay), interface: interface, answers: shared))
            }
        }
        return actions
    }

    /// The records that save the asker a second query (RFC 6763 §12). A response of many answers goes without them
    /// (they are optional): it would take several packets more, and the asker resolves only what it connects to.
    private func additionals(for answers: [DNSRecord], on interface: Int) -> [DNSRecord] {
        var extra: [DNSRecord] = []
        guard answers.count <= 8 else { return [] }
        for a in answers {
            if case .ptr(let instance) = a.data,
                let id = instanceIndex[instance], let r = services[id]
            {
                for u in uniqueRecords(r) where !answers.contains(u) && !extra.contains(u) { extra.append(u) }
                for h in hostRecords(on: interface) where !extra.contains(h) { extra.append(h) }
            }
            if case .srv = a.data {
                for h in hostRecords(on: interface) where !answers.contains(h) && !extra.contains(h) { extra.append(h) }
            }
        }
        return extra
    }

    private mutating func cacheRecords(_ records: [DNSRecord], interface: Int, now: NIODeadline) -> [Action] {
        for r in records {
            if r.cacheFlush {
                // Other data for this unique name and type, cached more than a second ago, goes in a second (§10.2).
                for i in (cache[r.name] ?? []).indices {
                    let e = cache[r.name]![i]
                    guard e.interface == interface, e.record.type == r.type, !e.record.isSameRecord(as: r),
                        now - e.received > .seconds(1)
                    else { continue }
                    cache[r.name]![i].expires = min(e.expires, now + .seconds(1))
                }
            }
            let expires = r.ttl == 0 ? now + .seconds(1) : now + .seconds(Int64(r.ttl))
            if let i = cache[r.name]?.firstIndex(where: { $0.interface == interface && $0.record.isSameRecord(as: r) })
            {
                if r.ttl != 0 { cache[r.name]![i].record.ttl = r.ttl }
                cache[r.name]![i].received = now
                cache[r.name]![i].expires = expires
                cache[r.name]![i].refreshes = 0
            } else if r.ttl > 0 {
                cache[r.name, default: []].append(
                    CacheEntry(record: r, interface: interface, received: now, expires: expires))
            }
        }
        return reportBrowses() + checkResolves(now: now)
    }

    private mutating func reportBrowses() -> [Action] {
        var actions: [Action] = []
        for id in browses.keys.sorted() {
            guard let b = browses[id] else { continue }
            var found: [Instance] = []
            var seen: Set<String> = []
            for e in cache[b.type] ?? [] {
                guard case .ptr(let instance) = e.record.data, instance.parent == b.type,
                    let label = instance.labels.first
                else { continue }
                let type = b.type.labels.dropLast().joined(separator: ".")
                var txt: [[UInt8]]?
                for t in cache[instance] ?? [] {
                    if case .txt(let strings) = t.record.data { txt = strings }
                }
                let item = Instance(
                    name: label, type: type, domain: b.type.labels.last ?? "local", interface: e.interface, txt: txt)
                if seen.insert(label).inserted { found.append(item) }
            }
            found.sort { $0.name < $1.name }
            if found != b.reported {
                browses[id]?.reported = found
                actions.append(.browseResults(id: id, found))
            }
        }
        return actions
    }

    private mutating func checkResolves(now: NIODeadline) -> [Action] {
        var actions: [Action] = []
        for id in resolves.keys.sorted() {
            guard let r = resolves[id] else { continue }
            for e in cache[r.instance] ?? [] {
                guard case .srv(_, _, let port, let target) = e.record.data else { continue }
                let addresses = (cache[target] ?? []).filter { $0.interface == e.interface }.compactMap {
                    a -> [UInt8]? in
                    switch a.record.data {
                    case .a(let b), .aaaa(let b): return b
                    default: return nil
                    }
                }
                // Link-local IPv6 addresses are kept: the resolution names the interface, whose scope the connection
                // gives them.
                guard !addresses.isEmpty else { continue }
                var txt: [[UInt8]] = []
                for t in cache[r.instance] ?? [] {
                    if case .txt(let strings) = t.record.data { txt = strings }
                }
                resolves[id] = nil
                actions.append(
                    .resolved(id: id, Resolution(port: port, addresses: addresses, txt: txt, interface: e.interface)))
                break
            }
        }
        return actions
    }
}
