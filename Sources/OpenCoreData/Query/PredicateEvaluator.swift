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
            return try KeyValueCoding.checkedValue(of: base, keyPath: e.keyPath)
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
            if let target = e.operand {
                return try ExpressionFunctions.perform(e.function, on: try value(of: target, object: object), args)
            }
            return try ExpressionFunctions.call(e.function, args)
        case .unionSet, .intersectSet, .minusSet:
            return try setOperation(e, object: object)
        case .conditional:
            guard let predicate = e.predicate, let yes = e.trueExpression, let no = e.falseExpression else {
                throw NSPredicateEvaluationError.invalidOperand("TERNARY needs a predicate and two expressions")
            }
            return try value(of: try evaluate(predicate, object: object) ? yes : no, object: object)
        case .block:
            guard let block = e.expressionBlock else { return nil }
            let args = try (e.arguments ?? []).map { try value(of: $0, object: object) ?? NSNull() }
            let context = NSMutableDictionary()
            for (key, value) in variables { context[key] = value }
            return PredicateValues.unwrap(block(object, args, context))
        case .anyKey:
            throw NSPredicateEvaluationError.invalidOperand(
                "ANYKEY is Spotlight's (any metadata attribute); it has no value for an object")
        }
    }

    /// `UNION`, `INTERSECT`, `MINUS`: the left must be a set (as Apple requires), the right any collection.
    func setOperation(_ e: NSExpression, object: Any?) throws -> Any? {
        guard let leftExpression = e.leftExpression, let rightExpression = e.rightExpression else {
            throw NSPredicateEvaluationError.invalidOperand("a set expression needs two sides")
        }
        let name = e.expressionType == .unionSet ? "UNION" : e.expressionType == .intersectSet ? "INTERSECT" : "MINUS"
        func elements(_ value: Any?, side: String) throws -> [AnyHashable] {
            guard let items = PredicateValues.collection(PredicateValues.unwrap(value)) else {
                throw NSPredicateEvaluationError.invalidOperand(
                    "\(name) needs a collection on its \(side), got \(ExpressionFunctions.describe(value))")
            }
            return try items.map { item in
                guard let hashable = item as? AnyHashable else {
                    throw NSPredicateEvaluationError.invalidOperand(
                        "\(name) needs elements that can be in a set, got \(ExpressionFunctions.describe(item))")
                }
                return hashable
            }
        }
        let leftValue = PredicateValues.unwrap(try value(of: leftExpression, object: object))
        guard leftValue is Set<AnyHashable> || leftValue is NSSet || leftExpression.expressionType == .aggregate else {
            throw NSPredicateEvaluationError.invalidOperand(
                "\(name) needs a set on its left, got \(ExpressionFunctions.describe(leftValue))")
        }
        let left = Set(try elements(leftValue, side: "left"))
        let right = Set(try elements(try value(of: rightExpression, object: object), side: "right"))
        switch e.expressionType {
        case .unionSet: return left.union(right)
        case .intersectSet: return left.intersection(right)
        default: return left.subtracting(right)
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
                throw NSPredicateEvaluationError.invalidOperand(
                    "\(c.comparisonPredicateModifier == .any ? "ANY" : "ALL") needs a collection on the left of '\(c.predicateFormat)'"
                )
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
        case .lessThan: return try order(l, r, c) == .orderedAscending
        case .lessThanOrEqualTo: return try order(l, r, c).map { $0 != .orderedDescending } ?? false
        case .greaterThan: return try order(l, r, c) == .orderedDescending
        case .greaterThanOrEqualTo: return try order(l, r, c).map { $0 != .orderedAscending } ?? false
        case .beginsWith, .endsWith:
            guard let s = PredicateValues.string(PredicateValues.unwrap(l)),
                let t = PredicateValues.string(PredicateValues.unwrap(r))
            else { return false }
            let fs = PredicateValues.fold(s, o)
            let ft = PredicateValues.fold(t, o)
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
                throw NSPredicateEvaluationError.invalidOperand(
                    "IN needs a collection or string on the right of '\(c.predicateFormat)'")
            }
            return elements.contains { PredicateValues.equal(l, $0, options: o) }
        case .between:
            guard let bounds = PredicateValues.collection(PredicateValues.unwrap(r)), bounds.count == 2 else {
                throw NSPredicateEvaluationError.invalidOperand(
                    "BETWEEN needs a two-element collection on the right of '\(c.predicateFormat)'")
            }
            guard let lo = PredicateValues.compare(l, bounds[0], options: o),
                let hi = PredicateValues.compare(l, bounds[1], options: o)
            else { return false }
            return lo != .orderedAscending && hi != .orderedDescending
        case .like:
            guard let s = PredicateValues.string(PredicateValues.unwrap(l)),
                let p = PredicateValues.string(PredicateValues.unwrap(r))
            else { return false }
            return Self.like(
                Array(PredicateValues.fold(s, o).unicodeScalars), Array(PredicateValues.fold(p, o).unicodeScalars))
        case .matches:
            guard let s = PredicateValues.string(PredicateValues.unwrap(l)),
                let p = PredicateValues.string(PredicateValues.unwrap(r))
            else { return false }
            var ro: NSRegularExpression.Options = []
            if o.contains(.caseInsensitive) { ro.insert(.caseInsensitive) }
            let subject = o.contains(.diacriticInsensitive) ? PredicateValues.fold(s, [.diacriticInsensitive]) : s
            let re: NSRegularExpression
            do { re = try NSRegularExpression(pattern: "^(?:" + p + ")$", options: ro) } catch {
                throw NSPredicateEvaluationError.invalidRegularExpression(p)
            }
            let ns = subject as NSString
            return re.firstMatch(in: subject, options: [], range: NSRange(location: 0, length: ns.length)) != nil
        case .customSelector:
            throw NSPredicateEvaluationError.invalidOperand("custom selectors are not supported on Linux")
        }
    }

    /// The order of two values for `<`, `<=`, `>`, `>=`: nil when either is nil (the comparison is false, as
    /// Apple's); values that cannot be ordered against each other (a string and a number) are an error, where
    /// Apple raises.
    func order(_ l: Any?, _ r: Any?, _ c: NSComparisonPredicate) throws -> ComparisonResult? {
        let a = PredicateValues.unwrap(l)
        let b = PredicateValues.unwrap(r)
        guard let a, let b else { return nil }
        guard let result = PredicateValues.compare(a, b, options: c.options) else {
            throw NSPredicateEvaluationError.invalidOperand(
                "'\(c.predicateFormat)' cannot compare \(ExpressionFunctions.describe(a)) with "
                    + ExpressionFunctions.describe(b))
        }
        return result
    }

    /// `LIKE` matching: `?` one character, `*` any run, `\` escapes; whole string.
    static func like(_ s: [Unicode.Scalar], _ p: [Unicode.Scalar]) -> Bool {
        var si = 0
        var pi = 0
        var star = -1
        var mark = 0
        while si < s.count {
            if pi < p.count, p[pi] == "\\", pi + 1 < p.count, p[pi + 1] == s[si] {
                si += 1
                pi += 2
                continue
            }
            if pi < p.count, p[pi] == "*" {
                star = pi
                mark = si
                pi += 1
                continue
            }
            if pi < p.count, p[pi] == "?" || (p[pi] == s[si] && p[pi] != "\\") {
                si += 1
                pi += 1
                continue
            }
            if star >= 0 {
                pi = star + 1
                mark += 1
                si = mark
                continue
            }
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
            return NSComparisonPredicate(
                leftExpression: try substitute(c.leftExpression), rightExpression: try substitute(c.rightExpression),
                modifier: c.comparisonPredicateModifier, type: c.predicateOperatorType, options: c.options)
        }
        if let c = p as? NSCompoundPredicate {
            return NSCompoundPredicate(
                type: c.compoundPredicateType, subpredicates: try c.subpredicates.map(substitute))
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
        case .function:
            let args = try (e.arguments ?? []).map(substitute)
            if let target = e.operand {
                return NSExpression(forFunction: try substitute(target), selectorName: e.function, arguments: args)
            }
            return NSExpression(forFunction: e.function, arguments: args)
        case .subquery:
            guard let coll = e.collection as? NSExpression, let pred = e.predicate else { return e }
            var inner = self
            inner.bound.insert(e.variable)
            return NSExpression(
                forSubquery: try substitute(coll), usingIteratorVariable: e.variable,
                predicate: try inner.substitute(pred))
        case .unionSet, .intersectSet, .minusSet:
            guard let l = e.leftExpression, let r = e.rightExpression else { return e }
            let (left, right) = (try substitute(l), try substitute(r))
            switch e.expressionType {
            case .unionSet: return NSExpression(forUnionSet: left, with: right)
            case .intersectSet: return NSExpression(forIntersectSet: left, with: right)
            default: return NSExpression(forMinusSet: left, with: right)
            }
        case .conditional:
            guard let p = e.predicate, let t = e.trueExpression, let f = e.falseExpression else { return e }
            return NSExpression(
                forConditional: try substitute(p), trueExpression: try substitute(t), falseExpression: try substitute(f)
            )
        case .block:
            guard let block = e.expressionBlock else { return e }
            return NSExpression(block: block, arguments: try e.arguments.map { try $0.map(substitute) })
        case .constantValue, .evaluatedObject, .anyKey: return e
        }
    }
}
