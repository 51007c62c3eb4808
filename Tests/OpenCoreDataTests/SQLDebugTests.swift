import Foundation
import OpenCoreData
import Testing

/// Core Data's SQL log (`com.apple.CoreData.SQLDebug`), in a second process since the level is read once.
@Suite("SQL debug log")
struct SQLDebugTests {
    @Test func levelsOneAndThreeLogTheSQLOfEveryFetch() async throws {
        let url = Fixtures.temporaryStoreURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try await runProbe("write", url)

        let quiet = try await runProbe("dump", url)
        #expect(!quiet.errors.contains("CoreData: sql:"))

        let one = try await runProbe("dump", url, environment: ["com.apple.CoreData.SQLDebug": "1"])
        let statements = one.errors.split(separator: "\n").filter { $0.hasPrefix("CoreData: sql: SELECT ") }
        #expect(!statements.isEmpty, "no SQL logged: \(one.errors)")
        #expect(!one.errors.contains("CoreData: details:"))
        #expect(one.lines == quiet.lines)  // logging changes nothing the program sees

        let three = try await runProbe("dump", url, environment: ["com.apple.CoreData.SQLDebug": "3"])
        #expect(
            three.errors.split(separator: "\n").filter { $0.hasPrefix("CoreData: sql: SELECT ") }.count
                == statements.count)
    }

    @Test func aLevelThatIsNotANumberIsReportedAndLoggingStaysOff() async throws {
        let url = Fixtures.temporaryStoreURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try await runProbe("write", url)
        let result = try await runProbe("dump", url, environment: ["com.apple.CoreData.SQLDebug": "verbose"])
        #expect(result.errors.contains("com.apple.CoreData.SQLDebug needs a number, not 'verbose'"))
        #expect(!result.errors.contains("CoreData: sql:"))
    }
}
