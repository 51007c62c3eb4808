import Foundation
import Testing

@testable import OpenHealthKit

/// A batch of pages read ahead from the daemon is cut into exactly the pages the app asks for one at a time: every
/// change once, in sequence order, each page's anchor covering what it holds.
@Suite struct ReadAheadTests {
    func sample(_ seq: Int64) -> HealthWire.Sample {
        HealthWire.Sample(
            type: HKSampleType.medicationDoseEventIdentifier, uuid: UUID(),
            start: Date(timeIntervalSinceReferenceDate: Double(seq)),
            end: Date(timeIntervalSinceReferenceDate: Double(seq)),
            metadata: nil, sourceName: "Health", sourceBundle: "com.apple.Health")
    }

    func page(after: Int64?, limit: Int) -> PageRequest {
        PageRequest(type: HKSampleType.medicationDoseEventIdentifier, predicate: nil, after: after, limit: limit)
    }

    /// The sequence numbers of a cut's added and deleted changes, and its anchor.
    func contents(_ cut: PageRequest.Cut) -> (added: [Int64], deleted: [Int64], anchor: Int64)? {
        guard case .changes(let added, let addedSequence, let deleted, let deletedSequence, let anchor) = cut.reply,
            added.count == addedSequence.count, deleted.count == deletedSequence.count
        else { return nil }
        #expect(added.map { Int64($0.start.timeIntervalSinceReferenceDate) } == addedSequence)
        return (addedSequence, deletedSequence, anchor)
    }

    @Test func aBatchIsCutIntoThePagesInSequenceOrder() throws {
        let added: [Int64] = [2, 3, 5, 8]
        let deleted: [Int64] = [4, 7]
        let reply = HealthWire.Reply.changes(
            added: added.map(sample), addedSequence: added,
            deleted: deleted.map { _ in HealthWire.Deletion(uuid: UUID(), metadata: nil) }, deletedSequence: deleted,
            newAnchor: 9)
        let cuts = try PageRequest.split(reply, of: page(after: 1, limit: 2), into: 3)
        #expect(cuts.map(\.page) == [page(after: 1, limit: 2), page(after: 3, limit: 2), page(after: 5, limit: 2)])
        #expect(cuts.map(\.full) == [true, true, true])
        #expect(cuts.map(\.next) == [page(after: 3, limit: 2), page(after: 5, limit: 2), page(after: 9, limit: 2)])
        let parts = cuts.compactMap(contents)
        #expect(parts.map(\.added) == [[2, 3], [5], [8]])
        #expect(parts.map(\.deleted) == [[], [4], [7]])
        #expect(parts.map(\.anchor) == [3, 5, 9])  // the last page takes the batch's anchor
    }

    @Test func aShortBatchEndsWithAPartPageAndAnEmptyOneIsOnePage() throws {
        let added: [Int64] = [10, 11, 12]
        let reply = HealthWire.Reply.changes(
            added: added.map(sample), addedSequence: added, deleted: [], deletedSequence: [], newAnchor: 20)
        let cuts = try PageRequest.split(reply, of: page(after: nil, limit: 2), into: 4)
        #expect(cuts.map(\.full) == [true, false])
        #expect(cuts.compactMap(contents).map(\.anchor) == [11, 20])
        let empty = try PageRequest.split(
            .changes(added: [], addedSequence: [], deleted: [], deletedSequence: [], newAnchor: 20),
            of: page(after: 20, limit: 2), into: 2)
        #expect(empty.count == 1 && empty[0].full == false && empty.compactMap(contents).first?.anchor == 20)
    }

    @Test func anAnswerThatIsNotAPageIsAnError() {
        #expect(throws: HKError.self) {
            try PageRequest.split(.counter(3), of: page(after: nil, limit: 2), into: 2)
        }
        #expect(throws: HKError.self) {
            try PageRequest.split(
                .changes(added: [sample(1)], addedSequence: [], deleted: [], deletedSequence: [], newAnchor: 1),
                of: page(after: nil, limit: 2), into: 2)
        }
        // More changes than the pages asked for hold.
        let three: [Int64] = [1, 2, 3]
        #expect(throws: HKError.self) {
            try PageRequest.split(
                .changes(
                    added: three.map(sample), addedSequence: three, deleted: [], deletedSequence: [], newAnchor: 3),
                of: page(after: nil, limit: 1), into: 2)
        }
    }
}
