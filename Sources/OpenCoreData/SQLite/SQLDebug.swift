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
        let given: (source: String, value: String)?
        if let index = arguments.firstIndex(of: "-com.apple.CoreData.SQLDebug"), index + 1 < arguments.count {
            given = ("-com.apple.CoreData.SQLDebug", arguments[index + 1])
        } else {
            given = ProcessInfo.processInfo.environment["com.apple.CoreData.SQLDebug"].map {
                ("com.apple.CoreData.SQLDebug", $0)
            }
        }
        guard let given else { return 0 }
        guard let level = Int(given.value) else {
            FileHandle.standardError.write(
                Data("CoreData: \(given.source) needs a number, not '\(given.value)'; SQL logging stays off\n".utf8))
            return 0
        }
        return level
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
