/// Parses and encodes frame headers (TLV type + length, Coder length): unsigned big-endian integers.
/// Pure Swift (no SwiftNIO): used by connections and by the fuzz target (scripts/fuzz-smoke).
public enum FrameHeader {
    /// The result of looking at the start of a byte buffer.
    public enum Parse: Equatable, Sendable {
        /// Not enough bytes yet for the header: this many more are needed.
        case needMoreHeader(Int)
        /// A header: its type (0 for Coder), the value length and the header size.
        case header(type: UInt64, length: Int, headerSize: Int)
    }

    /// Reads a big-endian unsigned integer of `width` bytes (1...8).
    @inlinable
    static func readBE<C: Collection>(_ bytes: C, width: Int) -> UInt64 where C.Element == UInt8 {
        var v: UInt64 = 0
        for b in bytes.prefix(width) { v = (v << 8) | UInt64(b) }
        return v
    }

    /// Parses a header with the given field widths (type width 0 means no type field), enforcing `limit`
    /// on the value length before anything is allocated for it.
    public static func parse<C: Collection>(
        _ bytes: C, typeWidth: Int, lengthWidth: Int, limit: Int
    ) throws(FrameError) -> Parse
    where C.Element == UInt8 {
        guard (0...8).contains(typeWidth), (1...8).contains(lengthWidth) else {
            throw .malformed("unsupported field widths \(typeWidth)/\(lengthWidth)")
        }
        let headerSize = typeWidth + lengthWidth
        let count = bytes.count
        guard count >= headerSize else { return .needMoreHeader(headerSize - count) }
        let type = typeWidth == 0 ? 0 : readBE(bytes, width: typeWidth)
        let length = readBE(bytes.dropFirst(typeWidth), width: lengthWidth)
        guard length <= UInt64(max(limit, 0)) else { throw .tooLarge(length: length, limit: limit) }
        guard type <= UInt64(Int.max) else { throw .malformed("type \(type) does not fit in Int") }
        return .header(type: type, length: Int(length), headerSize: headerSize)
    }

    /// Checks that a type and length fit their fields.
    public static func validate(type: Int, length: Int, typeWidth: Int, lengthWidth: Int) throws(FrameError) {
        if typeWidth > 0 {
            guard type >= 0, typeWidth >= 8 || UInt64(type) < (UInt64(1) << (8 * typeWidth)) else {
                throw .malformed("type \(type) does not fit in \(typeWidth) byte(s)")
            }
        }
        guard length >= 0, lengthWidth >= 8 || UInt64(length) < (UInt64(1) << (8 * lengthWidth)) else {
            throw .tooLarge(
                length: UInt64(max(length, 0)),
                limit: lengthWidth >= 8 ? Int.max : Int((UInt64(1) << (8 * lengthWidth)) - 1))
        }
    }

    /// Encodes a header: type (if typeWidth > 0) and length, big-endian.
    public static func encode(type: Int, length: Int, typeWidth: Int, lengthWidth: Int) throws(FrameError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(typeWidth + lengthWidth)
        try encode(type: type, length: length, typeWidth: typeWidth, lengthWidth: lengthWidth) { out.append($0) }
        return out
    }

    /// Encodes a header byte by byte into `sink` (no intermediate allocation).
    public static func encode(
        type: Int, length: Int, typeWidth: Int, lengthWidth: Int,
        into sink: (UInt8) -> Void
    ) throws(FrameError) {
        try validate(type: type, length: length, typeWidth: typeWidth, lengthWidth: lengthWidth)
        var i = typeWidth - 1
        while i >= 0 {
            sink(UInt8(truncatingIfNeeded: UInt64(type) >> (8 * i)))
            i -= 1
        }
        i = lengthWidth - 1
        while i >= 0 {
            sink(UInt8(truncatingIfNeeded: UInt64(length) >> (8 * i)))
            i -= 1
        }
    }
}

/// Splits a byte stream into frames, however the bytes arrive (one at a time or many frames at once).
/// Pure Swift: the fuzz target drives it directly with arbitrary bytes.
public struct FrameDecoder: Sendable {
    /// Bytes of the type field (0: no type, as in Coder framing).
    public let typeWidth: Int
    /// Bytes of the length field.
    public let lengthWidth: Int
    /// The largest accepted value length.
    public let limit: Int
    private var pending: [UInt8] = []
    private var start = 0

    /// A decoder for the given header layout and limit.
    public init(typeWidth: Int, lengthWidth: Int, limit: Int) {
        self.typeWidth = typeWidth
        self.lengthWidth = lengthWidth
        self.limit = limit
    }

    /// Adds received bytes.
    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if start > 0 && start >= pending.count / 2 {
            pending.removeFirst(start)
            start = 0
        }
        pending.append(contentsOf: bytes)
    }

    /// The next complete frame, or nil when more bytes are needed. Throws when the header is invalid
    /// or announces a value above the limit (before anything is allocated for the value).
    public mutating func next() throws(FrameError) -> (type: Int, value: [UInt8])? {
        let available = pending[start...]
        guard
            case .header(let type, let length, let headerSize) = try FrameHeader.parse(
                available, typeWidth: typeWidth, lengthWidth: lengthWidth, limit: limit)
        else { return nil }
        guard available.count - headerSize >= length else { return nil }
        let valueStart = start + headerSize
        let value = Array(pending[valueStart..<(valueStart + length)])
        start = valueStart + length
        return (Int(type), value)
    }

    /// Bytes received but not yet returned as frames.
    public var bufferedByteCount: Int { pending.count - start }
}
