import Foundation
import GRDB
import GRDBSQLite

/// The columns of the current result row, read by index as SQLite's storage classes (nil for NULL).
/// `RowCodec` and `SQLValueCodec` decode through it, from a GRDB `Row` or straight from a statement.
protocol SQLColumns {
    func int64(_ index: Int) -> Int64?
    func double(_ index: Int) -> Double?
    func string(_ index: Int) -> String?
    func data(_ index: Int) -> Data?
}

extension Row: SQLColumns {
    func int64(_ index: Int) -> Int64? { self[index] as Int64? }
    func double(_ index: Int) -> Double? { self[index] as Double? }
    func string(_ index: Int) -> String? { self[index] as String? }
    func data(_ index: Int) -> Data? { self[index] as Data? }
}

/// The current row of a stepping statement, read with `sqlite3_column_*` (the fetch loop's fast path).
struct StatementColumns: SQLColumns {
    let handle: SQLiteStatement

    @inline(__always) func isNull(_ index: Int) -> Bool { sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL }

    // NULL reads as zero: only a zero needs its type checked (one SQLite call per column, not two).
    @inline(__always) func int64(_ index: Int) -> Int64? {
        let value = sqlite3_column_int64(handle, Int32(index))
        return value == 0 && isNull(index) ? nil : value
    }

    @inline(__always) func double(_ index: Int) -> Double? {
        let value = sqlite3_column_double(handle, Int32(index))
        return value == 0 && isNull(index) ? nil : value
    }

    @inline(__always) func string(_ index: Int) -> String? {
        // NULL gives a null pointer (an empty string does not), so no separate type check is needed.
        guard let text = sqlite3_column_text(handle, Int32(index)) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        // Safe because SQLite keeps the text's `count` bytes valid until the next step, and they are copied now.
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    @inline(__always) func data(_ index: Int) -> Data? {
        guard !isNull(index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        guard count > 0, let bytes = sqlite3_column_blob(handle, Int32(index)) else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}

extension SQLCore {
    /// Runs a prepared, bound SELECT and calls `body` for each result row, reading columns in place;
    /// a failure throws GRDB's `DatabaseError` (as a GRDB cursor would).
    func forEachRow(_ statement: Statement, db: Database, _ body: (StatementColumns) throws -> Void) throws {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        let columns = StatementColumns(handle: handle)
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_ROW {
                try body(columns)
                continue
            }
            if code == SQLITE_DONE { return }
            throw SQLiteBinding.failure(code, statement: statement, db: db)
        }
    }
}
