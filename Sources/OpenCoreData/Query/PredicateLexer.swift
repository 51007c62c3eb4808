import Foundation

/// The tokens of Apple's predicate format syntax, read from the UTF-8 bytes of a format string.
struct PredicateLexer {
    enum Token: Equatable {
        /// A key, keyword or function name (`name`, `AND`, `modulus:by:`); `#name` is an escaped key.
        case ident(String)
        /// `$name`.
        case variable(String)
        /// A quoted string.
        case string(String)
        /// An unsigned number literal (a sign is the parser's unary operator).
        case number(NumberLiteral)
        /// A format specifier: `%@`, `%K`, `%d`, `%2$@` (its position, zero-based).
        case placeholder(Character, Int?)
        /// A comparison, logical, arithmetic or assignment operator, spelled canonically (`==`, `AND`, `+`, `:=`).
        case op(String)
        case lparen, rparen, lbrace, rbrace, lbracket, rbracket, comma, dot
        /// `@name`: a collection operator.
        case at(String)
        case end
    }

    /// A number as written: integers stay integers (so `age == 30` prints as Apple prints it).
    enum NumberLiteral: Equatable {
        case integer(Int)
        case real(Double)
        var value: Any {
            switch self {
            case .integer(let i): return i
            case .real(let d): return d
            }
        }
    }

    let bytes: [UInt8]
    var pos = 0
    /// Where the last token read starts.
    var tokenStart = 0

    init(_ format: String) { bytes = Array(format.utf8) }

    static func isIdentStart(_ c: UInt8) -> Bool {
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95 || c >= 0x80
    }
    static func isIdent(_ c: UInt8) -> Bool { isIdentStart(c) || (c >= 48 && c <= 57) }

    private func peek(_ offset: Int) -> UInt8 { pos + offset < bytes.count ? bytes[pos + offset] : 0 }

    /// The next token; `error` makes the message for a malformed one.
    mutating func next() throws(LexError) -> Token {
        while pos < bytes.count, bytes[pos] == 32 || bytes[pos] == 9 || bytes[pos] == 10 || bytes[pos] == 13 {
            pos += 1
        }
        tokenStart = pos
        guard pos < bytes.count else { return .end }
        let c = bytes[pos]
        switch c {
        case UInt8(ascii: "("):
            pos += 1
            return .lparen
        case UInt8(ascii: ")"):
            pos += 1
            return .rparen
        case UInt8(ascii: "{"):
            pos += 1
            return .lbrace
        case UInt8(ascii: "}"):
            pos += 1
            return .rbrace
        case UInt8(ascii: "["):
            pos += 1
            return .lbracket
        case UInt8(ascii: "]"):
            pos += 1
            return .rbracket
        case UInt8(ascii: ","):
            pos += 1
            return .comma
        case UInt8(ascii: "."):
            if peek(1) >= 48 && peek(1) <= 57 { return .number(try number()) }
            pos += 1
            return .dot
        case UInt8(ascii: "="):
            switch peek(1) {
            case UInt8(ascii: "="):
                pos += 2
                return .op("==")
            case UInt8(ascii: "<"):
                pos += 2
                return .op("<=")
            case UInt8(ascii: ">"):
                pos += 2
                return .op(">=")
            default:
                pos += 1
                return .op("==")
            }
        case UInt8(ascii: "!"):
            if peek(1) == UInt8(ascii: "=") {
                pos += 2
                return .op("!=")
            }
            pos += 1
            return .op("NOT")
        case UInt8(ascii: "<"):
            if peek(1) == UInt8(ascii: "=") {
                pos += 2
                return .op("<=")
            }
            if peek(1) == UInt8(ascii: ">") {
                pos += 2
                return .op("!=")
            }
            pos += 1
            return .op("<")
        case UInt8(ascii: ">"):
            if peek(1) == UInt8(ascii: "=") {
                pos += 2
                return .op(">=")
            }
            pos += 1
            return .op(">")
        case UInt8(ascii: "&"):
            guard peek(1) == UInt8(ascii: "&") else { throw LexError("unknown token '&' (did you mean '&&'?)", pos) }
            pos += 2
            return .op("AND")
        case UInt8(ascii: "|"):
            guard peek(1) == UInt8(ascii: "|") else { throw LexError("unknown token '|' (did you mean '||'?)", pos) }
            pos += 2
            return .op("OR")
        case UInt8(ascii: "+"):
            pos += 1
            return .op("+")
        case UInt8(ascii: "-"):
            pos += 1
            return .op("-")
        case UInt8(ascii: "/"):
            pos += 1
            return .op("/")
        case UInt8(ascii: "*"):
            if peek(1) == UInt8(ascii: "*") {
                pos += 2
                return .op("**")
            }
            pos += 1
            return .op("*")
        case UInt8(ascii: ":"):
            guard peek(1) == UInt8(ascii: "=") else { throw LexError("unknown token ':' (did you mean ':='?)", pos) }
            pos += 2
            return .op(":=")
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            return .string(try string(quote: c))
        case UInt8(ascii: "$"):
            pos += 1
            let name = identifier(colons: false)
            guard !name.isEmpty else { throw LexError("expected a variable name after '$'", tokenStart) }
            return .variable(name)
        case UInt8(ascii: "@"):
            pos += 1
            let name = identifier(colons: false)
            guard !name.isEmpty else { throw LexError("expected an operator name after '@'", tokenStart) }
            return .at(name)
        case UInt8(ascii: "#"):
            pos += 1
            let name = identifier(colons: false)
            guard !name.isEmpty else { throw LexError("expected a key after '#'", tokenStart) }
            return .ident("#" + name)
        case UInt8(ascii: "%"):
            return try placeholder()
        case 48...57:
            return .number(try number())
        default:
            guard Self.isIdentStart(c) else {
                throw LexError("unknown token '\(String(decoding: [c], as: UTF8.self))'", pos)
            }
            let word = identifier(colons: true)
            let upper = word.uppercased()
            switch upper {
            case "AND", "OR", "NOT", "IN", "LIKE", "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "UNION",
                "INTERSECT", "MINUS":
                return .op(upper)
            default:
                return .ident(word)
            }
        }
    }

    /// A name; with `colons`, a function name's `:`-separated parts too (`modulus:by:`), but not `:=`.
    private mutating func identifier(colons: Bool) -> String {
        let start = pos
        while pos < bytes.count {
            if Self.isIdent(bytes[pos]) {
                pos += 1
            } else if colons, bytes[pos] == UInt8(ascii: ":"), peek(1) != UInt8(ascii: "=") {
                pos += 1
            } else {
                break
            }
        }
        return String(decoding: bytes[start..<pos], as: UTF8.self)
    }

    private mutating func string(quote: UInt8) throws(LexError) -> String {
        let open = pos
        pos += 1
        var out: [UInt8] = []
        while pos < bytes.count {
            let c = bytes[pos]
            if c == quote {
                pos += 1
                return String(decoding: out, as: UTF8.self)
            }
            if c == UInt8(ascii: "\\"), pos + 1 < bytes.count {
                let e = bytes[pos + 1]
                pos += 2
                switch e {
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "0"): out.append(0)
                default: out.append(e)
                }
                continue
            }
            out.append(c)
            pos += 1
        }
        throw LexError("unterminated string literal", open)
    }

    private mutating func number() throws(LexError) -> NumberLiteral {
        let start = pos
        if bytes[pos] == 48, pos + 1 < bytes.count {
            let radix: Int? =
                switch bytes[pos + 1] | 0x20 {
                case UInt8(ascii: "x"): 16
                case UInt8(ascii: "o"): 8
                case UInt8(ascii: "b"): 2
                default: nil
                }
            if let radix {
                pos += 2
                let digitsStart = pos
                while pos < bytes.count, Self.isIdent(bytes[pos]) { pos += 1 }
                let digits = String(decoding: bytes[digitsStart..<pos], as: UTF8.self)
                guard let value = Int(digits, radix: radix) else {
                    throw LexError("malformed or too large base-\(radix) number '0\(digits)'", start)
                }
                return .integer(value)
            }
        }
        var isReal = false
        while pos < bytes.count {
            let d = bytes[pos]
            if d >= 48 && d <= 57 {
                pos += 1
            } else if d == UInt8(ascii: "."), !isReal, peek(1) >= 48, peek(1) <= 57 {
                isReal = true
                pos += 1
            } else if d | 0x20 == UInt8(ascii: "e"), pos > start,
                (peek(1) >= 48 && peek(1) <= 57)
                    || ((peek(1) == 45 || peek(1) == 43) && peek(2) >= 48 && peek(2) <= 57)
            {
                isReal = true
                pos += 2
            } else {
                break
            }
        }
        let text = String(decoding: bytes[start..<pos], as: UTF8.self)
        if !isReal, let i = Int(text) { return .integer(i) }
        // Integers too large for Int are kept as doubles, as NSNumber keeps them.
        guard let d = Double(text), d.isFinite else { throw LexError("malformed or too large number '\(text)'", start) }
        return .real(d)
    }

    private mutating func placeholder() throws(LexError) -> Token {
        let start = pos
        pos += 1
        var index: Int?
        var j = pos
        while j < bytes.count, bytes[j] >= 48, bytes[j] <= 57 { j += 1 }
        if j > pos, j < bytes.count, bytes[j] == UInt8(ascii: "$") {
            guard let n = Int(String(decoding: bytes[pos..<j], as: UTF8.self)), n >= 1 else {
                throw LexError("a positional specifier counts from 1", start)
            }
            index = n - 1
            pos = j + 1
        }
        while pos < bytes.count,
            bytes[pos] == UInt8(ascii: "l") || bytes[pos] == UInt8(ascii: "h")
                || bytes[pos] == UInt8(ascii: "q")
        {
            pos += 1
        }
        guard pos < bytes.count else { throw LexError("incomplete format specifier '%'", start) }
        let c = Character(UnicodeScalar(bytes[pos]))
        pos += 1
        guard "@KdiuxXfFeEgGsScaoDUO".contains(c) else { throw LexError("unsupported format specifier '%\(c)'", start) }
        return .placeholder(c, index)
    }
}

/// A malformed token: what and where (UTF-8 offset).
struct LexError: Error {
    let message: String
    let offset: Int
    init(_ message: String, _ offset: Int) {
        self.message = message
        self.offset = offset
    }
}
