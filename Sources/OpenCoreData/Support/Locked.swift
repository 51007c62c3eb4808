import Foundation

/// A value guarded by a lock, for process-wide tables (the running contexts, the value transformers).
///
/// `Synchronization.Mutex` held in a `static let` is reported by ThreadSanitizer as a Swift access race on the
/// global (its exclusivity instrumentation sees each `withLock` as an access of the whole global); a class
/// holding the value and an `NSLock` is the same protection with nothing to report.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`: only `withLock` touches it.
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
