import Foundation
import GRDBSQLite

/// A failed SQLite C API call, with the statement and SQLite's message.
public struct RawSQLiteError: Error, CustomStringConvertible {
    /// What failed and why.
    public var description: String

    /// An error saying `description`.
    public init(description: String) { self.description = description }
}

/// The machine's floor for SQLite work: one connection through SQLite's C API, prepared statements cached
/// by SQL, values bound and read per column. Nothing between the caller and SQLite but this handle.
///
/// It opens the file in WAL mode with `synchronous = NORMAL`, as OpenCoreData's store (a GRDB
/// `DatabasePool`, whose writer GRDB sets up that way) does; `settings` lets a benchmark check both.
/// This is the benchmark's one unsafe handle type: every pointer it touches stays inside it.
public final class RawSQLite {
    private var db: OpaquePointer?
    private var statements: [String: RawStatement] = [:]

    /// Opens (creating if needed) the database at `path` in WAL mode, with `synchronous` at the level
    /// given (NORMAL, as a DatabasePool's writer; FULL, as a DatabaseQueue with GRDB's defaults).
    public init(path: String, readOnly: Bool = false, synchronous: String = "NORMAL") throws {
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        // Safe because: `db` is ours until close(); a failed open still returns a handle to close.
        let status = sqlite3_open_v2(path, &db, flags, nil)
        guard status == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            db = nil
            throw RawSQLiteError(description: "cannot open \(path): \(message)")
        }
        // Another connection of the benchmark (the store's own, a checkpoint) may hold the write lock for a
        // moment: wait for it as an application would, instead of failing with SQLITE_BUSY.
        sqlite3_busy_timeout(db, 5_000)
        // WAL with synchronous NORMAL: what GRDB sets up for a DatabasePool's writer, so for OpenCoreData's store.
        if !readOnly { try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = \(synchronous)") }
    }

    deinit { close() }

    /// Finalizes every statement and closes the connection.
    public func close() {
        for statement in statements.values { statement.finalize() }
        statements.removeAll()
        // Safe because: every statement of this connection was finalized just above.
        if let db { sqlite3_close(db) }
        db = nil
    }

    /// Runs SQL that returns no rows (several statements allowed).
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        // Safe because: `db` is open; SQLite allocates `message`, freed right after it is copied.
        let status = sqlite3_exec(db, sql, nil, nil, &message)
        if status != SQLITE_OK {
            let busy = statements.values.filter { $0.isBusy }.map(\.sql)
            let text =
                (message.map { String(cString: $0) } ?? "status \(status)")
                + " (extended code \(sqlite3_extended_errcode(db)), autocommit \(sqlite3_get_autocommit(db)), busy statements: \(busy))"
            sqlite3_free(message)
            throw RawSQLiteError(description: "\(sql): \(text)")
        }
    }

    /// The prepared statement for `sql`, made once and reset before it is handed out again.
    public func statement(_ sql: String) throws -> RawStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var handle: OpaquePointer?
        // Safe because: `db` is open; the statement is finalized by close() before the connection.
        guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil) == SQLITE_OK, let handle
        else {
            throw RawSQLiteError(description: "\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
        let statement = RawStatement(handle, sql: sql, db: db)
        statements[sql] = statement
        return statement
    }

    /// Compiles `sql` and throws the statement away (no cache): what parsing a query costs SQLite.
    public func prepareAndFinalize(_ sql: String) throws {
        var handle: OpaquePointer?
        // Safe because: `db` is open; the statement is finalized before this returns.
        guard sqlite3_prepare_v2(db, sql, -1, &handle, nil) == SQLITE_OK, let handle else {
            throw RawSQLiteError(description: "\(sql.prefix(200))…: \(String(cString: sqlite3_errmsg(db)))")
        }
        // Safe because: `handle` was prepared above and is not used after this.
        sqlite3_finalize(handle)
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction (GRDB's writes use the same), committing if it returns.
    /// Statements left mid-result are reset first: their read snapshot would make the write fail.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        for statement in statements.values where statement.isBusy { statement.reset() }
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try execute("ROLLBACK")
            throw error
        }
    }

    /// The first row of `sql` on the database at `url`, its columns joined with "|" ("-" for NULL): a
    /// result fingerprint computed the same way for every side of a workload.
    public static func fingerprint(_ url: URL, _ sql: String) throws -> String {
        let db = try RawSQLite(path: url.path)
        defer { db.close() }
        return try db.statement(sql).first { s in (0..<s.columnCount).map { s.text($0) ?? "-" }.joined(separator: "|") }
            ?? "no row"
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(db)) }

    /// The connection's journal mode and synchronous level, to check a baseline runs as the store does.
    public func settings() throws -> (journalMode: String, synchronous: Int64) {
        guard let mode = try statement("PRAGMA journal_mode").first({ $0.text(0) ?? "" }) else {
            throw RawSQLiteError(description: "PRAGMA journal_mode returned nothing")
        }
        guard let synchronous = try statement("PRAGMA synchronous").first({ $0.int64(0) }) else {
            throw RawSQLiteError(description: "PRAGMA synchronous returned nothing")
        }
        return (mode, synchronous)
    }
}

/// A prepared statement of a `RawSQLite` connection: bind by index (from 1), step, read by column (from 0).
public final class RawStatement {
    private var handle: OpaquePointer?
    private let db: OpaquePointer?
    /// The statement's SQL.
    public let sql: String

    init(_ handle: OpaquePointer, sql: String, db: OpaquePointer?) {
        self.handle = handle
        self.sql = sql
        self.db = db
    }

    func finalize() {
        // Safe because: only the owning connection calls this, once, before it closes.
        sqlite3_finalize(handle)
        handle = nil
    }

    /// Whether the statement was stepped and has neither finished nor been reset.
    var isBusy: Bool { sqlite3_stmt_busy(handle) != 0 }

    /// Resets the statement and clears its bindings.
    public func reset() {
        // Safe because: the handle is live until its connection closes.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds an integer to parameter `index` (from 1).
    public func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
    /// Binds a real to parameter `index` (from 1).
    public func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }
    /// Binds a string (or NULL) to parameter `index` (from 1); SQLite copies it.
    public func bind(_ index: Int32, _ value: String?) {
        guard var value else {
            sqlite3_bind_null(handle, index)
            return
        }
        value.withUTF8 { bytes in
            // Safe because: SQLITE_TRANSIENT (-1) makes SQLite copy the bytes before this call returns.
            _ = sqlite3_bind_text(
                handle, index, bytes.baseAddress, Int32(bytes.count),
                unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
    }

    /// Steps once: true when a row is ready to read, false when done; throws SQLite's message on error.
    public func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw RawSQLiteError(description: "\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    /// Steps to the end (for statements that return no rows).
    public func run() throws { while try step() {} }

    /// The first row read by `read` (nil when there is none); the statement is reset afterwards, so it
    /// holds no read snapshot (which would keep the write-ahead log from being checkpointed).
    public func first<T>(_ read: (RawStatement) -> T) throws -> T? {
        defer { reset() }
        return try step() ? read(self) : nil
    }

    /// How many columns a row of this statement has.
    public var columnCount: Int32 { sqlite3_column_count(handle) }
    /// Column `index` (from 0) as an integer (0 for NULL).
    public func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }
    /// Column `index` (from 0) as a real (0 for NULL).
    public func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }
    /// Whether column `index` (from 0) is NULL.
    public func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }
    /// Column `index` (from 0) as bytes, nil for NULL.
    public func data(_ index: Int32) -> Data? {
        // Safe because: the pointer is valid until the next step or reset, and is copied into the Data here.
        guard let bytes = sqlite3_column_blob(handle, index) else { return nil }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, index)))
    }
    /// Column `index` (from 0) as a string, nil for NULL.
    public func text(_ index: Int32) -> String? {
        // Safe because: the pointer is valid until the next step or reset, and is copied into the String here.
        guard let bytes = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
