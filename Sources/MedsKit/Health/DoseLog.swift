import Foundation
import OpenHealthKit

/// One profile's logged doses from a day on, kept in memory and brought up to date with an anchored query: a
/// reload after a dose reads that dose, not four weeks again, and a year's chart reads the year from the store
/// once, not at every change.
///
/// Sendable as a value; ``MedsModel`` keeps one per profile shown, on the main actor.
struct DoseLog: Sendable {
    /// The store read.
    let health: ProfileHealth
    /// The first day held: every dose ``ProfileHealth/loggedDoses(from:to:)`` reads from this day on.
    private(set) var start: Date
    /// The doses held, by when they were logged (then by UUID, so equal moments keep one order).
    private(set) var doses: [LoggedDose]
    /// Where the next changes start (a new anchor object at every update).
    private(set) var anchor: HKQueryAnchor

    /// Reads every dose logged from `start` on.
    static func read(_ health: ProfileHealth, from start: Date) async throws -> DoseLog {
        let first = try await health.doseChanges(after: nil, from: start)
        return DoseLog(health: health, start: start, doses: Self.sorted(first.added), anchor: first.anchor)
    }

    /// `doses` in the log's order. The store hands them out in the order they were written, which for a history
    /// copied from another machine or imported is far from it: the sort moves positions and compares dates kept
    /// beside them, not the doses themselves (a year is thousands, each a large value).
    static func sorted(_ doses: [LoggedDose]) -> [LoggedDose] {
        let moments = doses.map(\.date.timeIntervalSinceReferenceDate)
        let positions = doses.indices.sorted { a, b in
            moments[a] != moments[b] ? moments[a] < moments[b] : doses[a].uuid < doses[b].uuid
        }
        return positions.map { doses[$0] }
    }

    /// By date, then by UUID (`UUID`'s order is its text's, without making the text).
    private static func order(_ a: LoggedDose, _ b: LoggedDose) -> Bool {
        a.date != b.date ? a.date < b.date : a.uuid < b.uuid
    }

    /// Whether the log holds every dose `loggedDoses(from: day, ...)` would read.
    func covers(_ day: Date) -> Bool { start <= day }

    /// Applies what changed in the store since the last read.
    mutating func update() async throws {
        let changes = try await health.doseChanges(after: anchor, from: start)
        anchor = changes.anchor
        guard !changes.added.isEmpty || !changes.deleted.isEmpty else { return }
        let gone = Set(changes.deleted)
        // Everything added after the anchor is new here (``MedsModel`` never applies an update to an older log).
        let new = changes.added.filter { !gone.contains($0.uuid) }
        if !gone.isEmpty { doses.removeAll { gone.contains($0.uuid) } }
        // A few new doses (a change is usually one, or a day's) each go in at their place; more (a sync's pages) are
        // merged in one pass. Sorting the whole log again cost more than reading the change.
        let incoming = Self.sorted(new)
        if incoming.count <= Self.insertionLimit {
            for dose in incoming { doses.insert(dose, at: insertionIndex(of: dose)) }
        } else {
            doses = Self.merge(doses, incoming)
        }
    }

    /// The doses logged from twelve hours before `start` to twelve hours after `end`, as
    /// ``ProfileHealth/loggedDoses(from:to:)`` reads them.
    func doses(from start: Date, to end: Date) -> [LoggedDose] {
        let low = start.addingTimeInterval(-12 * 3600)
        let high = end.addingTimeInterval(12 * 3600)
        let first = index(of: low)
        let last = index(of: high)
        return Array(doses[first..<last])
    }

    /// Up to this many new doses are inserted one by one (each moves the doses after it); more are merged.
    private static let insertionLimit = 16

    /// Two lists in the log's order as one, in that order (a dose of `a` before an equal one of `b`).
    private static func merge(_ a: [LoggedDose], _ b: [LoggedDose]) -> [LoggedDose] {
        var merged: [LoggedDose] = []
        merged.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if order(b[j], a[i]) {
                merged.append(b[j])
                j += 1
            } else {
                merged.append(a[i])
                i += 1
            }
        }
        merged += a[i...]
        merged += b[j...]
        return merged
    }

    /// The first position whose dose comes after `dose` in the log's order.
    private func insertionIndex(of dose: LoggedDose) -> Int {
        var low = 0
        var high = doses.count
        while low < high {
            let middle = (low + high) / 2
            if Self.order(dose, doses[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The first position whose dose was logged at or after `date`.
    private func index(of date: Date) -> Int {
        var low = 0
        var high = doses.count
        while low < high {
            let middle = (low + high) / 2
            if doses[middle].date < date { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
