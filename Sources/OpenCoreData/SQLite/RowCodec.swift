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
    /// For the first column of a composite whose elements are all attributes (at most 64, see
    /// `SaveWriter.bindElements`): how many columns its elements take (this one and those right after
    /// it); 0 otherwise.
    var flatCompositeColumns = 0
}

/// Reads a table row (`SELECT Z_PK, Z_ENT, Z_OPT, <all table columns>`) into an entity's slot values,
/// and lists the columns an entity's INSERT writes.
final class RowCodec: @unchecked Sendable {
    /// How one slot is read: plain data (no references), so the per-row loop copies no strings or arrays.
    struct SlotPlan {
        enum Kind: UInt8 { case empty, attribute, composite, toOne }
        let kind: Kind
        let type: NSAttributeType
        /// The attribute's column, or a to-one's key column.
        let column: Int32
        /// A to-one's entity column (-1 when the destination has no subentities).
        let entityColumn: Int32
        /// A composite's index in `composites`, or a to-one's destination in `destinations`.
        let item: Int32
        /// The value transformer's name in `transformers` (-1 for none).
        let transformer: Int32
    }

    /// A composite attribute's columns, and the template its dictionaries are copied from.
    final class CompositePlan {
        /// An element's column (plain data).
        struct Column {
            let column: Int32
            let type: NSAttributeType
            let transformer: Int32
        }

        let columns: [Column]
        /// Each element's path inside the composite's dictionary (nested composites have longer paths).
        let paths: [[String]]
        let template: CompositeTemplate?

        init(columns: [Column], paths: [[String]]) {
            self.columns = columns
            self.paths = paths
            template = CompositeTemplate(paths)
        }
    }

    /// How a row block holds a flat composite's elements: in slots of their own after the entity's
    /// (`firstElement` on), with the composite's slot left `.null` until the dictionary is first read
    /// (see `RowBlock.value(row:slot:)`), so that a fetch builds no dictionary a reader does not ask for.
    struct DeferredComposite {
        /// The composite's slot.
        let slot: Int
        /// The slot of its first element (the others follow).
        let firstElement: Int
        let template: CompositeTemplate
    }

    /// The row block layout of this entity's rows: the entity's slots, then the elements of its flat
    /// composites. Shared by every block of the entity's rows.
    final class BlockLayout {
        /// Slots per row.
        let stride: Int
        /// The entity's own slots (the first `slotCount` of a row).
        let slotCount: Int
        let deferred: [DeferredComposite]
        /// By slot: the index in `deferred` of the composite there, or -1.
        let deferredIndex: [Int32]

        init(slotCount: Int, deferred: [DeferredComposite]) {
            self.slotCount = slotCount
            self.deferred = deferred
            stride = slotCount + deferred.reduce(0) { $0 + $1.template.count }
            var index = [Int32](repeating: -1, count: slotCount)
            for (i, composite) in deferred.enumerated() { index[composite.slot] = Int32(i) }
            deferredIndex = index
        }

        /// The dictionary of the deferred composite `deferred[composite]`, from a row's element slots. It takes
        /// their values (no copy now, nothing to destroy with the block): the slots are left `.null`,
        /// and are not read again once the composite's slot holds the dictionary.
        func takeDictionary(_ composite: Int, row: RowSlots) -> SlotValue {
            deferred[composite].template.takeValue(from: row.dropFirst(deferred[composite].firstElement))
        }
    }

    /// The keys of a flat composite's dictionary, each with its column's index as its value: a
    /// composite's dictionary is this one with the values mapped to the elements' (`mapValues` keeps
    /// every key where it is, so no key is hashed).
    struct CompositeTemplate {
        let columnByKey: [String: Int]
        /// Each column's key.
        let keys: [String]
        /// The number of elements (and columns).
        var count: Int { keys.count }

        init?(_ paths: [[String]]) {
            guard paths.allSatisfy({ $0.count == 1 }), Set(paths.map { $0[0] }).count == paths.count else { return nil }
            keys = paths.map { $0[0] }
            columnByKey = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        }

        /// The composite's value from its elements' values (`element(i)` gives column `i`'s, and is
        /// called once per column): the template's keys with every element when all are present (the
        /// usual case); otherwise a dictionary of the elements present, or `.null` when there are none.
        func value(_ element: (Int) -> Any?) -> SlotValue {
            var values: [Any?] = []
            values.reserveCapacity(count)
            var present = 0
            for i in 0..<count {
                let value = element(i)
                if value != nil { present += 1 }
                values.append(value)
            }
            if present == count { return .composite(columnByKey.mapValues { values[$0]! }) }
            var partial: [String: Any] = [:]
            for i in 0..<count {
                if let value = values[i] { partial[keys[i]] = value }
            }
            return partial.isEmpty ? .null : .composite(partial)
        }

        /// The composite's value from a row block's element slots, which it takes (leaving `.null`).
        func takeValue(from elements: RowSlots) -> SlotValue {
            @inline(__always) func take(_ i: Int) -> Any? { elements.take(i).takeAny() }
            for i in 0..<count where elements[i].isNull { return value(take) }
            return .composite(columnByKey.mapValues { take($0)! })
        }
    }

    let mapping: EntityMapping
    /// The identity of the entity's root entity: the object registry's key for its rows.
    let rootID: ObjectIdentifier
    /// By slot.
    private let plan: [SlotPlan]
    /// By row block slot (`blockLayout.stride` of them): `plan`, with each deferred composite's slot
    /// left empty and its elements read into the slots after the entity's.
    private let blockPlan: [SlotPlan]
    private let composites: [CompositePlan]
    private let destinations: [NSEntityDescription]
    private let transformers: [String]
    /// Columns written by an INSERT of this entity, and the slot (and composite path) each comes from.
    let insertColumns: [InsertColumn]
    let insertSQL: String
    /// How row blocks hold this entity's rows.
    let blockLayout: BlockLayout

    init(mapping: EntityMapping, schema: StoreSchema) {
        self.mapping = mapping
        rootID = mapping.entity.layout.rootID
        var columnIndex: [String: Int] = [:]
        for (i, column) in mapping.table.columns.enumerated() { columnIndex[column.name] = i + 3 }
        var plan: [SlotPlan] = []
        var composites: [CompositePlan] = []
        var destinations: [NSEntityDescription] = []
        var transformers: [String] = []
        var inserts: [InsertColumn] = []
        func transformer(_ name: String?) -> Int32 {
            guard let name else { return -1 }
            transformers.append(name)
            return Int32(transformers.count - 1)
        }
        let empty = SlotPlan(
            kind: .empty, type: .undefinedAttributeType, column: -1, entityColumn: -1, item: -1, transformer: -1)
        for (slot, slotMapping) in mapping.slots.enumerated() {
            switch slotMapping {
            case .transient:
                plan.append(empty)
            case .attribute(let column, let attribute):
                plan.append(
                    SlotPlan(
                        kind: .attribute, type: attribute.attributeType, column: Int32(columnIndex[column]!),
                        entityColumn: -1,
                        item: -1, transformer: transformer(attribute.valueTransformerName)))
                inserts.append(
                    InsertColumn(
                        name: column, slot: slot, path: nil, type: attribute.attributeType,
                        transformer: attribute.valueTransformerName, kind: .value))
            case .composite(let columns):
                let composite = CompositePlan(
                    columns: columns.map {
                        CompositePlan.Column(
                            column: Int32(columnIndex[$0.name]!), type: $0.attribute.attributeType,
                            transformer: transformer($0.attribute.valueTransformerName))
                    }, paths: columns.map(\.path))
                composites.append(composite)
                plan.append(
                    SlotPlan(
                        kind: .composite, type: .compositeAttributeType, column: -1, entityColumn: -1,
                        item: Int32(composites.count - 1), transformer: -1))
                for (i, column) in columns.enumerated() {
                    var insert = InsertColumn(
                        name: column.name, slot: slot, path: column.path, type: column.attribute.attributeType,
                        transformer: column.attribute.valueTransformerName, kind: .value)
                    // A flat composite (one with a template: distinct top-level keys) is bound in one walk.
                    if i == 0, composite.template != nil, columns.count <= 64 {
                        insert.flatCompositeColumns = columns.count
                    }
                    inserts.append(insert)
                }
            case .toOne(let column, let entityColumn, let destination):
                destinations.append(destination)
                plan.append(
                    SlotPlan(
                        kind: .toOne, type: .objectIDAttributeType, column: Int32(columnIndex[column]!),
                        entityColumn: Int32(entityColumn.flatMap { columnIndex[$0] } ?? -1),
                        item: Int32(destinations.count - 1), transformer: -1))
                inserts.append(
                    InsertColumn(
                        name: column, slot: slot, path: nil, type: .integer64AttributeType, transformer: nil,
                        kind: .relationship))
                if let entityColumn {
                    inserts.append(
                        InsertColumn(
                            name: entityColumn, slot: slot, path: nil, type: .integer64AttributeType, transformer: nil,
                            kind: .relationshipEntity))
                }
            case .toManyByInverse, .toManyByJoin:
                plan.append(empty)
            }
        }
        self.plan = plan
        self.composites = composites
        self.destinations = destinations
        self.transformers = transformers
        self.insertColumns = inserts
        var deferred: [DeferredComposite] = []
        var blockPlan = plan
        for (slot, step) in plan.enumerated() where step.kind == .composite {
            let composite = composites[Int(step.item)]
            guard let template = composite.template else { continue }
            deferred.append(DeferredComposite(slot: slot, firstElement: blockPlan.count, template: template))
            blockPlan[slot] = empty
            blockPlan += composite.columns.map {
                SlotPlan(
                    kind: .attribute, type: $0.type, column: $0.column, entityColumn: -1, item: -1,
                    transformer: $0.transformer)
            }
        }
        blockLayout = BlockLayout(slotCount: plan.count, deferred: deferred)
        self.blockPlan = blockPlan
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + inserts.map(\.name)
        insertSQL =
            "INSERT INTO \(mapping.table.name) (\(names.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))"
        _ = schema
    }

    /// Slots per row (the entity's properties).
    var slotCount: Int { plan.count }

    /// Decodes the slot values of a row selected with the table's full column list.
    func decode<Columns: SQLColumns>(_ row: Columns, schema: StoreSchema) -> SlotValues {
        SlotValues(RowSlots.withArray(count: plan.count) { decode(row, schema: schema, into: $0) })
    }

    /// Decodes a row's slot values into `slots` (uninitialized memory for one value per slot).
    func decode<Columns: SQLColumns>(_ row: Columns, schema: StoreSchema, into slots: RowSlots) {
        decode(row, schema: schema, into: slots, steps: plan)
    }

    /// Decodes a row into `slots`, one value per step of `steps` (uninitialized memory).
    @inline(__always)
    private func decode<Columns: SQLColumns>(
        _ row: Columns, schema: StoreSchema, into slots: RowSlots, steps: [SlotPlan]
    ) {
        for slot in steps.indices { slots.initialize(slot, to: decodeSlot(steps[slot], row, schema: schema)) }
    }

    /// One slot's value, read as its plan step says.
    @inline(__always)
    private func decodeSlot<Columns: SQLColumns>(_ step: SlotPlan, _ row: Columns, schema: StoreSchema) -> SlotValue {
        switch step.kind {
        case .empty:
            return .null
        case .attribute:
            return SQLValueCodec.decodeSlot(
                row, Int(step.column), type: step.type, transformerName: self.transformerName(step.transformer))
        case .composite:
            return decodeComposite(row, composites[Int(step.item)])
        case .toOne:
            guard let pk = row.int64(Int(step.column)) else { return .null }
            var entity = destinations[Int(step.item)]
            if step.entityColumn >= 0, let number = row.int64(Int(step.entityColumn)),
                let m = schema.mapping(forNumber: Int(number))
            {
                entity = m.entity
            }
            return .reference(RowReference(entity: entity, primaryKey: pk))
        }
    }

    /// Decodes a row into a row block's slots (`blockLayout.stride` of them, uninitialized): the
    /// entity's slots, with deferred composites left `.null` and their elements in the slots after.
    func decodeRow<Columns: SQLColumns>(_ row: Columns, schema: StoreSchema, into slots: RowSlots) {
        decode(row, schema: schema, into: slots, steps: blockPlan)
    }

    @inline(__always)
    private func transformerName(_ index: Int32) -> String? { index < 0 ? nil : transformers[Int(index)] }

    /// A composite's dictionary; elements whose columns are NULL are left out (nil when all are).
    private func decodeComposite<Columns: SQLColumns>(_ row: Columns, _ composite: CompositePlan) -> SlotValue {
        if let template = composite.template {
            let columns = composite.columns
            return template.value { i in
                SQLValueCodec.decode(
                    row, Int(columns[i].column), type: columns[i].type,
                    transformerName: self.transformerName(columns[i].transformer))
            }
        }
        // Nested composites: each element at its path.
        var dictionary = [String: Any](minimumCapacity: composite.columns.count)
        for (column, path) in zip(composite.columns, composite.paths) {
            guard
                let value = SQLValueCodec.decode(
                    row, Int(column.column), type: column.type,
                    transformerName: self.transformerName(column.transformer))
            else { continue }
            if path.count == 1 {
                dictionary[path[0]] = value
            } else {
                RowCodec.assign(value, at: path[...], in: &dictionary)
            }
        }
        return dictionary.isEmpty ? .null : .composite(dictionary)
    }

    static func assign(_ value: Any, at path: ArraySlice<String>, in dictionary: inout [String: Any]) {
        guard let head = path.first else { return }
        if path.count == 1 {
            dictionary[head] = value
            return
        }
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
