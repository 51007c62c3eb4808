import Foundation
import NIOCore

/// The bytes a framer parses (its connection's input, or the content of a message being sent), and the one place a
/// framer's callbacks are shown raw memory.
struct FramerBytes {
    /// The bytes not yet consumed are the readable ones.
    var buffer: ByteBuffer

    /// The number of bytes not yet consumed.
    var count: Int { buffer.readableBytes }

    /// Consumes the next `count` bytes (at most those there are) and returns them.
    mutating func take(_ count: Int) -> Data {
        let taken = min(count, buffer.readableBytes)
        let data = Data(buffer.readableBytesView.prefix(taken))
        buffer.moveReaderIndex(forwardBy: taken)
        return data
    }

    /// Shows the first `count` unconsumed bytes to `parse` (nil when `count` is 0) and returns what it answers: the
    /// number of bytes to consume.
    mutating func parse(
        count: Int, isComplete: Bool, _ parse: (UnsafeMutableRawBufferPointer?, Bool) -> Int
    ) -> Int {
        guard count > 0 else { return parse(nil, isComplete) }
        return buffer.withUnsafeMutableReadableBytes { raw in
            // Safe because: `count` is at most the readable bytes, and the window lives only for this call, as the
            // Network framework documents for the pointer it passes.
            parse(UnsafeMutableRawBufferPointer(rebasing: raw[..<count]), isComplete)
        }
    }
}
