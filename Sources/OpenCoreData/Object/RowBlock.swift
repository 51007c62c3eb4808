import Foundation

/// The values of fetched rows of one entity, side by side in one buffer: the payload of the objects a
/// fetch makes for them, each at its row (`NSManagedObject.batchIndex`).
///
/// A fetched object that is only read never gets an `ObjectData` of its own: no allocation for its
/// values, and its neighbours' values are next to its own in memory. The first change (or anything else
/// that needs per-object state: a fault, a relationship read, leaving its context) copies the row
/// into an `ObjectData` (`NSManagedObject.data`). Rows are never written after the fetch that reads
/// them. A block lives while any of its objects does; blocks hold at most `maximumRows` rows, so an
/// object kept from a large fetch keeps only its own block alive.
@usableFromInline
final class RowBlock: ObjectPayload {
    /// The most rows one block holds.
    static let maximumRows = 256

    /// How rows are laid out.
    let rowLayout: RowCodec.BlockLayout
    /// The class of the objects made for the rows (the entity's, resolved when the block is made).
    let objectClass: NSManagedObject.Type
    /// Rows this block has room for.
    let capacity: Int
    /// Rows stored so far.
    private(set) var count = 0
    /// The rows' values, keys and versions (the first `count` rows initialized).
    @usableFromInline let storage: Storage
    /// Slots per row.
    @usableFromInline var stride: Int { storage.stride }

    /// A block for rows laid out as `rowLayout` says (whose slots must be the entity's).
    init(entity: NSEntityDescription, rowLayout: RowCodec.BlockLayout, capacity: Int) {
        precondition(
            rowLayout.slotCount == entity.layout.properties.count,
            "Rows of \(entity.name ?? "?") have \(rowLayout.slotCount) slots, the entity \(entity.layout.properties.count)"
        )
        self.rowLayout = rowLayout
        objectClass = entity.resolvedClass()
        self.capacity = capacity
        storage = Storage(capacity: capacity, stride: rowLayout.stride)
        super.init(entity: entity, kind: .rows)
    }

    deinit { storage.free(rows: count) }

    var isFull: Bool { count == capacity }

    /// Adds a fetched row, decoding its values into the block. Returns the row's index.
    func append(_ source: RowSource) -> Int {
        precondition(count < capacity, "RowBlock overflow")
        let row = count
        source.decode(into: storage.initializeRow(row, primaryKey: source.primaryKey, version: source.version))
        count += 1
        return row
    }

    /// A row's value at a slot. A deferred composite's dictionary is built on its first read and kept in
    /// its slot (rows are otherwise never written after their fetch).
    func value(row: Int, slot: Int) -> SlotValue {
        buildDeferred(row: row, slot: slot)
        return storage.value(row: row, slot: slot)
    }

    /// Builds the dictionary of the deferred composite at `slot` of `row` into that slot, when the slot
    /// is one and holds no dictionary yet (it holds `.null`).
    @usableFromInline
    func buildDeferred(row: Int, slot: Int) {
        let composite = rowLayout.deferredIndex[slot]
        guard composite >= 0, row < count else { return }
        let slots = storage.row(row)
        guard case .null = slots[slot] else { return }
        slots.set(slot, to: rowLayout.takeDictionary(Int(composite), row: slots))
    }

    func primaryKey(at row: Int) -> Int64 { storage.primaryKey(at: row) }
    func version(at row: Int) -> Int64 { storage.version(at: row) }

    /// A copy of a row's values (the entity's slots, deferred composites built).
    func values(at row: Int) -> SlotValues {
        SlotValues((0..<rowLayout.slotCount).map { value(row: row, slot: $0) })
    }
}

/// The blocks one fetch fills: the current block per entity, each new one twice the size of the last
/// (up to `RowBlock.maximumRows`), so that a one-row fetch allocates little and a large one few blocks.
struct RowBlockBuilder {
    /// Whether the context had no registered objects when the fetch began.
    let startedEmpty: Bool
    /// The objects the fetch made and registered so far.
    var registered = 0
    /// The last block used (a fetch's rows are usually all of one entity).
    private var current: RowBlock?
    /// The latest block per entity.
    private var latest: [ObjectIdentifier: RowBlock] = [:]

    init(startedEmpty: Bool) { self.startedEmpty = startedEmpty }

    /// A block with room for `row`.
    mutating func block(for row: RowSource, context: NSManagedObjectContext) -> RowBlock {
        if let current, current.entity === row.entity, !current.isFull { return current }
        let key = ObjectIdentifier(row.entity)
        let previous = latest[key]
        if let previous, !previous.isFull {
            current = previous
            return previous
        }
        let block = RowBlock(
            entity: row.entity, rowLayout: row.blockLayout,
            capacity: min(RowBlock.maximumRows, max(8, (previous?.capacity ?? 4) * 2)))
        block.context = context
        latest[key] = block
        current = block
        return block
    }
}
