import Foundation
import OpenCoreData
import Testing

/// Runs CoreDataProbe with `environment` added to this process's; returns its standard output and error.
private func probe(
    _ command: String, _ store: URL, environment: [String: String]
) throws -> (output: String, errors: String) {
    let process = Process()
    process.executableURL = builtExecutable("CoreDataProbe")
    process.arguments = [command, store.path]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "probe \(command) failed: \(err)")
    return (out, err)
}

/// Core Data's SQL log (`com.apple.CoreData.SQLDebug`), in a second process since the level is read once.
@Suite("SQL debug log")
struct SQLDebugTests {
    @Test func levelsOneAndThreeLogTheSQLOfEveryFetch() throws {
        let url = Fixtures.temporaryStoreURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try probe("write", url, environment: [:])

        let quiet = try probe("dump", url, environment: [:])
        #expect(!quiet.errors.contains("CoreData: sql:"))

        let one = try probe("dump", url, environment: ["com.apple.CoreData.SQLDebug": "1"])
        let statements = one.errors.split(separator: "\n").filter { $0.hasPrefix("CoreData: sql: SELECT ") }
        #expect(!statements.isEmpty, "no SQL logged: \(one.errors)")
        #expect(!one.errors.contains("CoreData: details:"))
        #expect(one.output == quiet.output)  // logging changes nothing the program sees

        let three = try probe("dump", url, environment: ["com.apple.CoreData.SQLDebug": "3"])
        #expect(
            three.errors.split(separator: "\n").filter { $0.hasPrefix("CoreData: sql: SELECT ") }.count
                == statements.count)
    }

    @Test func aLevelThatIsNotANumberIsReportedAndLoggingStaysOff() throws {
        let url = Fixtures.temporaryStoreURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try probe("write", url, environment: [:])
        let result = try probe("dump", url, environment: ["com.apple.CoreData.SQLDebug": "verbose"])
        #expect(result.errors.contains("com.apple.CoreData.SQLDebug needs a number, not 'verbose'"))
        #expect(!result.errors.contains("CoreData: sql:"))
    }
}
