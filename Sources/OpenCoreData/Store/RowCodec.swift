import Foundation
import GRDB

/// A column an INSERT or UPDATE writes, and where its value comes from.
struct InsertColumn {
    enum Kind { case value, relationship, relationshipEntity }
    let name: String
    let slot: Int
    /// For a composite element: its path inside the composite's dictionary.
    let path: [String]?
    let type: NSAttributeType
    let transformer: String?
    let kind: Kind
}

/// Reads a table row (`SELECT Z_PK, Z_ENT, Z_OPT, <all table columns>`) into an entity's slot values,
/// and lists the columns an entity's INSERT writes.
final class RowCodec: @unchecked Sendable {
    enum SlotReader {
        case none
        case attribute(index: Int, type: NSAttributeType, transformer: String?)
        case composite([(path: [String], index: Int, type: NSAttributeType, transformer: String?)])
        case toOne(index: Int, entityIndex: Int?, destination: NSEntityDescription)
        case toMany
    }

    let mapping: EntityMapping
    let readers: [SlotReader]
    /// Columns written by an INSERT of this entity, and the slot (and composite path) each comes from.
    let insertColumns: [InsertColumn]
    let insertSQL: String

    init(mapping: EntityMapping, schema: StoreSchema) {
        self.mapping = mapping
        var columnIndex: [String: Int] = [:]
        for (i, column) in mapping.table.columns.enumerated() { columnIndex[column.name] = i + 3 }
        var readers: [SlotReader] = []
        var inserts: [InsertColumn] = []
        for (slot, slotMapping) in mapping.slots.enumerated() {
            switch slotMapping {
            case .transient:
                readers.append(.none)
            case .attribute(let column, let attribute):
                readers.append(.attribute(index: columnIndex[column]!, type: attribute.attributeType, transformer: attribute.valueTransformerName))
                inserts.append(InsertColumn(name: column, slot: slot, path: nil, type: attribute.attributeType, transformer: attribute.valueTransformerName, kind: .value))
            case .composite(let columns):
                readers.append(.composite(columns.map { ($0.path, columnIndex[$0.name]!, $0.attribute.attributeType, $0.attribute.valueTransformerName) }))
                for column in columns {
                    inserts.append(InsertColumn(name: column.name, slot: slot, path: column.path, type: column.attribute.attributeType,
                                                transformer: column.attribute.valueTransformerName, kind: .value))
                }
            case .toOne(let column, let entityColumn, let destination):
                readers.append(.toOne(index: columnIndex[column]!, entityIndex: entityColumn.flatMap { columnIndex[$0] }, destination: destination))
                inserts.append(InsertColumn(name: column, slot: slot, path: nil, type: .integer64AttributeType, transformer: nil, kind: .relationship))
                if let entityColumn {
                    inserts.append(InsertColumn(name: entityColumn, slot: slot, path: nil, type: .integer64AttributeType, transformer: nil, kind: .relationshipEntity))
                }
            case .toManyByInverse, .toManyByJoin:
                readers.append(.toMany)
            }
        }
        self.readers = readers
        self.insertColumns = inserts
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + inserts.map(\.name)
        insertSQL = "INSERT INTO \(mapping.table.name) (\(names.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))"
        _ = schema
    }

    /// Decodes the slot values of a row selected with the table's full column list.
    func decode<Columns: SQLColumns>(_ row: Columns, schema: StoreSchema) -> SlotValues {
        var values = [SlotValue](repeating: .null, count: readers.count)
        for (slot, reader) in readers.enumerated() {
            switch reader {
            case .none, .toMany:
                continue
            case .attribute(let index, let type, let transformer):
                values[slot] = SQLValueCodec.decodeSlot(row, index, type: type, transformerName: transformer)
            case .composite(let columns):
                var dictionary = [String: Any](minimumCapacity: columns.count)
                var any = false
                for column in columns {
                    if let value = SQLValueCodec.decode(row, column.index, type: column.type, transformerName: column.transformer) {
                        any = true
                        if column.path.count == 1 {
                            dictionary[column.path[0]] = value
                        } else {
                            RowCodec.assign(value, at: column.path[...], in: &dictionary)
                        }
                    }
                }
                values[slot] = any ? .composite(dictionary) : .null
            case .toOne(let index, let entityIndex, let destination):
                guard let pk = row.int64(index) else { continue }
                var entity = destination
                if let entityIndex, let number = row.int64(entityIndex), let m = schema.mapping(forNumber: Int(number)) { entity = m.entity }
                values[slot] = .reference(RowReference(entity: entity, primaryKey: pk))
            }
        }
        return SlotValues(values)
    }

    static func assign(_ value: Any, at path: ArraySlice<String>, in dictionary: inout [String: Any]) {
        guard let head = path.first else { return }
        if path.count == 1 { dictionary[head] = value; return }
        var inner = dictionary[head] as? [String: Any] ?? [:]
        assign(value, at: path.dropFirst(), in: &inner)
        dictionary[head] = inner
    }

    /// A composite element's value, by its path inside a composite slot value.
    static func lookup(_ path: [String], in value: SlotValue) -> Any? {
        guard case .composite(let dictionary) = value, let head = path.first else { return nil }
        return path.count == 1 ? dictionary[head] : lookup(Array(path.dropFirst()), in: dictionary[head])
    }

    static func lookup(_ path: [String], in value: Any?) -> Any? {
        var current = value
        for component in path {
            guard let dictionary = current as? [String: Any] else { return nil }
            current = dictionary[component]
        }
        return current
    }
}
