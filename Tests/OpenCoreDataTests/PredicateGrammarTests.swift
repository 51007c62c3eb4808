import Foundation
import Testing

@testable import OpenCoreData

/// The whole of Apple's predicate and expression grammar (issue 27): every construct parses, prints as Apple
/// prints it, round-trips, evaluates in memory, and runs in SQL where Core Data's store can; nothing valid stops the
/// process, and hostile input is an error.
@Suite struct PredicateGrammarTests {
    func value(_ format: String, _ object: Any? = nil, _ args: [Any] = []) throws -> Any? {
        try OpenCoreData.NSExpression(validatingFormat: format, argumentArray: args).evaluate(with: object)
    }

    func holds(_ format: String, _ object: Any?, _ args: [Any] = []) throws -> Bool {
        try NSPredicate.parse(format: format, argumentArray: args).evaluateThrowing(with: object)
    }

    @Test func indexOperators() throws {
        let items = ["a", "b", "c"]
        #expect(try value("SELF[FIRST]", items) as? String == "a")
        #expect(try value("SELF[LAST]", items) as? String == "c")
        #expect(try value("SELF[SIZE]", items) as? Int == 3)
        #expect(try value("SELF[1]", items) as? String == "b")
        #expect(try holds("items[2] == 'c'", ["items": items]))
        #expect(try holds("items[LAST] == 'c' AND items[SIZE] == 3", ["items": items]))
        #expect(try holds("SELF['k'] == 4", ["k": 4]))
        let p = try NSPredicate.parse(format: "items[FIRST] == 'a'")
        #expect(p.predicateFormat == "items[FIRST] == \"a\"")
        let c = try #require(p as? OpenCoreData.NSComparisonPredicate)
        #expect(c.leftExpression.expressionType == .function && c.leftExpression.function == "objectFrom:withIndex:")
        #expect(throws: NSPredicateEvaluationError.self) { try value("SELF[7]", items) }
        #expect(throws: NSPredicateFormatError.self) { try NSPredicate.parse(format: "FIRST == 1") }
    }

    @Test func arithmetic() throws {
        let object: [String: Any] = ["a": 1, "b": 2, "c": 4, "d": 2.5]
        #expect(try holds("a + b * 2 > c", object))
        #expect(try !holds("(a + b) * 2 < c", object))
        #expect(try value("2 ** 3 ** 2") as? Int == 512)
        #expect(try value("-a", object) as? Int == -1)
        #expect(try value("10 / 4") as? Double == 2.5)
        #expect(try value("7 - 2 - 1") as? Int == 4)
        #expect(try value("d * 2", object) as? Double == 5)
        #expect(try value("9223372036854775807 + 1") as? Double == 9_223_372_036_854_775_808)
        #expect(try NSPredicate.parse(format: "a + b * 2 > c").predicateFormat == "a + (b * 2) > c")
        #expect(try NSPredicate.parse(format: "(a + b) * 2 > c").predicateFormat == "(a + b) * 2 > c")
        #expect(try NSPredicate.parse(format: "a - (b - c) == 3").predicateFormat == "a - (b - c) == 3")
        #expect(try NSPredicate.parse(format: "a-1 == 0").predicateFormat == "a - 1 == 0")
        #expect(try NSPredicate.parse(format: "a == -3.5").predicateFormat == "a == -3.5")
        // The documentation's %K like %@+$b+$c: a key, then a string built from an argument and two variables.
        let like = try NSPredicate.parse(format: "%K like %@+$b+$c", "name", "x")
        #expect(like.predicateFormat == "name LIKE (\"x\" + $b) + $c")
        #expect(throws: NSPredicateEvaluationError.self) { try holds("'a' + 1 == 2", nil) }
        // Dates: a date plus seconds is a date; the difference of two dates is seconds.
        let start = Date(timeIntervalSinceReferenceDate: 1000)
        #expect(try value("%@ + 60", nil, [start]) as? Date == Date(timeIntervalSinceReferenceDate: 1060))
        #expect(try value("%@ - %@", nil, [Date(timeIntervalSinceReferenceDate: 1500), start]) as? Double == 500)
    }

    /// Every built-in function, with the examples of Apple's `NSExpression` documentation.
    @Test func builtInFunctions() throws {
        #expect(try value("sum({1, 2, 3})") as? Int == 6)
        #expect(try value("count({1, 2, 3})") as? Int == 3)
        #expect(try value("min({4, 2, 3})") as? Int == 2)
        #expect(try value("max({4, 2, 3})") as? Int == 4)
        #expect(try value("average({1, 2, 3, 4})") as? Double == 2.5)
        #expect(try value("median({1, 9, 2})") as? Double == 2)
        #expect(try value("median({1, 9, 2, 4})") as? Double == 3)
        #expect((try value("mode({1, 2, 2, 3, 3})") as? [Any])?.compactMap { $0 as? Int } == [2, 3])
        #expect(try value("stddev({2, 4, 4, 4, 5, 5, 7, 9})") as? Double == 2)
        #expect(try value("add:to:(1, 2)") as? Int == 3)
        #expect(try value("from:subtract:(5, 2)") as? Int == 3)
        #expect(try value("multiply:by:(3, 4)") as? Int == 12)
        #expect(try value("divide:by:(1, 4)") as? Double == 0.25)
        #expect(try value("modulus:by:(10, 3)") as? Int == 1)
        #expect(try value("modulus:by:(10.5, 3)") as? Double == 1.5)
        #expect(try value("sqrt(16)") as? Double == 4)
        #expect(try value("log(1000)") as? Double == 3)
        #expect(try value("ln(1)") as? Double == 0)
        #expect(try value("raise:toPower:(2, 10)") as? Int == 1024)
        #expect(try value("exp(0)") as? Double == 1)
        #expect(try value("ceiling(1.2)") as? Double == 2)
        #expect(try value("floor(1.8)") as? Double == 1)
        #expect(try value("trunc(-1.8)") as? Double == -1)
        #expect(try value("abs(-3)") as? Int == 3)
        #expect(try value("abs(-2.5)") as? Double == 2.5)
        #expect(try value("uppercase('ab')") as? String == "AB")
        #expect(try value("lowercase('AB')") as? String == "ab")
        #expect(try value("bitwiseAnd:with:(6, 3)") as? Int == 2)
        #expect(try value("bitwiseOr:with:(6, 3)") as? Int == 7)
        #expect(try value("bitwiseXor:with:(6, 3)") as? Int == 5)
        #expect(try value("leftshift:by:(1, 4)") as? Int == 16)
        #expect(try value("rightshift:by:(16, 2)") as? Int == 4)
        #expect(try value("onesComplement(0)") as? Int == -1)
        #expect(try value("noindex(5)") as? Int == 5)
        #expect((try value("distinct({1, 1, 2})") as? [Any])?.count == 2)
        #expect(try value("now()") is Date)
        let random = try #require(try value("random()") as? Double)
        #expect(random >= 0 && random < 1)
        #expect([1, 2, 3].contains(try value("random({1, 2, 3})") as? Int ?? 0))
        #expect((0..<5).contains(try value("randomn(5)") as? Int ?? -1))
        #expect(try value("castObject:toType:('42', 'NSNumber')") as? Int == 42)
        #expect(throws: NSPredicateEvaluationError.self) { try value("sqrt('x')") }
        #expect(throws: NSPredicateEvaluationError.self) { try value("modulus:by:(1, 0)") }
        #expect(throws: NSPredicateFormatError.self) { try value("nosuchfunction(1)") }
        #expect(throws: NSPredicateFormatError.self) { try value("modulus:by:(1)") }
    }

    /// Functions print as Apple prints them: `name:(args)`, arithmetic infix, `now()`.
    @Test func functionsPrintAsApplePrintsThem() throws {
        let cases: [(String, String)] = [
            ("sum(a) == 3", "sum:(a) == 3"), ("count:(pages) > 1", "count:(pages) > 1"),
            ("modulus:by:(a, 3) == 1", "modulus:by:(a, 3) == 1"), ("now() > d", "now() > d"),
            ("add:to:(a, 1) == 2", "a + 1 == 2"), ("raise:toPower:(a, 2) == 4", "a ** 2 == 4"),
            ("uppercase(name) == 'X'", "uppercase:(name) == \"X\""),
            ("TERNARY(a > 1, 'big', 'small') == 'big'", "TERNARY(a > 1, \"big\", \"small\") == \"big\""),
            (
                "FUNCTION(name, 'stringByAppendingString:', 'x') == 'ax'",
                "FUNCTION(name, \"stringByAppendingString:\", \"x\") == \"ax\""
            ),
            ("CAST(text, 'NSNumber') > 2", "CAST(text, \"NSNumber\") > 2"),
            ("{1, 2} UNION {3} CONTAINS 3", "{1, 2} UNION {3} CONTAINS 3"),
            ("SUBQUERY(items, $i, $i.qty > 1)[SIZE] > 0", "SUBQUERY(items, $i, $i.qty > 1)[SIZE] > 0"),
        ]
        for (format, printed) in cases {
            let p = try NSPredicate.parse(format: format)
            #expect(p.predicateFormat == printed, "\(format)")
            #expect(try NSPredicate.parse(format: p.predicateFormat) == p, "\(format) round trip")
        }
        // A derived attribute's expression, as the version hash reads it.
        let derived = OpenCoreData.NSExpression(forFunction: "count:", arguments: [.init(forKeyPath: "pages")])
        #expect(derived.description == "count:(pages)")
    }

    @Test func setExpressions() throws {
        let union = OpenCoreData.NSExpression(format: "{1, 2} UNION {2, 3}")
        #expect(union.expressionType == .unionSet && union.expressionType.rawValue == 5)
        #expect(try union.evaluate(with: nil) as? Set<AnyHashable> == [1, 2, 3])
        #expect(try value("{1, 2} INTERSECT {2, 3}") as? Set<AnyHashable> == [2])
        #expect(try value("{1, 2} MINUS {2, 3}") as? Set<AnyHashable> == [1])
        let api = OpenCoreData.NSExpression(
            forIntersectSet: .init(forConstantValue: Set<AnyHashable>([1, 2])),
            with: .init(forConstantValue: [2, 5]))
        #expect(api.expressionType == .intersectSet && api.expressionType.rawValue == 6)
        #expect(try api.evaluate(with: nil) as? Set<AnyHashable> == [2])
        let minus = OpenCoreData.NSExpression(forMinusSet: .init(forKeyPath: "tags"), with: .init(forKeyPath: "old"))
        #expect(minus.expressionType.rawValue == 7 && minus.description == "tags MINUS old")
        let tags: [String: Any] = ["tags": Set<AnyHashable>(["a", "b"]), "old": ["a"]]
        #expect(try minus.evaluate(with: tags) as? Set<AnyHashable> == ["b"])
        // Apple requires a set on the left.
        #expect(throws: NSPredicateEvaluationError.self) { try value("tags UNION old", ["tags": [1], "old": [2]]) }
        #expect(try holds("{1, 2} UNION {3} CONTAINS 3", nil))
    }

    @Test func conditionalsFunctionsAndCasts() throws {
        let person: [String: Any] = ["name": "ann", "age": 30, "text": "12"]
        #expect(try value("TERNARY(age > 18, 'adult', 'child')", person) as? String == "adult")
        let ternary = OpenCoreData.NSExpression(format: "TERNARY(age > 18, 1, 0)")
        #expect(ternary.expressionType == .conditional && ternary.expressionType.rawValue == 20)
        #expect(ternary.trueExpression?.constantValue as? Int == 1 && ternary.predicate != nil)
        #expect(try value("FUNCTION(name, 'uppercaseString')", person) as? String == "ANN")
        #expect(try value("FUNCTION(name, 'stringByAppendingString:', '!')", person) as? String == "ann!")
        #expect(try value("FUNCTION(SELF, 'valueForKey:', 'age')", person) as? Int == 30)
        #expect(throws: NSPredicateEvaluationError.self) { try value("FUNCTION(name, 'performSelector:', 1)", person) }
        #expect(throws: NSPredicateFormatError.self) { try value("FUNCTION(name, 'stringByAppendingString:')") }
        #expect(try value("CAST(text, 'NSNumber')", person) as? Int == 12)
        #expect(try value("CAST('3.5', 'NSNumber')") as? Double == 3.5)
        #expect(try value("CAST(0, 'NSDate')") as? Date == Date(timeIntervalSinceReferenceDate: 0))
        #expect(OpenCoreData.NSExpression(format: "ANYKEY").expressionType == .anyKey)
        let block = OpenCoreData.NSExpression(
            block: { object, args, _ in (args.first as? Int ?? 0) * 2 },
            arguments: [.init(forConstantValue: 21)])
        #expect(try block.evaluate(with: nil) as? Int == 42)
        #expect(throws: NSPredicateFormatError.self) { try value("$x := 1") }
    }

    /// Whole numbers print without `.0`, so a predicate built from a Double and from an NSNumber are equal.
    @Test func numbersPrintAsNSNumberDoes() throws {
        #expect(try NSPredicate.parse(format: "age == 30.0").predicateFormat == "age == 30")
        #expect(try NSPredicate.parse(format: "age == %@", NSNumber(value: 30)).predicateFormat == "age == 30")
        #expect(try NSPredicate.parse(format: "age == %@", NSNumber(value: 30.0)).predicateFormat == "age == 30")
        #expect(try NSPredicate.parse(format: "age == %f", 2.5).predicateFormat == "age == 2.5")
        #expect(try NSPredicate.parse(format: "age == 0.1").predicateFormat == "age == 0.1")
        #expect(try NSPredicate.parse(format: "flag == YES").predicateFormat == "flag == 1")
        let byFormat = try NSPredicate.parse(format: "age == 30")
        let byAPI = OpenCoreData.NSComparisonPredicate(
            leftExpression: .init(forKeyPath: "age"), rightExpression: .init(forConstantValue: NSNumber(value: 30.0)),
            modifier: .direct, type: .equalTo)
        #expect(byFormat == byAPI && byFormat.hash == byAPI.hash)
        #expect(
            try NSPredicate.parse(format: "n == 0x1F AND m == 0o17 AND b == 0b101").predicateFormat
                == "n == 31 AND m == 15 AND b == 5")
    }

    @Test func stringKeyPathsAndMismatchedComparisons() throws {
        let person: [String: Any] = ["name": "Anna", "joined": Date(timeIntervalSinceReferenceDate: 10)]
        #expect(try holds("name.length == 4", person))
        #expect(try holds("name.description == 'Anna'", person))
        #expect(try holds("name.uppercaseString == 'ANNA'", person))
        #expect(try holds("joined.timeIntervalSinceReferenceDate == 10", person))
        #expect(KeyValueCoding.value(of: "héllo", keyPath: "length") as? Int == 5)
        // A key a string does not have is an error, not a silent nil.
        #expect(throws: NSPredicateEvaluationError.self) { try holds("name.nosuchkey == 1", person) }
        // Ordering a string against a number raises on Apple's platforms; here it is an error. Equality is false.
        #expect(throws: NSPredicateEvaluationError.self) { try holds("name < 5", person) }
        #expect(try !holds("name == 5", person))
        #expect(try !holds("missing < 5", person))
    }

    /// Hostile input is an error naming what was wrong, never a crash or a long wait.
    @Test func hostileInputIsAnError() async throws {
        let deep = String(repeating: "(", count: 5000) + "a == 1" + String(repeating: ")", count: 5000)
        let deepNot = String(repeating: "NOT ", count: 5000) + "a == 1"
        let deepExpression = "a == " + String(repeating: "-", count: 5000) + "1"
        let deepCalls = "a == " + String(repeating: "abs(", count: 5000) + "1" + String(repeating: ")", count: 5000)
        // On a cooperative thread (a small stack), where an unbounded recursion would overflow first.
        try await Task { () throws -> Void in
            for format in [deep, deepNot, deepExpression, deepCalls] {
                let error = #expect(throws: NSPredicateFormatError.self) { try NSPredicate.parse(format: format) }
                #expect(error?.message.contains("nesting deeper than") == true)
                #expect((error?.description.count ?? .max) < 1000)
            }
            // Just inside the bound still parses, prints and evaluates, at the deepest the parser allows.
            let limit = PredicateParser.maximumDepth - 5
            let ok = String(repeating: "(", count: limit) + "a == 1" + String(repeating: ")", count: limit)
            #expect(try NSPredicate.parse(format: ok).evaluateThrowing(with: ["a": 1]))
            let parens = "a == " + String(repeating: "(", count: limit) + "1" + String(repeating: ")", count: limit)
            #expect(try NSPredicate.parse(format: parens).evaluateThrowing(with: ["a": 1]))
            let calls = "a == " + String(repeating: "abs(", count: limit) + "-1" + String(repeating: ")", count: limit)
            let deepTree = try NSPredicate.parse(format: calls)
            #expect(try deepTree.evaluateThrowing(with: ["a": 1]))
            #expect(deepTree.predicateFormat.count > 4 * limit)
            let chain = "a == " + Array(repeating: "1", count: limit).joined(separator: " + ")
            let sum = try NSPredicate.parse(format: chain)
            #expect(try sum.evaluateThrowing(with: ["a": limit]))
            // A chain nests once per operator, as its tree does: a longer one is an error, not a deep recursion later.
            let long = "a == " + Array(repeating: "1", count: 5000).joined(separator: " + ")
            #expect(throws: NSPredicateFormatError.self) { try NSPredicate.parse(format: long) }
        }.value
        #expect(throws: NSPredicateFormatError.self) {
            try NSPredicate.parse(format: "a == 0x" + String(repeating: "F", count: 40))
        }
        let huge = try NSPredicate.parse(format: "a == 1" + String(repeating: "0", count: 300))
        #expect(huge.predicateFormat.hasPrefix("a == 1e+"))
        #expect(throws: NSPredicateFormatError.self) {
            try NSPredicate.parse(format: "a == 1" + String(repeating: "0", count: 400) + "e9999")
        }
        let long = String(repeating: "x", count: 1_000_000)
        #expect(try NSPredicate.parse(format: "a == %@", long).evaluateThrowing(with: ["a": long]))
        for bad in [
            "a ==", "a == (1", "a[", "a[1 == 2", "SELF[] == 1", "sum(", "{1, 2", "TERNARY(a, 1)", "a == 1 +",
            "CAST(1)", "CAST(1, 'NSBogus')", "FUNCTION(a)", "a ==[c", "%K == 1", "a == %5$@", "@", "$", "#",
            "a UNION", "a == 'unterminated", "a == \"", "** 2 == 4",
        ] {
            #expect(throws: NSPredicateFormatError.self, "\(bad)") { try NSPredicate.parse(format: bad) }
        }
    }

    @Test func aThousandClauses() throws {
        let format = (0..<1000).map { "a == \($0)" }.joined(separator: " OR ")
        let p = try NSPredicate.parse(format: format)
        #expect(try p.evaluateThrowing(with: ["a": 999]))
        #expect(try NSPredicate.parse(format: p.predicateFormat) == p)
    }
    /// What another Foundation implementation's NSPredicate suite expects of Apple's behaviour (GNUstep base's
    /// Tests/base/NSPredicate, read locally; these checks are our own).
    @Test func whatAnotherFoundationExpects() throws {
        let records: [String: Any] = [
            "title": "A Title",
            "Record1": ["Name": "John", "Age": NSNumber(value: 34), "Children": ["Kid1", "Kid2"]] as [String: Any],
            "Record2": ["Name": "Mary", "Age": NSNumber(value: 30), "Children": ["Kid1", "Girl1"]] as [String: Any],
        ]
        let checks: [(String, [Any])] = [
            ("%@ CONTAINS %@", ["AABBBAA", "BBB"]), ("%@ IN %@", ["BBB", "AABBBAA"]),
            ("%K == %@", ["Record1.Name", "John"]),
            ("%K MATCHES[c] %@", ["Record1.Name", "john"]), ("%K BEGINSWITH %@", ["Record1.Name", "Jo"]),
            ("(%K == %@) AND (%K == %@)", ["Record1.Name", "John", "Record2.Name", "Mary"]),
            ("%K == %d", ["Record1.Age", 34]), ("%K = %@", ["Record1.Age", NSNumber(value: 34)]),
            ("%K < %d", ["Record1.Age", 40]), ("%K <= %@", ["Record1.Age", NSNumber(value: 34)]),
            ("%K > %@", ["Record1.Age", NSNumber(value: 20)]), ("%K >= %@", ["Record1.Age", NSNumber(value: 34)]),
            ("%K != %@", ["Record1.Age", NSNumber(value: 20)]), ("%K <> %@", ["Record1.Age", NSNumber(value: 20)]),
            ("%K BETWEEN %@", ["Record1.Age", [NSNumber(value: 20), NSNumber(value: 40)]]),
            ("(%K == %d) OR (%K == %d)", ["Record1.Age", 34, "Record2.Age", 34]), ("%K < %f", ["Record1.Age", 40.5]),
            ("%f > %K", [40.5, "Record1.Age"]), ("%@ IN %K", ["Kid1", "Record1.Children"]),
            ("Any %K == %@", ["Record2.Children", "Girl1"]),
        ]
        for (format, args) in checks {
            #expect(try holds(format, records, args), "\(format)")
        }
        let pitches = ["Do", "Re", "Mi", "Fa", "So", "La"]
        #expect(pitches.filter { NSPredicate(format: "SELF == 'Do'").evaluate(with: $0) } == ["Do"])
        #expect(pitches.filter { NSPredicate(format: "description == 'Do'").evaluate(with: $0) } == ["Do"])
        // A quoted '%@' is a string, not a placeholder.
        #expect(pitches.filter { NSPredicate(format: "SELF == '%@'", "Do").evaluate(with: $0) }.isEmpty)
        let like = NSPredicate(format: "%K like %@+$b+$c", "$single", "b\"")
        #expect(like.predicateFormat == #"$single LIKE ("b\"" + $b) + $c"#)
        let bound = like.withSubstitutionVariables(["single": "x", "b": "val_for_$b", "c": "val_for_$c"])
        #expect(bound.predicateFormat == #"$single LIKE ("b\"" + "val_for_$b") + "val_for_$c""#)
        #expect(NSPredicate(format: "sum(a) == 3").evaluate(with: [["a": 1], ["a": 2]]))
    }
    /// Inputs the fuzzer (Fuzz/PredicateFuzz.swift) found, each once a failure.
    @Test func fuzzerFindings() throws {
        // A key escaped because it starts with a digit must print escaped, or it reads back as a number.
        let digitKey = try NSPredicate.parse(format: "name.#5e > 1")
        #expect(digitKey.predicateFormat == "name.#5e > 1")
        #expect(try NSPredicate.parse(format: digitKey.predicateFormat) == digitKey)
    }
}

/// Apple's collection filtering with OpenCoreData's predicates.
@Suite struct PredicateFilteringTests {
    @Test func collectionsFilterWithAPredicate() {
        let people: [[String: Any]] = [
            ["name": "Ann", "age": 31], ["name": "Bo", "age": 4], ["name": "Cy", "age": 58],
        ]
        let adults = NSPredicate(format: "age >= 18 AND name.length < 4")
        #expect((people as NSArray).filtered(using: adults).count == 2)
        let mutable = NSMutableArray(array: people)
        mutable.filter(using: adults)
        #expect(mutable.count == 2)
        let numbers = NSSet(array: [1, 2, 3, 4])
        let even = numbers.filtered(using: NSPredicate(format: "modulus:by:(SELF, 2) == 0"))
        #expect(Set(even.compactMap { $0.base as? Int }) == [2, 4])
        let set = NSMutableSet(array: [1, 2, 3, 4])
        set.filter(using: NSPredicate(format: "SELF > 2"))
        #expect(set.count == 2)
        let ordered = NSOrderedSet(array: [5, 1, 4])
        #expect(ordered.filtered(using: NSPredicate(format: "SELF > 1")).array.compactMap { $0 as? Int } == [5, 4])
    }
}
