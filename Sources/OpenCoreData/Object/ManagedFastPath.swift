import Foundation

/// The `@Managed` getter's fast path, inlined into each accessor of client code: the one place it reads
/// an object's payload without reference counting.
///
/// It touches only plain data (the slot table's entries, the row block's buffer), so it retains nothing
/// but the value it returns.
@usableFromInline
enum ManagedFastPath {
    /// See `NSManagedObject._loadedManagedValue(id:as:)`.
    @inlinable @inline(__always)
    static func loadedValue<T>(of object: NSManagedObject, id: UInt, as type: T.Type) -> T? {
        // Safe because `object` holds its payload for this whole call (the caller holds `object`).
        unowned(unsafe) let payload = object.payload
        // Safe because the payload holds its layout, which holds its slot table, for the payload's lifetime.
        unowned(unsafe) let table = payload.layout.managedSlots
        guard let slot = table.attributeSlot(for: id) else { return nil }
        switch payload.kind {
        case .rows:
            // Safe because `kind` is .rows only for a RowBlock (checked in ObjectPayload.init), held as above.
            unowned(unsafe) let block = unsafeDowncast(payload, to: RowBlock.self)
            let row = Int(object.batchIndex)
            var value = block.storage.value(row: row, slot: slot)
            // nil, or a composite whose dictionary is not built yet (see `RowBlock.buildDeferred(row:slot:)`).
            if case .null = value {
                block.buildDeferred(row: row, slot: slot)
                value = block.storage.value(row: row, slot: slot)
            }
            return value.value(as: T.self)
        case .data:
            // Safe because `kind` is .data only for an ObjectData (checked in ObjectPayload.init), held as above.
            return unsafeDowncast(payload, to: ObjectData.self).values?[slot: slot].value(as: T.self)
        case .batch:
            return nil
        }
    }
}
