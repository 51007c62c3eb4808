import Testing

@testable import OpenHealthKit

/// The daemon's binary replies: every field survives the trip, and malformed bytes are an error, never a crash.
@Suite struct HealthWireCoderTests {
    func sample(_ index: Int, dose: Bool) -> HealthWire.Sample {
        var sample = HealthWire.Sample(
            type: dose ? HKSampleType.medicationDoseEventIdentifier : "HKCategoryTypeIdentifierHeadache", uuid: UUID(),
            start: Date(timeIntervalSinceReferenceDate: 800_000_000.125 + Double(index)),
            end: Date(timeIntervalSinceReferenceDate: 800_000_001.5 + Double(index)),
            metadata: index % 2 == 0 ? Data([1, 2, 3]) : nil, sourceName: "Health ✓", sourceBundle: "com.apple.Health")
        if dose {
            sample.concept = "rxnorm:313782"
            sample.logStatus = 4
            sample.scheduledDate = index % 3 == 0 ? nil : Date(timeIntervalSinceReferenceDate: 799_999_000)
            sample.scheduledDose = 1.5
            sample.dose = index % 2 == 0 ? nil : 0.25
            sample.unit = "mg"
        } else {
            sample.value = 3
        }
        return sample
    }

    @Test func samplesAndChangesRoundTrip() throws {
        let coder = HealthWireCoder()
        let samples = (0..<7).map { sample($0, dose: $0 % 4 != 0) }
        let changes = HealthWire.Response(
            id: 42,
            reply: .changes(
                added: samples, addedSequence: (0..<7).map { Int64($0) * 3 },
                deleted: [
                    HealthWire.Deletion(uuid: UUID(), metadata: nil),
                    HealthWire.Deletion(uuid: UUID(), metadata: Data([9])),
                ],
                deletedSequence: [100, 101], newAnchor: 102))
        let bytes = try coder.encode(changes)
        #expect(bytes.first == HealthWireCoder.binaryTag)
        let decoded = try coder.decode(HealthWire.Response.self, from: bytes)
        #expect(decoded.id == 42)
        guard case .changes(let added, let addedSequence, let deleted, let deletedSequence, let anchor) = decoded.reply
        else {
            Issue.record("not changes: \(decoded.reply)")
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for (got, sent) in zip(added, samples) {
            let a = String(decoding: try encoder.encode(got), as: UTF8.self)
            let b = String(decoding: try encoder.encode(sent), as: UTF8.self)
            #expect(a == b)
        }
        #expect(added.count == samples.count)
        #expect(addedSequence == [0, 3, 6, 9, 12, 15, 18] && deletedSequence == [100, 101] && anchor == 102)
        #expect(deleted.map(\.metadata) == [nil, Data([9])])
        // Other replies stay JSON.
        let welcome = try coder.encode(HealthWire.Response(id: 1, reply: .counter(5)))
        #expect(welcome.first == UInt8(ascii: "{"))
    }

    @Test func malformedBinaryIsAnErrorNamingIt() throws {
        let coder = HealthWireCoder()
        let bytes = try coder.encode(
            HealthWire.Response(id: 7, reply: .samples((0..<3).map { sample($0, dose: true) })))
        for cut in [1, 5, 10, 40, bytes.count / 2, bytes.count - 1] {
            #expect(throws: HKError.self) { try coder.decode(HealthWire.Response.self, from: bytes.prefix(cut)) }
        }
        // A count far beyond the message's size fails at once rather than looping.
        var huge = Array(bytes.prefix(10))
        huge += [0xff, 0xff, 0xff, 0x7f]
        #expect(throws: HKError.self) { try coder.decode(HealthWire.Response.self, from: Data(huge)) }
    }
}
