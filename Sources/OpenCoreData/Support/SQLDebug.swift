import Foundation
import GRDB

/// Core Data's SQL log, switched on as on Apple's platforms by the launch argument
/// `-com.apple.CoreData.SQLDebug N` (or the environment variable `com.apple.CoreData.SQLDebug=N`, for
/// processes whose arguments are not yours to choose, such as test runners).
///
/// Level 1 and above writes each SELECT a fetch, count, prefetch or fault runs to standard error as
/// `CoreData: sql: <SQL>`, with `?` for bound values; level 3 and above adds a line per bound value
/// (`CoreData: details: SQLite bind[0] = ...`). Writes are not logged.
enum SQLDebug {
    /// The level from the launch argument or the environment (0: off), read once.
    static let level: Int = {
        let arguments = ProcessInfo.processInfo.arguments
        if let index = arguments.firstIndex(of: "-com.apple.CoreData.SQLDebug"), index + 1 < arguments.count {
            guard let level = Int(arguments[index + 1]) else {
                FileHandle.standardError.write(
                    Data(
                        "CoreData: -com.apple.CoreData.SQLDebug needs a number, not '\(arguments[index + 1])'; SQL logging stays off\n"
                            .utf8))
                return 0
            }
            return level
        }
        if let value = ProcessInfo.processInfo.environment["com.apple.CoreData.SQLDebug"] {
            guard let level = Int(value) else {
                FileHandle.standardError.write(
                    Data(
                        "CoreData: com.apple.CoreData.SQLDebug needs a number, not '\(value)'; SQL logging stays off\n"
                            .utf8))
                return 0
            }
            return level
        }
        return 0
    }()

    /// Logs a statement about to run, when the level asks for it.
    @inline(__always)
    static func log(_ sql: @autoclosure () -> String, _ arguments: @autoclosure () -> [DatabaseValue]) {
        guard level > 0 else { return }
        var text = "CoreData: sql: \(sql())\n"
        if level >= 3 {
            for (i, value) in arguments().enumerated() { text += "CoreData: details: SQLite bind[\(i)] = \(value)\n" }
        }
        FileHandle.standardError.write(Data(text.utf8))
    }
}
