import OpenCoreData

/// Comparison operators HealthKit's predicate factories use.
enum HKPredicateOperator {
    case equal, notEqual, below, atMost, atLeast, above, within
}

/// The one place that builds predicate and sort objects: NSComparisonPredicate, NSExpression,
/// NSCompoundPredicate and NSSortDescriptor from OpenCoreData's predicate layer, which translates
/// them to SQL. Everything else in OpenHealthKit goes through these helpers.
extension HKQuery {
    static func compare(_ key: String, _ op: HKPredicateOperator, _ value: Any?) -> NSPredicate {
        let type: NSComparisonPredicate.Operator
        switch op {
        case .equal: type = .equalTo
        case .notEqual: type = .notEqualTo
        case .below: type = .lessThan
        case .atMost: type = .lessThanOrEqualTo
        case .atLeast: type = .greaterThanOrEqualTo
        case .above: type = .greaterThan
        case .within: type = .in
        }
        return NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: key),
            rightExpression: NSExpression(forConstantValue: value),
            modifier: .direct, type: type, options: [])
    }

    static func and(_ parts: [NSPredicate]) -> NSPredicate {
        parts.count == 1 ? parts[0] : NSCompoundPredicate(andPredicateWithSubpredicates: parts)
    }

    /// The same condition, written `NOT (NOT p)` so that SQLite applies it as a row filter and never
    /// picks an index for it. Used for the authorization filter (`medicationConceptIdentifier IN
    /// granted`): as an indexable IN list it lured the planner into reading every remaining row of the
    /// granted medications and sorting them for each page of an anchored query; as a filter, the
    /// plan walks the `seq` index (or an index serving the app's own predicate) and stops at the limit.
    static func filterOnly(_ predicate: NSPredicate) -> NSPredicate {
        NSCompoundPredicate(notPredicateWithSubpredicate: NSCompoundPredicate(notPredicateWithSubpredicate: predicate))
    }

    static var everything: NSPredicate { NSPredicate(value: true) }
    static var nothing: NSPredicate { NSPredicate(value: false) }

    static func sort(_ key: String, ascending: Bool) -> NSSortDescriptor {
        NSSortDescriptor(key: key, ascending: ascending)
    }

    /// Category samples whose value compares with `value` (for symptoms, a severity's raw value).
    public class func predicateForCategorySamples(
        with operatorType: NSComparisonPredicate.Operator, value: Int
    ) -> NSPredicate {
        NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "value"), rightExpression: NSExpression(forConstantValue: value),
            modifier: .direct, type: operatorType, options: [])
    }
}
