import Foundation
import GRDB

/// SQL functions and collations registered on every store connection, so that predicate options
/// and string sort selectors run inside SQLite with Foundation's semantics.
///
/// Flags: 1 = case-insensitive ([c]), 2 = diacritic-insensitive ([d]).
enum SQLFunctions {
    static func install(in db: Database) {
        db.add(
            function: DatabaseFunction("ocd_fold", argumentCount: 2, pure: true) { values in
                guard let string = String.fromDatabaseValue(values[0]) else {
                    return values[0].isNull ? nil : values[0]
                }
                return fold(string, flags: Int.fromDatabaseValue(values[1]) ?? 0)
            })
        db.add(function: stringFunction("ocd_beginswith") { $0.hasPrefix($1) })
        db.add(function: stringFunction("ocd_endswith") { $0.hasSuffix($1) })
        db.add(function: stringFunction("ocd_contains") { $1.isEmpty ? false : $0.contains($1) })
        db.add(function: stringFunction("ocd_like") { like($0, pattern: $1) })
        db.add(
            function: DatabaseFunction("ocd_matches", argumentCount: 3, pure: true) { values in
                guard let string = String.fromDatabaseValue(values[0]),
                    let pattern = String.fromDatabaseValue(values[1])
                else { return false }
                let flags = Int.fromDatabaseValue(values[2]) ?? 0
                return try Regexes.shared.matches(string, pattern: pattern, flags: flags)
            })
        // Apple's expression functions that SQLite lacks or spells with other semantics (NULL in, NULL out).
        let math: [(String, @Sendable (Double) -> Double)] = [
            ("ocd_sqrt", { $0.squareRoot() }), ("ocd_log10", { Foundation.log10($0) }),
            ("ocd_ln", { Foundation.log($0) }),
            ("ocd_exp", { Foundation.exp($0) }), ("ocd_ceiling", { $0.rounded(.up) }),
            ("ocd_floor", { $0.rounded(.down) }),
            ("ocd_trunc", { $0.rounded(.towardZero) }),
        ]
        for (name, body) in math {
            db.add(
                function: DatabaseFunction(name, argumentCount: 1, pure: true) { values in
                    guard let x = Double.fromDatabaseValue(values[0]) else { return nil }
                    let result = body(x)
                    return result.isFinite ? result : nil
                })
        }
        db.add(
            function: DatabaseFunction("ocd_pow", argumentCount: 2, pure: true) { values in
                guard let x = Double.fromDatabaseValue(values[0]), let y = Double.fromDatabaseValue(values[1]) else {
                    return nil
                }
                let result = Foundation.pow(x, y)
                if case .int64 = values[0].storage, case .int64 = values[1].storage, y >= 0,
                    let i = Int64(exactly: result)
                {
                    return i
                }
                return result.isFinite ? result : nil
            })
        db.add(
            function: DatabaseFunction("ocd_mod", argumentCount: 2, pure: true) { values in
                if case .int64(let a) = values[0].storage, case .int64(let b) = values[1].storage {
                    return b == 0 || (a == .min && b == -1) ? nil : a % b
                }
                guard let x = Double.fromDatabaseValue(values[0]), let y = Double.fromDatabaseValue(values[1]), y != 0
                else {
                    return nil
                }
                return fmod(x, y)
            })
        db.add(
            function: DatabaseFunction("ocd_length", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0])?.utf16.count
            })
        db.add(
            function: DatabaseFunction("ocd_xor", argumentCount: 2, pure: true) { values in
                guard let a = Int64.fromDatabaseValue(values[0]), let b = Int64.fromDatabaseValue(values[1]) else {
                    return nil
                }
                return a ^ b
            })
        db.add(
            function: DatabaseFunction("ocd_upper", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0])?.uppercased()
            })
        db.add(
            function: DatabaseFunction("ocd_lower", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0])?.lowercased()
            })
        db.add(
            function: DatabaseFunction("ocd_number", argumentCount: 1, pure: true) { values in
                switch values[0].storage {
                case .int64(let i): return i
                case .double(let d): return d
                case .string(let s):
                    let t = s.trimmingCharacters(in: .whitespaces)
                    if let i = Int64(t) { return i }
                    return Double(t) ?? 0
                default: return nil
                }
            })
        db.add(collation: DatabaseCollation("ocd_caseinsensitive") { a, b in a.caseInsensitiveCompare(b) })
        db.add(collation: DatabaseCollation("ocd_localized") { a, b in a.localizedCompare(b) })
        db.add(
            collation: DatabaseCollation("ocd_localizedcaseinsensitive") { a, b in a.localizedCaseInsensitiveCompare(b)
            })
        db.add(collation: DatabaseCollation("ocd_localizedstandard") { a, b in a.localizedStandardCompare(b) })
    }

    private static func stringFunction(
        _ name: String, _ test: @escaping @Sendable (String, String) -> Bool
    ) -> DatabaseFunction {
        DatabaseFunction(name, argumentCount: 3, pure: true) { values in
            guard let string = String.fromDatabaseValue(values[0]), let other = String.fromDatabaseValue(values[1])
            else { return false }
            let flags = Int.fromDatabaseValue(values[2]) ?? 0
            return test(fold(string, flags: flags), fold(other, flags: flags))
        }
    }

    static func fold(_ string: String, flags: Int) -> String {
        var options: String.CompareOptions = []
        if flags & 1 != 0 { options.insert(.caseInsensitive) }
        if flags & 2 != 0 { options.insert(.diacriticInsensitive) }
        guard !options.isEmpty else { return string }
        return string.folding(options: options, locale: nil)
    }

    /// Apple's LIKE: `*` any run of characters, `?` one character, the whole string must match.
    static func like(_ string: String, pattern: String) -> Bool {
        let s = Array(string)
        let p = Array(pattern)
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
            if pi < p.count, p[pi] == "?" || (p[pi] == s[si] && p[pi] != "*") {
                si += 1
                pi += 1
                continue
            }
            if pi < p.count, p[pi] == "*" {
                star = pi
                mark = si
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

/// Compiled regular expressions for MATCHES, cached by pattern.
final class Regexes: @unchecked Sendable {
    static let shared = Regexes()
    private let lock = NSLock()
    private var cache: [String: NSRegularExpression] = [:]

    /// Whether `string` matches `pattern` whole. A pattern that is not a regular expression is an error (the
    /// fetch fails naming it, as evaluating the predicate in memory does), never a silent "no match".
    func matches(_ string: String, pattern: String, flags: Int) throws -> Bool {
        let key = "\(flags):\(pattern)"
        let regex: NSRegularExpression = try lock.withLock {
            if let cached = cache[key] { return cached }
            var options: NSRegularExpression.Options = []
            if flags & 1 != 0 { options.insert(.caseInsensitive) }
            let compiled: NSRegularExpression
            do {
                compiled = try NSRegularExpression(pattern: "^(?:\(pattern))$", options: options)
            } catch {
                throw NSPredicateEvaluationError.invalidRegularExpression(pattern)
            }
            if cache.count > 256 { cache.removeAll() }
            cache[key] = compiled
            return compiled
        }
        let subject = flags & 2 != 0 ? SQLFunctions.fold(string, flags: 2) : string
        return regex.firstMatch(in: subject, range: NSRange(subject.startIndex..., in: subject)) != nil
    }
}
