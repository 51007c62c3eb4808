import OpenCoreData
import OpenNetwork

/// An `HKHealthStore`'s connection to `orchard-healthd`: one Unix domain socket carrying Coder messages, with
/// calls matched to replies by ID. It connects on first use, introduces itself (the daemon decides who it is
/// from the kernel's credentials, not from the introduction), and connects again on the next call after the daemon
/// went away (restarted); a call in flight when that happens fails with the reason.
actor HealthDaemonClient {
    typealias Stack = Coder<HealthWire.Request, HealthWire.Response, HealthWireCoder>

    /// What the daemon said about this client when it connected.
    struct Welcome: Sendable {
        let bundleIdentifier: String
        let privileged: Bool
    }

    private struct Link {
        let connection: NetworkConnection<Stack>
        let reader: Task<Void, Never>
        let generation: Int
    }

    /// The socket's path.
    nonisolated let path: String
    /// The bundle identifier the process believes it has (the daemon checks it against its registry).
    nonisolated let claim: String?
    private var link: Link?
    private var connecting: Task<Link, any Error>?
    private var generation = 0
    private var pending: [UInt64: CheckedContinuation<HealthWire.Reply, any Error>] = [:]
    private var nextID: UInt64 = 0
    /// Batches of pages asked for before the app asks (see `anchoredChanges`), and pages of them not taken yet.
    private var batches: [ReadAhead] = []
    private var prepared: [PreparedPage] = []
    /// The pages that would continue the latest full pages: asking for one shows a query is paging through.
    private var followUps: [PageRequest] = []
    private(set) var welcome: Welcome?
    /// The app's sharing decisions as of the last answer (read without waiting, as `authorizationStatus(for:)` is).
    nonisolated let shareStatuses = LockedStatuses()

    init(path: String, claim: String?) {
        self.path = path
        self.claim = claim
    }

    /// Sends a call and waits for its reply; a failure reply throws its error.
    func call(_ call: HealthWire.Call) async throws -> HealthWire.Reply {
        if !call.onlyReads { dropReadAheads() }
        let link = try await connected()
        let reply = try await exchange(call, on: link)
        if case .failure(let code, let message) = reply { throw HealthWire.error(code: code, message: message) }
        if case .shareStatuses(let statuses) = reply { shareStatuses.merge(statuses) }
        return reply
    }

    /// One page of an anchored query's changes.
    ///
    /// Paging through a history one round trip per page leaves both processes waiting on the socket most of the
    /// time. So once a client asks for the page that continues a full one (it is paging through), the pages that
    /// follow are asked for ahead, as one call for several pages (2, then 4, up to 16, at most
    /// `readAheadChanges` changes); the daemon reads the next batch while the app takes in this one. A batch is cut
    /// into the pages the app would have got (every change once, in order; each page's anchor covers exactly what
    /// it holds) and the call for exactly such a page gets it without a round trip.
    ///
    /// A page read ahead is used only within `readAheadLifetime` of being asked for, and any call of this client
    /// that changes data or authorization drops it. So an answer is never older than that (the daemon computed it
    /// after it was asked for): about as long as a reply can be in flight on a busy machine anyway, so a grant the
    /// Health app withdraws is not outrun by more than that. An app that stops paging leaves at most two batches
    /// read for nothing.
    func anchoredChanges(
        type: String, predicate: HealthWire.Predicate?, after: Int64?, limit: Int?
    ) async throws
        -> HealthWire.Reply
    {
        let page = PageRequest(type: type, predicate: predicate, after: after, limit: limit)
        dropStaleReadAheads()
        let reply: HealthWire.Reply
        if let index = prepared.firstIndex(where: { $0.page == page }) {
            reply = prepared.remove(at: index).reply
        } else if let index = batches.firstIndex(where: { $0.first == page }) {
            let batch = batches.remove(at: index)
            let answer = try await withTaskCancellationHandler {
                try await batch.reply.value
            } onCancel: {
                batch.reply.cancel()
            }
            let pages = try PageRequest.split(answer, of: batch.first, into: batch.pages)
            reply = pages[0].reply
            if batch.generation == generation {
                prepared += pages.dropFirst().map {
                    PreparedPage(page: $0.page, reply: $0.reply, asked: batch.asked, generation: batch.generation)
                }
                if let last = pages.last, last.full, pages.count == batch.pages {
                    readAhead(from: last.next, pages: batch.pages * 2)
                }
            }
        } else {
            reply = try await call(page.call)
            let paging = followUps.contains(page)
            followUps.removeAll { $0 == page }
            if case .changes(let added, _, let deleted, _, let newAnchor) = reply, let limit, limit > 0,
                added.count + deleted.count >= limit
            {
                let next = PageRequest(type: type, predicate: predicate, after: newAnchor, limit: limit)
                if paging { readAhead(from: next, pages: 2) } else { followUps.append(next) }
                if followUps.count > Self.batchesAtMost * 2 { followUps.removeFirst() }
            }
        }
        return reply
    }

    /// Asks for `pages` pages from `first` on (fewer when they would hold over `readAheadChanges` changes).
    private func readAhead(from first: PageRequest, pages: Int) {
        guard let limit = first.limit, limit > 0, batches.count < Self.batchesAtMost,
            !batches.contains(where: { $0.first == first }), !prepared.contains(where: { $0.page == first })
        else { return }
        let count = max(1, min(pages, Self.readAheadPages, Self.readAheadChanges / limit))
        let call = PageRequest(type: first.type, predicate: first.predicate, after: first.after, limit: limit * count)
            .call
        batches.append(
            ReadAhead(
                first: first, pages: count, reply: Task { try await self.call(call) }, asked: .now,
                generation: generation))
    }

    /// How long a page read ahead stays usable after it was asked for.
    static let readAheadLifetime = Duration.milliseconds(50)
    /// The most pages one read-ahead call asks for.
    static let readAheadPages = 16
    /// The most changes one read-ahead call asks for (so a batch stays a small message).
    static let readAheadChanges = 3_200
    /// How many queries read ahead at once.
    static let batchesAtMost = 4

    /// Forgets the pages read ahead too long ago, or on a connection since replaced.
    private func dropStaleReadAheads() {
        let now = ContinuousClock.now
        let stale = { (asked: ContinuousClock.Instant, generation: Int) in
            now - asked >= Self.readAheadLifetime || generation != self.generation
        }
        for batch in batches where stale(batch.asked, batch.generation) { batch.reply.cancel() }
        batches.removeAll { stale($0.asked, $0.generation) }
        prepared.removeAll { stale($0.asked, $0.generation) }
    }

    /// Forgets every page read ahead (the calls still out are cancelled; their replies, when they come, are dropped).
    private func dropReadAheads() {
        for batch in batches { batch.reply.cancel() }
        batches = []
        prepared = []
    }

    private func exchange(_ call: HealthWire.Call, on link: Link) async throws -> HealthWire.Reply {
        nextID += 1
        let id = nextID
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<HealthWire.Reply, any Error>) in
                pending[id] = continuation
                let connection = link.connection
                Task {
                    do {
                        try await connection.send(HealthWire.Request(id: id, call: call))
                    } catch {
                        self.finish(id, .failure(error))
                    }
                }
            }
        } onCancel: {
            Task { await self.finish(id, .failure(CancellationError())) }
        }
    }

    private func finish(_ id: UInt64, _ result: Result<HealthWire.Reply, any Error>) {
        pending.removeValue(forKey: id)?.resume(with: result)
    }

    /// The current link, connecting (and introducing this client) when there is none.
    private func connected() async throws -> Link {
        if let link { return link }
        if let connecting { return try await connecting.value }
        // Asked first, so a daemon that is down (restarting, or a socket file left by a killed one) is an error now
        // rather than a connection waiting for it.
        guard SocketProbe.answers(path) else {
            throw HKError(.errorHealthDataUnavailable, "no health daemon is listening at \(path)")
        }
        generation += 1
        let generation = self.generation
        let task = Task { () throws -> Link in try await self.open(generation) }
        connecting = task
        do {
            let link = try await task.value
            connecting = nil
            return link
        } catch {
            connecting = nil
            throw error
        }
    }

    /// Connects and introduces this client; the link is used only once the daemon has welcomed it.
    private func open(_ generation: Int) async throws -> Link {
        let connection = NetworkConnection(to: .unix(path: path)) {
            Coder(sending: HealthWire.Request.self, receiving: HealthWire.Response.self, using: HealthWireCoder()) {
                TCP().connectionTimeout(.seconds(5))
            }
            .maximumMessageSize(HealthWire.maximumMessageSize)
        }
        let reader = Task { await self.read(connection, generation: generation) }
        let link = Link(connection: connection, reader: reader, generation: generation)
        do {
            let reply = try await exchange(.hello(claimedBundleIdentifier: claim), on: link)
            switch reply {
            case .welcome(let bundleIdentifier, let privileged, let statuses):
                welcome = Welcome(bundleIdentifier: bundleIdentifier, privileged: privileged)
                shareStatuses.replace(statuses)
                self.link = link
                return link
            case .failure(let code, let message):
                throw HealthWire.error(code: code, message: message)
            default:
                throw HKError(.errorDatabaseInaccessible, "the health daemon answered the introduction with \(reply)")
            }
        } catch {
            drop(link, because: error)
            throw error
        }
    }

    /// Reads replies until the connection ends, handing each to its call.
    private func read(_ connection: NetworkConnection<Stack>, generation: Int) async {
        do {
            for try await message in connection.messages {
                finish(message.content.id, .success(message.content.reply))
            }
            linkEnded(generation, HKError(.errorDatabaseInaccessible, "the health daemon closed the connection"))
        } catch {
            linkEnded(
                generation, HKError(.errorDatabaseInaccessible, "the connection to the health daemon failed: \(error)"))
        }
    }

    /// The connection of `generation` ended: when it is the current one, its calls in flight fail.
    private func linkEnded(_ generation: Int, _ error: HKError) {
        guard generation == self.generation else { return }
        if let link, link.generation == generation { self.link = nil }
        failPending(error)
    }

    /// Forgets a link: its calls in flight fail with `error`, the next call connects again.
    private func drop(_ link: Link, because error: any Error) {
        if self.link?.generation == link.generation { self.link = nil }
        if link.generation == generation { failPending(error) }
        link.reader.cancel()
        Task { await link.connection.cancel() }
    }

    private func failPending(_ error: any Error) {
        dropReadAheads()
        let waiting = pending
        pending = [:]
        for continuation in waiting.values { continuation.resume(throwing: error) }
    }

    /// Closes the connection (calls in flight fail).
    func close() {
        if let link { drop(link, because: HKError(.errorDatabaseInaccessible, "the health store was closed")) }
    }
}

/// Sharing decisions by type identifier, readable from any thread.
final class LockedStatuses: @unchecked Sendable {  // Unchecked: `statuses` is read and written under `lock`.
    private let lock = NSLock()
    private var statuses: [String: Int] = [:]

    func replace(_ new: [String: Int]) { lock.withLock { statuses = new } }
    func merge(_ new: [String: Int]) { lock.withLock { statuses.merge(new) { _, b in b } } }
    func status(_ identifier: String) -> HKAuthorizationStatus {
        lock.withLock { statuses[identifier].flatMap(HKAuthorizationStatus.init(rawValue:)) ?? .notDetermined }
    }
}
