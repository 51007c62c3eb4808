import Foundation

/// How a model maps onto Core Data's SQLite layout.
///
/// - One table per entity hierarchy, `Z<ROOTENTITY>`, with `Z_PK INTEGER PRIMARY KEY`, `Z_ENT` (the
///   entity's number: entities numbered 1... in name order) and `Z_OPT` (the row version).
/// - An attribute is a column `Z<NAME>`; a composite is flattened into one column per element,
///   `Z<COMPOSITE>_<ELEMENT>` (nested: `Z<COMPOSITE>_<ELEMENT>_<SUBELEMENT>`).
/// - A to-one relationship is a column `Z<NAME>` holding the destination's Z_PK (plus `Z<NAME>_ENT`
///   when the destination has subentities). A to-many relationship whose inverse is to-one is read
///   through that inverse's column (ordered: the destination also has `Z_FOK_<INVERSE>`); other to-many
///   relationships use a join table `Z_<n><NAME>` with one column per side (and `Z_FOK_<NAME>` if ordered).
/// - `Z_METADATA(Z_VERSION, Z_UUID, Z_PLIST)` holds the metadata dictionary as a binary property list;
///   `Z_PRIMARYKEY(Z_ENT, Z_NAME, Z_SUPER, Z_MAX)` hands out primary keys.
final class StoreSchema: @unchecked Sendable {
    let model: NSManagedObjectModel
    let entities: [NSEntityDescription]
    private var mappings: [ObjectIdentifier: EntityMapping] = [:]
    private(set) var tables: [TableInfo] = []
    private(set) var joinTables: [JoinTable] = []

    init(model: NSManagedObjectModel) {
        self.model = model
        self.entities = model.entities.sorted { ($0.name ?? "") < ($1.name ?? "") }
        var numbers: [ObjectIdentifier: Int] = [:]
        for (index, entity) in entities.enumerated() { numbers[ObjectIdentifier(entity)] = index + 1 }
        // Tables: one per root.
        var tablesByRoot: [ObjectIdentifier: TableInfo] = [:]
        for entity in entities where entity.superentity == nil {
            let table = TableInfo(name: "Z" + StoreSchema.columnName(entity.name ?? ""), root: entity)
            tablesByRoot[ObjectIdentifier(entity)] = table
            tables.append(table)
        }
        var joinByKey: [String: JoinTable] = [:]
        for entity in entities {
            let table = tablesByRoot[ObjectIdentifier(entity.rootEntity)]!
            let number = numbers[ObjectIdentifier(entity)]!
            let descendants = entity.selfAndDescendants.compactMap { numbers[ObjectIdentifier($0)] }.sorted()
            var slots: [SlotMapping] = []
            for property in entity.layout.properties {
                if property.isTransient {
                    slots.append(.transient)
                    continue
                }
                if let composite = property as? NSCompositeAttributeDescription {
                    let columns = StoreSchema.flatten(
                        composite, prefix: "Z" + StoreSchema.columnName(composite.name), path: [])
                    for column in columns { table.addColumn(column.name, type: column.attribute.attributeType) }
                    slots.append(.composite(columns))
                } else if let attribute = property as? NSAttributeDescription {
                    let column = "Z" + StoreSchema.columnName(attribute.name)
                    table.addColumn(column, type: attribute.attributeType)
                    slots.append(.attribute(column: column, attribute: attribute))
                } else if let relationship = property as? NSRelationshipDescription {
                    let destination = relationship.destinationEntity!
                    let destinationTable = tablesByRoot[ObjectIdentifier(destination.rootEntity)]!
                    let inverse = relationship.inverseRelationship
                    if !relationship.isToMany {
                        let column = "Z" + StoreSchema.columnName(relationship.name)
                        let entityColumn = destination.subentities.isEmpty ? nil : column + "_ENT"
                        table.addColumn(column, type: .integer64AttributeType)
                        if let entityColumn { table.addColumn(entityColumn, type: .integer64AttributeType) }
                        table.foreignKeyColumns.insert(column)
                        slots.append(.toOne(column: column, entityColumn: entityColumn, destination: destination))
                    } else if let inverse, !inverse.isToMany {
                        let fk = "Z" + StoreSchema.columnName(inverse.name)
                        let order = relationship.isOrdered ? "Z_FOK_" + StoreSchema.columnName(inverse.name) : nil
                        if let order { destinationTable.addColumn(order, type: .integer64AttributeType) }
                        slots.append(
                            .toManyByInverse(
                                table: destinationTable.name, column: fk, orderColumn: order, destination: destination))
                    } else {
                        // Join table, shared by both sides of a many-to-many, keyed by the declaring entities
                        // (a relationship declared on a parent is one table for every subentity).
                        let declaring = relationship.entity ?? entity
                        let me = "\(declaring.name ?? "").\(relationship.name)"
                        let other = inverse.map { "\($0.entity?.name ?? "").\($0.name)" }
                        let canonicalIsMe = StoreSchema.namesJoinTable(relationship, numbers: numbers)
                        let key = canonicalIsMe ? me : other!
                        let join: JoinTable
                        if let existing = joinByKey[key] {
                            join = existing
                        } else {
                            let owner = canonicalIsMe ? relationship : inverse!
                            join = StoreSchema.joinTable(for: owner, numbers: numbers)
                            joinByKey[key] = join
                            joinTables.append(join)
                        }
                        slots.append(.toManyByJoin(join, isSourceSide: canonicalIsMe, destination: destination))
                    }
                }
            }
            mappings[ObjectIdentifier(entity)] = EntityMapping(
                entity: entity, number: number, table: table,
                descendantNumbers: descendants, slots: slots)
        }
    }

    /// Whether `relationship` (rather than its inverse) names the join table of a many-to-many: the side
    /// whose declaring entity has the lower number; on one entity, the later name (Apple's `Z_1FAVORITES`
    /// for `favorites` / `favoriteFolders`; which side Apple picks is checked against one store only).
    static func namesJoinTable(_ relationship: NSRelationshipDescription, numbers: [ObjectIdentifier: Int]) -> Bool {
        guard let inverse = relationship.inverseRelationship, inverse !== relationship else { return true }
        let mine = relationship.entity.map { numbers[ObjectIdentifier($0)] ?? 0 } ?? 0
        let theirs = inverse.entity.map { numbers[ObjectIdentifier($0)] ?? 0 } ?? 0
        if mine != theirs { return mine < theirs }
        return !ModelHashing.precedes(relationship.name, inverse.name)
    }

    /// Core Data's join table for a many-to-many named by `owner`: `Z_<n><NAME>` (n the number of the
    /// entity declaring `owner`), with one column per side, `Z_<m><RELATIONSHIP>` for the relationship whose
    /// destination it holds (m that destination's number), `REFLEXIVE` for the far side of a relationship
    /// that is its own inverse, and `Z_FOK_<m><RELATIONSHIP>` for an ordered side.
    static func joinTable(for owner: NSRelationshipDescription, numbers: [ObjectIdentifier: Int]) -> JoinTable {
        func number(_ entity: NSEntityDescription?) -> Int { entity.map { numbers[ObjectIdentifier($0)] ?? 0 } ?? 0 }
        let inverse = owner.inverseRelationship
        let name = "Z_\(number(owner.entity))" + columnName(owner.name)
        // The owner's objects' keys: the column of the relationship that points at them (the inverse).
        let ownerSide = inverse.map { "Z_\(number($0.destinationEntity))" + columnName($0.name) }
        let destinationColumn = "Z_\(number(owner.destinationEntity))" + columnName(owner.name)
        var sourceColumn = ownerSide ?? "Z_\(number(owner.entity))" + columnName(owner.name) + "_INVERSE"
        if sourceColumn == destinationColumn { sourceColumn = "REFLEXIVE" }
        let order = { (column: String) in "Z_FOK_" + column.dropFirst(2) }
        return JoinTable(
            name: name, sourceColumn: sourceColumn, destinationColumn: destinationColumn,
            orderColumn: owner.isOrdered ? order(destinationColumn) : nil,
            inverseOrderColumn: (inverse?.isOrdered ?? false) && ownerSide != nil && sourceColumn != "REFLEXIVE"
                ? order(sourceColumn) : nil)
    }

    func mapping(for entity: NSEntityDescription) -> EntityMapping {
        if let mapping = mappings[ObjectIdentifier(entity)] { return mapping }
        // The same entity by name (an entity of an equal model).
        if let name = entity.name, let same = entities.first(where: { $0.name == name }),
            let mapping = mappings[ObjectIdentifier(same)]
        {
            return mapping
        }
        fatalError("Entity \(entity.name ?? "?") is not part of the store's model.")
    }

    func mapping(forNumber number: Int) -> EntityMapping? {
        guard number >= 1, number <= entities.count else { return nil }
        return mappings[ObjectIdentifier(entities[number - 1])]
    }

    func contains(_ entity: NSEntityDescription) -> Bool { mappings[ObjectIdentifier(entity)] != nil }

    /// Core Data's column spelling of a name: upper-cased.
    static func columnName(_ name: String) -> String { name.uppercased() }

    static func flatten(
        _ composite: NSCompositeAttributeDescription, prefix: String, path: [String]
    ) -> [CompositeColumn] {
        var result: [CompositeColumn] = []
        for element in composite.elements {
            let name = prefix + "_" + columnName(element.name)
            if let nested = element as? NSCompositeAttributeDescription {
                result += flatten(nested, prefix: name, path: path + [element.name])
            } else {
                result.append(CompositeColumn(path: path + [element.name], name: name, attribute: element))
            }
        }
        return result
    }
}

/// A table holding an entity hierarchy's rows.
final class TableInfo: @unchecked Sendable {
    let name: String
    let root: NSEntityDescription
    private(set) var columns: [(name: String, type: NSAttributeType)] = []
    var foreignKeyColumns = Set<String>()
    private var known = Set<String>()

    init(name: String, root: NSEntityDescription) {
        self.name = name
        self.root = root
    }

    func addColumn(_ name: String, type: NSAttributeType) {
        guard known.insert(name).inserted else { return }
        columns.append((name, type))
    }

    static func sqlType(_ type: NSAttributeType) -> String {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType:
            return "INTEGER"
        case .doubleAttributeType, .floatAttributeType: return "FLOAT"
        case .decimalAttributeType: return "DECIMAL"
        case .dateAttributeType: return "TIMESTAMP"
        case .stringAttributeType, .URIAttributeType: return "VARCHAR"
        case .binaryDataAttributeType, .UUIDAttributeType, .transformableAttributeType: return "BLOB"
        default: return "BLOB"
        }
    }
}

/// A join table for a to-many relationship with no to-one inverse.
final class JoinTable: @unchecked Sendable {
    let name: String
    let sourceColumn: String
    let destinationColumn: String
    let orderColumn: String?
    let inverseOrderColumn: String?

    init(
        name: String, sourceColumn: String, destinationColumn: String, orderColumn: String?, inverseOrderColumn: String?
    ) {
        self.name = name
        self.sourceColumn = sourceColumn
        self.destinationColumn = destinationColumn
        self.orderColumn = orderColumn
        self.inverseOrderColumn = inverseOrderColumn
    }
}

/// One flattened element column of a composite attribute.
struct CompositeColumn {
    let path: [String]
    let name: String
    let attribute: NSAttributeDescription
}

/// Where each of an entity's slots lives in the database.
enum SlotMapping {
    case transient
    case attribute(column: String, attribute: NSAttributeDescription)
    case composite([CompositeColumn])
    case toOne(column: String, entityColumn: String?, destination: NSEntityDescription)
    case toManyByInverse(table: String, column: String, orderColumn: String?, destination: NSEntityDescription)
    case toManyByJoin(JoinTable, isSourceSide: Bool, destination: NSEntityDescription)
}

/// An entity's number, table and slot mappings.
struct EntityMapping {
    let entity: NSEntityDescription
    let number: Int
    let table: TableInfo
    let descendantNumbers: [Int]
    let slots: [SlotMapping]
}
