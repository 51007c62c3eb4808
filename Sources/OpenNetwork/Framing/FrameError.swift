/// Why a frame could not be decoded. Pure Swift (no SwiftNIO) so the decoders can be fuzzed on their own;
/// connections report these as ``NWError``.
public enum FrameError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The announced value length is above the limit; nothing was allocated for it.
    case tooLarge(length: UInt64, limit: Int)
    /// The bytes are not a valid frame (the text says why).
    case malformed(String)

    /// A readable explanation.
    public var description: String {
        switch self {
        case .tooLarge(let length, let limit):
            return "message of \(length) bytes exceeds the maximum message size of \(limit) bytes"
        case .malformed(let why): return "malformed frame: \(why)"
        }
    }
}
