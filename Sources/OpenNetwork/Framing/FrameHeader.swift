/// Parses frame headers (TLV type+length, Coder length) from raw bytes; used by connections and fuzzing.
public enum FrameHeader {
    /// The result of looking at the start of a byte buffer.
    public enum Parse: Equatable, Sendable {
        /// Not enough bytes yet for the header.
        case needMoreHeader(Int)
        /// A header: its type (0 for Coder), the value length and the header size.
        case header(type: UInt64, length: Int, headerSize: Int)
    }

    /// Reads a big-endian unsigned integer of `width` bytes (1...8).
    static func readBE<C: Collection>(_ bytes: C, width: Int) -> UInt64 where C.Element == UInt8 {
        var v: UInt64 = 0
        for b in bytes.prefix(width) { v = (v << 8) | UInt64(b) }
        return v
    }

    /// Parses a header with the given field widths (type width 0 means no type field), enforcing `limit`.
    public static func parse<C: Collection>(_ bytes: C, typeWidth: Int, lengthWidth: Int, limit: Int) throws -> Parse
    where C.Element == UInt8 {
        let headerSize = typeWidth + lengthWidth
        guard (0...8).contains(typeWidth), (1...8).contains(lengthWidth) else {
            throw NWError.malformedMessage("unsupported field widths \(typeWidth)/\(lengthWidth)")
        }
        guard bytes.count >= headerSize else { return .needMoreHeader(headerSize - bytes.count) }
        let type = typeWidth == 0 ? 0 : readBE(bytes, width: typeWidth)
        let length = readBE(bytes.dropFirst(typeWidth), width: lengthWidth)
        guard length <= UInt64(limit) else { throw NWError.messageTooLarge(length: length, limit: limit) }
        if typeWidth == 8 && type > UInt64(Int.max) {
            throw NWError.malformedMessage("type \(type) does not fit in Int")
        }
        return .header(type: type, length: Int(length), headerSize: headerSize)
    }

    /// Encodes a header: type (if typeWidth > 0) and length, big-endian.
    public static func encode(type: Int, length: Int, typeWidth: Int, lengthWidth: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(typeWidth + lengthWidth)
        if typeWidth > 0 {
            guard type >= 0, typeWidth == 8 || UInt64(type) < (UInt64(1) << (8 * typeWidth)) else {
                throw NWError.malformedMessage("type \(type) does not fit in \(typeWidth) bytes")
            }
            for i in stride(from: typeWidth - 1, through: 0, by: -1) { out.append(UInt8(truncatingIfNeeded: UInt64(type) >> (8 * i))) }
        }
        guard lengthWidth == 8 || UInt64(length) < (UInt64(1) << (8 * lengthWidth)) else {
            throw NWError.messageTooLarge(length: UInt64(length), limit: Int((UInt64(1) << (8 * lengthWidth)) - 1))
        }
        for i in stride(from: lengthWidth - 1, through: 0, by: -1) { out.append(UInt8(truncatingIfNeeded: UInt64(length) >> (8 * i))) }
        return out
    }
}
