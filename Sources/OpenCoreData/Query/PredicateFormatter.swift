import Foundation

/// Renders predicates and expressions in Apple's canonical format spelling.
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
        case .and: return c.subpredicates.isEmpty ? "TRUEPREDICATE" : c.subpredicates.map(sub).joined(separator: " AND ")
        case .or: return c.subpredicates.isEmpty ? "FALSEPREDICATE" : c.subpredicates.map(sub).joined(separator: " OR ")
        }
    }

    static func key(_ path: String) -> String {
        path.split(separator: ".", omittingEmptySubsequences: false).map { comp -> String in
            PredicateParser.reserved.contains(comp.uppercased()) ? "#" + comp : String(comp)
        }.joined(separator: ".")
    }

    static func format(_ e: NSExpression) -> String {
        switch e.expressionType {
        case .constantValue: return constant(e.constantValue)
        case .evaluatedObject: return "SELF"
        case .variable: return "$" + e.variable
        case .keyPath:
            guard let op = e.operand, op.expressionType != .evaluatedObject else { return key(e.keyPath) }
            return format(op) + "." + key(e.keyPath)
        case .function:
            let args = (e.arguments ?? []).map(format).joined(separator: ", ")
            return e.function.hasSuffix(":") ? "\(e.function.dropLast())(\(args))" : "\(e.function)(\(args))"
        case .aggregate: return "{" + e.aggregateElements.map(format).joined(separator: ", ") + "}"
        case .subquery:
            let coll = (e.collection as? NSExpression).map(format) ?? "nil"
            return "SUBQUERY(\(coll), $\(e.variable), \(e.predicate.map(format) ?? "TRUEPREDICATE"))"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }

    static func constant(_ v: Any?) -> String {
        guard let v else { return "nil" }
        switch v {
        case let s as String: return quote(s)
        case let b as Bool: return b ? "1" : "0"
        case let d as Date: return "CAST(\(d.timeIntervalSinceReferenceDate), \"NSDate\")"
        case let u as UUID: return "CAST(\(quote(u.uuidString)), \"UUID\")"
        case let u as URL: return quote(u.absoluteString)
        case let d as Double: return d == d.rounded() && abs(d) < 1e15 ? String(format: "%.1f", d) : "\(d)"
        case let f as Float: return "\(f)"
        case let n as NSNumber: return n.stringValue
        case let a as [Any]: return "{" + a.map { constant($0) }.joined(separator: ", ") + "}"
        case let s as Set<AnyHashable>: return "{" + s.map { constant($0.base) }.sorted().joined(separator: ", ") + "}"
        case let o as NSObject where !(o is NSNumber): return o.description
        default:
            if let n = PredicateValues.int64(v) { return String(n) }
            if let d = PredicateValues.double(v) { return "\(d)" }
            return quote("\(v)")
        }
    }
}
