import Foundation
import OpenCoreData
import Testing

final class PilotRecord: KeyValueCodingReadable {
    let name: String
    let hours: Int16
    let aircraft: [Plane]
    init(name: String, hours: Int16, aircraft: [Plane]) { self.name = name; self.hours = hours; self.aircraft = aircraft }
    func value(forKey key: String) -> Any? {
        switch key {
        case "name": return name
        case "hours": return hours
        case "aircraft": return Set(aircraft.map(\.tail))
        case "planes": return aircraft
        default: return nil
        }
    }
}
struct Plane { var tail: String; var seats: Int; var colorScheme: ColorScheme }
struct ColorScheme { var primary: String; var secondary: String? }

@Suite struct PredicateEvaluationTests {
    let person: [String: Any] = [
        "name": "Zoë Ångström", "age": 42, "score": 3.5, "flightData": NSNull(), "nick": Optional<String>.none as Any,
        "born": Date(timeIntervalSinceReferenceDate: 0), "id": UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
        "site": URL(string: "https://example.com")!, "blob": Data([1, 2]),
        "tags": ["swift", "linux"], "items": [["qty": 1, "price": 2.5], ["qty": 3, "price": 10.0]],
        "colorScheme": ["primary": "red", "secondary": "blue"], "small": Int8(3), "big": UInt64(3), "dec": Decimal(3),
        "flag": true, "ns": NSNumber(value: 3),
    ]

    func check(_ format: String, _ args: CVarArg..., expected: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let p = try NSPredicate.parse(format: format, argumentArray: args.map { $0 as Any })
        #expect(try p.evaluateThrowing(with: person) == expected, "\(format)", sourceLocation: sourceLocation)
    }

    @Test func comparisonsAcrossNumericTypes() throws {
        try check("age == 42"); try check("age = 42.0"); try check("age != 41"); try check("age <> 41")
        try check("age < 43"); try check("age <= 42"); try check("age =< 42"); try check("age > 41"); try check("age >= 42"); try check("age => 42")
        try check("score > 3"); try check("score < 4")
        try check("small == big AND big == dec AND dec == ns AND ns == 3")
        try check("flag == YES"); try check("flag == 1"); try check("flag == FALSE", expected: false)
        try check("age == %d", 42); try check("age == %@", NSNumber(value: Int64(42))); try check("score == %f", 3.5)
    }

    @Test func nilSemantics() throws {
        try check("flightData == nil"); try check("flightData != nil", expected: false)
        try check("nick == nil"); try check("missing == nil"); try check("age != nil")
        try check("missing < 3", expected: false); try check("missing > 3", expected: false)
        #expect(NSPredicate(format: "flightData != nil").evaluate(with: ["flightData": Data([1])]))
    }

    @Test func strings() throws {
        try check("name == 'Zoë Ångström'"); try check("name ==[c] 'zoë ångström'"); try check("name ==[cd] 'zoe angstrom'")
        try check("name ==[c] 'zoe angstrom'", expected: false)
        try check("name BEGINSWITH 'Zo'"); try check("name BEGINSWITH[cd] 'zoe'"); try check("name ENDSWITH 'ström'")
        try check("name CONTAINS[cd] 'angs'"); try check("name CONTAINS 'xyz'", expected: false)
        try check("name LIKE 'Z?ë*'"); try check("name LIKE[cd] 'zoe *'"); try check("name LIKE 'Zoë'", expected: false)
        try check("name MATCHES 'Z.. .*m'"); try check("name MATCHES 'Zo'", expected: false); try check("name MATCHES[c] 'zoë.*'")
        try check("name < 'A'", expected: false); try check("name > 'A'")
        #expect(throws: NSPredicateEvaluationError.self) { try NSPredicate.parse(format: "name MATCHES '('").evaluateThrowing(with: person) }
    }

    @Test func inBetweenAndAggregates() throws {
        try check("age IN {1, 42}"); try check("age IN %@", [1, 2], expected: false); try check("'swift' IN tags")
        try check("age IN %@", Set([42, 7])); try check("'Zo' IN name")
        try check("age BETWEEN {40, 50}"); try check("age BETWEEN %@", [42, 42]); try check("score BETWEEN {4, 5}", expected: false)
        try check("tags CONTAINS 'linux'"); try check("tags CONTAINS[c] 'LINUX'")
        try check("items.@count == 2"); try check("items.@sum.price == 12.5"); try check("items.@avg.qty == 2")
        try check("items.@min.qty == 1"); try check("items.@max.price == 10"); try check("tags.@count > 1")
    }

    @Test func modifiers() throws {
        try check("ANY items.qty > 2"); try check("SOME items.qty > 5", expected: false); try check("ALL items.qty > 0")
        try check("ALL items.qty > 1", expected: false); try check("NONE items.qty > 5"); try check("NONE items.qty > 2", expected: false)
        try check("ANY tags BEGINSWITH 'li'")
    }

    @Test func subqueryAndVariables() throws {
        try check("SUBQUERY(items, $i, $i.qty > 1 AND $i.price > 5).@count == 1")
        try check("SUBQUERY(items, $i, $i.qty > 10).@count > 0", expected: false)
        let p = try NSPredicate.parse(format: "age > $MIN")
        #expect(try p.evaluateThrowing(with: person, substitutionVariables: ["MIN": 40]))
        #expect(p.evaluate(with: person, substitutionVariables: ["MIN": 50]) == false)
    }

    @Test func otherValueTypes() throws {
        try check("born == %@", Date(timeIntervalSinceReferenceDate: 0) as NSDate)
        try check("born < %@", Date() as NSDate)
        try check("id == %@", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")! as NSUUID)
        try check("site == %@", URL(string: "https://example.com")! as NSURL)
        try check("blob == %@", Data([1, 2]) as NSData)
        try check("SELF.age == 42")
    }

    @Test func compositesObjectsAndNSDictionary() throws {
        #expect(NSPredicate(format: "colorScheme.primary == %@", "red").evaluate(with: person))
        let plane = Plane(tail: "N1", seats: 4, colorScheme: ColorScheme(primary: "red", secondary: nil))
        let pilot = PilotRecord(name: "Amelia", hours: 900, aircraft: [plane, Plane(tail: "N2", seats: 2, colorScheme: ColorScheme(primary: "blue", secondary: "x"))])
        #expect(NSPredicate(format: "hours > 500 AND name BEGINSWITH 'A'").evaluate(with: pilot))
        #expect(NSPredicate(format: "ANY planes.colorScheme.primary == 'blue'").evaluate(with: pilot))
        #expect(NSPredicate(format: "ALL planes.seats >= 2").evaluate(with: pilot))
        #expect(NSPredicate(format: "aircraft.@count == 2 AND 'N2' IN aircraft").evaluate(with: pilot))
        #expect(NSPredicate(format: "planes.@sum.seats == 6").evaluate(with: pilot))
        #expect(NSPredicate(format: "colorScheme.secondary == nil").evaluate(with: plane))
        #expect(pilot.value(forKeyPath: "planes.@max.seats") as? Int == 4)
        let dict = NSDictionary(dictionary: ["k": "v"])
        #expect(NSPredicate(format: "k == 'v'").evaluate(with: dict))
        #expect(NSPredicate(format: "SELF IN {'a', 'b'}").evaluate(with: "b"))
        #expect(OpenCoreData.NSPredicate(block: { obj, _ in (obj as? Int) == 3 }).evaluate(with: 3))
        #expect(OpenCoreData.NSPredicate(value: false).evaluate(with: nil) == false)
    }

    @Test func expressionValue() {
        let e = OpenCoreData.NSExpression(forKeyPath: "items.@sum.qty")
        #expect(e.expressionValue(with: person, context: nil) as? Double == 4)
        #expect(OpenCoreData.NSExpression(forFunction: "max:", arguments: [OpenCoreData.NSExpression(forConstantValue: [3, 9, 1])]).expressionValue(with: nil, context: nil) as? Int == 9)
        #expect(OpenCoreData.NSExpression(forFunction: "uppercase:", arguments: [OpenCoreData.NSExpression(forConstantValue: "ab")]).description == "uppercase:(\"ab\")")
    }
}
