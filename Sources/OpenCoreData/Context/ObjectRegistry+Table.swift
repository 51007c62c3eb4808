import Foundation

extension ObjectRegistry {
    /// One entry: a row's key and its object, held unretained.
    struct Entry {
        /// The root entity's address; `empty` or `tombstone` otherwise (no object lives at 0 or 1).
        var root: UInt = ObjectRegistry.empty
        var primaryKey: Int64 = 0
        private var reference: UnretainedObject?

        init(root: UInt = ObjectRegistry.empty, primaryKey: Int64 = 0) {
            self.root = root
            self.primaryKey = primaryKey
        }

        init(root: UInt, primaryKey: Int64, object: NSManagedObject) {
            self.init(root: root, primaryKey: primaryKey)
            reference = UnretainedObject(object)
        }

        /// The entry's object (see `UnretainedObject` for why it is still alive).
        var object: NSManagedObject? { reference?.object }

        /// Whether the entry holds `object`.
        func holds(_ object: NSManagedObject) -> Bool { reference?.refers(to: object) ?? false }
    }

    /// The registry's entry buffer: a power-of-two number of entries, always initialized. The one place the
    /// registry's memory is allocated, reached and freed; every index is masked by `capacity - 1` by the
    /// registry, and checked here in debug builds.
    struct Table {
        // Safe because the buffer is owned by the registry's table: made in init, freed once by `free()`.
        private let entries: UnsafeMutablePointer<Entry>
        let capacity: Int

        /// A table of `capacity` empty entries.
        init(capacity: Int) {
            precondition(capacity > 0 && capacity & (capacity - 1) == 0, "capacity must be a power of two")
            self.capacity = capacity
            // Safe because the buffer is fresh and initialized at once; `free()` is its only release.
            entries = .allocate(capacity: capacity)
            entries.initialize(repeating: Entry(), count: capacity)  // Safe because: as above.
        }

        @inline(__always)
        subscript(index: Int) -> Entry {
            get {
                assert(index >= 0 && index < capacity)
                return entries[index]  // Safe because: an index below capacity (masked by the registry).
            }
            nonmutating set {
                assert(index >= 0 && index < capacity)
                entries[index] = newValue  // Safe because: as above.
            }
        }

        /// Empties every entry.
        func clear() {
            entries.update(repeating: Entry(), count: capacity)  // Safe because: all `capacity` are initialized.
        }

        /// Calls `body` with each entry in use (neither empty nor a tombstone).
        func forEachLive(_ body: (Entry) -> Void) {
            // Safe because all `capacity` entries are initialized.
            for entry in UnsafeBufferPointer(start: entries, count: capacity)
            where entry.root > ObjectRegistry.tombstone {
                body(entry)
            }
        }

        /// Frees the buffer; the table must not be used afterwards.
        func free() {
            entries.deinitialize(count: capacity)  // Safe because: all `capacity` are initialized, once.
            entries.deallocate()  // Safe because: allocated in init, freed only here.
        }
    }
}
