import Foundation

/// Why a predicate could not be evaluated or substituted.
public enum NSPredicateEvaluationError: Error, CustomStringConvertible, Sendable {
    /// A `$variable` had no value in the bindings.
    case missingVariable(String)
    /// An operator got operands it cannot work with.
    case invalidOperand(String)
    /// A `MATCHES` pattern is not a valid regular expression.
    case invalidRegularExpression(String)
    /// Readable description.
    public var description: String {
        switch self {
        case .missingVariable(let v): return "Can't get value for '\(v)' in bindings"
        case .invalidOperand(let m): return "Invalid operand: \(m)"
        case .invalidRegularExpression(let p): return "Can't do regex matching, reason: invalid pattern '\(p)'"
        }
    }
}

/// Evaluates predicate trees against in-memory objects.
struct PredicateEvaluator {
    var variables: [String: Any]

    func evaluate(_ p: NSPredicate, object: Any?) throws -> Bool {
        if let c = p as? NSComparisonPredicate { return try evaluate(c, object: object) }
        if let c = p as? NSCompoundPredicate {
            switch c.compoundPredicateType {
            case .and:
                for s in c.subpredicates where try !evaluate(s, object: object) { return false }
                return true
            case .or:
                for s in c.subpredicates where try evaluate(s, object: object) { return true }
                return false
            case .not:
                guard let s = c.subpredicates.first else { return false }
                return try !evaluate(s, object: object)
            }
        }
        switch p.kind {
        case .value(let v): return v
        case .block(let b): return b(object, variables)
        case .node: return false
        }
    }

    func value(of e: NSExpression, object: Any?) throws -> Any? {
        switch e.expressionType {
        case .constantValue: return e.constantValue
        case .evaluatedObject: return object
        case .variable:
            guard let v = variables[e.variable] else { throw NSPredicateEvaluationError.missingVariable(e.variable) }
            return PredicateValues.unwrap(v)
        case .keyPath:
            let base = try e.operand.map { try value(of: $0, object: object) } ?? object
            return KeyValueCoding.value(of: base, keyPath: e.keyPath)
        case .aggregate:
            return try e.aggregateElements.map { try value(of: $0, object: object) ?? NSNull() }
        case .subquery:
            guard let collExpr = e.collection as? NSExpression, let pred = e.predicate else { return [Any]() }
            let elements = PredicateValues.collection(try value(of: collExpr, object: object)) ?? []
            var inner = self
            var out: [Any] = []
            for el in elements {
                inner.variables[e.variable] = el
                if try inner.evaluate(pred, object: object) { out.append(el) }
            }
            return out
        case .function:
            let args = try (e.arguments ?? []).map { try value(of: $0, object: object) }
            func flat() -> [Any] { args.flatMap { PredicateValues.collection($0) ?? ($0.map { [$0] } ?? []) } }
            switch e.function {
            case "count:": return flat().count
            case "sum:": return flat().reduce(0.0) { $0 + (PredicateValues.double($1) ?? 0) }
            case "average:":
                let v = flat()
                return v.isEmpty ? nil : v.reduce(0.0) { $0 + (PredicateValues.double($1) ?? 0) } / Double(v.count)
            case "min:": return flat().min { PredicateValues.compare($0, $1) == .orderedAscending }
            case "max:": return flat().max { PredicateValues.compare($0, $1) == .orderedAscending }
            case "uppercase:": return PredicateValues.string(args.first ?? nil)?.uppercased()
            case "lowercase:": return PredicateValues.string(args.first ?? nil)?.lowercased()
            case "abs:": return PredicateValues.double(args.first ?? nil).map { Swift.abs($0) }
            case "now": return Date()
            default: throw NSPredicateEvaluationError.invalidOperand("unsupported function '\(e.function)'")
            }
        }
    }

    func evaluate(_ c: NSComparisonPredicate, object: Any?) throws -> Bool {
        let left = try value(of: c.leftExpression, object: object)
        let right = try value(of: c.rightExpression, object: object)
        switch c.comparisonPredicateModifier {
        case .direct: return try compare(left, right, c)
        case .any, .all:
            guard let elements = PredicateValues.collection(left) else {
                if left == nil { return false }
                throw NSPredicateEvaluationError.invalidOperand("\(c.comparisonPredicateModifier == .any ? "ANY" : "ALL") needs a collection on the left of '\(c.predicateFormat)'")
            }
            if c.comparisonPredicateModifier == .any {
                for el in elements where try compare(el, right, c) { return true }
                return false
            }
            for el in elements where try !compare(el, right, c) { return false }
            return true
        }
    }

    func compare(_ l: Any?, _ r: Any?, _ c: NSComparisonPredicate) throws -> Bool {
        let o = c.options
        switch c.predicateOperatorType {
        case .equalTo: return PredicateValues.equal(l, r, options: o)
        case .notEqualTo: return !PredicateValues.equal(l, r, options: o)
        case .lessThan: return PredicateValues.compare(l, r, options: o) == .orderedAscending
        case .lessThanOrEqualTo: return PredicateValues.compare(l, r, options: o).map { $0 != .orderedDescending } ?? false
        case .greaterThan: return PredicateValues.compare(l, r, options: o) == .orderedDescending
        case .greaterThanOrEqualTo: return PredicateValues.compare(l, r, options: o).map { $0 != .orderedAscending } ?? false
        case .beginsWith, .endsWith:
            guard let s = PredicateValues.string(PredicateValues.unwrap(l)), let t = PredicateValues.string(PredicateValues.unwrap(r)) else { return false }
            let fs = PredicateValues.fold(s, o), ft = PredicateValues.fold(t, o)
            return c.predicateOperatorType == .beginsWith ? fs.hasPrefix(ft) : fs.hasSuffix(ft)
        case .contains:
            if let s = PredicateValues.string(PredicateValues.unwrap(l)) {
                guard let t = PredicateValues.string(PredicateValues.unwrap(r)) else { return false }
                return t.isEmpty || PredicateValues.fold(s, o).contains(PredicateValues.fold(t, o))
            }
            guard let elements = PredicateValues.collection(PredicateValues.unwrap(l)) else { return false }
            return elements.contains { PredicateValues.equal($0, r, options: o) }
        case .in:
            let rr = PredicateValues.unwrap(r)
            if let s = PredicateValues.string(rr) {
                guard let t = PredicateValues.string(PredicateValues.unwrap(l)) else { return false }
                return PredicateValues.fold(s, o).contains(PredicateValues.fold(t, o))
            }
            if let d = rr as? [String: Any] { return d.values.contains { PredicateValues.equal(l, $0, options: o) } }
            guard let elements = PredicateValues.collection(rr) else {
                if rr == nil { return false }
                throw NSPredicateEvaluationError.invalidOperand("IN needs a collection or string on the right of '\(c.predicateFormat)'")
            }
            return elements.contains { PredicateValues.equal(l, $0, options: o) }
        case .between:
            guard let bounds = PredicateValues.collection(PredicateValues.unwrap(r)), bounds.count == 2 else {
                throw NSPredicateEvaluationError.invalidOperand("BETWEEN needs a two-element collection on the right of '\(c.predicateFormat)'")
            }
            guard let lo = PredicateValues.compare(l, bounds[0], options: o), let hi = PredicateValues.compare(l, bounds[1], options: o) else { return false }
            return lo != .orderedAscending && hi != .orderedDescending
        case .like:
            guard let s = PredicateValues.string(PredicateValues.unwrap(l)), let p = PredicateValues.string(PredicateValues.unwrap(r)) else { return false }
            return Self.like(Array(PredicateValues.fold(s, o).unicodeScalars), Array(PredicateValues.fold(p, o).unicodeScalars))
        case .matches:
            guard let s = PredicateValues.string(PredicateValues.unwrap(l)), let p = PredicateValues.string(PredicateValues.unwrap(r)) else { return false }
            var ro: NSRegularExpression.Options = []
            if o.contains(.caseInsensitive) { ro.insert(.caseInsensitive) }
            let subject = o.contains(.diacriticInsensitive) ? PredicateValues.fold(s, [.diacriticInsensitive]) : s
            let re: NSRegularExpression
            do { re = try NSRegularExpression(pattern: "^(?:" + p + ")$", options: ro) }
            catch { throw NSPredicateEvaluationError.invalidRegularExpression(p) }
            let ns = subject as NSString
            return re.firstMatch(in: subject, options: [], range: NSRange(location: 0, length: ns.length)) != nil
        case .customSelector:
            throw NSPredicateEvaluationError.invalidOperand("custom selectors are not supported on Linux")
        }
    }

    /// `LIKE` matching: `?` one character, `*` any run, `\` escapes; whole string.
    static func like(_ s: [Unicode.Scalar], _ p: [Unicode.Scalar]) -> Bool {
        var si = 0, pi = 0, star = -1, mark = 0
        while si < s.count {
            if pi < p.count, p[pi] == "\\", pi + 1 < p.count, p[pi + 1] == s[si] { si += 1; pi += 2; continue }
            if pi < p.count, p[pi] == "*" { star = pi; mark = si; pi += 1; continue }
            if pi < p.count, p[pi] == "?" || (p[pi] == s[si] && p[pi] != "\\") { si += 1; pi += 1; continue }
            if star >= 0 { pi = star + 1; mark += 1; si = mark; continue }
            return false
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}

/// Replaces `$variables` by constants (leaving SUBQUERY iteration variables alone).
struct PredicateSubstitution {
    var variables: [String: Any]
    var bound: Set<String> = []

    func substitute(_ p: NSPredicate) throws -> NSPredicate {
        if let c = p as? NSComparisonPredicate {
            return NSComparisonPredicate(leftExpression: try substitute(c.leftExpression), rightExpression: try substitute(c.rightExpression),
                                         modifier: c.comparisonPredicateModifier, type: c.predicateOperatorType, options: c.options)
        }
        if let c = p as? NSCompoundPredicate {
            return NSCompoundPredicate(type: c.compoundPredicateType, subpredicates: try c.subpredicates.map(substitute))
        }
        return p
    }

    func substitute(_ e: NSExpression) throws -> NSExpression {
        switch e.expressionType {
        case .variable:
            if bound.contains(e.variable) { return e }
            guard let v = variables[e.variable] else { throw NSPredicateEvaluationError.missingVariable(e.variable) }
            return NSExpression(forConstantValue: PredicateValues.unwrap(v))
        case .keyPath:
            guard let op = e.operand else { return e }
            return NSExpression(forKeyPath: e.keyPath, of: try substitute(op))
        case .aggregate: return NSExpression(forAggregate: try e.aggregateElements.map(substitute))
        case .function: return NSExpression(forFunction: e.function, arguments: try (e.arguments ?? []).map(substitute))
        case .subquery:
            guard let coll = e.collection as? NSExpression, let pred = e.predicate else { return e }
            var inner = self
            inner.bound.insert(e.variable)
            return NSExpression(forSubquery: try substitute(coll), usingIteratorVariable: e.variable, predicate: try inner.substitute(pred))
        case .constantValue, .evaluatedObject: return e
        }
    }
}
