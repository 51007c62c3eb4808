// libFuzzer entry point for OpenNetwork's TLV and Coder decoders. Not a SwiftPM target: scripts/fuzz-smoke
// compiles it with Sources/OpenNetwork/Framing/{FrameError,FrameHeader,NetworkCoder}.swift using
// `swiftc -sanitize=fuzzer,address` and runs it bounded.
//
// Input layout: byte 0 picks the header layout (TLV widths, or Coder's 4-byte length) and how the rest is
// chunked as it is fed to the decoder (simulating partial and coalesced reads). Every decoded frame is
// checked against the bytes it came from (re-encoding it must give them back), its value must respect
// the limit, and it is decoded as a Coder message in JSON and as a property list.
import Foundation

/// The seed's Tic-Tac-Toe message, as Coder would receive it.
enum GameMessage: Codable {
    case selectedCharacter(String)
    case move(row: Int, column: Int)
}

struct Envelope: Codable {
    var text: String
    var number: Int
    var nested: [String: [Double]]?
}

let layouts: [(type: Int, length: Int)] = [(4, 4), (0, 4), (1, 1), (2, 2), (8, 8), (1, 8), (8, 1), (2, 4)]
let limit = 4096

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let layout = layouts[Int(bytes[0] & 7)]
    let chunk = Int(bytes[0] >> 3) + 1
    var decoder = FrameDecoder(typeWidth: layout.type, lengthWidth: layout.length, limit: limit)
    var position = 1  // where the next frame starts in `bytes`
    var fed = 1
    feeding: while fed < bytes.count {
        let end = min(fed + chunk, bytes.count)
        decoder.append(bytes[fed..<end])
        fed = end
        while true {
            let frame: (type: Int, value: [UInt8])?
            do { frame = try decoder.next() } catch {
                // Rejected: the header must really be invalid.
                switch error {
                case .tooLarge(let length, let max): precondition(length > UInt64(max))
                case .malformed: break
                }
                break feeding
            }
            guard let frame else { break }
            precondition(frame.value.count <= limit)
            let header = try! FrameHeader.encode(
                type: frame.type, length: frame.value.count,
                typeWidth: layout.type, lengthWidth: layout.length)
            let original = Array(bytes[position..<(position + header.count + frame.value.count)])
            precondition(original == header + frame.value, "re-encoded frame differs from its bytes")
            position += original.count
            let value = Data(frame.value)
            _ = try? NetworkJSONCoder().decode(GameMessage.self, from: value)
            _ = try? NetworkJSONCoder().decode(Envelope.self, from: value)
            _ = try? NetworkPropertyListCoder().decode(GameMessage.self, from: value)
            _ = try? NetworkPropertyListCoder().decode(Envelope.self, from: value)
        }
    }
    precondition(position + decoder.bufferedByteCount == fed || fed < bytes.count)
    return 0
}
