import BenchmarkKitC
import Foundation

/// Wall-clock and CPU time of one piece of work.
public struct Timing: Sendable {
    /// Elapsed wall-clock seconds.
    public var wall: Double
    /// CPU seconds the whole process used meanwhile (user + system, every thread).
    public var cpu: Double
}

/// Monotonic wall-clock seconds.
public func wallSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// CPU seconds this process has used so far, every thread (user + system).
public func cpuSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Times `body`: wall clock and the process's CPU time.
public func timed<T>(_ body: () throws -> T) rethrows -> (T, Timing) {
    let wall = wallSeconds()
    let cpu = cpuSeconds()
    let value = try body()
    return (value, Timing(wall: wallSeconds() - wall, cpu: cpuSeconds() - cpu))
}

/// Times an asynchronous `body`: wall clock and the process's CPU time. It runs in the caller's isolation.
public func timedAsync<T>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
) async rethrows -> (T, Timing) {
    let wall = wallSeconds()
    let cpu = cpuSeconds()
    let value = try await body()
    return (value, Timing(wall: wallSeconds() - wall, cpu: cpuSeconds() - cpu))
}

/// Bytes the process's heap has handed out and not taken back (glibc's `mallinfo2`: small blocks in use
/// plus large mapped ones). Unlike the resident size it does not hide new objects in pages that freed ones
/// left behind, so deltas of it count what a workload holds.
public func heapInUseBytes() -> Int { Int(benchmark_heap_in_use()) }

/// Allocator calls (malloc, calloc, realloc and the aligned forms) the whole process has made so far: the
/// difference over a run, divided by its messages, is allocations per message (every thread's, the event loop's
/// included).
public func allocationCount() -> Int { Int(benchmark_allocations()) }

/// The process's peak resident set size so far (VmHWM), in bytes.
public func peakResidentBytes() -> Int { statusField("VmHWM:") }

/// The process's resident set size now (VmRSS), in bytes.
public func residentBytes() -> Int { statusField("VmRSS:") }

private func statusField(_ name: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
        fatalError("cannot read /proc/self/status: the memory figures need Linux's /proc")
    }
    for line in status.split(separator: "\n") where line.hasPrefix(name) {
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        guard let kilobytes else { fatalError("unexpected /proc/self/status line: \(line)") }
        return kilobytes * 1024
    }
    fatalError("/proc/self/status has no \(name) line")
}
