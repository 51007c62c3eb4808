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

/// Waits for a child process to exit and reaps it with `waitpid`, on a thread of its own; returns its exit status
/// (128 + the signal for a killed one). When `timeout` passes first, sends SIGTERM, and SIGKILL a second later.
///
/// Foundation's `Process.waitUntilExit` learns of a child's exit when a socket the child inherited closes; a child
/// that closes every descriptor at startup (daemons do) or that leaves a grandchild holding it is never seen to
/// exit, and its waiters spin forever. `waitpid` asks the kernel instead.
@discardableResult
public func reap(_ process: Process, timeout: Duration? = nil) async -> Int32 {
    // `try?`: the body does not throw.
    (try? await onOwnThread { reapNow(process, timeout: timeout) }) ?? -1
}

/// ``reap(_:timeout:)``, blocking the calling thread.
@discardableResult
public func reapNow(_ process: Process, timeout: Duration? = nil) -> Int32 {
    let pid = process.processIdentifier
    let start = ContinuousClock.now
    var signalled = false
    var killed = false
    while true {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid {
            let signal = status & 0x7F
            return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        }
        // Foundation's own reaper got there first: the process is gone, and Foundation records its status.
        if result < 0 {
            while process.isRunning { usleep(1_000) }
            return process.terminationStatus
        }
        if let timeout {
            let waited = ContinuousClock.now - start
            if !signalled && waited > timeout {
                kill(pid, SIGTERM)
                signalled = true
            } else if !killed && waited > timeout + .seconds(1) {
                kill(pid, SIGKILL)
                killed = true
            }
        }
        usleep(5_000)
    }
}
