import OpenCoreData

/// An opaque position in the store's history: anchored queries return samples added and objects
/// deleted after it. Anchors can be archived (`Codable`, or `data`/`init(data:)`) and survive restarts.
public final class HKQueryAnchor: NSObject, Codable, Sendable {
    /// The store's change sequence number the anchor stands for (internal: anchors are opaque).
    let sequence: Int64

    init(sequence: Int64) {
        self.sequence = sequence
        super.init()
    }

    /// Creates an anchor from a value returned by a previous query (HealthKit's `HKQueryAnchor(fromValue:)`).
    public convenience init(fromValue value: Int) {
        self.init(sequence: Int64(value))
    }

    private static let magic = Data("HKQA1".utf8)

    /// The archived form of the anchor.
    public var data: Data {
        var data = HKQueryAnchor.magic
        withUnsafeBytes(of: sequence.bigEndian) { data.append(contentsOf: $0) }
        return data
    }

    /// Restores an anchor archived with `data`; throws `HKError.invalidArgument` for anything else.
    public convenience init(data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count == HKQueryAnchor.magic.count + 8, Data(bytes.prefix(5)) == HKQueryAnchor.magic else {
            throw HKError(.errorInvalidArgument, "HKQueryAnchor(data:): \(data.count) bytes are not an archived anchor")
        }
        let value = bytes.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        self.init(sequence: Int64(bitPattern: value))
    }

    /// Decodes an archived anchor.
    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        try self.init(data: try container.decode(Data.self))
    }

    /// Encodes the anchor as its archived data.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(data)
    }

    /// Anchors are equal when they stand for the same position.
    public override func isEqual(_ object: Any?) -> Bool { (object as? HKQueryAnchor)?.sequence == sequence }
    /// A hash of the position.
    public override var hash: Int { sequence.hashValue }
}
