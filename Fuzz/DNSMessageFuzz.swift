// libFuzzer entry point for the multicast DNS packet parser. Not a SwiftPM target: scripts/fuzz-smoke compiles it
// with Sources/OpenNetwork/Discovery/DNSMessage.swift using `swiftc -sanitize=fuzzer,address` and runs it bounded.
//
// Every input is parsed as a packet off the network would be. A packet that parses is written back out and parsed
// again: writing must not crash, and the second parse either succeeds with the same records or refuses the packet
// with an error (a label that was not UTF-8 may grow past the limits once its bytes are replaced). Compression
// loops, truncated records and huge counts must end in a DNSParseError, never a crash, a hang or a large allocation
// (libFuzzer's -rss_limit_mb and -timeout police those).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Safe because: libFuzzer hands `size` readable bytes at `data` for the duration of this call; they are copied.
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let message = try? DNSMessage(parsing: bytes) else { return 0 }  // `try?`: a refusal is a valid outcome
    let written = message.serialized()
    if let again = try? DNSMessage(parsing: written) {  // `try?`: as above
        if again.questions.count != message.questions.count || again.answers.count != message.answers.count
            || again.authorities.count != message.authorities.count
            || again.additionals.count != message.additionals.count
        {
            fatalError("a written packet parsed back with other counts")
        }
    }
    return 0
}
