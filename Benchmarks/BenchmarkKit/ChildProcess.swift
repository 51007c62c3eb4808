import Foundation

/// What a finished child process wrote.
public struct ProcessOutput: Sendable {
    /// Its standard output.
    public var output: String
    /// Its standard error.
    public var errors: String

    /// The numbers in the standard output, in order (separated by spaces or newlines).
    public var numbers: [Double] { output.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) } }
}

/// A failed child process: what it was, its exit status and what it said.
public struct ProcessFailure: Error, CustomStringConvertible {
    /// The command line and its status and standard error.
    public var description: String
}

/// Runs `executable` (this benchmark's own executable by default) to completion and returns what it wrote;
/// throws `ProcessFailure` when it exits with a non-zero status. Both pipes are drained at once, so a child
/// writing much to either cannot block.
public func runProcess(_ arguments: [String], executable: String = CommandLine.arguments[0]) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let errors = ErrorsBox()
    let reader = Thread { errors.set(err.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let text = String(decoding: errors.wait(), as: UTF8.self)
    guard process.terminationStatus == 0 else {
        throw ProcessFailure(
            description:
                "\(executable) \(arguments.joined(separator: " ")) exited with status \(process.terminationStatus): \(text.suffix(500))"
        )
    }
    return ProcessOutput(output: output, errors: text)
}

/// The standard error read on another thread.
private final class ErrorsBox: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()
    func set(_ value: Data) {
        data = value
        done.signal()
    }
    func wait() -> Data {
        done.wait()
        return data  // written before the signal the wait returned on
    }
}
