import Foundation

/// The values of Apple's built-in expression functions (`sum:`, `add:to:`, `sqrt:`, `now` …), of
/// `FUNCTION(receiver, "selector", …)` for the selectors that have a Swift equivalent, of indexes and of `CAST`.
///
/// Numbers follow `NSNumber`'s arithmetic: integers stay integers while the result fits (an overflow is done in
/// doubles), `divide:by:` and the statistics are doubles. An operand of the wrong kind is an
/// `NSPredicateEvaluationError` naming the function, where Apple raises.
enum ExpressionFunctions {
    typealias Failure = NSPredicateEvaluationError

    /// Calls the built-in function `name` with the arguments' values.
    static func call(_ name: String, _ args: [Any?]) throws -> Any? {
        func arg(_ i: Int) -> Any? { i < args.count ? PredicateValues.unwrap(args[i]) : nil }
        func values() -> [Any] {
            args.flatMap { value -> [Any] in
                let value = PredicateValues.unwrap(value)
                return PredicateValues.collection(value) ?? (value.map { [$0] } ?? [])
            }
            .compactMap(PredicateValues.unwrap)
        }
        func numbers() throws -> [Double] {
            try values().map { value in
                guard let d = PredicateValues.double(value) else {
                    throw Failure.invalidOperand("\(name) needs numbers, got \(describe(value))")
                }
                return d
            }
        }
        func number(_ i: Int) throws -> Double? {
            guard let value = arg(i) else { return nil }
            guard let d = PredicateValues.double(value) else {
                throw Failure.invalidOperand("\(name) needs a number, got \(describe(value))")
            }
            return d
        }
        func integer(_ i: Int) throws -> Int64? {
            guard let value = arg(i) else { return nil }
            guard let n = PredicateValues.int64(value) ?? PredicateValues.double(value).flatMap({ Int64(exactly: $0) })
            else {
                throw Failure.invalidOperand("\(name) needs an integer, got \(describe(value))")
            }
            return n
        }
        switch name {
        case "count:": return values().count
        case "sum:": return numberResult(try numbers().reduce(0, +), integral: values().allSatisfy(isInteger))
        case "average:":
            let xs = try numbers()
            return xs.isEmpty ? nil : xs.reduce(0, +) / Double(xs.count)
        case "min:": return try extreme(values(), name: name, wantsLarger: false)
        case "max:": return try extreme(values(), name: name, wantsLarger: true)
        case "median:":
            let xs = try numbers().sorted()
            guard !xs.isEmpty else { return nil }
            return xs.count % 2 == 1 ? xs[xs.count / 2] : (xs[xs.count / 2 - 1] + xs[xs.count / 2]) / 2
        case "mode:":
            // Every value that occurs most often, in the order first seen (Apple returns an array).
            let xs = values()
            var counts: [(value: Any, count: Int)] = []
            for x in xs {
                if let i = counts.firstIndex(where: { PredicateValues.equal($0.value, x) }) {
                    counts[i].count += 1
                } else {
                    counts.append((x, 1))
                }
            }
            let most = counts.map(\.count).max() ?? 0
            return counts.filter { $0.count == most }.map(\.value)
        case "stddev:":
            // The population standard deviation (n in the denominator).
            let xs = try numbers()
            guard !xs.isEmpty else { return nil }
            let mean = xs.reduce(0, +) / Double(xs.count)
            return (xs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(xs.count)).squareRoot()
        case "add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:", "raise:toPower:":
            return try arithmetic(name, arg(0), arg(1))
        case "sqrt:": return try number(0).map { $0.squareRoot() }
        case "log:": return try number(0).map { Foundation.log10($0) }
        case "ln:": return try number(0).map { Foundation.log($0) }
        case "exp:": return try number(0).map { Foundation.exp($0) }
        case "ceiling:": return try number(0).map { $0.rounded(.up) }
        case "floor:": return try number(0).map { $0.rounded(.down) }
        case "trunc:": return try number(0).map { $0.rounded(.towardZero) }
        case "abs:":
            guard let value = arg(0) else { return nil }
            if isInteger(value), let i = PredicateValues.int64(value), i != .min { return Int(Swift.abs(i)) }
            return try number(0).map { Swift.abs($0) }
        case "uppercase:", "lowercase:":
            guard let value = arg(0) else { return nil }
            guard let s = PredicateValues.string(value) else {
                throw Failure.invalidOperand("\(name) needs a string, got \(describe(value))")
            }
            return name == "uppercase:" ? s.uppercased() : s.lowercased()
        case "random": return Double.random(in: 0..<1)
        case "random:":
            let xs = values()
            return xs.randomElement()
        case "randomn:":
            guard let n = try integer(0), n > 0 else {
                throw Failure.invalidOperand("randomn: needs a positive integer")
            }
            return Int(Int64.random(in: 0..<n))
        case "now": return Date()
        case "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:":
            guard let a = try integer(0), let b = try integer(1) else { return nil }
            switch name {
            case "bitwiseAnd:with:": return Int(a & b)
            case "bitwiseOr:with:": return Int(a | b)
            case "bitwiseXor:with:": return Int(a ^ b)
            case "leftshift:by:": return Int(b >= 64 || b < 0 ? 0 : a << b)
            default: return Int(b >= 64 || b < 0 ? (a < 0 ? -1 : 0) : a >> b)
            }
        case "onesComplement:": return try integer(0).map { Int(~$0) }
        case "noindex:": return arg(0)
        case "distinct:":
            var out: [Any] = []
            for value in values() where !out.contains(where: { PredicateValues.equal($0, value) }) { out.append(value) }
            return out
        case "castObject:toType:":
            guard let typeName = arg(1) as? String else { throw Failure.invalidOperand("CAST needs a type name") }
            return try cast(arg(0), to: typeName)
        case "objectFrom:withIndex:":
            return try index(arg(0), arg(1))
        default:
            throw Failure.invalidOperand("unknown function '\(name)'")
        }
    }

    /// `a + b`, `a - b`, `a * b`, `a / b`, `modulus:by:`, `a ** b`. nil operands give nil.
    static func arithmetic(_ name: String, _ a: Any?, _ b: Any?) throws -> Any? {
        guard let a, let b else { return nil }
        // Dates: a date plus or minus seconds is a date; a date minus a date is seconds.
        if let date = a as? Date {
            if let seconds = PredicateValues.double(b), name == "add:to:" || name == "from:subtract:" {
                return date.addingTimeInterval(name == "add:to:" ? seconds : -seconds)
            }
            if let other = b as? Date, name == "from:subtract:" { return date.timeIntervalSince(other) }
        }
        if let date = b as? Date, let seconds = PredicateValues.double(a), name == "add:to:" {
            return date.addingTimeInterval(seconds)
        }
        guard let x = PredicateValues.double(a), let y = PredicateValues.double(b) else {
            throw Failure.invalidOperand("\(symbol(name)) needs numbers, got \(describe(a)) and \(describe(b))")
        }
        if isInteger(a), isInteger(b), let i = PredicateValues.int64(a), let j = PredicateValues.int64(b) {
            switch name {
            case "add:to:":
                let (r, overflow) = i.addingReportingOverflow(j)
                if !overflow { return Int(r) }
            case "from:subtract:":
                let (r, overflow) = i.subtractingReportingOverflow(j)
                if !overflow { return Int(r) }
            case "multiply:by:":
                let (r, overflow) = i.multipliedReportingOverflow(by: j)
                if !overflow { return Int(r) }
            case "modulus:by:":
                guard j != 0 else { throw Failure.invalidOperand("modulus:by: by zero") }
                if !(i == .min && j == -1) { return Int(i % j) }
            default: break
            }
        }
        switch name {
        case "add:to:": return x + y
        case "from:subtract:": return x - y
        case "multiply:by:": return x * y
        case "divide:by:": return x / y
        case "modulus:by:":
            guard y != 0 else { throw Failure.invalidOperand("modulus:by: by zero") }
            return fmod(x, y)
        default:
            let r = Foundation.pow(x, y)
            if isInteger(a), isInteger(b), y >= 0, let exact = Int64(exactly: r) { return Int(exact) }
            return r
        }
    }

    /// `collection[index]`: an integer index, `FIRST`, `LAST` or `SIZE`; a dictionary takes a key.
    static func index(_ collection: Any?, _ index: Any?) throws -> Any? {
        guard let collection else { return nil }
        if let symbol = index as? PredicateIndexSymbol {
            if symbol.name == "SIZE" {
                if let d = collection as? [String: Any] { return d.count }
                if let d = collection as? NSDictionary { return d.count }
            }
            guard let elements = PredicateValues.collection(collection) else {
                throw Failure.invalidOperand("[\(symbol.name)] needs an array, got \(describe(collection))")
            }
            switch symbol.name {
            case "FIRST": return elements.first
            case "LAST": return elements.last
            default: return elements.count
            }
        }
        if let key = index as? String {
            if let d = collection as? [String: Any] { return d[key] }
            if let d = collection as? NSDictionary { return d.object(forKey: key) }
            return KeyValueCoding.value(of: collection, key: key)
        }
        guard let i = PredicateValues.int64(index) else {
            throw Failure.invalidOperand("an index must be a whole number, FIRST, LAST or SIZE, got \(describe(index))")
        }
        guard let elements = PredicateValues.collection(collection) else {
            throw Failure.invalidOperand("[\(i)] needs an array, got \(describe(collection))")
        }
        guard i >= 0, i < elements.count else {
            throw Failure.invalidOperand("index \(i) beyond bounds [0 .. \(elements.count - 1)]")
        }
        return elements[Int(i)]
    }

    /// `CAST(value, "Type")`.
    static func cast(_ value: Any?, to typeName: String) throws -> Any? {
        let value = PredicateValues.unwrap(value)
        guard let value else { return nil }
        switch typeName {
        case "NSDate":
            if let date = value as? Date { return date }
            if let seconds = PredicateValues.double(value) { return Date(timeIntervalSinceReferenceDate: seconds) }
            if let s = PredicateValues.string(value), let seconds = Double(s) {
                return Date(timeIntervalSinceReferenceDate: seconds)
            }
            throw Failure.invalidOperand("CAST to NSDate needs a number of seconds, got \(describe(value))")
        case "NSNumber", "NSDecimalNumber":
            if let date = value as? Date { return date.timeIntervalSinceReferenceDate }
            if PredicateValues.double(value) != nil { return value }
            if let s = PredicateValues.string(value) {
                let trimmed = s.trimmingCharacters(in: .whitespaces)
                if let i = Int(trimmed) { return i }
                if let d = Double(trimmed) { return d }
                return 0  // as NSString's doubleValue: a string that is not a number is 0
            }
            throw Failure.invalidOperand("CAST to \(typeName) needs a number, string or date, got \(describe(value))")
        case "NSString":
            if let s = PredicateValues.string(value) { return s }
            if let date = value as? Date { return PredicateFormatter.number(date.timeIntervalSinceReferenceDate) }
            return PredicateFormatter.constant(value).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        case "NSUUID", "UUID":
            if let uuid = value as? UUID { return uuid }
            guard let s = PredicateValues.string(value), let uuid = UUID(uuidString: s) else {
                throw Failure.invalidOperand("CAST to UUID needs a UUID string, got \(describe(value))")
            }
            return uuid
        default:
            throw Failure.invalidOperand("unsupported CAST type \"\(typeName)\"")
        }
    }

    /// `FUNCTION(receiver, "selector", args…)` for the selectors with a Swift equivalent: `String`'s
    /// (`uppercaseString`, `lowercaseString`, `capitalizedString`, `length`, `stringByAppendingString:`,
    /// `hasPrefix:`, `hasSuffix:`, `containsString:`, `substringToIndex:`, `substringFromIndex:`), numbers'
    /// (`intValue`, `doubleValue`, `stringValue` …), `description`, and `valueForKey:` / `valueForKeyPath:`.
    static func perform(_ selector: String, on receiver: Any?, _ args: [Any?]) throws -> Any? {
        let receiver = PredicateValues.unwrap(receiver)
        switch selector {
        case "valueForKey:", "valueForKeyPath:":
            guard let key = PredicateValues.string(PredicateValues.unwrap(args.first ?? nil)) else {
                throw Failure.invalidOperand("\(selector) needs a string key")
            }
            return selector == "valueForKey:"
                ? try KeyValueCoding.checkedValue(of: receiver, key: key)
                : try KeyValueCoding.checkedValue(of: receiver, keyPath: key)
        default: break
        }
        guard let receiver else { return nil }
        if !selector.contains(":") {
            return try KeyValueCoding.checkedValue(of: receiver, key: selector)
        }
        if let s = PredicateValues.string(receiver) {
            let other = PredicateValues.unwrap(args.first ?? nil)
            switch selector {
            case "stringByAppendingString:":
                guard let t = PredicateValues.string(other) else { break }
                return s + t
            case "hasPrefix:":
                guard let t = PredicateValues.string(other) else { break }
                return s.hasPrefix(t)
            case "hasSuffix:":
                guard let t = PredicateValues.string(other) else { break }
                return s.hasSuffix(t)
            case "containsString:":
                guard let t = PredicateValues.string(other) else { break }
                return s.contains(t)
            case "substringToIndex:", "substringFromIndex:":
                guard let n = PredicateValues.int64(other) else { break }
                let units = Array(s.utf16)
                guard n >= 0, n <= units.count else {
                    throw Failure.invalidOperand("\(selector) \(n) is beyond the string's length \(units.count)")
                }
                let part = selector == "substringToIndex:" ? units[..<Int(n)] : units[Int(n)...]
                return String(decoding: part, as: UTF16.self)
            default: break
            }
        }
        throw Failure.invalidOperand(
            "FUNCTION's selector \"\(selector)\" is not available on \(describe(receiver)) (Linux has no Objective-C "
                + "runtime; Orchard evaluates the String, number and key-value coding selectors listed in its docs)")
    }

    // MARK: Helpers

    static func isInteger(_ value: Any) -> Bool {
        if let n = PredicateFormatter.numberObject(value) { return !PredicateFormatter.isFloatingPoint(n) }
        switch value {
        case is Int, is Int64, is Int32, is Int16, is Int8, is UInt, is UInt64, is UInt32, is UInt16, is UInt8, is Bool:
            return true
        default: return false
        }
    }

    static func numberResult(_ d: Double, integral: Bool) -> Any {
        if integral, let i = Int(exactly: d) { return i }
        return d
    }

    static func extreme(_ values: [Any], name: String, wantsLarger: Bool) throws -> Any? {
        var best: Any?
        for value in values {
            guard let current = best else {
                best = value
                continue
            }
            guard let order = PredicateValues.compare(value, current) else {
                throw Failure.invalidOperand("\(name) cannot compare \(describe(value)) with \(describe(current))")
            }
            if wantsLarger ? order == .orderedDescending : order == .orderedAscending { best = value }
        }
        return best
    }

    static func symbol(_ name: String) -> String {
        switch name {
        case "add:to:": return "+"
        case "from:subtract:": return "-"
        case "multiply:by:": return "*"
        case "divide:by:": return "/"
        case "raise:toPower:": return "**"
        default: return name
        }
    }

    /// A value as a message names it: its type and its format spelling.
    static func describe(_ value: Any?) -> String {
        guard let value else { return "nil" }
        return "\(Swift.type(of: value)) \(PredicateFormatter.constant(value))"
    }
}
