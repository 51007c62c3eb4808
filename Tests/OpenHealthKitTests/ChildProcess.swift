import TestSupport
import Testing

@testable import OpenHealthKit

/// Runs the example executable (`MedicationsSample`, built with the tests) as a second process on a
/// store file, as the Health app on another device or a restarted app would be.
enum ChildProcess {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The built `MedicationsSample`: next to the test bundle, or in the package's build folder.
    static func executable() throws -> URL {
        var folders: [URL] = []
        if let first = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        folders.append(Bundle.main.bundleURL)
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
        let build = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build")
        folders.append(build.appendingPathComponent("debug"))
        for triple in (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? [] {
            folders.append(build.appendingPathComponent(triple).appendingPathComponent("debug"))
        }
        for folder in folders {
            let candidate = folder.appendingPathComponent("MedicationsSample")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Failure(description: "MedicationsSample executable not found in \(folders.map(\.path))")
    }

    /// Starts the executable with arguments; stdout goes to the returned pipe.
    static func start(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        return (process, output)
    }

    /// Waits for a started process; returns its output lines, throwing when it failed.
    static func finish(_ started: (Process, Pipe)) async throws -> [String] {
        let (process, pipe) = started
        return try await onOwnThread { try finishBlocking((process, pipe)) }
    }

    private static func finishBlocking(_ started: (Process, Pipe)) throws -> [String] {
        let data = started.1.fileHandleForReading.readDataToEndOfFile()
        started.0.waitUntilExit()
        guard started.0.terminationStatus == 0 else {
            throw Failure(
                description: "MedicationsSample \(started.0.arguments ?? []) exited with \(started.0.terminationStatus)"
            )
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Runs the executable to its end.
    static func run(_ arguments: [String]) async throws -> [String] { try await finish(try start(arguments)) }

    static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }
}

/// Waits for the first element of a stream that satisfies a condition, failing after `seconds`
/// (a guard against hanging, not a timing assertion).
func firstElement<T: Sendable>(
    of stream: AsyncStream<T>, within seconds: Double = 60,
    where condition: @escaping @Sendable (T) -> Bool
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask {
            for await element in stream where condition(element) { return element }
            return nil
        }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let element = first else {
            throw ChildProcess.Failure(description: "no matching element within \(seconds) s")
        }
        return element
    }
}
