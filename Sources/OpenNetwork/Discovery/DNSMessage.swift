/// A DNS message in the wire format of RFC 1035, as multicast DNS (RFC 6762) and DNS-SD (RFC 6763) use it.
///
/// Parsing never trusts the packet: every count is checked against the bytes left before anything is allocated
/// for it, a name may only point backwards to an earlier label (so compression cannot loop), a name is at most
/// 255 bytes and a packet at most ``DNSMessage/maximumSize`` bytes. A packet that breaks a rule is refused whole
/// with a ``DNSParseError`` naming the rule.
struct DNSMessage: Sendable, Equatable {
    /// The largest packet parsed or written (RFC 6762 §17: 9000 bytes for multicast DNS over Ethernet jumbo frames).
    static let maximumSize = 9000

    var id: UInt16 = 0
    /// The header's flags (QR, opcode, AA, TC, RD, RA, Z, AD, CD, RCODE).
    var flags: UInt16 = 0
    var questions: [DNSQuestion] = []
    var answers: [DNSRecord] = []
    var authorities: [DNSRecord] = []
    var additionals: [DNSRecord] = []

    /// Whether the message is a response (the QR bit).
    var isResponse: Bool {
        get { flags & 0x8000 != 0 }
        set { flags = newValue ? flags | 0x8000 : flags & ~0x8000 }
    }

    /// A multicast DNS response: QR and AA set, id 0 (RFC 6762 §18).
    static func response(answers: [DNSRecord], additionals: [DNSRecord] = []) -> DNSMessage {
        DNSMessage(id: 0, flags: 0x8400, answers: answers, additionals: additionals)
    }

    /// A multicast DNS query.
    static func query(
        _ questions: [DNSQuestion], knownAnswers: [DNSRecord] = [], authorities: [DNSRecord] = []
    ) -> DNSMessage {
        DNSMessage(id: 0, flags: 0, questions: questions, answers: knownAnswers, authorities: authorities)
    }
}

/// Why a packet was refused.
struct DNSParseError: Error, Equatable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A domain name: its labels, compared without regard to ASCII case (RFC 6762 §16).
struct DNSName: Sendable, Hashable, CustomStringConvertible {
    /// The labels, most specific first, without the root's empty label.
    let labels: [String]
    /// The labels with ASCII letters in lower case: what comparing and hashing use (computed once).
    private let folded: [String]

    /// The largest encoded name (RFC 1035 §3.1).
    static let maximumLength = 255

    init(labels: [String]) {
        self.labels = labels
        folded = labels.map(DNSName.asciiLowercased)
    }

    /// A name from its dotted form, `"_orchard._tcp.local."`. Dots inside an instance name cannot be written this
    /// way; use ``init(labels:)`` for those.
    init(_ dotted: String) {
        self.init(labels: dotted.split(separator: ".", omittingEmptySubsequences: true).map(String.init))
    }

    /// This name with `label` in front.
    func prepending(_ label: String) -> DNSName { DNSName(labels: [label] + labels) }

    /// The name without its first label.
    var parent: DNSName { DNSName(labels: Array(labels.dropFirst())) }

    /// The dotted form with a trailing dot; dots and backslashes inside labels escaped as DNS-SD shows them.
    var description: String {
        labels.map { label in
            var escaped = ""
            for c in label {
                if c == "." || c == "\\" { escaped.append("\\") }
                escaped.append(c)
            }
            return escaped
        }.joined(separator: ".") + "."
    }

    static func == (a: DNSName, b: DNSName) -> Bool { a.folded == b.folded }

    func hash(into hasher: inout Hasher) { hasher.combine(folded) }

    static func asciiLowercased(_ s: String) -> String {
        String(decoding: s.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

/// Record types this implementation reads or writes.
enum DNSType {
    static let a: UInt16 = 1
    static let ptr: UInt16 = 12
    static let txt: UInt16 = 16
    static let aaaa: UInt16 = 28
    static let srv: UInt16 = 33
    static let nsec: UInt16 = 47
    static let any: UInt16 = 255
}

/// A question: a name and a type; `unicastResponse` is the QU bit (RFC 6762 §5.4).
struct DNSQuestion: Sendable, Hashable {
    var name: DNSName
    var type: UInt16
    var unicastResponse = false

    /// Whether `record` answers this question (class IN is the only class used).
    func isAnswered(by record: DNSRecord) -> Bool {
        (type == DNSType.any || type == record.type) && name == record.name
    }
}

/// A resource record. `cacheFlush` is the top bit of the class field in multicast DNS (RFC 6762 §10.2).
struct DNSRecord: Sendable, Hashable {
    var name: DNSName
    var data: DNSRecordData
    var ttl: UInt32
    var cacheFlush = false

    var type: UInt16 { data.type }

    /// Whether `other` is the same record (name, type and data), whatever its TTL.
    func isSameRecord(as other: DNSRecord) -> Bool { name == other.name && data == other.data }
}

/// The data of a resource record.
enum DNSRecordData: Sendable, Hashable {
    case a([UInt8])
    case aaaa([UInt8])
    case ptr(DNSName)
    case srv(priority: UInt16, weight: UInt16, port: UInt16, target: DNSName)
    case txt([[UInt8]])
    case nsec(next: DNSName, types: [UInt16])
    case other(type: UInt16, bytes: [UInt8])

    var type: UInt16 {
        switch self {
        case .a: return DNSType.a
        case .aaaa: return DNSType.aaaa
        case .ptr: return DNSType.ptr
        case .srv: return DNSType.srv
        case .txt: return DNSType.txt
        case .nsec: return DNSType.nsec
        case .other(let type, _): return type
        }
    }
}

// MARK: - Parsing

extension DNSMessage {
    /// Parses a packet; throws naming the first rule it breaks.
    init(parsing bytes: [UInt8]) throws(DNSParseError) {
        guard bytes.count <= DNSMessage.maximumSize else {
            throw DNSParseError("packet of \(bytes.count) bytes is over the \(DNSMessage.maximumSize)-byte limit")
        }
        var reader = DNSReader(bytes: bytes)
        id = try reader.u16("header")
        flags = try reader.u16("header")
        let counts = [
            try reader.u16("header"), try reader.u16("header"), try reader.u16("header"), try reader.u16("header"),
        ]
        // A question takes at least 5 bytes and a record at least 11: counts the packet cannot hold are refused
        // before anything is reserved for them.
        let least = Int(counts[0]) * 5 + Int(counts[1]) * 11 + Int(counts[2]) * 11 + Int(counts[3]) * 11
        guard least <= reader.remaining else {
            throw DNSParseError(
                "header counts \(counts) need at least \(least) bytes; the packet has \(reader.remaining) after its header"
            )
        }
        questions = []
        for _ in 0..<counts[0] {
            let name = try reader.readName()
            let type = try reader.u16("question")
            let klass = try reader.u16("question")
            questions.append(DNSQuestion(name: name, type: type, unicastResponse: klass & 0x8000 != 0))
        }
        answers = try (0..<counts[1]).map { _ throws(DNSParseError) in try reader.record() }
        authorities = try (0..<counts[2]).map { _ throws(DNSParseError) in try reader.record() }
        additionals = try (0..<counts[3]).map { _ throws(DNSParseError) in try reader.record() }
    }
}

/// Reads the wire format from a packet's bytes.
private struct DNSReader {
    let bytes: [UInt8]
    var offset = 0

    var remaining: Int { bytes.count - offset }

    mutating func u8(_ what: String) throws(DNSParseError) -> UInt8 {
        guard offset < bytes.count else { throw DNSParseError("\(what) truncated at byte \(offset)") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16(_ what: String) throws(DNSParseError) -> UInt16 {
        guard offset + 2 <= bytes.count else { throw DNSParseError("\(what) truncated at byte \(offset)") }
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func u32(_ what: String) throws(DNSParseError) -> UInt32 {
        UInt32(try u16(what)) << 16 | UInt32(try u16(what))
    }

    mutating func take(_ count: Int, _ what: String) throws(DNSParseError) -> [UInt8] {
        guard count <= remaining else { throw DNSParseError("\(what) of \(count) bytes truncated at byte \(offset)") }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// A name, following compression pointers. A pointer must point before the start of the name being read
    /// (or of the label sequence it jumped from), so every jump goes strictly backwards and the walk ends.
    mutating func readName() throws(DNSParseError) -> DNSName {
        var labels: [String] = []
        var length = 1
        var position = offset
        var limit = offset  // a pointer must go below this
        var jumped = false
        while true {
            guard position < bytes.count else { throw DNSParseError("name truncated at byte \(position)") }
            let byte = bytes[position]
            switch byte & 0xC0 {
            case 0x00:
                if byte == 0 {
                    if !jumped { offset = position + 1 }
                    return DNSName(labels: labels)
                }
                let count = Int(byte)
                guard position + 1 + count <= bytes.count else {
                    throw DNSParseError("label of \(count) bytes truncated at byte \(position)")
                }
                length += count + 1
                guard length <= DNSName.maximumLength else {
                    throw DNSParseError("name longer than \(DNSName.maximumLength) bytes at byte \(position)")
                }
                labels.append(String(decoding: bytes[position + 1..<position + 1 + count], as: UTF8.self))
                position += 1 + count
            case 0xC0:
                guard position + 1 < bytes.count else {
                    throw DNSParseError("name pointer truncated at byte \(position)")
                }
                let target = Int(byte & 0x3F) << 8 | Int(bytes[position + 1])
                guard target < limit else {
                    throw DNSParseError("name pointer at byte \(position) to \(target) does not point backwards")
                }
                if !jumped { offset = position + 2 }
                jumped = true
                limit = target
                position = target
            default:
                throw DNSParseError("label type \(byte >> 6) at byte \(position) is not supported")
            }
        }
    }

    mutating func record() throws(DNSParseError) -> DNSRecord {
        let name = try readName()
        let type = try u16("record header")
        let klass = try u16("record header")
        let ttl = try u32("record header")
        let length = Int(try u16("record header"))
        guard length <= remaining else {
            throw DNSParseError("record data of \(length) bytes truncated at byte \(offset)")
        }
        let end = offset + length
        let data: DNSRecordData
        switch type {
        case DNSType.a where length == 4: data = .a(try take(4, "A record"))
        case DNSType.aaaa where length == 16: data = .aaaa(try take(16, "AAAA record"))
        case DNSType.ptr: data = .ptr(try readName())
        case DNSType.srv:
            let priority = try u16("SRV record")
            let weight = try u16("SRV record")
            let port = try u16("SRV record")
            data = .srv(priority: priority, weight: weight, port: port, target: try readName())
        case DNSType.txt:
            var strings: [[UInt8]] = []
            while offset < end {
                let count = Int(try u8("TXT record"))
                guard offset + count <= end else {
                    throw DNSParseError("TXT string overruns its record at byte \(offset)")
                }
                strings.append(try take(count, "TXT string"))
            }
            data = .txt(strings)
        case DNSType.nsec:
            let next = try readName()
            var types: [UInt16] = []
            while offset < end {
                let window = Int(try u8("NSEC bitmap"))
                let count = Int(try u8("NSEC bitmap"))
                guard count >= 1, count <= 32, offset + count <= end else {
                    throw DNSParseError("NSEC bitmap of \(count) bytes is malformed at byte \(offset)")
                }
                for (i, byte) in try take(count, "NSEC bitmap").enumerated() {
                    for bit in 0..<8 where byte & (0x80 >> bit) != 0 {
                        types.append(UInt16(window * 256 + i * 8 + bit))
                    }
                }
            }
            data = .nsec(next: next, types: types)
        default: data = .other(type: type, bytes: try take(length, "record data"))
        }
        guard offset == end else {
            throw DNSParseError(
                "record data of type \(type) is \(length) bytes but its content took \(offset - end + length)")
        }
        return DNSRecord(name: name, data: data, ttl: ttl, cacheFlush: klass & 0x8000 != 0)
    }
}

// MARK: - Writing

extension DNSMessage {
    /// The packet's bytes, names compressed (RFC 1035 §4.1.4).
    func serialized() -> [UInt8] {
        var writer = DNSWriter()
        writer.u16(id)
        writer.u16(flags)
        for count in [questions.count, answers.count, authorities.count, additionals.count] {
            writer.u16(UInt16(count))
        }
        for q in questions {
            writer.name(q.name)
            writer.u16(q.type)
            writer.u16(q.unicastResponse ? 0x8001 : 1)
        }
        for r in answers + authorities + additionals { writer.record(r) }
        return writer.bytes
    }
}

extension DNSMessage {
    /// The largest packet sent: an Ethernet MTU's payload, so that no packet is fragmented (RFC 6762 §17).
    static let packetSize = 1440

    /// The message as packets of at most `maximumSize` bytes: records fill each packet in order (answers, then
    /// authorities, then additional records) and go on in the next. A query split this way has the TC bit on every
    /// packet but the last, which tells responders that more known answers follow (RFC 6762 §7.2). A single record
    /// larger than the limit gets a packet of its own.
    func packets(maximumSize: Int = DNSMessage.packetSize) -> [[UInt8]] {
        let whole = serialized()
        if whole.count <= maximumSize { return [whole] }
        var packets: [DNSMessage] = []
        var current = DNSMessage(id: id, flags: flags, questions: questions)
        var currentSize = current.serialized().count
        let sections: [(WritableKeyPath<DNSMessage, [DNSRecord]>, [DNSRecord])] = [
            (\.answers, answers), (\.authorities, authorities), (\.additionals, additionals),
        ]
        for (section, records) in sections {
            for record in records {
                var trial = current
                trial[keyPath: section].append(record)
                let size = trial.serialized().count
                let empty = current.answers.isEmpty && current.authorities.isEmpty && current.additionals.isEmpty
                if size <= maximumSize || (empty && currentSize == 12) {
                    current = trial
                    currentSize = size
                } else {
                    packets.append(current)
                    current = DNSMessage(id: id, flags: flags)
                    current[keyPath: section].append(record)
                    currentSize = current.serialized().count
                }
            }
        }
        packets.append(current)
        if !isResponse {
            for i in packets.indices.dropLast() { packets[i].flags |= 0x0200 }
        }
        return packets.map { $0.serialized() }
    }
}

private struct DNSWriter {
    var bytes: [UInt8] = []
    /// Where each written suffix of a name starts, for compression.
    var offsets: [DNSName: Int] = [:]

    mutating func u16(_ v: UInt16) { bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
    mutating func u32(_ v: UInt32) {
        u16(UInt16(v >> 16))
        u16(UInt16(v & 0xFFFF))
    }

    mutating func name(_ name: DNSName) {
        var rest = name
        while !rest.labels.isEmpty {
            if let at = offsets[rest], at < 0x4000 {
                u16(0xC000 | UInt16(at))
                return
            }
            if bytes.count < 0x4000 { offsets[rest] = bytes.count }
            let label = Array(rest.labels[0].utf8.prefix(63))
            bytes.append(UInt8(label.count))
            bytes += label
            rest = rest.parent
        }
        bytes.append(0)
    }

    mutating func record(_ r: DNSRecord) {
        name(r.name)
        u16(r.type)
        u16(r.cacheFlush ? 0x8001 : 1)
        u32(r.ttl)
        let lengthAt = bytes.count
        u16(0)
        switch r.data {
        case .a(let b), .aaaa(let b): bytes += b
        case .ptr(let target): name(target)
        case .srv(let priority, let weight, let port, let target):
            u16(priority)
            u16(weight)
            u16(port)
            // RFC 6762 §18.14: names in SRV data may be compressed in multicast DNS.
            name(target)
        case .txt(let strings):
            if strings.isEmpty { bytes.append(0) }  // RFC 6763 §6.1: an empty TXT record holds one empty string
            for s in strings {
                let s = s.prefix(255)
                bytes.append(UInt8(s.count))
                bytes += s
            }
        case .nsec(let next, let types):
            // The next-domain name of an NSEC record is never compressed (RFC 6762 §18.14 allows it; avahi
            // writes it whole, as RFC 4034 asks).
            var plain = DNSWriter()
            plain.name(next)
            bytes += plain.bytes
            var windows: [Int: [UInt8]] = [:]
            for t in types {
                let w = Int(t) / 256
                let bit = Int(t) % 256
                var map = windows[w] ?? []
                while map.count <= bit / 8 { map.append(0) }
                map[bit / 8] |= 0x80 >> UInt8(bit % 8)
                windows[w] = map
            }
            for (w, map) in windows.sorted(by: { $0.key < $1.key }) {
                bytes.append(UInt8(w))
                bytes.append(UInt8(map.count))
                bytes += map
            }
        case .other(_, let b): bytes += b
        }
        let length = bytes.count - lengthAt - 2
        bytes[lengthAt] = UInt8(length >> 8)
        bytes[lengthAt + 1] = UInt8(length & 0xFF)
    }
}
