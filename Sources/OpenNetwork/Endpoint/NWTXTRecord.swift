import Foundation

/// A Bonjour TXT record: key/value pairs a service advertises beside its name (RFC 6763 §6).
///
/// Keys compare without regard to ASCII case and are at most 255 bytes with their value; a key without `=` is a
/// boolean attribute (``Entry/none``), `key=` has an empty value (``Entry/empty``).
public struct NWTXTRecord: Sendable, Hashable, CustomStringConvertible {
    /// A key's value.
    public enum Entry: Sendable, Hashable {
        /// The key is present without a value (`key`).
        case none
        /// The key has an empty value (`key=`).
        case empty
        /// The key has a UTF-8 value.
        case string(String)
        /// The key has a value that is not UTF-8.
        case data(Data)
    }

    private var entries: [(key: String, entry: Entry)] = []

    /// A record holding the dictionary's keys and values.
    public init(_ dictionary: [String: String] = [:]) {
        for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) { _ = setEntry(.string(value), for: key) }
    }

    /// A record from its wire form: length-prefixed strings. Returns nil when a length runs past the end.
    public init?(_ txtRecord: Data) {
        var bytes = [UInt8](txtRecord)[...]
        var strings: [[UInt8]] = []
        while let count = bytes.first {
            bytes = bytes.dropFirst()
            guard bytes.count >= Int(count) else { return nil }
            strings.append(Array(bytes.prefix(Int(count))))
            bytes = bytes.dropFirst(Int(count))
        }
        self.init(strings: strings)
    }

    init(strings: [[UInt8]]) {
        for s in strings where !s.isEmpty {
            let key: [UInt8]
            let entry: Entry
            if let eq = s.firstIndex(of: UInt8(ascii: "=")) {
                key = Array(s[..<eq])
                let value = Array(s[(eq + 1)...])
                if value.isEmpty {
                    entry = .empty
                } else if let text = String(validating: value, as: UTF8.self) {
                    entry = .string(text)
                } else {
                    entry = .data(Data(value))
                }
            } else {
                key = s
                entry = .none
            }
            let name = String(decoding: key, as: UTF8.self)
            // RFC 6763 §6.4: only the first occurrence of a key counts.
            if !name.isEmpty && getEntry(for: name) == nil { entries.append((name, entry)) }
        }
    }

    /// The keys with string values (other entries give an empty string).
    public var dictionary: [String: String] {
        var d: [String: String] = [:]
        for (key, entry) in entries {
            if case .string(let s) = entry { d[key] = s } else { d[key] = "" }
        }
        return d
    }

    /// The number of keys.
    public var count: Int { entries.count }

    /// Whether the record has no keys.
    public var isEmpty: Bool { entries.isEmpty }

    /// A key's string value; setting nil removes the key.
    public subscript(key: String) -> String? {
        get {
            switch getEntry(for: key) {
            case .some(.string(let s)): return s
            case .some(.empty), .some(.none): return ""
            case .some(.data), nil: return nil
            }
        }
        set {
            if let newValue { _ = setEntry(.string(newValue), for: key) } else { _ = removeEntry(key: key) }
        }
    }

    /// A key's entry, nil when the key is absent.
    public func getEntry(for key: String) -> Entry? {
        entries.first { Self.sameKey($0.key, key) }?.entry
    }

    /// Sets a key's entry; false when the key is empty, holds `=` or the pair would exceed 255 bytes.
    @discardableResult
    public mutating func setEntry(_ entry: Entry, for key: String) -> Bool {
        guard !key.isEmpty, !key.contains("="), Self.encode(key, entry).count <= 255 else { return false }
        if let i = entries.firstIndex(where: { Self.sameKey($0.key, key) }) {
            entries[i] = (key, entry)
        } else {
            entries.append((key, entry))
        }
        return true
    }

    /// Removes a key; false when it was absent.
    @discardableResult
    public mutating func removeEntry(key: String) -> Bool {
        guard let i = entries.firstIndex(where: { Self.sameKey($0.key, key) }) else { return false }
        entries.remove(at: i)
        return true
    }

    /// The wire form: each pair as a length-prefixed string.
    public var data: Data { Data(strings.flatMap { [UInt8($0.count)] + $0 }) }

    var strings: [[UInt8]] { entries.map { Self.encode($0.key, $0.entry) } }

    /// `key=value` pairs, as dns-sd prints them.
    public var description: String {
        entries.map { key, entry in
            switch entry {
            case .none: return key
            case .empty: return key + "="
            case .string(let s): return key + "=" + s
            case .data(let d): return key + "=<\(d.count) bytes>"
            }
        }.joined(separator: " ")
    }

    public static func == (a: NWTXTRecord, b: NWTXTRecord) -> Bool { a.strings == b.strings }

    public func hash(into hasher: inout Hasher) { hasher.combine(strings) }

    private static func sameKey(_ a: String, _ b: String) -> Bool {
        DNSName.asciiLowercased(a) == DNSName.asciiLowercased(b)
    }

    private static func encode(_ key: String, _ entry: Entry) -> [UInt8] {
        switch entry {
        case .none: return Array(key.utf8)
        case .empty: return Array(key.utf8) + [UInt8(ascii: "=")]
        case .string(let s): return Array(key.utf8) + [UInt8(ascii: "=")] + Array(s.utf8)
        case .data(let d): return Array(key.utf8) + [UInt8(ascii: "=")] + [UInt8](d)
        }
    }
}
