import Foundation
import OpenCoreData
import Testing

@Suite struct PredicateParserTests {
    @Test func foundationNameIsShadowedByOurs() {
        let p = NSPredicate(format: "flightData != nil")
        #expect(p is OpenCoreData.NSComparisonPredicate)
        #expect(p.predicateFormat == "flightData != nil")
    }

    @Test func seedCompositeKeyPath() throws {
        let color = "red"
        let p = NSPredicate(format: "colorScheme.primary == %@", color)
        let c = try #require(p as? OpenCoreData.NSComparisonPredicate)
        #expect(c.leftExpression.expressionType == .keyPath)
        #expect(c.leftExpression.keyPath == "colorScheme.primary")
        #expect(c.rightExpression.expressionType == .constantValue)
        #expect(c.rightExpression.constantValue as? String == "red")
        #expect(p.predicateFormat == "colorScheme.primary == \"red\"")
    }

    @Test(arguments: [
        ("a == 1", OpenCoreData.NSComparisonPredicate.Operator.equalTo), ("a = 1", .equalTo), ("a != 1", .notEqualTo), ("a <> 1", .notEqualTo),
        ("a < 1", .lessThan), ("a <= 1", .lessThanOrEqualTo), ("a =< 1", .lessThanOrEqualTo), ("a > 1", .greaterThan),
        ("a >= 1", .greaterThanOrEqualTo), ("a => 1", .greaterThanOrEqualTo), ("a IN {1, 2}", .in), ("a contains 'x'", .contains),
        ("a BEGINSWITH 'x'", .beginsWith), ("a ENDSWITH 'x'", .endsWith), ("a LIKE 'x*'", .like), ("a MATCHES 'x.*'", .matches),
        ("a BETWEEN {1, 2}", .between),
    ])
    func operators(format: String, op: OpenCoreData.NSComparisonPredicate.Operator) throws {
        let p = try NSPredicate.parse(format: format)
        let c = try #require(p as? OpenCoreData.NSComparisonPredicate)
        #expect(c.predicateOperatorType == op)
        #expect(try NSPredicate.parse(format: p.predicateFormat) == p)
    }

    @Test func optionsAndModifiers() throws {
        let c = try #require(try NSPredicate.parse(format: "ANY tags.name LIKE[cd] 'ab*'") as? OpenCoreData.NSComparisonPredicate)
        #expect(c.options == [.caseInsensitive, .diacriticInsensitive])
        #expect(c.comparisonPredicateModifier == .any)
        #expect(c.predicateFormat == "ANY tags.name LIKE[cd] \"ab*\"")
        let all = try #require(try NSPredicate.parse(format: "all x > 1") as? OpenCoreData.NSComparisonPredicate)
        #expect(all.comparisonPredicateModifier == .all)
        let some = try #require(try NSPredicate.parse(format: "SOME x > 1") as? OpenCoreData.NSComparisonPredicate)
        #expect(some.comparisonPredicateModifier == .any)
        let none = try #require(try NSPredicate.parse(format: "NONE x > 1") as? OpenCoreData.NSCompoundPredicate)
        #expect(none.compoundPredicateType == .not)
        let n = try #require(try NSPredicate.parse(format: "a ==[n] 'x'") as? OpenCoreData.NSComparisonPredicate)
        #expect(n.options == .normalized)
        #expect(try NSPredicate.parse(format: "a ==[c] 'x'").predicateFormat == "a ==[c] \"x\"")
        #expect(try NSPredicate.parse(format: "a ==[d] 'x'").predicateFormat == "a ==[d] \"x\"")
    }

    @Test func precedence() throws {
        let p = try #require(try NSPredicate.parse(format: "a == 1 OR b == 2 AND c == 3") as? OpenCoreData.NSCompoundPredicate)
        #expect(p.compoundPredicateType == .or)
        #expect((p.subpredicates[1] as? OpenCoreData.NSCompoundPredicate)?.compoundPredicateType == .and)
        let q = try #require(try NSPredicate.parse(format: "NOT a == 1 AND b == 2") as? OpenCoreData.NSCompoundPredicate)
        #expect(q.compoundPredicateType == .and)
        #expect((q.subpredicates[0] as? OpenCoreData.NSCompoundPredicate)?.compoundPredicateType == .not)
        let r = try #require(try NSPredicate.parse(format: "(a == 1 || b == 2) && !(c == 3)") as? OpenCoreData.NSCompoundPredicate)
        #expect(r.compoundPredicateType == .and)
        #expect(r.predicateFormat == "(a == 1 OR b == 2) AND (NOT c == 3)")
    }

    @Test func literals() throws {
        func constant(_ f: String) throws -> Any? {
            try #require(try NSPredicate.parse(format: f) as? OpenCoreData.NSComparisonPredicate).rightExpression.constantValue
        }
        #expect(try constant("a == 42") as? Int == 42)
        #expect(try constant("a == -3.5") as? Double == -3.5)
        #expect(try constant("a == 0x1F") as? Int == 31)
        #expect(try constant("a == 1e3") as? Double == 1000)
        #expect(try constant("a == 'it\\'s'") as? String == "it's")
        #expect(try constant("a == \"q\\\"x\"") as? String == "q\"x")
        #expect(try constant("a == nil") == nil)
        #expect(try constant("a == NULL") == nil)
        #expect(try constant("a == TRUE") as? Bool == true)
        #expect(try constant("a == yes") as? Bool == true)
        #expect(try constant("a == FALSE") as? Bool == false)
        #expect(try constant("a == NO") as? Bool == false)
        #expect(try NSPredicate.parse(format: "TRUEPREDICATE").predicateFormat == "TRUEPREDICATE")
        #expect(try NSPredicate.parse(format: "falsepredicate").predicateFormat == "FALSEPREDICATE")
        let s = try #require(try NSPredicate.parse(format: "SELF == 'x'") as? OpenCoreData.NSComparisonPredicate)
        #expect(s.leftExpression.expressionType == .evaluatedObject)
        let esc = try #require(try NSPredicate.parse(format: "#in == 1") as? OpenCoreData.NSComparisonPredicate)
        #expect(esc.leftExpression.keyPath == "in")
        #expect(esc.predicateFormat == "#in == 1")
    }

    @Test func argumentSpecifiers() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1000)
        let id = UUID()
        let p = try NSPredicate.parse(format: "%K == %@ AND n == %d AND m == %i AND l == %ld AND q == %lld AND u == %u AND f == %f AND g == %lf AND d == %@ AND id == %@ AND s == %s",
                                      "name", "Ann", 1, 2, 3, 4, 5, 1.5, 2.5, date as NSDate, id as NSUUID, "str")
        let subs = try #require(p as? OpenCoreData.NSCompoundPredicate).subpredicates.compactMap { $0 as? OpenCoreData.NSComparisonPredicate }
        #expect(subs[0].leftExpression.keyPath == "name")
        #expect(subs[0].rightExpression.constantValue as? String == "Ann")
        #expect(subs[1].rightExpression.constantValue as? Int == 1)
        #expect(subs[5].rightExpression.constantValue as? Int == 5)
        #expect(subs[6].rightExpression.constantValue as? Double == 1.5)
        #expect(subs[7].rightExpression.constantValue as? Double == 2.5)
        #expect(subs[10].rightExpression.constantValue as? String == "str")
        #expect(try NSPredicate.parse(format: p.predicateFormat) == p)
        let pos = try #require(try NSPredicate.parse(format: "a == %2$@ AND b == %1$@", "one", "two") as? OpenCoreData.NSCompoundPredicate)
        #expect((pos.subpredicates[0] as? OpenCoreData.NSComparisonPredicate)?.rightExpression.constantValue as? String == "two")
        let arr = try #require(try NSPredicate.parse(format: "a IN %@", argumentArray: [[1, 2, 3]]) as? OpenCoreData.NSComparisonPredicate)
        #expect((arr.rightExpression.constantValue as? [Int]) == [1, 2, 3])
        let null = try #require(try NSPredicate.parse(format: "a == %@", NSNull()) as? OpenCoreData.NSComparisonPredicate)
        #expect(null.rightExpression.constantValue == nil)
        let btw = try #require(try NSPredicate.parse(format: "a BETWEEN %@", [1, 5]) as? OpenCoreData.NSComparisonPredicate)
        #expect(btw.predicateOperatorType == .between)
    }

    @Test func keyPathOperatorsAndSubquery() throws {
        let c = try #require(try NSPredicate.parse(format: "logEntries.@count > 2") as? OpenCoreData.NSComparisonPredicate)
        #expect(c.leftExpression.keyPath == "logEntries.@count")
        let s = try #require(try NSPredicate.parse(format: "items.@sum.price > 10") as? OpenCoreData.NSComparisonPredicate)
        #expect(s.leftExpression.keyPath == "items.@sum.price")
        let q = try #require(try NSPredicate.parse(format: "SUBQUERY(items, $i, $i.qty > 1).@count > 0") as? OpenCoreData.NSComparisonPredicate)
        #expect(q.leftExpression.expressionType == .keyPath)
        #expect(q.leftExpression.keyPath == "@count")
        let sub = try #require(q.leftExpression.operand)
        #expect(sub.expressionType == .subquery)
        #expect(sub.variable == "i")
        #expect((sub.collection as? OpenCoreData.NSExpression)?.keyPath == "items")
        #expect(sub.predicate?.predicateFormat == "$i.qty > 1")
        #expect(q.predicateFormat == "SUBQUERY(items, $i, $i.qty > 1).@count > 0")
        #expect(try NSPredicate.parse(format: q.predicateFormat) == q)
    }

    @Test func roundTrips() throws {
        for f in ["a == 1 AND (b == 2 OR c != \"x\")", "NOT (a == 1 OR b == 2)", "ANY kids.age >= 3.5", "name BEGINSWITH[cd] \"é\"",
                  "x IN {1, 2, \"three\"}", "d == CAST(1000.0, \"NSDate\")", "$v == SELF", "colorScheme.primary == \"red\""] {
            let p = try NSPredicate.parse(format: f)
            let again = try NSPredicate.parse(format: p.predicateFormat)
            #expect(again == p, "\(f) -> \(p.predicateFormat) -> \(again.predicateFormat)")
        }
        let d = try NSPredicate.parse(format: "d == %@", Date(timeIntervalSinceReferenceDate: 12.5) as NSDate)
        #expect(d.predicateFormat == "d == CAST(12.500000, \"NSDate\")")
    }

    @Test func substitutionVariables() throws {
        let t = try NSPredicate.parse(format: "name == $NAME AND SUBQUERY(items, $i, $i.qty > $MIN).@count > 0")
        let p = t.withSubstitutionVariables(["NAME": "Ann", "MIN": 2])
        #expect(p.predicateFormat == "name == \"Ann\" AND SUBQUERY(items, $i, $i.qty > 2).@count > 0")
        #expect(throws: NSPredicateEvaluationError.self) { try t.substituting(["NAME": "Ann"]) }
        #expect(throws: NSPredicateEvaluationError.self) { try t.evaluateThrowing(with: ["name": "Ann"]) }
        #expect(try t.evaluateThrowing(with: ["name": "Ann", "items": [["qty": 3]]], substitutionVariables: ["NAME": "Ann", "MIN": 2]))
    }

    @Test func compoundAPI() {
        let a = NSPredicate(format: "a == 1"), b = NSPredicate(format: "b == 2")
        #expect(OpenCoreData.NSCompoundPredicate(andPredicateWithSubpredicates: [a, b]).predicateFormat == "a == 1 AND b == 2")
        #expect(OpenCoreData.NSCompoundPredicate(orPredicateWithSubpredicates: [a, b]).predicateFormat == "a == 1 OR b == 2")
        #expect(OpenCoreData.NSCompoundPredicate(notPredicateWithSubpredicate: a).predicateFormat == "NOT a == 1")
        #expect(OpenCoreData.NSCompoundPredicate(type: .and, subpredicates: []).evaluate(with: nil))
        #expect(!OpenCoreData.NSCompoundPredicate(type: .or, subpredicates: []).evaluate(with: nil))
        let built = OpenCoreData.NSComparisonPredicate(leftExpression: OpenCoreData.NSExpression(forKeyPath: "x"), rightExpression: OpenCoreData.NSExpression(forConstantValue: 3),
                                          modifier: .direct, type: .greaterThan, options: [])
        #expect(built.predicateFormat == "x > 3")
        #expect(OpenCoreData.NSPredicate(value: true).predicateFormat == "TRUEPREDICATE")
    }

    @Test(arguments: [
        ("(a == 1", 7, "expected ')'"), ("a == 1)", 6, "unexpected"), ("a ==", 4, "end of string"), ("a == 1 AND", 10, "expected an expression"),
        ("a ~ 1", 2, "unknown token '~'"), ("a == %@", 5, "too few arguments"), ("a == %y", 5, "unsupported format specifier '%y'"),
        ("a 1", 2, "comparison operator"), ("a == 'abc", 5, "unterminated string"), ("a ==[z] 1", 5, "unknown comparison option"),
        ("in == 1", 0, "expected an expression"),
    ])
    func errorsNamePositions(format: String, offset: Int, fragment: String) {
        do {
            _ = try NSPredicate.parse(format: format)
            Issue.record("\(format) should not parse")
        } catch let e as NSPredicateFormatError {
            #expect(e.offset == offset, "\(e)")
            #expect(e.message.contains(fragment), "\(e)")
            #expect(e.description.contains("Unable to parse the format string \"\(format)\""))
            #expect(e.description.hasSuffix(String(repeating: " ", count: offset) + "^"))
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func validatingInitializer() throws {
        let p = try NSPredicate(validatingFormat: "a == %d", 3)
        #expect(p.predicateFormat == "a == 3")
        #expect(throws: NSPredicateFormatError.self) { try NSPredicate(validatingFormat: "a ==") }
    }
}
