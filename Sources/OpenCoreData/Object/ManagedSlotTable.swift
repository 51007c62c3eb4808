import Foundation
import Synchronization

/// The slots `@Managed` properties read and write, per entity layout, found by the identity of the
/// property's `ManagedProperty`.
///
/// An identity is the address of a name's literal text, which lives as long as the program. An entity
/// has few properties, so a linear scan of identities beats hashing. Entries are only ever appended (at most
/// `capacity`), so readers take no lock: an entry is written before the count that publishes it. The table
/// is the one owner of its entry buffer.
// Safe because (Sendable) writers serialize on `lock`, and readers see only entries published through the
// atomic count after they were written; published entries are never changed.
@usableFromInline
final class ManagedSlotTable: @unchecked Sendable {
    @usableFromInline
    struct Entry {
        @usableFromInline let id: UInt
        @usableFromInline let slot: Int
        /// Whether the slot holds an attribute (read in place by `attributeSlot(for:)`).
        @usableFromInline let isAttribute: Bool
        let key: String
    }

    private static let capacity = 256
    // Safe because the buffer is owned by the table: allocated here, freed only in deinit.
    @usableFromInline let entries = UnsafeMutablePointer<Entry>.allocate(capacity: ManagedSlotTable.capacity)
    /// How many entries are written (a reader sees an entry only after its count is published).
    @usableFromInline let published = Atomic<Int>(0)
    /// Serializes writers.
    private let lock = NSLock()

    deinit {
        // Safe because exactly the first `published` entries were initialized, each once.
        entries.deinitialize(count: published.load(ordering: .acquiring))
        entries.deallocate()  // Safe because: allocated at init, freed only here.
    }

    /// The index of the entry for `id` among the first `count` published entries, if there is one.
    @inlinable @inline(__always)
    func index(of id: UInt, count: Int) -> Int? {
        var i = 0
        while i < count {
            // Safe because i < count <= published entries, each initialized before it was published.
            if entries[i].id == id { return i }
            i &+= 1
        }
        return nil
    }

    /// The slot of the attribute known as `id` (nil for a relationship, or an identity not seen yet: the
    /// caller takes the general path, which adds it).
    @inlinable @inline(__always)
    func attributeSlot(for id: UInt) -> Int? {
        guard let i = index(of: id, count: published.load(ordering: .acquiring)) else { return nil }
        // Safe because `index` found i among the published entries.
        return entries[i].isAttribute ? entries[i].slot : nil
    }

    /// The slot and key (the property's name) of `property`, added on first use (nil when the entity
    /// has no property of that name: the caller goes through key-value coding, which reports the error).
    func slotAndKey(for property: ManagedProperty, layout: EntityLayout) -> (slot: Int, key: String)? {
        let id = property.id
        if let i = index(of: id, count: published.load(ordering: .acquiring)) {
            return (entries[i].slot, entries[i].key)  // Safe because: i is a published entry.
        }
        guard let slot = layout.slotByName[property.name] else { return nil }
        lock.withLock {
            let count = published.load(ordering: .relaxed)
            guard count < Self.capacity, index(of: id, count: count) == nil else { return }
            let entry = Entry(id: id, slot: slot, isAttribute: layout.attributeTypes[slot] != nil, key: property.name)
            // Safe because count < capacity, the entry at count is not yet initialized, and writers hold the lock.
            (entries + count).initialize(to: entry)
            published.store(count + 1, ordering: .releasing)
        }
        return (slot, property.name)
    }
}
