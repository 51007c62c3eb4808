import Foundation
import GRDB
import GRDBSQLite

/// Binds attribute values straight to a prepared statement's parameters and runs it, without building
/// `DatabaseValue` arrays: the save path's per-row loop. Values are stored as `SQLValueCodec` describes.
enum SQLiteBinding {
    /// SQLite copies the bytes during the call (`SQLITE_TRANSIENT`).
    // Safe because SQLITE_TRANSIENT is defined by SQLite as the destructor value -1, which it never calls.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Binds an attribute value to parameter `index` (1-based).
    @inline(__always)
    static func bind(
        _ value: Any?, type: NSAttributeType, transformerName: String?, to statement: SQLiteStatement, at index: Int32
    ) {
        bind(SlotValue(value), type: type, transformerName: transformerName, to: statement, at: index)
    }

    /// Binds a typed slot value of an attribute to parameter `index` (1-based): the exact types a
    /// normalized value has directly, anything else through the codec.
    @inline(__always)
    static func bind(
        _ value: SlotValue, type: NSAttributeType, transformerName: String?, to statement: SQLiteStatement,
        at index: Int32
    ) {
        guard value.isNormalized(for: type) else {
            bind(
                SQLValueCodec.encode(value.any, type: type, transformerName: transformerName), to: statement, at: index)
            return
        }
        switch value {
        case .string(let v): bindText(v, to: statement, at: index)
        case .int64(let v): sqlite3_bind_int64(statement, index, v)
        case .int32(let v): sqlite3_bind_int64(statement, index, Int64(v))
        case .int16(let v): sqlite3_bind_int64(statement, index, Int64(v))
        case .double(let v): sqlite3_bind_double(statement, index, v)
        case .bool(let v): sqlite3_bind_int64(statement, index, v ? 1 : 0)
        case .date(let v): sqlite3_bind_double(statement, index, v.timeIntervalSinceReferenceDate)
        case .null: sqlite3_bind_null(statement, index)
        default:
            bind(
                SQLValueCodec.encode(value.any, type: type, transformerName: transformerName), to: statement, at: index)
        }
    }

    /// Binds an already encoded value.
    static func bind(_ value: DatabaseValue, to statement: SQLiteStatement, at index: Int32) {
        switch value.storage {
        case .null: sqlite3_bind_null(statement, index)
        case .int64(let v): sqlite3_bind_int64(statement, index, v)
        case .double(let v): sqlite3_bind_double(statement, index, v)
        case .string(let v): bindText(v, to: statement, at: index)
        case .blob(let data):
            // Safe because SQLite copies the bytes (SQLITE_TRANSIENT) before `withUnsafeBytes` returns.
            _ = data.withUnsafeBytes { bytes in
                // An empty blob has no base address; bind a zero-length blob, not NULL.
                if let base = bytes.baseAddress {
                    sqlite3_bind_blob(statement, index, base, Int32(bytes.count), transient)
                } else {
                    sqlite3_bind_zeroblob(statement, index, 0)
                }
            }
        }
    }

    @inline(__always)
    static func bindText(_ text: String, to statement: SQLiteStatement, at index: Int32) {
        var text = text
        text.withUTF8 { utf8 in
            // Safe because UTF-8 code units are bytes as C chars are, and SQLite copies them (SQLITE_TRANSIENT)
            // before `withUTF8` returns.
            let base = utf8.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            if let base {
                sqlite3_bind_text(statement, index, base, Int32(utf8.count), transient)
            } else {
                sqlite3_bind_text(statement, index, "", 0, transient)
            }
        }
    }

    /// Runs a statement whose parameters are all bound, then resets it; a failure throws GRDB's
    /// `DatabaseError` (as `Statement.execute()` does), with SQLite's message and the SQL.
    static func step(_ statement: Statement, db: Database) throws {
        let handle = statement.sqliteStatement
        let code = sqlite3_step(handle)
        if code == SQLITE_DONE || code == SQLITE_ROW {
            sqlite3_reset(handle)
            return
        }
        let error = failure(code, statement: statement, db: db)
        sqlite3_reset(handle)
        throw error
    }

    /// GRDB's `DatabaseError` for a failed step (as GRDB itself reports one), with SQLite's message and
    /// the SQL; read before the statement is reset, which clears the message.
    static func failure(_ code: Int32, statement: Statement, db: Database) -> DatabaseError {
        let message = db.sqliteConnection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
    }
}
