import Foundation

/// Where an object's state lives: its own `ObjectData`, a row of a `RowBlock` (fetched and unchanged),
/// or a share of a `BatchGroup` (a batch shell, not loaded yet). The entity lives here too, so that a
/// shell is as small as an object can be.
@usableFromInline
class ObjectPayload {
    /// Which subclass this is: the accessors' hot path tests it without a dynamic cast.
    @usableFromInline
    enum Kind: UInt8 { case data, rows, batch }

    /// The entity of the object(s) this payload serves.
    let entity: NSEntityDescription
    /// The entity's layout, held here for the accessors' hot path (one load instead of two).
    @usableFromInline let layout: EntityLayout
    /// The subclass.
    @usableFromInline let kind: Kind
    /// Their context (one context holds a block's or batch group's objects).
    weak var context: NSManagedObjectContext? { didSet { registry = context?.registry } }
    /// The context's object registry, kept by the payload so that a freed object removes itself
    /// without loading the context (a registry outliving its context is only memory).
    private(set) var registry: ObjectRegistry?

    init(entity: NSEntityDescription, kind: Kind) {
        self.entity = entity
        self.layout = entity.layout
        self.kind = kind
        // `PayloadView` downcasts by the kind: it must be this payload's own class's.
        precondition(
            ObjectPayload.kind(of: type(of: self)) == kind, "A \(type(of: self)) payload made with kind \(kind)")
    }
}

/// A loaded object's values and bookkeeping. A fault has none (its `values` is nil).
@usableFromInline
final class ObjectData: ObjectPayload {
    /// The row's primary key (0 until an inserted object is saved).
    var primaryKey: Int64
    /// The ID of an object inserted and not yet saved (made when first asked for).
    var temporaryID: NSManagedObjectID?
    /// Whether the object has never been saved.
    var isNew = false
    /// Values by slot (see `EntityLayout`); nil while the object is a fault.
    /// Accessed on every property read: no run-time exclusivity check.
    // Safe because the object's context serializes access to its objects (Core Data's rule).
    @usableFromInline @exclusivity(unchecked) var values: SlotValues?
    /// The values as last read from or written to the store, for changedValues, rollback and merges.
    var committed: SlotValues?
    /// The row version (Z_OPT) the values were read at.
    var version: Int64 = 0
    /// Slots changed since the last save.
    // Safe because the object's context serializes access to its objects (Core Data's rule).
    @exclusivity(unchecked) var changedSlots = SlotSet()
    /// The batch group of a fetched shell that was loaded (so that its deinit can leave the group).
    var batchGroup: BatchGroup?

    init(primaryKey: Int64, entity: NSEntityDescription) {
        self.primaryKey = primaryKey
        super.init(entity: entity, kind: .data)
    }
}

/// The objects of a to-many relationship, kept in order (insertion order when unordered).
@usableFromInline
final class RelationshipObjects {
    private(set) var objects: [NSManagedObject] = []
    private var members = Set<ObjectIdentifier>()

    init(_ objects: [NSManagedObject] = []) {
        for object in objects { insert(object) }
    }

    var count: Int { objects.count }
    func contains(_ object: NSManagedObject) -> Bool { members.contains(ObjectIdentifier(object)) }

    func insert(_ object: NSManagedObject) {
        guard members.insert(ObjectIdentifier(object)).inserted else { return }
        objects.append(object)
    }

    func remove(_ object: NSManagedObject) {
        guard members.remove(ObjectIdentifier(object)) != nil else { return }
        objects.removeAll { $0 === object }
    }

    func copy() -> RelationshipObjects { RelationshipObjects(objects) }

    func asSet() -> NSSet { NSSet(array: objects) }
    func asOrderedSet() -> NSOrderedSet { NSOrderedSet(array: objects) }
}

/// Fetched objects materialized in batches: a shell knows only its batch group and index.
///
/// Shells are not in the context's registry (a million entries would cost more than the shells); the
/// context finds them through their group, which maps primary keys to members once someone asks.
/// Members are held unretained: a member's deinit removes it from the group.
final class BatchGroup: ObjectPayload {
    let primaryKeys: PrimaryKeyList
    let batchSize: Int
    private let lock = NSLock()
    private var members: [UnretainedObject?] = []
    private var indexByKey: [Int64: Int32]?
    private var loadedBatches: [Int] = []

    init(entity: NSEntityDescription, primaryKeys: PrimaryKeyList, batchSize: Int) {
        self.primaryKeys = primaryKeys
        self.batchSize = batchSize
        super.init(entity: entity, kind: .batch)
        members.reserveCapacity(primaryKeys.count)
    }

    /// Adds the next member (nil for a result that is an object the context already had).
    func append(_ object: NSManagedObject?) {
        lock.withLock { members.append(object.map(UnretainedObject.init)) }
    }

    /// The member at `index`, if it is still alive.
    func member(at index: Int) -> NSManagedObject? {
        lock.withLock { members[index]?.object }
    }

    /// The live member for a primary key (the key index is built on the first call).
    func member(primaryKey: Int64) -> NSManagedObject? {
        lock.withLock {
            if indexByKey == nil {
                var index = [Int64: Int32](minimumCapacity: primaryKeys.count)
                for (i, key) in primaryKeys.enumerated() where members[i] != nil { index[key] = Int32(i) }
                indexByKey = index
            }
            guard let i = indexByKey?[primaryKey] else { return nil }
            return members[Int(i)]?.object
        }
    }

    /// Every live member.
    var liveMembers: [NSManagedObject] {
        lock.withLock { members.compactMap { $0?.object } }
    }

    /// Called from a member's deinit.
    func forget(_ index: Int) {
        lock.withLock { members[index] = nil }
    }

    /// Records that `batch` was loaded; returns batches to turn back into faults to bound memory.
    func didLoad(batch: Int) -> [Int] {
        loadedBatches.append(batch)
        var evict: [Int] = []
        while loadedBatches.count > 2 { evict.append(loadedBatches.removeFirst()) }
        return evict
    }
}

/// A weak reference to a batch group, in the context's list.
struct WeakBatchGroup {
    weak var group: BatchGroup?
}

/// A small set of slot numbers (a bit set): cheaper than IndexSet on the per-property change path.
struct SlotSet: Sequence {
    private var words: [UInt64] = []

    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    func contains(_ slot: Int) -> Bool {
        let word = slot >> 6
        return word < words.count && words[word] & (1 << UInt64(slot & 63)) != 0
    }

    mutating func insert(_ slot: Int) {
        let word = slot >> 6
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word - words.count + 1)) }
        words[word] |= 1 << UInt64(slot & 63)
    }

    mutating func removeAll() { words.removeAll(keepingCapacity: true) }

    func makeIterator() -> AnyIterator<Int> {
        var word = 0
        var bits = words.first ?? 0
        let words = self.words
        return AnyIterator {
            while true {
                if bits != 0 {
                    let bit = bits.trailingZeroBitCount
                    bits &= bits - 1
                    return word * 64 + bit
                }
                word += 1
                guard word < words.count else { return nil }
                bits = words[word]
            }
        }
    }
}
