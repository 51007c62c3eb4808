/// The objects a context has registered, by (root entity, primary key): an open-addressing hash table.
///
/// Every fetched object is added once and removed when it is freed, so a fetch of 100,000 rows does
/// 200,000 of these operations. A `Dictionary` hashes each key with SipHash; primary keys are small
/// integers given out in sequence: runs of 16 consecutive keys share a block of entries (a fetch touches
/// few cache lines), and a multiplicative (Fibonacci) hash spreads the blocks, for a tenth of the cost.
/// Linear probing, at most half full, with backward-shift deletion (no tombstones).
/// Objects are held unretained: an object removes itself when freed.
struct ObjectRegistry {
    private struct Entry {
        /// The root entity's address; 0 marks an empty entry.
        var root: UInt = 0
        var primaryKey: Int64 = 0
        var object: Unmanaged<NSManagedObject>?
    }

    private var entries = [Entry](repeating: Entry(), count: 16)
    /// 64 minus log2 of the capacity: a hash's top bits pick the home entry.
    private var shift: UInt64 = 60
    /// The number of registered objects.
    private(set) var count = 0

    @inline(__always)
    private func home(_ root: UInt, _ primaryKey: Int64) -> Int {
        let block = ((UInt64(bitPattern: primaryKey) &>> 4) ^ (UInt64(root) &<< 17) ^ (UInt64(root) &>> 4)) &* 0x9E37_79B9_7F4A_7C15
        // The capacity is at least 16, so a block start is a multiple of 16 below it.
        return Int(truncatingIfNeeded: block &>> shift) & ~15 | Int(primaryKey & 15)
    }

    @inline(__always)
    private func find(_ root: UInt, _ primaryKey: Int64) -> (index: Int, found: Bool) {
        let mask = entries.count - 1
        var i = home(root, primaryKey)
        while true {
            let entry = entries[i]
            if entry.root == 0 { return (i, false) }
            if entry.root == root && entry.primaryKey == primaryKey { return (i, true) }
            i = (i + 1) & mask
        }
    }

    /// The object registered for a row, if any.
    subscript(root: ObjectIdentifier, primaryKey: Int64) -> NSManagedObject? {
        let (index, found) = find(UInt(bitPattern: root), primaryKey)
        return found ? entries[index].object?.takeUnretainedValue() : nil
    }

    /// Registers an object for a row (replacing any other).
    mutating func insert(_ object: NSManagedObject, root: ObjectIdentifier, primaryKey: Int64) {
        if (count + 1) * 2 > entries.count { resize(to: entries.count * 2) }
        let key = UInt(bitPattern: root)
        let (index, found) = find(key, primaryKey)
        if !found { count += 1 }
        entries[index] = Entry(root: key, primaryKey: primaryKey, object: Unmanaged.passUnretained(object))
    }

    /// Removes a row's entry (when it is for `object`, if one is given).
    mutating func remove(root: ObjectIdentifier, primaryKey: Int64, ifObject object: NSManagedObject? = nil) {
        var (hole, found) = find(UInt(bitPattern: root), primaryKey)
        guard found else { return }
        if let object, entries[hole].object?.toOpaque() != Unmanaged.passUnretained(object).toOpaque() { return }
        count -= 1
        // Backward shift: move later entries of the probe run into the hole when that keeps them
        // reachable from their home entry.
        let mask = entries.count - 1
        var next = (hole + 1) & mask
        while entries[next].root != 0 {
            let wanted = home(entries[next].root, entries[next].primaryKey)
            // `next` may fill `hole` unless its home lies cyclically in (hole, next].
            let homeAfterHole = hole <= next ? (wanted > hole && wanted <= next) : (wanted > hole || wanted <= next)
            if !homeAfterHole {
                entries[hole] = entries[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        entries[hole] = Entry()
    }

    /// Makes room for `capacity` objects without growing.
    mutating func reserveCapacity(_ capacity: Int) {
        var size = entries.count
        while capacity * 2 > size { size *= 2 }
        if size > entries.count { resize(to: size) }
    }

    /// Every registered object.
    var objects: [NSManagedObject] {
        entries.compactMap { $0.root == 0 ? nil : $0.object?.takeUnretainedValue() }
    }

    /// Removes every entry.
    mutating func removeAll() {
        entries = [Entry](repeating: Entry(), count: 16)
        shift = 60
        count = 0
    }

    private mutating func resize(to size: Int) {
        let old = entries
        entries = [Entry](repeating: Entry(), count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        let mask = size - 1
        for entry in old where entry.root != 0 {
            var i = home(entry.root, entry.primaryKey)
            while entries[i].root != 0 { i = (i + 1) & mask }
            entries[i] = entry
        }
    }
}
