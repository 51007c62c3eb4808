// libFuzzer entry point for OpenCoreData's predicate and expression parser, formatter and evaluator. Not a SwiftPM
// target: scripts/fuzz-smoke compiles it with Sources/OpenCoreData/Query/*.swift (which need only Foundation) using
// `swiftc -sanitize=fuzzer,address` and runs it bounded.
//
// The input is a format string (its bytes as UTF-8, invalid sequences repaired). Whatever it is, the throwing
// entry points must return or throw, never trap, and in bounded time and memory. A predicate that parses must print
// a format that parses back to an equal predicate, and evaluating it against a sample object must return or throw.
// Predicates with MATCHES are parsed and printed but not evaluated: a hostile regular expression can backtrack for
// a very long time in ICU, in Orchard as in Apple's Foundation (docs/ARCHITECTURE.md says so).
import Foundation

/// The arguments `%@`, `%K`, `%d` and `%f` take, in order, for every input.
let arguments: [Any] = ["name", "x", 3, 2.5, [1, 2, 3], "items", Date(timeIntervalSinceReferenceDate: 0), NSNull()]

/// The object predicates are evaluated against.
let sample: [String: Any] = [
    "name": "Anna", "age": 30, "score": 2.5, "tags": Set<AnyHashable>(["a", "b"]), "items": [1, 2, 3],
    "kids": [["name": "Bo", "age": 3], ["name": "Cy", "age": 5]], "joined": Date(timeIntervalSinceReferenceDate: 10),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let format = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let predicate = try? NSPredicate.parse(format: format, argumentArray: arguments) {
        let printed = predicate.predicateFormat
        let again: NSPredicate
        do {
            again = try NSPredicate.parse(format: printed, argumentArray: [])
        } catch let error as NSPredicateFormatError where error.message.hasPrefix("nesting deeper than") {
            // Apple's spelling parenthesizes every nested operator ((a + b) + c), so a chain near the nesting
            // bound prints deeper than it was written; that is the one printed form allowed not to parse back.
            return 0
        } catch {
            fatalError("\(format) printed as \(printed), which does not parse: \(error)")
        }
        guard again == predicate else {
            fatalError("\(format) printed as \(printed), which parses to \(again.predicateFormat)")
        }
        if !printed.uppercased().contains("MATCHES") {
            // Returning or throwing are both fine; only a trap or a hang is a failure.
            _ = try? predicate.evaluateThrowing(with: sample, substitutionVariables: ["b": 1, "c": "z"])
        }
    }
    if !format.uppercased().contains("MATCHES"),
        let expression = try? NSExpression(validatingFormat: format, argumentArray: arguments)
    {
        _ = expression.description
        _ = try? expression.evaluate(with: sample)
    }
    return 0
}
