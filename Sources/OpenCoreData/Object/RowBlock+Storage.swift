import Foundation

extension RowBlock {
    /// A row block's buffers: `capacity * stride` slot values, a primary key and a version per row. The one
    /// place a block's memory is allocated, reached by address, and freed.
    ///
    /// Rows are initialized in order (`count` of them); `free(rows:)` destroys exactly those.
    @usableFromInline
    struct Storage {
        /// The slot values, row after row.
        // Safe because the three buffers are owned by this storage: allocated in init, freed once by `free(rows:)`.
        @usableFromInline let slots: UnsafeMutablePointer<SlotValue>
        private let primaryKeys: UnsafeMutablePointer<Int64>  // Safe because: as `slots`.
        private let versions: UnsafeMutablePointer<Int64>  // Safe because: as `slots`.
        /// Slots per row.
        @usableFromInline let stride: Int
        /// Rows there is room for.
        let capacity: Int

        init(capacity: Int, stride: Int) {
            self.capacity = capacity
            self.stride = stride
            // Safe because these are fresh allocations owned by this storage, freed once by `free(rows:)`.
            slots = .allocate(capacity: max(1, capacity * stride))
            primaryKeys = .allocate(capacity: max(1, capacity))  // Safe because: as above.
            versions = .allocate(capacity: max(1, capacity))  // Safe because: as above.
        }

        /// Destroys the first `rows` rows' values and frees the buffers (the block's deinit).
        func free(rows: Int) {
            precondition(rows <= capacity)
            // Only values that hold references are destroyed (no generic witness per slot).
            for index in 0..<(rows * stride) where slots[index].needsDestroying {
                // Safe because the first `rows * stride` slots were initialized by `append`, each once.
                (slots + index).deinitialize(count: 1)
            }
            slots.deallocate()  // Safe because: allocated in init, freed only here.
            primaryKeys.deallocate()  // Safe because: as above.
            versions.deallocate()  // Safe because: as above.
        }

        /// The uninitialized slots of `row` (below `capacity`), for a decoder to fill, and its key and version.
        func initializeRow(_ row: Int, primaryKey: Int64, version: Int64) -> RowSlots {
            precondition(row >= 0 && row < capacity, "Row \(row) of a block of \(capacity)")
            // Safe because the row is inside the buffers (checked above); plain integers need no destroying.
            (primaryKeys + row).initialize(to: primaryKey)
            (versions + row).initialize(to: version)  // Safe because: as above.
            return RowSlots(base: slots + row * stride, count: stride)
        }

        /// The slots of an initialized row.
        func row(_ row: Int) -> RowSlots { RowSlots(base: slots + row * stride, count: stride) }

        /// A slot of an initialized row (the `@Managed` getter's read, inlined into client code).
        @inlinable @inline(__always)
        func value(row: Int, slot: Int) -> SlotValue {
            // Safe because callers pass an object's own row (below `count`) and a slot of its entity (below `stride`).
            slots[row &* stride &+ slot]
        }

        func primaryKey(at row: Int) -> Int64 { primaryKeys[row] }  // Safe because: an initialized row.
        func version(at row: Int) -> Int64 { versions[row] }  // Safe because: an initialized row.
    }
}

/// The slots of one row, of a row block or of a values array being made: what a row decoder writes into.
/// Made only by `RowBlock.Storage` and `RowSlots.withArray`, for exactly `count` slots.
struct RowSlots {
    // Safe because a RowSlots is made only for `count` slots inside a live block or array being made.
    private let base: UnsafeMutablePointer<SlotValue>
    private let count: Int

    // Safe because only this file makes RowSlots, each for slots it owns (see `base`).
    fileprivate init(base: UnsafeMutablePointer<SlotValue>, count: Int) {
        self.base = base
        self.count = count
    }

    /// A values array of `count` slots filled by `fill`, which must initialize every slot once.
    static func withArray(count: Int, _ fill: (RowSlots) -> Void) -> [SlotValue] {
        guard count > 0 else { return [] }
        // Safe because the buffer has room for `count` (> 0) values and `fill` initializes each of them.
        return Array(unsafeUninitializedCapacity: count) { buffer, initialized in
            fill(RowSlots(base: buffer.baseAddress!, count: count))
            initialized = count
        }
    }

    /// Initializes slot `index` (uninitialized until now) to `value`.
    @inline(__always)
    func initialize(_ index: Int, to value: SlotValue) {
        assert(index >= 0 && index < count)
        // Safe because the slot is one of this row's (decoders write indices from their plan, which has `count` steps).
        (base + index).initialize(to: value)
    }

    /// The value in slot `index`.
    @inline(__always)
    subscript(index: Int) -> SlotValue {
        assert(index >= 0 && index < count)
        return base[index]  // Safe because: an initialized slot of this row.
    }

    /// Replaces slot `index`'s value.
    @inline(__always)
    func set(_ index: Int, to value: SlotValue) {
        assert(index >= 0 && index < count)
        base[index] = value  // Safe because: an initialized slot of this row (the old value is destroyed).
    }

    /// Moves slot `index`'s value out, leaving `.null` in its place.
    @inline(__always)
    func take(_ index: Int) -> SlotValue {
        assert(index >= 0 && index < count)
        // Safe because the slot is initialized: its value moves out and the slot is initialized again at once.
        let value = (base + index).move()
        (base + index).initialize(to: .null)  // Safe because: as above.
        return value
    }

    /// The slots from `offset` on (a composite's elements).
    func dropFirst(_ offset: Int) -> RowSlots {
        precondition(offset >= 0 && offset <= count)
        return RowSlots(base: base + offset, count: count - offset)  // Safe because: inside this row.
    }
}
