import Foundation
import GRDB

/// The schema of a store file as SQLite holds it: the entities `Z_PRIMARYKEY` numbers, and the columns of
/// every table that holds entities or relationships. It identifies a store's model version when the
/// version hashes can't (an Apple-written store whose hashes Orchard does not reproduce): two layouts are
/// the same when every entity has the same number, name and parent and every table the same columns.
///
/// Core Data's bookkeeping tables (`Z_METADATA`, `Z_PRIMARYKEY`, `Z_MODELCACHE`) and persistent-history
/// tables (`ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING`, any name not starting with `Z`) are not part of it.
/// Column types are not compared: a change of attribute type is not something a matching layout can hide
/// from a migration anyway, and Apple's declared types are not all known.
struct StoreLayout: Equatable {
    /// One `Z_PRIMARYKEY` row.
    struct EntityRow: Equatable {
        let name: String
        let superNumber: Int
    }

    /// Entity rows by number.
    var entities: [Int: EntityRow] = [:]
    /// Column names (upper-cased) by table name (upper-cased).
    var tables: [String: Set<String>] = [:]

    private static let bookkeeping: Set<String> = ["Z_METADATA", "Z_PRIMARYKEY", "Z_MODELCACHE"]

    /// The layout of the store open on `db`.
    static func read(_ db: Database) throws -> StoreLayout {
        var layout = StoreLayout()
        if try db.tableExists("Z_PRIMARYKEY") {
            for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY") {
                guard let number = row[0] as Int?, let name = row[1] as String? else {
                    throw coreDataError(
                        NSFileReadCorruptFileError, "The store's Z_PRIMARYKEY has a row with no entity number or name.")
                }
                layout.entities[number] = EntityRow(name: name, superNumber: (row[2] as Int?) ?? 0)
            }
        }
        let names = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        for name in names {
            let upper = name.uppercased()
            guard upper.hasPrefix("Z"), !bookkeeping.contains(upper) else { continue }
            layout.tables[upper] = Set(try db.columns(in: name).map { $0.name.uppercased() })
        }
        return layout
    }

    /// The layout Orchard writes for `schema` (what `SQLCore.createSchema` creates).
    static func expected(for schema: StoreSchema) -> StoreLayout {
        var layout = StoreLayout()
        for entity in schema.entities {
            let superNumber = entity.superentity.map { schema.mapping(for: $0).number } ?? 0
            layout.entities[schema.mapping(for: entity).number] = EntityRow(
                name: entity.name ?? "", superNumber: superNumber)
        }
        for table in schema.tables {
            layout.tables[table.name.uppercased()] = Set(
                (["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map(\.name)).map { $0.uppercased() })
        }
        for join in schema.joinTables {
            let columns =
                [join.sourceColumn, join.destinationColumn]
                + [join.orderColumn, join.inverseOrderColumn]
                .compactMap { $0 }
            layout.tables[join.name.uppercased()] = Set(columns.map { $0.uppercased() })
        }
        return layout
    }

    /// What differs between this layout (a store's) and `expected` (a model's), one phrase per difference,
    /// in a stable order; empty when they match.
    func differences(from expected: StoreLayout) -> [String] {
        var result: [String] = []
        for number in Set(entities.keys).union(expected.entities.keys).sorted() {
            switch (entities[number], expected.entities[number]) {
            case (nil, let model?): result.append("the store has no entity \(number) (the model's \(model.name))")
            case (let store?, nil): result.append("the store's entity \(number) (\(store.name)) is not in the model")
            case (let store?, let model?) where store != model:
                result.append(
                    "entity \(number) is \(store.name) (parent \(store.superNumber)) in the store, "
                        + "\(model.name) (parent \(model.superNumber)) in the model")
            default: break
            }
        }
        for table in Set(tables.keys).union(expected.tables.keys).sorted() {
            switch (tables[table], expected.tables[table]) {
            case (nil, _): result.append("the store has no table \(table)")
            case (_, nil): result.append("the store's table \(table) is not in the model")
            case (let store?, let model?):
                let missing = model.subtracting(store).sorted()
                let extra = store.subtracting(model).sorted()
                if !missing.isEmpty { result.append("\(table) lacks \(missing.joined(separator: ", "))") }
                if !extra.isEmpty {
                    result.append("\(table) has \(extra.joined(separator: ", ")), which the model does not")
                }
            }
        }
        return result
    }
}
