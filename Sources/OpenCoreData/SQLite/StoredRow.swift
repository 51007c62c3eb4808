import Foundation

/// A row of the store by entity and primary key: a related row not turned into an object yet, or the row an
/// object or object ID stands for.
@usableFromInline
struct RowReference {
    /// The row's entity (its own, a subentity's when the row is of one).
    let entity: NSEntityDescription
    /// The row's primary key; 0 for an object not saved yet.
    let primaryKey: Int64
}

/// What stands for a row of the store: an object, an object ID, a row reference. The SQLite layer reads a
/// to-one relationship's target and a predicate's object constants through it, without knowing the layers
/// above it that make these values.
protocol StoredRow {
    /// The row it stands for; nil when it stands for none (an object deleted and saved away).
    var storedRow: RowReference? { get }
}

extension RowReference: StoredRow {
    var storedRow: RowReference? { self }
}
