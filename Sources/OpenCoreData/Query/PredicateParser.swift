import Foundation

/// A malformed predicate format string: what was wrong and where (UTF-8 byte offset).
public struct NSPredicateFormatError: Error, CustomStringConvertible, Sendable {
    /// What was wrong.
    public let message: String
    /// The format string.
    public let format: String
    /// The UTF-8 offset of the offending token.
    public let offset: Int
    /// Apple-style message with the string and a caret under the offending position.
    public var description: String {
        "Unable to parse the format string \"\(format)\": \(message) at offset \(offset)\n  \(format)\n  "
            + String(repeating: " ", count: offset) + "^"
    }
}

/// Lexer + recursive-descent parser over the UTF-8 bytes of a format string.
struct PredicateParser {
    enum Tok: Equatable {
        case ident(String), variable(String), string(String), number(Any), placeholder(Character, Int?)
        case op(String), lparen, rparen, lbrace, rbrace, comma, dot, at(String), options(String), end
        static func == (a: Tok, b: Tok) -> Bool {
            switch (a, b) {
            case (.lparen, .lparen), (.rparen, .rparen), (.lbrace, .lbrace), (.rbrace, .rbrace),
                 (.comma, .comma), (.dot, .dot), (.end, .end): return true
            case let (.op(x), .op(y)): return x == y
            default: return false
            }
        }
    }

    let format: String
    let bytes: [UInt8]
    let arguments: [Any]
    var pos = 0
    var tok: Tok = .end
    var tokStart = 0
    var nextArg = 0

    static let reserved: Set<String> = ["AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI",
        "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO",
        "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE", "FUNCTION"]

    init(format: String, arguments: [Any]) {
        self.format = format
        self.bytes = Array(format.utf8)
        self.arguments = arguments
    }

    func error(_ message: String, at offset: Int? = nil) -> NSPredicateFormatError {
        NSPredicateFormatError(message: message, format: format, offset: offset ?? tokStart)
    }

    static func parse(format: String, arguments: [Any]) throws -> NSPredicate {
        var parser = PredicateParser(format: format, arguments: arguments)
        return try parser.parse()
    }

    mutating func parse() throws -> NSPredicate {
        try advance()
        let p = try parseOr()
        if tok != .end { throw error("unexpected \(describe(tok))") }
        return p
    }
    var usedPositional = false

    func describe(_ t: Tok) -> String {
        switch t {
        case .end: return "end of string"
        case .ident(let s): return "'\(s)'"
        case .op(let s): return "'\(s)'"
        default:
            let end = min(bytes.count, max(pos, tokStart + 1))
            return "'\(String(decoding: bytes[tokStart..<end], as: UTF8.self))'"
        }
    }

    // MARK: Lexer

    static func isIdentStart(_ c: UInt8) -> Bool { (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95 || c >= 0x80 }
    static func isIdent(_ c: UInt8) -> Bool { isIdentStart(c) || (c >= 48 && c <= 57) }

    mutating func advance() throws {
        while pos < bytes.count, bytes[pos] == 32 || bytes[pos] == 9 || bytes[pos] == 10 || bytes[pos] == 13 { pos += 1 }
        tokStart = pos
        guard pos < bytes.count else { tok = .end; return }
        let c = bytes[pos]
        func peek(_ o: Int) -> UInt8 { pos + o < bytes.count ? bytes[pos + o] : 0 }
        switch c {
        case UInt8(ascii: "("): pos += 1; tok = .lparen
        case UInt8(ascii: ")"): pos += 1; tok = .rparen
        case UInt8(ascii: "{"): pos += 1; tok = .lbrace
        case UInt8(ascii: "}"): pos += 1; tok = .rbrace
        case UInt8(ascii: ","): pos += 1; tok = .comma
        case UInt8(ascii: "."): pos += 1; tok = .dot
        case UInt8(ascii: "["):
            var j = pos + 1
            var s = ""
            while j < bytes.count, bytes[j] != UInt8(ascii: "]") { s.append(Character(UnicodeScalar(bytes[j]))); j += 1 }
            guard j < bytes.count else { throw error("unterminated option list '['") }
            pos = j + 1; tok = .options(s)
        case UInt8(ascii: "="):
            if peek(1) == UInt8(ascii: "=") { pos += 2; tok = .op("==") }
            else if peek(1) == UInt8(ascii: "<") { pos += 2; tok = .op("<=") }
            else if peek(1) == UInt8(ascii: ">") { pos += 2; tok = .op(">=") }
            else { pos += 1; tok = .op("==") }
        case UInt8(ascii: "!"):
            if peek(1) == UInt8(ascii: "=") { pos += 2; tok = .op("!=") } else { pos += 1; tok = .op("NOT") }
        case UInt8(ascii: "<"):
            if peek(1) == UInt8(ascii: "=") { pos += 2; tok = .op("<=") }
            else if peek(1) == UInt8(ascii: ">") { pos += 2; tok = .op("!=") }
            else { pos += 1; tok = .op("<") }
        case UInt8(ascii: ">"):
            if peek(1) == UInt8(ascii: "=") { pos += 2; tok = .op(">=") } else { pos += 1; tok = .op(">") }
        case UInt8(ascii: "&"):
            guard peek(1) == UInt8(ascii: "&") else { throw error("unknown token '&' (did you mean '&&'?)") }
            pos += 2; tok = .op("AND")
        case UInt8(ascii: "|"):
            guard peek(1) == UInt8(ascii: "|") else { throw error("unknown token '|' (did you mean '||'?)") }
            pos += 2; tok = .op("OR")
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            tok = .string(try lexString(quote: c))
        case UInt8(ascii: "$"):
            pos += 1
            let name = lexIdent()
            guard !name.isEmpty else { throw error("expected a variable name after '$'") }
            tok = .variable(name)
        case UInt8(ascii: "@"):
            pos += 1
            let name = lexIdent()
            guard !name.isEmpty else { throw error("expected an operator name after '@'") }
            tok = .at(name)
        case UInt8(ascii: "#"):
            pos += 1
            let name = lexIdent()
            guard !name.isEmpty else { throw error("expected a key after '#'") }
            tok = .ident("#" + name)
        case UInt8(ascii: "%"):
            tok = try lexPlaceholder()
        case UInt8(ascii: "-"), UInt8(ascii: "+"), 48...57:
            tok = .number(try lexNumber())
        default:
            if Self.isIdentStart(c) {
                let s = lexIdent()
                let up = s.uppercased()
                switch up {
                case "AND", "OR", "NOT", "IN", "LIKE", "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN": tok = .op(up)
                default: tok = .ident(s)
                }
            } else {
                throw error("unknown token '\(String(decoding: [c], as: UTF8.self))'")
            }
        }
    }

    mutating func lexIdent() -> String {
        let start = pos
        while pos < bytes.count, Self.isIdent(bytes[pos]) { pos += 1 }
        return String(decoding: bytes[start..<pos], as: UTF8.self)
    }

    mutating func lexString(quote: UInt8) throws -> String {
        pos += 1
        var out: [UInt8] = []
        while pos < bytes.count {
            let c = bytes[pos]
            if c == quote { pos += 1; return String(decoding: out, as: UTF8.self) }
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
            out.append(c); pos += 1
        }
        throw error("unterminated string literal")
    }

    mutating func lexNumber() throws -> Any {
        let start = pos
        if bytes[pos] == UInt8(ascii: "-") || bytes[pos] == UInt8(ascii: "+") { pos += 1 }
        if pos + 1 < bytes.count, bytes[pos] == 48, bytes[pos + 1] | 0x20 == UInt8(ascii: "x") {
            pos += 2
            let hs = pos
            while pos < bytes.count, (bytes[pos] >= 48 && bytes[pos] <= 57) || ((bytes[pos] | 0x20) >= 97 && (bytes[pos] | 0x20) <= 102) { pos += 1 }
            guard let v = Int(String(decoding: bytes[hs..<pos], as: UTF8.self), radix: 16) else { throw error("malformed hex number") }
            return bytes[start] == UInt8(ascii: "-") ? -v : v
        }
        var isFloat = false
        while pos < bytes.count {
            let d = bytes[pos]
            if d >= 48 && d <= 57 { pos += 1 }
            else if d == UInt8(ascii: "."), !isFloat, pos + 1 < bytes.count, bytes[pos + 1] >= 48, bytes[pos + 1] <= 57 { isFloat = true; pos += 1 }
            else if d | 0x20 == UInt8(ascii: "e") { isFloat = true; pos += 1; if pos < bytes.count, bytes[pos] == 45 || bytes[pos] == 43 { pos += 1 } }
            else { break }
        }
        let text = String(decoding: bytes[start..<pos], as: UTF8.self)
        if !isFloat, let i = Int(text) { return i }
        guard let d = Double(text) else { throw error("malformed number '\(text)'") }
        return d
    }

    mutating func lexPlaceholder() throws -> Tok {
        pos += 1
        var index: Int?
        var j = pos
        while j < bytes.count, bytes[j] >= 48, bytes[j] <= 57 { j += 1 }
        if j > pos, j < bytes.count, bytes[j] == UInt8(ascii: "$") {
            index = Int(String(decoding: bytes[pos..<j], as: UTF8.self))! - 1
            pos = j + 1
        }
        while pos < bytes.count, bytes[pos] == UInt8(ascii: "l") || bytes[pos] == UInt8(ascii: "h") || bytes[pos] == UInt8(ascii: "q") { pos += 1 }
        guard pos < bytes.count else { throw error("incomplete format specifier '%'") }
        let c = Character(UnicodeScalar(bytes[pos]))
        pos += 1
        guard "@KdiuxXfFeEgGsScaoDUO".contains(c) else { throw error("unsupported format specifier '%\(c)'") }
        return .placeholder(c, index)
    }

    // MARK: Parser

    func isKeyword(_ w: String) -> Bool { if case .ident(let s) = tok { return s.uppercased() == w }; return false }

    mutating func parseOr() throws -> NSPredicate {
        var list = [try parseAnd()]
        while tok == .op("OR") { try advance(); list.append(try parseAnd()) }
        return list.count == 1 ? list[0] : NSCompoundPredicate(type: .or, subpredicates: list)
    }
    mutating func parseAnd() throws -> NSPredicate {
        var list = [try parseNot()]
        while tok == .op("AND") { try advance(); list.append(try parseNot()) }
        return list.count == 1 ? list[0] : NSCompoundPredicate(type: .and, subpredicates: list)
    }
    mutating func parseNot() throws -> NSPredicate {
        if tok == .op("NOT") { try advance(); return NSCompoundPredicate(type: .not, subpredicates: [try parseNot()]) }
        return try parsePrimary()
    }
    mutating func parsePrimary() throws -> NSPredicate {
        if tok == .lparen {
            let open = tokStart
            try advance()
            let p = try parseOr()
            guard tok == .rparen else { throw error("expected ')' to close '(' at offset \(open), found \(describe(tok))") }
            try advance()
            return p
        }
        if isKeyword("TRUEPREDICATE") { try advance(); return NSPredicate(value: true) }
        if isKeyword("FALSEPREDICATE") { try advance(); return NSPredicate(value: false) }
        var modifier = NSComparisonPredicate.Modifier.direct
        var negate = false
        if isKeyword("ANY") || isKeyword("SOME") { modifier = .any; try advance() }
        else if isKeyword("ALL") { modifier = .all; try advance() }
        else if isKeyword("NONE") { modifier = .any; negate = true; try advance() }
        let lhs = try parseExpression()
        let opStart = tokStart
        guard case .op(let opName) = tok else {
            if tok == .end { throw error("expected a comparison operator after the expression, found end of string") }
            throw error("expected a comparison operator, found \(describe(tok))")
        }
        let type: NSComparisonPredicate.Operator
        switch opName {
        case "==": type = .equalTo
        case "!=": type = .notEqualTo
        case "<": type = .lessThan
        case "<=": type = .lessThanOrEqualTo
        case ">": type = .greaterThan
        case ">=": type = .greaterThanOrEqualTo
        case "IN": type = .in
        case "LIKE": type = .like
        case "MATCHES": type = .matches
        case "CONTAINS": type = .contains
        case "BEGINSWITH": type = .beginsWith
        case "ENDSWITH": type = .endsWith
        case "BETWEEN": type = .between
        default: throw error("expected a comparison operator, found '\(opName)'", at: opStart)
        }
        try advance()
        var options: NSComparisonPredicate.Options = []
        if case .options(let s) = tok {
            for ch in s.lowercased() {
                switch ch {
                case "c": options.insert(.caseInsensitive)
                case "d": options.insert(.diacriticInsensitive)
                case "n": options.insert(.normalized)
                case "l", " ": break
                default: throw error("unknown comparison option '\(ch)' in [\(s)]")
                }
            }
            try advance()
        }
        if tok == .end { throw error("expected an expression after '\(opName)', found end of string") }
        let rhs = try parseExpression()
        let cmp = NSComparisonPredicate(leftExpression: lhs, rightExpression: rhs, modifier: modifier, type: type, options: options)
        return negate ? NSCompoundPredicate(type: .not, subpredicates: [cmp]) : cmp
    }

    mutating func takeArgument() throws -> Any? {
        guard nextArg < arguments.count else { throw error("too few arguments: the format needs argument \(nextArg + 1) but \(arguments.count) were given") }
        defer { nextArg += 1 }
        return arguments[nextArg]
    }

    mutating func parseExpression() throws -> NSExpression {
        var expr = try parseAtom()
        while tok == .dot {
            try advance()
            var comp: String
            switch tok {
            case .ident(let s): comp = s.hasPrefix("#") ? String(s.dropFirst()) : s
            case .at(let s): comp = "@" + s
            case .placeholder(let c, let idx) where c == "K":
                if let idx { nextArg = idx; usedPositional = true }
                guard let k = try takeArgument() as? String else { throw error("%K needs a String key path argument") }
                comp = k
            default: throw error("expected a key after '.', found \(describe(tok))")
            }
            try advance()
            if expr.expressionType == .keyPath {
                expr = NSExpression(forKeyPath: expr.keyPath + "." + comp, of: expr.operand ?? .expressionForEvaluatedObject())
            } else {
                expr = NSExpression(forKeyPath: comp, of: expr)
            }
        }
        return expr
    }

    mutating func parseAtom() throws -> NSExpression {
        let start = tokStart
        switch tok {
        case .string(let s): try advance(); return NSExpression(forConstantValue: s)
        case .number(let n): try advance(); return NSExpression(forConstantValue: n)
        case .variable(let v): try advance(); return NSExpression(forVariable: v)
        case .at(let s): try advance(); return NSExpression(forKeyPath: "@" + s)
        case .placeholder(let c, let idx):
            if let idx { nextArg = idx; usedPositional = true }
            let arg = try takeArgument()
            try advance()
            if c == "K" {
                guard let k = arg as? String else { throw error("%K needs a String key path argument, got \(arg.map { "\(type(of: $0))" } ?? "nil")", at: start) }
                return NSExpression(forKeyPath: k)
            }
            return NSExpression(forConstantValue: Self.normalize(arg, specifier: c))
        case .lbrace:
            try advance()
            var items: [NSExpression] = []
            if tok != .rbrace {
                items.append(try parseExpression())
                while tok == .comma { try advance(); items.append(try parseExpression()) }
            }
            guard tok == .rbrace else { throw error("expected '}' to close '{' at offset \(start), found \(describe(tok))") }
            try advance()
            return NSExpression(forAggregate: items)
        case .ident(let raw):
            if raw.hasPrefix("#") { try advance(); return NSExpression(forKeyPath: String(raw.dropFirst())) }
            switch raw.uppercased() {
            case "NIL", "NULL": try advance(); return NSExpression(forConstantValue: nil)
            case "TRUE", "YES": try advance(); return NSExpression(forConstantValue: true)
            case "FALSE", "NO": try advance(); return NSExpression(forConstantValue: false)
            case "SELF": try advance(); return .expressionForEvaluatedObject()
            case "SUBQUERY":
                try advance()
                try expect(.lparen, "'(' after SUBQUERY")
                let coll = try parseExpression()
                try expect(.comma, "',' after the SUBQUERY collection")
                guard case .variable(let v) = tok else { throw error("expected a $variable as the SUBQUERY iterator, found \(describe(tok))") }
                try advance()
                try expect(.comma, "',' after the SUBQUERY variable")
                let p = try parseOr()
                try expect(.rparen, "')' to close SUBQUERY")
                return NSExpression(forSubquery: coll, usingIteratorVariable: v, predicate: p)
            case "CAST":
                try advance()
                try expect(.lparen, "'(' after CAST")
                let value = try parseExpression()
                try expect(.comma, "',' in CAST")
                guard case .string(let typeName) = tok else { throw error("expected a type name string in CAST") }
                try advance()
                try expect(.rparen, "')' to close CAST")
                guard value.expressionType == .constantValue else { throw error("CAST needs a constant", at: start) }
                switch typeName {
                case "NSDate":
                    guard let t = PredicateValues.double(value.constantValue) else { throw error("CAST to NSDate needs a number", at: start) }
                    return NSExpression(forConstantValue: Date(timeIntervalSinceReferenceDate: t))
                case "NSNumber":
                    if let s = value.constantValue as? String, let d = Double(s) { return NSExpression(forConstantValue: d) }
                    return value
                case "NSString": return NSExpression(forConstantValue: value.constantValue.map { "\($0)" })
                case "NSUUID", "UUID":
                    guard let s = value.constantValue as? String, let u = UUID(uuidString: s) else { throw error("CAST to UUID needs a UUID string", at: start) }
                    return NSExpression(forConstantValue: u)
                default: throw error("unsupported CAST type \"\(typeName)\"", at: start)
                }
            default:
                if Self.reserved.contains(raw.uppercased()) { throw error("reserved word '\(raw)' cannot be used as a key (escape it as #\(raw))") }
                try advance()
                return NSExpression(forKeyPath: raw)
            }
        case .end: throw error("expected an expression, found end of string")
        default: throw error("expected an expression, found \(describe(tok))")
        }
    }

    mutating func expect(_ t: Tok, _ what: String) throws {
        guard tok == t else { throw error("expected \(what), found \(describe(tok))") }
        try advance()
    }

    /// Normalizes a format argument into a constant value.
    static func normalize(_ arg: Any?, specifier: Character) -> Any? {
        guard let arg else { return nil }
        if arg is NSNull { return nil }
        if case Optional<Any>.none = arg as Any? { return nil }
        switch specifier {
        case "d", "i", "D", "o", "O", "x", "X", "c":
            if let n = PredicateValues.int64(arg) { return Int(n) }
        case "u", "U":
            if let n = PredicateValues.int64(arg) { return Int(n) }
        case "f", "F", "e", "E", "g", "G":
            if let d = PredicateValues.double(arg) { return d }
        case "s", "S", "a":
            return "\(arg)"
        default: break
        }
        if let s = arg as? NSString, !(arg is String) { return String(describing: s) }
        return arg
    }
}
