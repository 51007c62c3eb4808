import Foundation
import GRDB

/// Translates predicates and sort descriptors into SQL over Core Data's tables, so that fetches
/// filter and sort in SQLite: key paths through to-one relationships become LEFT JOINs, composite
/// elements their flattened columns, to-many conditions (ANY/ALL, @count/@sum/..., SUBQUERY)
/// correlated subqueries. String options ([c], [d]) and LIKE / MATCHES use SQL functions registered
/// on every connection (see `SQLFunctions`).
struct PredicateSQL {
    let schema: StoreSchema
    private(set) var joins: [String] = []
    private(set) var arguments: [DatabaseValue] = []
    private var joinAliases: [String: String] = [:]
    private var aliasCounter = 0
    /// Subquery variables ($x) bound to a table alias and entity.
    private var variables: [String: (alias: String, entity: NSEntityDescription)] = [:]

    init(schema: StoreSchema) {
        self.schema = schema
    }

    /// A SQL operand: a column (with its attribute type, for encoding constants), a constant, a list.
    enum Operand {
        case column(String, NSAttributeType?)
        case compositeColumns([(path: [String], column: String, type: NSAttributeType)])
        case toOne(column: String, destination: NSEntityDescription)
        case primaryKey(String, NSEntityDescription)
        case constant(Any?)
        /// SQL text with the values its `?`s bind, in order (bound when the text is written, so a comparison's
        /// arguments follow its text whatever side the SQL is on).
        case sql(String, arguments: [DatabaseValue] = [])
        case toMany(ToManyPath)
    }

    /// A key path that crosses a to-many relationship: the subquery's FROM/WHERE and the rest of the path.
    struct ToManyPath {
        let from: String
        let link: String
        let alias: String
        let entity: NSEntityDescription
        let rest: [String]
    }

    struct TranslationError: Error, CustomStringConvertible {
        let description: String
    }

    // MARK: Predicates

    mutating func translate(
        _ predicate: NSPredicate, entity: NSEntityDescription, alias: String = "t0"
    ) throws -> String {
        if let compound = predicate as? NSCompoundPredicate {
            let parts = try compound.subpredicates.map { try translate($0, entity: entity, alias: alias) }
            switch compound.compoundPredicateType {
            case .and: return parts.isEmpty ? "1" : Self.join(parts[...], "AND")
            case .or: return parts.isEmpty ? "0" : Self.join(parts[...], "OR")
            // A comparison with NULL is false in memory (evaluate(with:)) but NULL in SQL, where NOT keeps it NULL
            // and drops the row: COALESCE makes the negation see "false", so SQL picks what memory picks.
            case .not: return "NOT COALESCE((" + (parts.first ?? "1") + "), 0)"
            @unknown default: throw TranslationError(description: "unknown compound predicate type")
            }
        }
        if let comparison = predicate as? NSComparisonPredicate {
            return try translate(comparison, entity: entity, alias: alias)
        }
        switch predicate.predicateFormat {
        case "TRUEPREDICATE": return "1"
        case "FALSEPREDICATE": return "0"
        default: throw TranslationError(description: "predicate \(predicate.predicateFormat) cannot run in SQL")
        }
    }

    /// `(a OR b OR …)`, nested in groups of at most 64: SQLite nests a chain one level per operator and refuses
    /// more than 1,000 levels ("Expression tree is too large"), so a 1,000-clause predicate would not run flat.
    static func join(_ parts: ArraySlice<String>, _ connective: String) -> String {
        guard parts.count > 64 else { return "(" + parts.joined(separator: " \(connective) ") + ")" }
        let size = (parts.count + 63) / 64
        let groups = stride(from: parts.startIndex, to: parts.endIndex, by: size).map {
            join(parts[$0..<min($0 + size, parts.endIndex)], connective)
        }
        return join(groups[...], connective)
    }

    private mutating func translate(
        _ comparison: NSComparisonPredicate, entity: NSEntityDescription, alias: String
    ) throws -> String {
        let modifier = comparison.comparisonPredicateModifier
        var left = try operand(comparison.leftExpression, entity: entity, alias: alias)
        let right = try operand(comparison.rightExpression, entity: entity, alias: alias)
        // ANY / ALL / implicit ANY over a to-many key path: a correlated subquery.
        if case .toMany(let path) = left {
            if path.rest.isEmpty,
                comparison.predicateOperatorType == .contains || comparison.predicateOperatorType == .in
            {
                return try membership(path, right, negated: false)
            }
            return try exists(path, comparison, right: right, all: modifier == .all)
        }
        if case .toMany(let path) = right, path.rest.isEmpty, comparison.predicateOperatorType == .in {
            return try membership(path, left, negated: false)
        }
        if case .toMany(let path) = right, path.rest.isEmpty, comparison.predicateOperatorType == .contains {
            _ = path
            throw TranslationError(description: "CONTAINS needs the collection on its left")
        }
        if case .constant = left, case .column = right, comparison.predicateOperatorType != .in {
            // constant op column: flip so the column is on the left.
            let flipped: NSComparisonPredicate.Operator
            switch comparison.predicateOperatorType {
            case .lessThan: flipped = .greaterThan
            case .lessThanOrEqualTo: flipped = .greaterThanOrEqualTo
            case .greaterThan: flipped = .lessThan
            case .greaterThanOrEqualTo: flipped = .lessThanOrEqualTo
            default: flipped = comparison.predicateOperatorType
            }
            if flipped != comparison.predicateOperatorType || comparison.predicateOperatorType == .equalTo
                || comparison.predicateOperatorType == .notEqualTo
            {
                left = right
                return try compare(
                    left, flipped, try operand(comparison.leftExpression, entity: entity, alias: alias),
                    options: comparison.options, entity: entity)
            }
        }
        return try compare(left, comparison.predicateOperatorType, right, options: comparison.options, entity: entity)
    }

    /// EXISTS (or, for ALL, NOT EXISTS ... NOT) over a to-many path; nested to-many paths nest.
    private mutating func exists(
        _ path: ToManyPath, _ comparison: NSComparisonPredicate, right: Operand, all: Bool
    ) throws -> String {
        var inner = self
        inner.joins = []
        let innerLeft = try inner.operand(keyPath: path.rest, entity: path.entity, alias: path.alias)
        let condition: String
        if case .toMany(let nested) = innerLeft {
            condition = try inner.exists(nested, comparison, right: right, all: all)
        } else {
            condition = try inner.compare(
                innerLeft, comparison.predicateOperatorType, right, options: comparison.options, entity: path.entity)
        }
        arguments = inner.arguments
        aliasCounter = inner.aliasCounter
        let innerJoins = inner.joins.joined(separator: " ")
        if all {
            return
                "NOT EXISTS (SELECT 1 FROM \(path.from) \(innerJoins) WHERE \(path.link) AND NOT COALESCE((\(condition)), 0))"
        }
        return "EXISTS (SELECT 1 FROM \(path.from) \(innerJoins) WHERE \(path.link) AND \(condition))"
    }

    private mutating func membership(_ path: ToManyPath, _ value: Operand, negated: Bool) throws -> String {
        guard case .constant(let constant) = value else {
            throw TranslationError(description: "membership in a to-many needs an object")
        }
        let keys = objectKeys(constant)
        guard !keys.isEmpty else { return negated ? "1" : "0" }
        arguments += keys.map(\.databaseValue)
        let list = Array(repeating: "?", count: keys.count).joined(separator: ", ")
        return
            "\(negated ? "NOT " : "")EXISTS (SELECT 1 FROM \(path.from) WHERE \(path.link) AND \(path.alias).Z_PK IN (\(list)))"
    }

    private func objectKeys(_ value: Any?) -> [Int64] {
        switch value {
        case let row as StoredRow: return row.storedRow.map { [$0.primaryKey] } ?? []
        case let array as [Any]: return array.flatMap { objectKeys($0) }
        case let set as NSSet: return set.allObjects.flatMap { objectKeys($0) }
        case let set as Set<AnyHashable>: return set.flatMap { objectKeys($0.base) }
        default: return []
        }
    }

    // MARK: Comparisons

    mutating func compare(
        _ left: Operand, _ op: NSComparisonPredicate.Operator, _ right: Operand,
        options: NSComparisonPredicate.Options, entity: NSEntityDescription
    ) throws -> String {
        // Composite compared with a dictionary: every element.
        if case .compositeColumns(let columns) = left {
            guard case .constant(let value) = right else {
                throw TranslationError(description: "a composite can only be compared with a dictionary")
            }
            let dictionary = value.flatMap { CompositeValues.dictionary($0) }
            let parts = columns.map { column -> String in
                let element = dictionary.flatMap { RowCodec.lookup(column.path, in: $0) }
                if element == nil { return "\(column.column) IS NULL" }
                arguments.append(SQLValueCodec.encode(element, type: column.type))
                return "\(column.column) IS ?"
            }
            let all = "(" + parts.joined(separator: " AND ") + ")"
            switch op {
            case .equalTo:
                return dictionary == nil
                    ? "(" + columns.map { "\($0.column) IS NULL" }.joined(separator: " AND ") + ")" : all
            case .notEqualTo: return "NOT " + all
            default: throw TranslationError(description: "a composite supports only == and !=")
            }
        }
        let leftSQL = try sql(left, typeHint: nil)
        let hint = type(of: left)
        let caseInsensitive = options.contains(.caseInsensitive)
        let diacriticInsensitive = options.contains(.diacriticInsensitive)
        let folded = caseInsensitive || diacriticInsensitive
        let flags = (caseInsensitive ? 1 : 0) | (diacriticInsensitive ? 2 : 0)
        func fold(_ s: String) -> String { folded ? "ocd_fold(\(s), \(flags))" : s }

        switch op {
        case .equalTo, .notEqualTo:
            if case .constant(let value) = right, value == nil || value is NSNull {
                return "\(leftSQL) IS \(op == .equalTo ? "" : "NOT ")NULL"
            }
            let rightSQL = try sql(right, typeHint: hint)
            if folded { return "\(fold(leftSQL)) \(op == .equalTo ? "=" : "IS NOT") \(fold(rightSQL))" }
            return "\(leftSQL) \(op == .equalTo ? "=" : "IS NOT") \(rightSQL)"
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            let symbol = [
                NSComparisonPredicate.Operator.lessThan: "<", .lessThanOrEqualTo: "<=", .greaterThan: ">",
                .greaterThanOrEqualTo: ">=",
            ][op]!
            let rightSQL = try sql(right, typeHint: hint)
            return "\(fold(leftSQL)) \(symbol) \(fold(rightSQL))"
        case .beginsWith:
            let rightSQL = try sql(right, typeHint: .stringAttributeType)
            return "ocd_beginswith(\(leftSQL), \(rightSQL), \(flags))"
        case .endsWith:
            let rightSQL = try sql(right, typeHint: .stringAttributeType)
            return "ocd_endswith(\(leftSQL), \(rightSQL), \(flags))"
        case .contains:
            if case .constant(let value) = left, let collection = value as? [Any] {
                _ = collection
                throw TranslationError(
                    description: "CONTAINS with a constant collection on the left is not supported in SQL")
            }
            let rightSQL = try sql(right, typeHint: .stringAttributeType)
            return "ocd_contains(\(leftSQL), \(rightSQL), \(flags))"
        case .like:
            let rightSQL = try sql(right, typeHint: .stringAttributeType)
            return "ocd_like(\(leftSQL), \(rightSQL), \(flags))"
        case .matches:
            let rightSQL = try sql(right, typeHint: .stringAttributeType)
            return "ocd_matches(\(leftSQL), \(rightSQL), \(flags))"
        case .in:
            guard case .constant(let value) = right else {
                // value IN string (substring), or key path of a to-one
                let rightSQL = try sql(right, typeHint: .stringAttributeType)
                return "ocd_contains(\(rightSQL), \(leftSQL), \(flags))"
            }
            if let string = value as? String {
                arguments.append(string.databaseValue)
                return "ocd_contains(?, \(leftSQL), \(flags))"
            }
            let items = PredicateSQL.collectionItems(value)
            guard !items.isEmpty else { return "0" }
            let encoded = items.map { encodeConstant($0, typeHint: hint) }
            var parts: [String] = []
            for item in encoded {
                arguments.append(item)
                parts.append(folded ? "ocd_fold(?, \(flags))" : "?")
            }
            return "\(fold(leftSQL)) IN (\(parts.joined(separator: ", ")))"
        case .between:
            guard case .constant(let value) = right else {
                throw TranslationError(description: "BETWEEN needs two bounds")
            }
            let bounds = PredicateSQL.collectionItems(value)
            guard bounds.count == 2 else {
                throw TranslationError(description: "BETWEEN needs exactly two bounds, got \(bounds.count)")
            }
            arguments.append(encodeConstant(bounds[0], typeHint: hint))
            arguments.append(encodeConstant(bounds[1], typeHint: hint))
            return "\(leftSQL) BETWEEN ? AND ?"
        case .customSelector:
            throw TranslationError(description: "custom selectors cannot run in SQL")
        @unknown default:
            throw TranslationError(description: "unsupported operator")
        }
    }

    private func type(of operand: Operand) -> NSAttributeType? {
        if case .column(_, let type) = operand { return type }
        if case .toOne = operand { return .integer64AttributeType }
        if case .primaryKey = operand { return .integer64AttributeType }
        return nil
    }

    static func collectionItems(_ value: Any?) -> [Any?] {
        switch value {
        case let array as [Any?]: return array
        case let array as [Any]: return array
        case let set as NSSet: return set.allObjects
        case let ordered as NSOrderedSet: return ordered.array
        case let array as NSArray: return array.map { $0 }
        case let set as Set<AnyHashable>: return set.map { $0.base }
        case let collection as any Collection: return collection.map { $0 }
        default: return value.map { [$0] } ?? []
        }
    }

    private func encodeConstant(_ value: Any?, typeHint: NSAttributeType?) -> DatabaseValue {
        if let row = value as? StoredRow { return row.storedRow?.primaryKey.databaseValue ?? .null }
        if let type = typeHint {
            // A fraction compared with an integer column keeps its fraction (landings != 2.5 holds for 2): encoding
            // it as the column's type would truncate it and change what the comparison means.
            switch type {
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
                if !(value is String), let d = PredicateValues.double(value), PredicateValues.int64(value) == nil,
                    d.rounded() != d || !d.isFinite
                {
                    return d.databaseValue
                }
            default: break
            }
            return SQLValueCodec.encode(value, type: type)
        }
        return SQLValueCodec.encode(value, type: .undefinedAttributeType)
    }

    /// The SQL text of an operand, binding the values it needs (a constant's, or those an expression carries).
    mutating func sql(_ operand: Operand, typeHint: NSAttributeType?) throws -> String {
        switch operand {
        case .column(let column, _): return column
        case .toOne(let column, _): return column
        case .primaryKey(let column, _): return column
        case .sql(let sql, let values):
            arguments += values
            return sql
        case .constant(let value):
            if value == nil || value is NSNull { return "NULL" }
            arguments.append(encodeConstant(value, typeHint: typeHint))
            return "?"
        case .compositeColumns:
            throw TranslationError(description: "a whole composite cannot be used here; name one of its elements")
        case .toMany:
            throw TranslationError(description: "a to-many key path needs ANY, ALL or an aggregate (@count, @sum, ...)")
        }
    }

    // MARK: Expressions

    /// An expression as an operand. Values bound while its SQL was built travel with that SQL (`.sql(_:arguments:)`),
    /// so they are bound where the text is finally written.
    mutating func operand(_ expression: NSExpression, entity: NSEntityDescription, alias: String) throws -> Operand {
        let mark = arguments.count
        let resolved = try resolve(expression, entity: entity, alias: alias)
        guard case .sql(let text, let own) = resolved, arguments.count > mark else { return resolved }
        let bound = Array(arguments[mark...])
        arguments.removeSubrange(mark...)
        return .sql(text, arguments: bound + own)
    }

    private mutating func resolve(
        _ expression: NSExpression, entity: NSEntityDescription, alias: String
    ) throws -> Operand {
        switch expression.expressionType {
        case .constantValue:
            return .constant(expression.constantValue)
        case .evaluatedObject:
            return .primaryKey("\(alias).Z_PK", entity)
        case .keyPath:
            if let base = expression.operand, base.expressionType != .evaluatedObject {
                if base.expressionType == .subquery, expression.keyPath.lowercased() == "@count" {
                    return .sql(try subquery(base, entity: entity, alias: alias, count: true))
                }
                if base.expressionType == .variable, let bound = variables[base.variable] {
                    return try operand(
                        keyPath: expression.keyPath.split(separator: ".").map(String.init), entity: bound.entity,
                        alias: bound.alias)
                }
                if base.expressionType == .keyPath, base.operand == nil {
                    return try operand(
                        keyPath: (base.keyPath + "." + expression.keyPath).split(separator: ".").map(String.init),
                        entity: entity, alias: alias)
                }
                throw TranslationError(description: "key path \(expression.keyPath) on \(base) cannot run in SQL")
            }
            return try operand(
                keyPath: expression.keyPath.split(separator: ".").map(String.init), entity: entity, alias: alias)
        case .variable:
            if let bound = variables[expression.variable] { return .primaryKey("\(bound.alias).Z_PK", bound.entity) }
            throw TranslationError(
                description:
                    "variable $\(expression.variable) has no value; use withSubstitutionVariables(_:) before fetching")
        case .aggregate:
            let items = (expression.collection as? [Any]) ?? []
            return .constant(
                items.map { item -> Any? in
                    if let e = item as? NSExpression, e.expressionType == .constantValue { return e.constantValue }
                    return item
                })
        case .function:
            return try function(expression, entity: entity, alias: alias)
        case .subquery:
            return .sql(try subquery(expression, entity: entity, alias: alias, count: false))
        case .conditional:
            guard let predicate = expression.predicate, let yes = expression.trueExpression,
                let no = expression.falseExpression
            else { throw TranslationError(description: "TERNARY needs a predicate and two expressions") }
            let condition = try translate(predicate, entity: entity, alias: alias)
            let whenTrue = try scalarSQL(yes, entity: entity, alias: alias)
            let whenFalse = try scalarSQL(no, entity: entity, alias: alias)
            return .sql("(CASE WHEN \(condition) THEN \(whenTrue) ELSE \(whenFalse) END)")
        case .unionSet, .intersectSet, .minusSet:
            throw TranslationError(
                description: "set expressions (\(expression)) cannot be fetched from a SQLite store; "
                    + "evaluate them in memory with evaluate(with:) or filtered(using:)")
        case .block:
            throw TranslationError(description: "block expressions cannot be fetched from a SQLite store")
        case .anyKey:
            throw TranslationError(description: "ANYKEY cannot be fetched from a SQLite store")
        }
    }

    /// An expression as one SQL value (a column, a bound constant, a computed value).
    mutating func scalarSQL(_ expression: NSExpression, entity: NSEntityDescription, alias: String) throws -> String {
        let resolved = try operand(expression, entity: entity, alias: alias)
        switch resolved {
        case .constant(let value):
            // Numbers (and dates, stored as seconds since 2001) are written as literals; other values are bound.
            if let date = value as? Date { return "\(date.timeIntervalSinceReferenceDate)" }
            if !(value is String), let i = PredicateValues.int64(value) { return String(i) }
            if !(value is String), let d = PredicateValues.double(value) { return d.isFinite ? "\(d)" : "NULL" }
            return try sql(resolved, typeHint: nil)
        default:
            return try sql(resolved, typeHint: nil)
        }
    }

    /// The SQL spelling of the arithmetic functions SQLite evaluates itself, with Apple's semantics (`/` always
    /// divides as doubles).
    static let sqlOperators: [String: String] = [
        "add:to:": "+", "from:subtract:": "-", "multiply:by:": "*", "bitwiseAnd:with:": "&", "bitwiseOr:with:": "|",
        "leftshift:by:": "<<", "rightshift:by:": ">>",
    ]

    /// One-argument functions evaluated by a function of Orchard's registered on each connection (`SQLFunctions`).
    static let sqlUnaryFunctions: [String: String] = [
        "sqrt:": "ocd_sqrt", "log:": "ocd_log10", "ln:": "ocd_ln", "exp:": "ocd_exp", "ceiling:": "ocd_ceiling",
        "floor:": "ocd_floor", "trunc:": "ocd_trunc", "abs:": "abs", "uppercase:": "ocd_upper",
        "lowercase:": "ocd_lower", "onesComplement:": "~",
    ]

    private mutating func function(
        _ expression: NSExpression, entity: NSEntityDescription, alias: String
    ) throws -> Operand {
        let name = expression.function
        let arguments = expression.arguments ?? []
        // count:(SUBQUERY(...)) or aggregate over a to-many key path.
        if let first = arguments.first, ["count:", "sum:", "average:", "min:", "max:"].contains(name) {
            if first.expressionType == .subquery, name == "count:" {
                return .sql(try subquery(first, entity: entity, alias: alias, count: true))
            }
            if first.expressionType == .keyPath {
                let parts = first.keyPath.split(separator: ".").map(String.init)
                return try aggregate(name, parts: parts, entity: entity, alias: alias)
            }
        }
        if expression.operand != nil {
            throw TranslationError(
                description: "FUNCTION(\(name)) cannot be fetched from a SQLite store (Core Data refuses it too); "
                    + "evaluate it in memory")
        }
        if let symbol = Self.sqlOperators[name], arguments.count == 2 {
            let l = try scalarSQL(arguments[0], entity: entity, alias: alias)
            let r = try scalarSQL(arguments[1], entity: entity, alias: alias)
            return .sql("(\(l) \(symbol) \(r))")
        }
        switch name {
        case "divide:by:" where arguments.count == 2:
            let l = try scalarSQL(arguments[0], entity: entity, alias: alias)
            let r = try scalarSQL(arguments[1], entity: entity, alias: alias)
            return .sql("(CAST(\(l) AS REAL) / \(r))")
        case "modulus:by:" where arguments.count == 2:
            let l = try scalarSQL(arguments[0], entity: entity, alias: alias)
            let r = try scalarSQL(arguments[1], entity: entity, alias: alias)
            return .sql("ocd_mod(\(l), \(r))")
        case "raise:toPower:" where arguments.count == 2:
            let l = try scalarSQL(arguments[0], entity: entity, alias: alias)
            let r = try scalarSQL(arguments[1], entity: entity, alias: alias)
            return .sql("ocd_pow(\(l), \(r))")
        case "bitwiseXor:with:" where arguments.count == 2:
            let l = try scalarSQL(arguments[0], entity: entity, alias: alias)
            let r = try scalarSQL(arguments[1], entity: entity, alias: alias)
            return .sql("ocd_xor(\(l), \(r))")
        case "now" where arguments.isEmpty:
            return .constant(Date())
        case "noindex:" where arguments.count == 1:
            return try operand(arguments[0], entity: entity, alias: alias)
        case "castObject:toType:" where arguments.count == 2:
            guard let typeName = arguments[1].constantValue as? String else {
                throw TranslationError(description: "CAST needs a type name")
            }
            let value = try scalarSQL(arguments[0], entity: entity, alias: alias)
            switch typeName {
            case "NSDate": return .sql("CAST(\(value) AS REAL)")
            case "NSNumber", "NSDecimalNumber": return .sql("ocd_number(\(value))")
            case "NSString": return .sql("CAST(\(value) AS TEXT)")
            default: throw TranslationError(description: "CAST to \(typeName) cannot be fetched from a SQLite store")
            }
        default:
            break
        }
        if let function = Self.sqlUnaryFunctions[name], arguments.count == 1 {
            let value = try scalarSQL(arguments[0], entity: entity, alias: alias)
            return .sql(function == "~" ? "(~\(value))" : "\(function)(\(value))")
        }
        throw TranslationError(
            description: "the function \(name) cannot be fetched from a SQLite store; evaluate it in memory")
    }

    private mutating func aggregate(
        _ function: String, parts: [String], entity: NSEntityDescription, alias: String
    ) throws -> Operand {
        let resolved = try operand(keyPath: parts, entity: entity, alias: alias)
        guard case .toMany(let path) = resolved else {
            throw TranslationError(
                description: "\(function) needs a to-many key path, got \(parts.joined(separator: "."))")
        }
        if function == "count:" {
            return .sql("(SELECT COUNT(*) FROM \(path.from) WHERE \(path.link))")
        }
        var inner = self
        inner.joins = []
        let value = try inner.operand(keyPath: path.rest, entity: path.entity, alias: path.alias)
        guard case .column(let column, _) = value else {
            throw TranslationError(description: "\(function) needs an attribute after the to-many key")
        }
        aliasCounter = inner.aliasCounter
        let sqlFunction = ["sum:": "TOTAL", "average:": "AVG", "min:": "MIN", "max:": "MAX"][function]!
        return .sql(
            "(SELECT \(sqlFunction)(\(column)) FROM \(path.from) \(inner.joins.joined(separator: " ")) WHERE \(path.link))"
        )
    }

    private mutating func subquery(
        _ expression: NSExpression, entity: NSEntityDescription, alias: String, count: Bool
    ) throws -> String {
        guard let collection = expression.collection as? NSExpression, collection.expressionType == .keyPath else {
            throw TranslationError(description: "SUBQUERY needs a key path collection")
        }
        let resolved = try operand(
            keyPath: collection.keyPath.split(separator: ".").map(String.init), entity: entity, alias: alias)
        guard case .toMany(let path) = resolved, path.rest.isEmpty else {
            throw TranslationError(
                description: "SUBQUERY's collection \(collection.keyPath) is not a to-many relationship")
        }
        var inner = self
        inner.joins = []
        inner.variables[expression.variable] = (path.alias, path.entity)
        guard let predicate = expression.predicate else {
            throw TranslationError(description: "SUBQUERY has no predicate")
        }
        let condition = try inner.translate(predicate, entity: path.entity, alias: path.alias)
        arguments += inner.arguments.dropFirst(arguments.count)
        aliasCounter = inner.aliasCounter
        let select = count ? "COUNT(*)" : "\(path.alias).Z_PK"
        let sql =
            "(SELECT \(select) FROM \(path.from) \(inner.joins.joined(separator: " ")) WHERE \(path.link) AND \(condition))"
        return sql
    }

    /// Resolves a key path from `entity` (rows aliased `alias`) to a column, joining through to-ones.
    mutating func operand(keyPath: [String], entity: NSEntityDescription, alias: String) throws -> Operand {
        guard let first = keyPath.first else { return .primaryKey("\(alias).Z_PK", entity) }
        if first == "self" || first == "SELF" {
            return try operand(keyPath: Array(keyPath.dropFirst()), entity: entity, alias: alias)
        }
        if first.hasPrefix("$"), let bound = variables[String(first.dropFirst())] {
            return try operand(keyPath: Array(keyPath.dropFirst()), entity: bound.entity, alias: bound.alias)
        }
        if first.hasPrefix("@") {
            throw TranslationError(description: "\(first) must follow a to-many key path")
        }
        guard let slot = entity.layout.slotByName[first] else {
            throw TranslationError(
                description: "keypath \(keyPath.joined(separator: ".")) not found in entity \(entity.name ?? "?")")
        }
        let mapping = schema.mapping(for: entity)
        switch mapping.slots[slot] {
        case .transient:
            throw TranslationError(
                description: "\(entity.name ?? "?").\(first) is transient and cannot be used in a fetch predicate")
        case .attribute(let column, let attribute)
        where keyPath.count == 2 && keyPath[1] == "length" && attribute.attributeType == .stringAttributeType:
            // A string's length, in UTF-16 code units as NSString counts them.
            return .sql("ocd_length(\(alias).\(column))")
        case .attribute(let column, let attribute):
            guard keyPath.count == 1 else {
                throw TranslationError(
                    description: "\(entity.name ?? "?").\(first) is an attribute; it has no key \(keyPath[1])")
            }
            return .column("\(alias).\(column)", attribute.attributeType)
        case .composite(let columns):
            let rest = Array(keyPath.dropFirst())
            if rest.isEmpty {
                return .compositeColumns(columns.map { ($0.path, "\(alias).\($0.name)", $0.attribute.attributeType) })
            }
            if let exact = columns.first(where: { $0.path == rest }) {
                return .column("\(alias).\(exact.name)", exact.attribute.attributeType)
            }
            let nested = columns.filter { Array($0.path.prefix(rest.count)) == rest }
            guard !nested.isEmpty else {
                throw TranslationError(
                    description:
                        "composite \(entity.name ?? "?").\(first) has no element \(rest.joined(separator: "."))")
            }
            return .compositeColumns(
                nested.map { (Array($0.path.dropFirst(rest.count)), "\(alias).\($0.name)", $0.attribute.attributeType) }
            )
        case .toOne(let column, _, let destination):
            if keyPath.count == 1 { return .toOne(column: "\(alias).\(column)", destination: destination) }
            let joinKey = "\(alias).\(column)"
            let joinAlias: String
            if let existing = joinAliases[joinKey] {
                joinAlias = existing
            } else {
                aliasCounter += 1
                joinAlias = "j\(aliasCounter)"
                let table = schema.mapping(for: destination).table.name
                joins.append("LEFT JOIN \(table) \(joinAlias) ON \(joinAlias).Z_PK = \(alias).\(column)")
                joinAliases[joinKey] = joinAlias
            }
            return try operand(keyPath: Array(keyPath.dropFirst()), entity: destination, alias: joinAlias)
        case .toManyByInverse(let table, let column, _, let destination):
            aliasCounter += 1
            let sub = "s\(aliasCounter)"
            let rest = Array(keyPath.dropFirst())
            let entityFilter = entityFilterSQL(destination, alias: sub)
            let path = ToManyPath(
                from: "\(table) \(sub)", link: "\(sub).\(column) = \(alias).Z_PK\(entityFilter)", alias: sub,
                entity: destination, rest: rest)
            return try aggregateSuffix(path)
        case .toManyByJoin(let join, let isSource, let destination):
            aliasCounter += 1
            let sub = "s\(aliasCounter)"
            let link = "m\(aliasCounter)"
            let (mine, theirs) =
                isSource ? (join.sourceColumn, join.destinationColumn) : (join.destinationColumn, join.sourceColumn)
            let table = schema.mapping(for: destination).table.name
            let rest = Array(keyPath.dropFirst())
            let path = ToManyPath(
                from: "\(join.name) \(link) JOIN \(table) \(sub) ON \(sub).Z_PK = \(link).\(theirs)",
                link: "\(link).\(mine) = \(alias).Z_PK\(entityFilterSQL(destination, alias: sub))", alias: sub,
                entity: destination, rest: rest)
            return try aggregateSuffix(path)
        }
    }

    /// Handles "relationship.@count" and "relationship.@sum.attribute" written as key paths.
    private mutating func aggregateSuffix(_ path: ToManyPath) throws -> Operand {
        guard let operatorName = path.rest.first, operatorName.hasPrefix("@") else { return .toMany(path) }
        let rest = Array(path.rest.dropFirst())
        switch operatorName.lowercased() {
        case "@count":
            return .sql("(SELECT COUNT(*) FROM \(path.from) WHERE \(path.link))")
        case "@sum", "@avg", "@min", "@max":
            var inner = self
            inner.joins = []
            let value = try inner.operand(keyPath: rest, entity: path.entity, alias: path.alias)
            guard case .column(let column, _) = value else {
                throw TranslationError(description: "\(operatorName) needs an attribute")
            }
            aliasCounter = inner.aliasCounter
            let function = ["@sum": "TOTAL", "@avg": "AVG", "@min": "MIN", "@max": "MAX"][operatorName.lowercased()]!
            return .sql(
                "(SELECT \(function)(\(column)) FROM \(path.from) \(inner.joins.joined(separator: " ")) WHERE \(path.link))"
            )
        default:
            throw TranslationError(description: "unknown key path operator \(operatorName)")
        }
    }

    /// ` AND alias.Z_ENT IN (...)` when the destination shares its table with other entities.
    func entityFilterSQL(_ entity: NSEntityDescription, alias: String) -> String {
        let mapping = schema.mapping(for: entity)
        let rootMapping = schema.mapping(for: entity.rootEntity)
        if mapping.descendantNumbers.count == rootMapping.descendantNumbers.count { return "" }
        return " AND \(alias).Z_ENT IN (\(mapping.descendantNumbers.map(String.init).joined(separator: ", ")))"
    }

    // MARK: Sorting

    /// ORDER BY terms for sort descriptors.
    mutating func orderBy(
        _ descriptors: [NSSortDescriptor], entity: NSEntityDescription, alias: String = "t0"
    ) throws -> [String] {
        var terms: [String] = []
        for descriptor in descriptors {
            guard let key = descriptor.key else {
                throw TranslationError(description: "a sort descriptor without a key cannot run in SQL")
            }
            let resolved = try operand(
                keyPath: key.split(separator: ".").map(String.init), entity: entity, alias: alias)
            let direction = descriptor.ascending ? "ASC" : "DESC"
            let collation = PredicateSQL.collation(for: descriptor)
            switch resolved {
            case .sql(let column, let values):
                arguments += values
                terms.append("\(column)\(collation) \(direction)")
            case .column(let column, _), .toOne(let column, _), .primaryKey(let column, _):
                terms.append("\(column)\(collation) \(direction)")
            case .compositeColumns(let columns):
                terms += columns.map { "\($0.column)\(collation) \(direction)" }
            case .constant, .toMany:
                throw TranslationError(description: "cannot sort by \(key)")
            }
        }
        return terms
    }

    static func collation(for descriptor: NSSortDescriptor) -> String {
        switch descriptor.comparison {
        case .caseInsensitiveCompare: return " COLLATE ocd_caseinsensitive"
        case .localizedCompare: return " COLLATE ocd_localized"
        case .localizedCaseInsensitiveCompare: return " COLLATE ocd_localizedcaseinsensitive"
        case .localizedStandardCompare: return " COLLATE ocd_localizedstandard"
        default: return ""
        }
    }
}
