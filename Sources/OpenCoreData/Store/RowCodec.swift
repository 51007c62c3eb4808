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
        case composite([CompositeColumnReader])
        case toOne(index: Int, entityIndex: Int?, destination: NSEntityDescription)
        case toMany
    }

    /// A composite element's column.
    struct CompositeColumnReader {
        let path: [String]
        let index: Int
        let type: NSAttributeType
        let transformer: String?
    }

    /// A flat composite's dictionary with every key present, and each column's index into it: decoding
    /// a row copies it and stores the values by index (see `decodeComposite`).
    struct CompositeTemplate {
        let dictionary: [String: Any]
        let indices: [Dictionary<String, Any>.Index]

        init?(_ columns: [CompositeColumnReader]) {
            guard columns.allSatisfy({ $0.path.count == 1 }), Set(columns.map { $0.path[0] }).count == columns.count else { return nil }
            var dictionary = [String: Any](minimumCapacity: columns.count)
            for column in columns { dictionary[column.path[0]] = 0 }
            self.dictionary = dictionary
            indices = columns.map { dictionary.index(forKey: $0.path[0])! }
        }
    }

    let mapping: EntityMapping
    let readers: [SlotReader]
    /// By slot: the template of a composite whose elements are all attributes.
    private let compositeTemplates: [CompositeTemplate?]
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
                readers.append(.composite(columns.map {
                    CompositeColumnReader(path: $0.path, index: columnIndex[$0.name]!, type: $0.attribute.attributeType, transformer: $0.attribute.valueTransformerName)
                }))
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
        compositeTemplates = readers.map { reader in
            if case .composite(let columns) = reader { return CompositeTemplate(columns) }
            return nil
        }
        self.insertColumns = inserts
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + inserts.map(\.name)
        insertSQL = "INSERT INTO \(mapping.table.name) (\(names.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))"
        _ = schema
    }

    /// Decodes the slot values of a row selected with the table's full column list.
    func decode<Columns: SQLColumns>(_ row: Columns, schema: StoreSchema) -> SlotValues {
        SlotValues(Array(unsafeUninitializedCapacity: readers.count) { buffer, initialized in
            decode(row, schema: schema, into: buffer.baseAddress!)
            initialized = readers.count
        })
    }

    /// Decodes a row's slot values into `slots` (uninitialized memory for one value per slot).
    func decode<Columns: SQLColumns>(_ row: Columns, schema: StoreSchema, into slots: UnsafeMutablePointer<SlotValue>) {
        for slot in 0..<readers.count {
            let value: SlotValue
            switch readers[slot] {
            case .none, .toMany:
                value = .null
            case .attribute(let index, let type, let transformer):
                value = SQLValueCodec.decodeSlot(row, index, type: type, transformerName: transformer)
            case .composite(let columns):
                value = decodeComposite(row, columns: columns, template: compositeTemplates[slot])
            case .toOne(let index, let entityIndex, let destination):
                if let pk = row.int64(index) {
                    var entity = destination
                    if let entityIndex, let number = row.int64(entityIndex), let m = schema.mapping(forNumber: Int(number)) { entity = m.entity }
                    value = .reference(RowReference(entity: entity, primaryKey: pk))
                } else {
                    value = .null
                }
            }
            (slots + slot).initialize(to: value)
        }
    }

    /// A composite's dictionary; elements whose columns are NULL are left out (nil when all are).
    private func decodeComposite<Columns: SQLColumns>(_ row: Columns, columns: [CompositeColumnReader], template: CompositeTemplate?) -> SlotValue {
        if let template {
            // Every element present (the usual case): a copy of the template keeps its buckets, so the
            // values go in by index, with no key hashed.
            var dictionary = template.dictionary
            var complete = true
            for (i, column) in columns.enumerated() {
                guard let value = SQLValueCodec.decode(row, column.index, type: column.type, transformerName: column.transformer) else {
                    complete = false
                    break
                }
                dictionary.values[template.indices[i]] = value
            }
            if complete { return .composite(dictionary) }
        }
        var dictionary = [String: Any](minimumCapacity: columns.count)
        for column in columns {
            guard let value = SQLValueCodec.decode(row, column.index, type: column.type, transformerName: column.transformer) else { continue }
            if column.path.count == 1 {
                dictionary[column.path[0]] = value
            } else {
                RowCodec.assign(value, at: column.path[...], in: &dictionary)
            }
        }
        return dictionary.isEmpty ? .null : .composite(dictionary)
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
