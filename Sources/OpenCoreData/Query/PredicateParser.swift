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
        let shown = format.utf8.count > 200 ? String(decoding: format.utf8.prefix(200), as: UTF8.self) + "…" : format
        let caret = offset <= 200 ? "\n  \(shown)\n  " + String(repeating: " ", count: offset) + "^" : ""
        return "Unable to parse the format string \"\(shown)\": \(message) at offset \(offset)" + caret
    }
}

/// `FIRST`, `LAST` and `SIZE` in an index (`items[LAST]`): the constant an index expression holds for them.
struct PredicateIndexSymbol: Hashable, Sendable {
    let name: String
}

/// Recursive-descent parser for Apple's predicate and expression format syntax (Apple's "Predicate Format String
/// Syntax" and `NSExpression` documentation): comparisons with ANY/ALL/NONE and options, AND/OR/NOT, arithmetic
/// (`+ - * / **`, unary minus), function calls (`sum(x)`, `modulus:by:(a, b)`, `FUNCTION(…)`), indexes (`a[1]`,
/// `a[LAST]`), set operators, aggregates, `SUBQUERY`, `CAST` and `TERNARY`. Nesting is bounded
/// (``maximumDepth``), so hostile input is an error, never a stack overflow.
struct PredicateParser {
    typealias Token = PredicateLexer.Token

    /// How deeply parentheses, NOTs, functions and operators may nest (a chain `a + b + c` nests once per
    /// operator, as its tree does). It bounds every recursion over the tree (printing, evaluating, translating to
    /// SQL), so that hostile input is an error, not a stack overflow, even on a cooperative thread's small stack.
    static let maximumDepth = 128

    /// Words that are keywords wherever a key could stand; a key spelled so is written `#word`.
    static let reserved: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES",
        "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO", "FIRST",
        "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE", "FUNCTION",
        "TERNARY", "UNION", "INTERSECT", "MINUS",
    ]

    /// The built-in functions a format may call, by Apple's name, with their number of arguments.
    static let functionArity: [String: Int] = [
        "average:": 1, "sum:": 1, "count:": 1, "min:": 1, "max:": 1, "median:": 1, "mode:": 1, "stddev:": 1,
        "add:to:": 2, "from:subtract:": 2, "multiply:by:": 2, "divide:by:": 2, "modulus:by:": 2, "sqrt:": 1,
        "log:": 1, "ln:": 1, "raise:toPower:": 2, "exp:": 1, "ceiling:": 1, "floor:": 1, "abs:": 1, "trunc:": 1,
        "uppercase:": 1, "lowercase:": 1, "random": 0, "random:": 1, "randomn:": 1, "now": 0, "bitwiseAnd:with:": 2,
        "bitwiseOr:with:": 2, "bitwiseXor:with:": 2, "leftshift:by:": 2, "rightshift:by:": 2, "onesComplement:": 1,
        "noindex:": 1, "distinct:": 1, "castObject:toType:": 2, "objectFrom:withIndex:": 2,
    ]

    /// The comparison operators, by their canonical spelling.
    static let comparisonOperators: [String: NSComparisonPredicate.Operator] = [
        "==": .equalTo, "!=": .notEqualTo, "<": .lessThan, "<=": .lessThanOrEqualTo, ">": .greaterThan,
        ">=": .greaterThanOrEqualTo, "IN": .in, "LIKE": .like, "MATCHES": .matches, "CONTAINS": .contains,
        "BEGINSWITH": .beginsWith, "ENDSWITH": .endsWith, "BETWEEN": .between,
    ]

    let format: String
    let arguments: [Any]
    var lexer: PredicateLexer
    var tok: Token = .end
    var tokStart = 0
    var nextArg = 0
    var depth = 0

    init(format: String, arguments: [Any]) {
        self.format = format
        self.arguments = arguments
        self.lexer = PredicateLexer(format)
    }

    func error(_ message: String, at offset: Int? = nil) -> NSPredicateFormatError {
        NSPredicateFormatError(message: message, format: format, offset: offset ?? tokStart)
    }

    /// Parses a whole predicate.
    static func parse(format: String, arguments: [Any]) throws -> NSPredicate {
        var parser = PredicateParser(format: format, arguments: arguments)
        try parser.advance()
        let predicate = try parser.parseOr()
        guard parser.tok == .end else { throw parser.error("unexpected \(parser.describe(parser.tok))") }
        return predicate
    }

    /// Parses a whole expression.
    static func parseExpression(format: String, arguments: [Any]) throws -> NSExpression {
        var parser = PredicateParser(format: format, arguments: arguments)
        try parser.advance()
        let expression = try parser.parseExpression()
        guard parser.tok == .end else { throw parser.error("unexpected \(parser.describe(parser.tok))") }
        return expression
    }

    func describe(_ t: Token) -> String {
        switch t {
        case .end: return "end of string"
        case .ident(let s): return "'\(s)'"
        case .op(let s): return "'\(s)'"
        default:
            let bytes = lexer.bytes
            let end = min(bytes.count, max(lexer.pos, tokStart + 1))
            return "'\(String(decoding: bytes[min(tokStart, end)..<end], as: UTF8.self))'"
        }
    }

    mutating func advance() throws {
        do {
            tok = try lexer.next()
            tokStart = lexer.tokenStart
        } catch {
            throw self.error(error.message, at: error.offset)
        }
    }

    mutating func expect(_ t: Token, _ what: String) throws {
        guard tok == t else { throw error("expected \(what), found \(describe(tok))") }
        try advance()
    }

    func isKeyword(_ word: String) -> Bool {
        if case .ident(let s) = tok { return s.uppercased() == word }
        return false
    }

    /// Counts one level of nesting for the rest of the caller's scope (call `depth -= 1` when it ends).
    mutating func descend() throws {
        depth += 1
        if depth > Self.maximumDepth {
            throw error("nesting deeper than \(Self.maximumDepth) levels")
        }
    }

    // MARK: Predicates

    mutating func parseOr() throws -> NSPredicate {
        var list = [try parseAnd()]
        while tok == .op("OR") {
            try advance()
            list.append(try parseAnd())
        }
        return list.count == 1 ? list[0] : NSCompoundPredicate(type: .or, subpredicates: list)
    }

    mutating func parseAnd() throws -> NSPredicate {
        var list = [try parseNot()]
        while tok == .op("AND") {
            try advance()
            list.append(try parseNot())
        }
        return list.count == 1 ? list[0] : NSCompoundPredicate(type: .and, subpredicates: list)
    }

    mutating func parseNot() throws -> NSPredicate {
        try descend()
        defer { depth -= 1 }
        if tok == .op("NOT") {
            try advance()
            return NSCompoundPredicate(type: .not, subpredicates: [try parseNot()])
        }
        return try parsePrimary()
    }

    mutating func parsePrimary() throws -> NSPredicate {
        if tok == .lparen, try !parenthesisStartsAnExpression() {
            let open = tokStart
            try advance()
            let predicate = try parseOr()
            guard tok == .rparen else {
                throw error("expected ')' to close '(' at offset \(open), found \(describe(tok))")
            }
            try advance()
            return predicate
        }
        if isKeyword("TRUEPREDICATE") {
            try advance()
            return NSPredicate(value: true)
        }
        if isKeyword("FALSEPREDICATE") {
            try advance()
            return NSPredicate(value: false)
        }
        return try parseComparison()
    }

    /// Whether the `(` at the current token opens an expression (`(a + b) > c`, `(a) == 1`) rather than a
    /// predicate (`(a == 1) AND …`): what follows its matching `)` decides, as in Apple's grammar.
    mutating func parenthesisStartsAnExpression() throws -> Bool {
        let saved = (lexer, tok, tokStart)
        defer { (lexer, tok, tokStart) = saved }
        var open = 0
        repeat {
            switch tok {
            case .lparen: open += 1
            case .rparen: open -= 1
            case .end: return false  // unbalanced: the predicate parse reports it
            default: break
            }
            try advance()
        } while open > 0
        switch tok {
        case .dot, .lbracket: return true
        case .op(let name):
            return Self.comparisonOperators[name] != nil
                || ["+", "-", "*", "/", "**", "UNION", "INTERSECT", "MINUS"]
                    .contains(name)
        default: return false
        }
    }

    mutating func parseComparison() throws -> NSPredicate {
        var modifier = NSComparisonPredicate.Modifier.direct
        var negate = false
        if isKeyword("ANY") || isKeyword("SOME") {
            modifier = .any
            try advance()
        } else if isKeyword("ALL") {
            modifier = .all
            try advance()
        } else if isKeyword("NONE") {
            modifier = .any
            negate = true
            try advance()
        }
        let lhs = try parseExpression()
        let opStart = tokStart
        guard case .op(let opName) = tok else {
            if tok == .end { throw error("expected a comparison operator after the expression, found end of string") }
            throw error("expected a comparison operator, found \(describe(tok))")
        }
        guard let type = Self.comparisonOperators[opName] else {
            throw error("expected a comparison operator, found '\(opName)'", at: opStart)
        }
        try advance()
        var options: NSComparisonPredicate.Options = []
        if tok == .lbracket {
            try advance()
            guard case .ident(let letters) = tok else { throw error("expected comparison options such as [cd]") }
            for ch in letters.lowercased() {
                switch ch {
                case "c": options.insert(.caseInsensitive)
                case "d": options.insert(.diacriticInsensitive)
                case "n": options.insert(.normalized)
                case "l": break  // locale-sensitive: Orchard's comparisons already use the string's own rules
                default: throw error("unknown comparison option '\(ch)' in [\(letters)]")
                }
            }
            try advance()
            try expect(.rbracket, "']' to close the comparison options")
        }
        if tok == .end { throw error("expected an expression after '\(opName)', found end of string") }
        let rhs = try parseExpression()
        let comparison = NSComparisonPredicate(
            leftExpression: lhs, rightExpression: rhs, modifier: modifier, type: type, options: options)
        return negate ? NSCompoundPredicate(type: .not, subpredicates: [comparison]) : comparison
    }

    // MARK: Expressions

    mutating func takeArgument(at start: Int) throws -> Any? {
        guard nextArg < arguments.count else {
            throw error(
                "too few arguments: the format needs argument \(nextArg + 1) but \(arguments.count) were given",
                at: start)
        }
        defer { nextArg += 1 }
        return arguments[nextArg]
    }

    /// An expression: set operators bind loosest, then `+ -`, `* /`, unary minus, `**`, then `.key` and `[index]`.
    mutating func parseExpression() throws -> NSExpression {
        var left = try parseAdditive()
        var levels = 0
        defer { depth -= levels }
        while case .op(let name) = tok, name == "UNION" || name == "INTERSECT" || name == "MINUS" {
            try descend()
            levels += 1
            try advance()
            let right = try parseAdditive()
            switch name {
            case "UNION": left = NSExpression(forUnionSet: left, with: right)
            case "INTERSECT": left = NSExpression(forIntersectSet: left, with: right)
            default: left = NSExpression(forMinusSet: left, with: right)
            }
        }
        return left
    }

    mutating func parseAdditive() throws -> NSExpression {
        var left = try parseMultiplicative()
        var levels = 0
        defer { depth -= levels }
        while case .op(let name) = tok, name == "+" || name == "-" {
            // Each operator nests the expression one level deeper (a + b + c is (a + b) + c).
            try descend()
            levels += 1
            try advance()
            let right = try parseMultiplicative()
            left = NSExpression(forFunction: name == "+" ? "add:to:" : "from:subtract:", arguments: [left, right])
        }
        return left
    }

    mutating func parseMultiplicative() throws -> NSExpression {
        var left = try parseUnary()
        var levels = 0
        defer { depth -= levels }
        while case .op(let name) = tok, name == "*" || name == "/" {
            try descend()
            levels += 1
            try advance()
            let right = try parseUnary()
            left = NSExpression(forFunction: name == "*" ? "multiply:by:" : "divide:by:", arguments: [left, right])
        }
        return left
    }

    mutating func parseUnary() throws -> NSExpression {
        try descend()
        defer { depth -= 1 }
        if case .op(let sign) = tok, sign == "-" || sign == "+" {
            try advance()
            let operand = try parseUnary()
            if sign == "+" { return operand }
            // A negative number is a constant, as Apple's lexer reads it; anything else is 0 - operand.
            if operand.expressionType == .constantValue {
                switch operand.constantValue {
                case let i as Int where i != Int.min: return NSExpression(forConstantValue: -i)
                case let d as Double: return NSExpression(forConstantValue: -d)
                default: break
                }
            }
            return NSExpression(
                forFunction: "from:subtract:", arguments: [NSExpression(forConstantValue: 0), operand])
        }
        return try parsePower()
    }

    mutating func parsePower() throws -> NSExpression {
        let base = try parsePostfix()
        guard tok == .op("**") else { return base }
        try advance()
        let exponent = try parseUnary()  // right-associative: 2 ** 3 ** 2 is 2 ** 9
        return NSExpression(forFunction: "raise:toPower:", arguments: [base, exponent])
    }

    mutating func parsePostfix() throws -> NSExpression {
        var expr = try parseAtom()
        var levels = 0
        defer { depth -= levels }
        while true {
            if tok == .dot {
                try advance()
                let key: String
                switch tok {
                case .ident(let s): key = s.hasPrefix("#") ? String(s.dropFirst()) : s
                case .at(let s): key = "@" + s
                case .placeholder("K", let index):
                    if let index { nextArg = index }
                    guard let k = try takeArgument(at: tokStart) as? String else {
                        throw error("%K needs a String key path argument")
                    }
                    key = k
                default: throw error("expected a key after '.', found \(describe(tok))")
                }
                guard !key.contains(":") else { throw error("'\(key)' is not a key") }
                try advance()
                if expr.expressionType == .keyPath {
                    expr = NSExpression(
                        forKeyPath: expr.keyPath + "." + key, of: expr.operand ?? .expressionForEvaluatedObject())
                } else {
                    expr = NSExpression(forKeyPath: key, of: expr)
                }
            } else if tok == .lbracket {
                try descend()
                levels += 1
                try advance()
                let index: NSExpression
                if case .ident(let word) = tok, ["FIRST", "LAST", "SIZE"].contains(word.uppercased()) {
                    index = NSExpression(forConstantValue: PredicateIndexSymbol(name: word.uppercased()))
                    try advance()
                } else {
                    index = try parseExpression()
                }
                try expect(.rbracket, "']' to close the index")
                expr = NSExpression(forFunction: "objectFrom:withIndex:", arguments: [expr, index])
            } else {
                return expr
            }
        }
    }

    /// The arguments of a call, after its `(`, up to and including the `)`.
    mutating func parseArguments(of name: String) throws -> [NSExpression] {
        var items: [NSExpression] = []
        if tok != .rparen {
            items.append(try parseExpression())
            while tok == .comma {
                try advance()
                items.append(try parseExpression())
            }
        }
        try expect(.rparen, "')' to close the arguments of \(name)")
        return items
    }

    mutating func parseAtom() throws -> NSExpression {
        let start = tokStart
        switch tok {
        case .string(let s):
            try advance()
            return NSExpression(forConstantValue: s)
        case .number(let n):
            try advance()
            return NSExpression(forConstantValue: n.value)
        case .variable(let v):
            try advance()
            if tok == .op(":=") {
                throw error("assigning to a variable ($\(v) := …) is not supported in Orchard's predicates", at: start)
            }
            return NSExpression(forVariable: v)
        case .at(let s):
            try advance()
            return NSExpression(forKeyPath: "@" + s)
        case .placeholder(let c, let index):
            if let index { nextArg = index }
            let arg = try takeArgument(at: start)
            try advance()
            if c == "K" {
                guard let k = arg as? String else {
                    throw error(
                        "%K needs a String key path argument, got \(arg.map { "\(type(of: $0))" } ?? "nil")", at: start)
                }
                return NSExpression(forKeyPath: k)
            }
            if let expression = arg as? NSExpression { return expression }
            return NSExpression(forConstantValue: Self.normalize(arg, specifier: c))
        case .lbrace:
            try advance()
            var items: [NSExpression] = []
            if tok != .rbrace {
                items.append(try parseExpression())
                while tok == .comma {
                    try advance()
                    items.append(try parseExpression())
                }
            }
            guard tok == .rbrace else {
                throw error("expected '}' to close '{' at offset \(start), found \(describe(tok))")
            }
            try advance()
            return NSExpression(forAggregate: items)
        case .lparen:
            try advance()
            let inner = try parseExpression()
            guard tok == .rparen else {
                throw error("expected ')' to close '(' at offset \(start), found \(describe(tok))")
            }
            try advance()
            return inner
        case .ident(let raw):
            return try parseWord(raw, start: start)
        case .end: throw error("expected an expression, found end of string")
        default: throw error("expected an expression, found \(describe(tok))")
        }
    }

    mutating func parseWord(_ raw: String, start: Int) throws -> NSExpression {
        if raw.hasPrefix("#") {
            try advance()
            return NSExpression(forKeyPath: String(raw.dropFirst()))
        }
        switch raw.uppercased() {
        case "NIL", "NULL":
            try advance()
            return NSExpression(forConstantValue: nil)
        case "TRUE", "YES":
            try advance()
            return NSExpression(forConstantValue: true)
        case "FALSE", "NO":
            try advance()
            return NSExpression(forConstantValue: false)
        case "SELF":
            try advance()
            return .expressionForEvaluatedObject()
        case "ANYKEY":
            try advance()
            return .expressionForAnyKey()
        case "SUBQUERY":
            try advance()
            try expect(.lparen, "'(' after SUBQUERY")
            let collection = try parseExpression()
            try expect(.comma, "',' after the SUBQUERY collection")
            guard case .variable(let v) = tok else {
                throw error("expected a $variable as the SUBQUERY iterator, found \(describe(tok))")
            }
            try advance()
            try expect(.comma, "',' after the SUBQUERY variable")
            let predicate = try parseOr()
            try expect(.rparen, "')' to close SUBQUERY")
            return NSExpression(forSubquery: collection, usingIteratorVariable: v, predicate: predicate)
        case "TERNARY":
            try advance()
            try expect(.lparen, "'(' after TERNARY")
            let predicate = try parseOr()
            try expect(.comma, "',' after the TERNARY predicate")
            let yes = try parseExpression()
            try expect(.comma, "',' after the TERNARY true expression")
            let no = try parseExpression()
            try expect(.rparen, "')' to close TERNARY")
            return NSExpression(forConditional: predicate, trueExpression: yes, falseExpression: no)
        case "FUNCTION":
            try advance()
            try expect(.lparen, "'(' after FUNCTION")
            let target = try parseExpression()
            try expect(.comma, "',' after the FUNCTION target")
            guard case .string(let selector) = tok, !selector.isEmpty else {
                throw error("expected the selector's name as a string in FUNCTION, found \(describe(tok))")
            }
            try advance()
            var items: [NSExpression] = []
            while tok == .comma {
                try advance()
                items.append(try parseExpression())
            }
            try expect(.rparen, "')' to close FUNCTION")
            let colons = selector.filter { $0 == ":" }.count
            guard colons == items.count else {
                throw error(
                    "FUNCTION's selector \"\(selector)\" takes \(colons) argument(s), but \(items.count) were given",
                    at: start)
            }
            return NSExpression(forFunction: target, selectorName: selector, arguments: items)
        case "CAST":
            try advance()
            try expect(.lparen, "'(' after CAST")
            let value = try parseExpression()
            try expect(.comma, "',' in CAST")
            let typeExpression = try parseExpression()
            try expect(.rparen, "')' to close CAST")
            return try Self.cast(value, to: typeExpression, error: { self.error($0, at: start) })
        case "FIRST", "LAST", "SIZE":
            throw error("'\(raw)' stands only inside an index, as in items[\(raw.uppercased())]")
        default:
            break
        }
        try advance()
        if tok == .lparen || raw.contains(":") {
            try expect(.lparen, "'(' after the function name \(raw)")
            let args = try parseArguments(of: raw)
            let name = raw.contains(":") || args.isEmpty ? raw : raw + ":"
            guard let arity = Self.functionArity[name] else {
                throw error("unknown function '\(raw)'", at: start)
            }
            guard arity == args.count else {
                throw error("\(name) takes \(arity) argument(s), but \(args.count) were given", at: start)
            }
            return NSExpression(forFunction: name, arguments: args)
        }
        if Self.reserved.contains(raw.uppercased()) {
            throw error("reserved word '\(raw)' cannot be used as a key (escape it as #\(raw))", at: start)
        }
        return NSExpression(forKeyPath: raw)
    }

    /// `CAST(value, "Type")`: a constant is converted now (a number to `NSDate` is how Apple writes dates); any other
    /// value becomes the `castObject:toType:` function.
    static func cast(
        _ value: NSExpression, to typeExpression: NSExpression, error: (String) -> NSPredicateFormatError
    ) throws -> NSExpression {
        guard typeExpression.expressionType == .constantValue, let typeName = typeExpression.constantValue as? String
        else {
            throw error("CAST needs a type name string such as \"NSDate\" as its second argument")
        }
        guard ["NSDate", "NSNumber", "NSString", "NSDecimalNumber", "NSUUID", "UUID"].contains(typeName) else {
            throw error("unsupported CAST type \"\(typeName)\" (NSDate, NSNumber, NSDecimalNumber, NSString or UUID)")
        }
        guard value.expressionType == .constantValue else {
            return NSExpression(forFunction: "castObject:toType:", arguments: [value, typeExpression])
        }
        do {
            return NSExpression(forConstantValue: try ExpressionFunctions.cast(value.constantValue, to: typeName))
        } catch let failure as NSPredicateEvaluationError {
            throw error(failure.description)
        }
    }

    /// Normalizes a format argument into a constant value.
    static func normalize(_ arg: Any?, specifier: Character) -> Any? {
        guard let arg else { return nil }
        if arg is NSNull { return nil }
        if case Optional<Any>.none = arg as Any? { return nil }
        switch specifier {
        case "d", "i", "D", "o", "O", "x", "X", "c", "u", "U":
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
