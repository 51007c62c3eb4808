import Foundation

/// The objects a context has registered, by (root entity, primary key): an open-addressing hash table.
///
/// Every fetched object is added once and removed when it is freed, so a fetch of 100,000 rows does
/// 200,000 of these operations. A `Dictionary` hashes each key with SipHash; primary keys are small
/// integers given out in sequence: runs of 16 consecutive keys share a block of entries (a fetch touches
/// few cache lines), and a multiplicative (Fibonacci) hash spreads the blocks, for a tenth of the cost.
/// Linear probing; a removed entry becomes a tombstone (objects are freed in bulk, and shifting the
/// rest of a long run back on every removal costs more), and the table is rebuilt when live entries
/// and tombstones fill half of it. Objects are held unretained: an object removes itself when freed.
/// The table is a buffer of plain entries owned by the registry (no copy-on-write array, so a lookup
/// or insert retains nothing); the context serializes access.
final class ObjectRegistry {
    /// The context's state lock, which guards the registry: a freed object takes it to remove itself,
    /// through its payload's reference to the registry (no weak load of the context).
    let lock: NSRecursiveLock

    init(lock: NSRecursiveLock) { self.lock = lock }

    static let empty: UInt = 0
    static let tombstone: UInt = 1

    private var entries = Table(capacity: 16)
    private var capacity: Int { entries.capacity }
    /// 64 minus log2 of the capacity: a hash's top bits pick the home entry.
    private var shift: UInt64 = 60
    /// The number of registered objects.
    private(set) var count = 0
    /// Entries that are live or tombstones (probes stop only at empty entries).
    private var used = 0

    deinit { entries.free() }

    @inline(__always)
    private func home(_ root: UInt, _ primaryKey: Int64) -> Int {
        let block =
            ((UInt64(bitPattern: primaryKey) &>> 4) ^ (UInt64(root) &<< 17) ^ (UInt64(root) &>> 4))
            &* 0x9E37_79B9_7F4A_7C15
        // The capacity is at least 16, so a block start is a multiple of 16 below it.
        return Int(truncatingIfNeeded: block &>> shift) & ~15 | Int(primaryKey & 15)
    }

    /// Where a key is, or nil; and where it would go (the first tombstone on the way, or the empty entry).
    @inline(__always)
    private func find(_ root: UInt, _ primaryKey: Int64) -> (found: Int?, free: Int) {
        let mask = capacity - 1
        var i = home(root, primaryKey)
        var firstTombstone = -1
        while true {
            let entry = entries[i]
            if entry.root == Self.empty { return (nil, firstTombstone >= 0 ? firstTombstone : i) }
            if entry.root == root && entry.primaryKey == primaryKey { return (i, i) }
            if entry.root == Self.tombstone && firstTombstone < 0 { firstTombstone = i }
            i = (i + 1) & mask
        }
    }

    /// The object registered for a row, if any.
    subscript(root: ObjectIdentifier, primaryKey: Int64) -> NSManagedObject? {
        guard let index = find(UInt(bitPattern: root), primaryKey).found else { return nil }
        return entries[index].object
    }

    /// Registers an object for a row (replacing any other).
    func insert(_ object: NSManagedObject, root: ObjectIdentifier, primaryKey: Int64) {
        if (used + 1) * 2 > capacity { rebuild() }
        let key = UInt(bitPattern: root)
        let (found, free) = find(key, primaryKey)
        if found == nil {
            count += 1
            if entries[free].root == Self.empty { used += 1 }
        }
        entries[found ?? free] = Entry(root: key, primaryKey: primaryKey, object: object)
    }

    /// Removes a row's entry (when it is for `object`, if one is given).
    func remove(root: ObjectIdentifier, primaryKey: Int64, ifObject object: NSManagedObject? = nil) {
        guard let index = find(UInt(bitPattern: root), primaryKey).found else { return }
        if let object, !entries[index].holds(object) { return }
        entries[index] = Entry(root: Self.tombstone)
        count -= 1
    }

    /// Removes an object's entry under the lock (another object may have replaced it: then it stays).
    /// Freed objects call this through their payload, the context when it forgets an object.
    func unregister(_ object: NSManagedObject, root: ObjectIdentifier, primaryKey: Int64) {
        lock.withLock { remove(root: root, primaryKey: primaryKey, ifObject: object) }
    }

    /// Every registered object.
    var objects: [NSManagedObject] {
        // Objects are usually freed before a reset: an empty table is not scanned.
        guard count > 0 else { return [] }
        var objects: [NSManagedObject] = []
        objects.reserveCapacity(count)
        entries.forEachLive { if let object = $0.object { objects.append(object) } }
        return objects
    }

    /// The most entries `removeAll` keeps (24 MiB): a context that is reset is usually filled again to
    /// about the size it had, and growing the table back costs a rebuild per doubling.
    private static let keptCapacity = 1 << 20

    /// The table's size in entries (tests check how it grows and shrinks).
    var tableCapacity: Int { capacity }

    /// Removes every entry, keeping the table's size up to `keptCapacity` entries, and only while the objects
    /// registered since the last clearing needed a table of about that size.
    ///
    /// Clearing costs the whole table. After one large fetch (a whole history: a million entries, 24 MiB) a
    /// context that goes on with small reads (pages of 100 rows) would otherwise clear megabytes after every
    /// one of them; that clearing was most of what a page cost. A table more than eight times larger than this
    /// round needed shrinks to that size instead (a round as large as the last keeps it).
    func removeAll() {
        defer {
            count = 0
            used = 0
        }
        // Over `keptCapacity` the memory goes back (the smallest table), as a table that large is not kept.
        let fitting = Self.size(for: used)
        let needed = fitting <= Self.keptCapacity ? fitting : 16
        guard capacity <= Self.keptCapacity, capacity <= needed * 8 else {
            entries.free()
            entries = Table(capacity: needed)
            shift = UInt64(64 - needed.trailingZeroBitCount)
            return
        }
        // A table never used since its last clearing is clear already.
        if used > 0 { entries.clear() }
    }

    /// The table size for `entries` entries: a power of two, at least 16, filled to a quarter at most.
    private static func size(for entries: Int) -> Int {
        var size = 16
        while (entries + 1) * 4 > size { size *= 2 }
        return size
    }

    /// Rebuilds the table without tombstones, sized so that live entries fill at most a quarter of it
    /// (larger as the registry grows, smaller after mass removals).
    private func rebuild() {
        let size = Self.size(for: count)
        let old = entries
        entries = Table(capacity: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        let mask = size - 1
        old.forEachLive { entry in
            var i = home(entry.root, entry.primaryKey)
            while entries[i].root != Self.empty { i = (i + 1) & mask }
            entries[i] = entry
        }
        old.free()
        used = count
    }
}
