import OpenCoreData

/// An anchored query's page, as asked of the daemon.
struct PageRequest: Equatable, Sendable {
    let type: String
    let predicate: HealthWire.Predicate?
    let after: Int64?
    let limit: Int?

    var call: HealthWire.Call { .anchoredChanges(type: type, predicate: predicate, after: after, limit: limit) }
}

/// Pages of an anchored query asked for in one call before the app asks (see `HealthDaemonClient.anchoredChanges`).
struct ReadAhead: Sendable {
    /// The first page it holds.
    let first: PageRequest
    let pages: Int
    let reply: Task<HealthWire.Reply, any Error>
    /// When it was asked for: the daemon computed it after this.
    let asked: ContinuousClock.Instant
    /// The connection it was asked on.
    let generation: Int
}

/// A page cut from a batch read ahead, not taken yet.
struct PreparedPage: Sendable {
    let page: PageRequest
    let reply: HealthWire.Reply
    let asked: ContinuousClock.Instant
    let generation: Int
}

extension PageRequest {
    /// One page cut from a batch: what it answers, and the page that follows it.
    struct Cut {
        let page: PageRequest
        let reply: HealthWire.Reply
        /// It holds a whole page of changes (more may follow).
        let full: Bool
        let next: PageRequest
    }

    /// Cuts the answer to a call for `pages` pages from `first` into the pages asked one by one would have been: the
    /// changes in sequence order, `first.limit` each; every page but the last ends its anchor at its last change, the
    /// last takes the batch's anchor. An answer with more changes than `pages` pages hold is an error.
    static func split(_ reply: HealthWire.Reply, of first: PageRequest, into pages: Int) throws -> [Cut] {
        guard case .changes(let added, let addedSequence, let deleted, let deletedSequence, let newAnchor) = reply,
            added.count == addedSequence.count, deleted.count == deletedSequence.count, let limit = first.limit,
            limit > 0
        else { throw HKError(.errorDatabaseInaccessible, "the health daemon answered a page read ahead with \(reply)") }
        guard added.count + deleted.count <= limit * pages else {
            throw HKError(
                .errorDatabaseInaccessible,
                "the health daemon answered a call for \(limit * pages) changes with \(added.count + deleted.count)")
        }
        // Every change with its sequence number: added ones as their index, deleted ones as -1 - index.
        let changes =
            (zip(addedSequence, added.indices).map { ($0, $1) }
            + zip(deletedSequence, deleted.indices).map { ($0, -1 - $1) }).sorted { $0.0 < $1.0 }
        var cuts: [Cut] = []
        var start = 0
        var after = first.after
        repeat {
            let end = min(start + limit, changes.count)
            let part = changes[start..<end]
            let last = end == changes.count
            let anchor = last ? newAnchor : part.last!.0  // not last: the part is whole, so it has a last change
            let page = PageRequest(type: first.type, predicate: first.predicate, after: after, limit: limit)
            let reply = HealthWire.Reply.changes(
                added: part.filter { $0.1 >= 0 }.map { added[$0.1] },
                addedSequence: part.filter { $0.1 >= 0 }.map(\.0),
                deleted: part.filter { $0.1 < 0 }.map { deleted[-1 - $0.1] },
                deletedSequence: part.filter { $0.1 < 0 }.map(\.0), newAnchor: anchor)
            let next = PageRequest(type: first.type, predicate: first.predicate, after: anchor, limit: limit)
            cuts.append(Cut(page: page, reply: reply, full: part.count == limit, next: next))
            start = end
            after = anchor
        } while start < changes.count
        return cuts
    }
}
