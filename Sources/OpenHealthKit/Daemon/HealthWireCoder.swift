import OpenCoreData
import OpenNetwork

/// The daemon's message format: JSON, except the replies that carry samples (`.samples`, `.changes`), which go as
/// a compact binary record per sample (JSON spent most of a history read's time on them). A binary message starts
/// with the byte 0x01; anything else is JSON (which starts with `{`), so requests stay readable JSON.
///
/// Decoding checks every length against what is left, so a malformed message is an error, never a crash.
struct HealthWireCoder: NetworkCoder {
    static let binaryTag: UInt8 = 0x01

    func encode<T: Encodable>(_ value: T) throws -> Data {
        if let response = value as? HealthWire.Response {
            var writer = BinaryWriter()
            switch response.reply {
            case .samples(let samples):
                writer.header(id: response.id, kind: 1)
                writer.samples(samples)
                return Data(writer.bytes)
            case .changes(let added, let addedSequence, let deleted, let deletedSequence, let newAnchor):
                writer.header(id: response.id, kind: 2)
                writer.samples(added)
                writer.integers(addedSequence)
                writer.count(deleted.count)
                for deletion in deleted {
                    writer.uuid(deletion.uuid)
                    writer.data(deletion.metadata)
                }
                writer.integers(deletedSequence)
                writer.integer(newAnchor)
                return Data(writer.bytes)
            default: break
            }
        }
        return try JSONEncoder().encode(value)
    }

    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        guard data.first == Self.binaryTag else { return try JSONDecoder().decode(type, from: data) }
        var reader = BinaryReader(bytes: [UInt8](data.dropFirst()))
        let id = UInt64(bitPattern: try reader.integer())
        let reply: HealthWire.Reply
        switch try reader.byte() {
        case 1: reply = .samples(try reader.samples())
        case 2:
            let added = try reader.samples()
            let addedSequence = try reader.integers()
            var deleted: [HealthWire.Deletion] = []
            for _ in 0..<(try reader.count()) {
                deleted.append(HealthWire.Deletion(uuid: try reader.uuid(), metadata: try reader.data()))
            }
            let deletedSequence = try reader.integers()
            reply = .changes(
                added: added, addedSequence: addedSequence, deleted: deleted, deletedSequence: deletedSequence,
                newAnchor: try reader.integer())
        case let kind: throw HKError(.errorDatabaseInaccessible, "unknown binary message kind \(kind)")
        }
        guard let value = HealthWire.Response(id: id, reply: reply) as? T else {
            throw HKError(.errorDatabaseInaccessible, "a binary message where \(T.self) was expected")
        }
        return value
    }
}

/// Appends values in the binary format: integers and doubles as 8 bytes little-endian, strings and data as a
/// 4-byte length then the bytes (length 0xFFFFFFFF: nil).
struct BinaryWriter {
    var bytes: [UInt8] = []

    mutating func header(id: UInt64, kind: UInt8) {
        bytes.reserveCapacity(4096)
        bytes.append(HealthWireCoder.binaryTag)
        integer(Int64(bitPattern: id))
        bytes.append(kind)
    }

    mutating func word(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
    mutating func integer(_ value: Int64) { word(UInt64(bitPattern: value)) }
    mutating func double(_ value: Double) { word(value.bitPattern) }
    mutating func count(_ value: Int) { length(UInt32(value)) }
    mutating func length(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
    mutating func string(_ value: String?) {
        guard let value else { return length(.max) }
        let utf8 = value.utf8
        length(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }
    mutating func data(_ value: Data?) {
        guard let value else { return length(.max) }
        length(UInt32(value.count))
        bytes.append(contentsOf: value)
    }
    mutating func optionalDouble(_ value: Double?) {
        bytes.append(value == nil ? 0 : 1)
        if let value { double(value) }
    }
    mutating func optionalInteger(_ value: Int?) {
        bytes.append(value == nil ? 0 : 1)
        if let value { integer(Int64(value)) }
    }
    mutating func uuid(_ value: UUID) {
        let u = value.uuid
        bytes.append(contentsOf: [
            u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15,
        ])
    }
    mutating func integers(_ values: [Int64]) {
        count(values.count)
        for value in values { integer(value) }
    }
    mutating func samples(_ samples: [HealthWire.Sample]) {
        count(samples.count)
        for sample in samples {
            string(sample.type)
            uuid(sample.uuid)
            double(sample.start.timeIntervalSinceReferenceDate)
            double(sample.end.timeIntervalSinceReferenceDate)
            data(sample.metadata)
            string(sample.sourceName)
            string(sample.sourceBundle)
            optionalInteger(sample.value)
            string(sample.concept)
            optionalInteger(sample.logStatus)
            optionalDouble(sample.scheduledDate?.timeIntervalSinceReferenceDate)
            optionalDouble(sample.scheduledDose)
            optionalDouble(sample.dose)
            string(sample.unit)
        }
    }
}

/// Reads the binary format, checking each length against the bytes left.
struct BinaryReader {
    let bytes: [UInt8]
    var offset = 0
    /// The strings read last, by the bytes they came from: a history repeats its types, sources, concepts and units
    /// row after row, and comparing bytes costs less than making the string again.
    private var recent: [(bytes: ArraySlice<UInt8>, string: String)] = []

    init(bytes: [UInt8]) { self.bytes = bytes }

    static func truncated() -> HKError {
        HKError(.errorDatabaseInaccessible, "the health daemon sent a truncated or malformed binary message")
    }

    mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else { throw Self.truncated() }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }
    mutating func byte() throws -> UInt8 { try take(1).first! }
    mutating func word() throws -> UInt64 {
        var value: UInt64 = 0
        for (index, byte) in try take(8).enumerated() { value |= UInt64(byte) << UInt64(index * 8) }
        return value
    }
    mutating func integer() throws -> Int64 { Int64(bitPattern: try word()) }
    mutating func double() throws -> Double { Double(bitPattern: try word()) }
    mutating func length() throws -> UInt32 {
        var value: UInt32 = 0
        for (index, byte) in try take(4).enumerated() { value |= UInt32(byte) << UInt32(index * 8) }
        return value
    }
    mutating func count() throws -> Int {
        let value = Int(try length())
        // Every element takes at least a byte: a count beyond what is left is malformed (and no loop runs long).
        guard value <= bytes.count - offset else { throw Self.truncated() }
        return value
    }
    mutating func string() throws -> String? {
        let size = try length()
        if size == .max { return nil }
        let slice = try take(Int(size))
        if let known = recent.first(where: { $0.bytes == slice }) { return known.string }
        let string = String(decoding: slice, as: UTF8.self)
        if recent.count < 8 { recent.append((slice, string)) }
        return string
    }
    mutating func requiredString() throws -> String {
        guard let value = try string() else { throw Self.truncated() }
        return value
    }
    mutating func data() throws -> Data? {
        let size = try length()
        if size == .max { return nil }
        return Data(try take(Int(size)))
    }
    mutating func optionalDouble() throws -> Double? { try byte() == 0 ? nil : try double() }
    mutating func optionalInteger() throws -> Int? { try byte() == 0 ? nil : Int(truncatingIfNeeded: try integer()) }
    mutating func uuid() throws -> UUID {
        let b = Array(try take(16))
        return UUID(
            uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
        )
    }
    mutating func integers() throws -> [Int64] {
        var values: [Int64] = []
        for _ in 0..<(try count()) { values.append(try integer()) }
        return values
    }
    mutating func samples() throws -> [HealthWire.Sample] {
        var samples: [HealthWire.Sample] = []
        let total = try count()
        samples.reserveCapacity(total)
        for _ in 0..<total {
            var sample = HealthWire.Sample(
                type: try requiredString(), uuid: try uuid(),
                start: Date(timeIntervalSinceReferenceDate: try double()),
                end: Date(timeIntervalSinceReferenceDate: try double()), metadata: try data(),
                sourceName: try requiredString(), sourceBundle: try requiredString())
            sample.value = try optionalInteger()
            sample.concept = try string()
            sample.logStatus = try optionalInteger()
            sample.scheduledDate = try optionalDouble().map(Date.init(timeIntervalSinceReferenceDate:))
            sample.scheduledDose = try optionalDouble()
            sample.dose = try optionalDouble()
            sample.unit = try string()
            samples.append(sample)
        }
        return samples
    }
}
