import Foundation

/// Renders predicates and expressions as Apple's `predicateFormat` and `NSExpression.description` spell them:
/// numbers as `NSNumber` prints them (`30`, not `30.0`), strings in double quotes, dates as
/// `CAST(<seconds since 2001, six decimals>, "NSDate")`, functions as `name:(args)`, arithmetic infix.
enum PredicateFormatter {
    static func format(_ p: NSPredicate) -> String {
        if let c = p as? NSComparisonPredicate { return format(c) }
        if let c = p as? NSCompoundPredicate { return format(c) }
        return p.predicateFormat
    }

    static func format(_ c: NSComparisonPredicate) -> String {
        var s = ""
        switch c.comparisonPredicateModifier {
        case .any: s = "ANY "
        case .all: s = "ALL "
        case .direct: break
        }
        s += format(c.leftExpression)
        s += " " + opName(c.predicateOperatorType)
        if !c.options.isEmpty {
            s += "["
            if c.options.contains(.caseInsensitive) { s += "c" }
            if c.options.contains(.diacriticInsensitive) { s += "d" }
            if c.options.contains(.normalized) { s += "n" }
            s += "]"
        }
        return s + " " + format(c.rightExpression)
    }

    static func opName(_ o: NSComparisonPredicate.Operator) -> String {
        switch o {
        case .lessThan: return "<"
        case .lessThanOrEqualTo: return "<="
        case .greaterThan: return ">"
        case .greaterThanOrEqualTo: return ">="
        case .equalTo: return "=="
        case .notEqualTo: return "!="
        case .matches: return "MATCHES"
        case .like: return "LIKE"
        case .beginsWith: return "BEGINSWITH"
        case .endsWith: return "ENDSWITH"
        case .in: return "IN"
        case .customSelector: return "CUSTOMSELECTOR"
        case .contains: return "CONTAINS"
        case .between: return "BETWEEN"
        }
    }

    static func format(_ c: NSCompoundPredicate) -> String {
        func sub(_ p: NSPredicate) -> String {
            if p is NSCompoundPredicate { return "(" + format(p) + ")" }
            return format(p)
        }
        switch c.compoundPredicateType {
        case .not: return "NOT " + (c.subpredicates.first.map(sub) ?? "TRUEPREDICATE")
        case .and:
            return c.subpredicates.isEmpty ? "TRUEPREDICATE" : c.subpredicates.map(sub).joined(separator: " AND ")
        case .or:
            return c.subpredicates.isEmpty ? "FALSEPREDICATE" : c.subpredicates.map(sub).joined(separator: " OR ")
        }
    }

    /// A key path as a format spells it: a component that is a keyword, or starts with a digit (`#5e`, which would
    /// otherwise read as a number), is escaped with `#`.
    static func key(_ path: String) -> String {
        path.split(separator: ".", omittingEmptySubsequences: false).map { comp -> String in
            let startsWithDigit = comp.utf8.first.map { $0 >= 48 && $0 <= 57 } ?? false
            return startsWithDigit || PredicateParser.reserved.contains(comp.uppercased()) ? "#" + comp : String(comp)
        }.joined(separator: ".")
    }

    /// Infix spellings of the arithmetic functions, with their binding strength (higher binds tighter).
    static let infix: [String: (symbol: String, precedence: Int)] = [
        "add:to:": ("+", 1), "from:subtract:": ("-", 1), "multiply:by:": ("*", 2), "divide:by:": ("/", 2),
        "raise:toPower:": ("**", 4),
    ]

    /// How tightly an expression's printed form binds (set operators 0, `+ -` 1, `* /` 2, `**` 4, atoms 5).
    static func precedence(_ e: NSExpression) -> Int {
        switch e.expressionType {
        case .unionSet, .intersectSet, .minusSet: return 0
        case .function where e.operand == nil:
            if let op = infix[e.function], e.arguments?.count == 2 { return op.precedence }
            return 5
        case .constantValue:
            // A negative number prints with its sign, which binds like a unary minus (3).
            if let d = PredicateValues.double(e.constantValue), d < 0, !(e.constantValue is Date) { return 3 }
            return 5
        default: return 5
        }
    }

    static func format(_ e: NSExpression) -> String {
        switch e.expressionType {
        case .constantValue: return constant(e.constantValue)
        case .evaluatedObject: return "SELF"
        case .variable: return "$" + e.variable
        case .anyKey: return "ANYKEY"
        case .keyPath:
            guard let op = e.operand, op.expressionType != .evaluatedObject else { return key(e.keyPath) }
            let base = precedence(op) < 5 ? "(" + format(op) + ")" : format(op)
            return base + "." + key(e.keyPath)
        case .function:
            return function(e)
        case .unionSet, .intersectSet, .minusSet:
            let word =
                e.expressionType == .unionSet ? "UNION" : e.expressionType == .intersectSet ? "INTERSECT" : "MINUS"
            let left = e.leftExpression.map(format) ?? "nil"
            let right = e.rightExpression.map { precedence($0) == 0 ? "(" + format($0) + ")" : format($0) } ?? "nil"
            return "\(left) \(word) \(right)"
        case .aggregate: return "{" + e.aggregateElements.map(format).joined(separator: ", ") + "}"
        case .subquery:
            let coll = (e.collection as? NSExpression).map(format) ?? "nil"
            return "SUBQUERY(\(coll), $\(e.variable), \(e.predicate.map(format) ?? "TRUEPREDICATE"))"
        case .conditional:
            let t = e.trueExpression.map(format) ?? "nil"
            let f = e.falseExpression.map(format) ?? "nil"
            return "TERNARY(\(e.predicate.map(format) ?? "TRUEPREDICATE"), \(t), \(f))"
        case .block:
            return "BLOCK(" + (e.arguments ?? []).map(format).joined(separator: ", ") + ")"
        }
    }

    static func function(_ e: NSExpression) -> String {
        let args = e.arguments ?? []
        if let target = e.operand {
            let rest = args.map { ", " + format($0) }.joined()
            return "FUNCTION(\(format(target)), \(quote(e.function))\(rest))"
        }
        if let op = infix[e.function], args.count == 2 {
            // As Apple prints them: an operand that is itself an operator expression is parenthesized, whatever
            // the precedence (`("b" + $b) + $c`, `a + (b * 2)`).
            // A negative number stays bare, except left of `**` (where -3 ** 2 would read as -(3 ** 2)).
            func operand(_ x: NSExpression, leftOfPower: Bool) -> String {
                let level = precedence(x)
                let wrap = level < 5 && (level != 3 || leftOfPower)
                return wrap ? "(" + format(x) + ")" : format(x)
            }
            let left = operand(args[0], leftOfPower: op.symbol == "**")
            return "\(left) \(op.symbol) \(operand(args[1], leftOfPower: false))"
        }
        if e.function == "objectFrom:withIndex:", args.count == 2 {
            let base = precedence(args[0]) < 5 ? "(" + format(args[0]) + ")" : format(args[0])
            return "\(base)[\(format(args[1]))]"
        }
        if e.function == "castObject:toType:", args.count == 2 {
            return "CAST(\(format(args[0])), \(format(args[1])))"
        }
        return "\(e.function)(\(args.map(format).joined(separator: ", ")))"
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\0": out += "\\0"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }

    /// `value` as an `NSNumber` when it is one (not a Swift number that would bridge to one).
    static func numberObject(_ value: Any) -> NSNumber? {
        Swift.type(of: value) is NSNumber.Type ? value as? NSNumber : nil
    }

    /// Whether an `NSNumber` holds a `double` or `float`.
    static func isFloatingPoint(_ n: NSNumber) -> Bool {
        let type = String(cString: n.objCType)
        return type == "d" || type == "f"
    }

    /// Whether an `NSNumber` holds an integer (or a Boolean).
    static func isIntegralNumber(_ value: Any) -> Bool {
        guard let n = numberObject(value) else { return false }
        return !isFloatingPoint(n)
    }

    /// A number as `NSNumber`'s description prints it: whole values without a fraction (`30`), others in the
    /// shortest form that reads back to the same double (`3.5`, `0.1`, `1e+20`).
    static func number(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        if d == d.rounded(), Swift.abs(d) < 1e16 { return String(Int64(d)) }
        return "\(d)"
    }

    static func constant(_ v: Any?) -> String {
        guard let v else { return "nil" }
        if let n = numberObject(v) {
            if String(cString: n.objCType) == "c" { return n.boolValue ? "1" : "0" }
            return isFloatingPoint(n) ? number(n.doubleValue) : n.stringValue
        }
        switch v {
        case let s as String: return quote(s)
        case let symbol as PredicateIndexSymbol: return symbol.name
        case let b as Bool: return b ? "1" : "0"
        case let d as Date: return "CAST(\(String(format: "%.6f", d.timeIntervalSinceReferenceDate)), \"NSDate\")"
        case let u as UUID: return "CAST(\(quote(u.uuidString)), \"UUID\")"
        case let u as URL: return quote(u.absoluteString)
        case let d as Double: return number(d)
        case let f as Float: return number(Double(f))
        case let d as Decimal: return NSDecimalNumber(decimal: d).stringValue
        case let e as NSExpression: return format(e)
        case let a as [Any]: return "{" + a.map { constant($0) }.joined(separator: ", ") + "}"
        case let s as Set<AnyHashable>: return "{" + s.map { constant($0.base) }.sorted().joined(separator: ", ") + "}"
        case let o as NSObject: return o.description
        default:
            if let n = PredicateValues.int64(v) { return String(n) }
            if let d = PredicateValues.double(v) { return number(d) }
            return quote("\(v)")
        }
    }
}
