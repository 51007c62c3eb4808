import Foundation

/// Runs blocking work (waiting for a child process, a compiler, a pipe's end) on a thread of its own and
/// resumes with its result.
///
/// Swift Testing runs every test, synchronous ones included, on the few threads of Swift's cooperative pool
/// (two on a two-core machine). A test that blocks one of them for long (a child process killed fifty times,
/// a compiler run) starves every concurrent test of the threads its servers and clients need to answer; a
/// socket test elsewhere in the run then waits for nothing. Blocking calls in tests go through here instead.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
