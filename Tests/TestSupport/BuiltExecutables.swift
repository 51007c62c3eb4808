import Foundation

/// An executable of this package (a probe, the migration worker, coredata-tool), found in the folder the
/// test runner was built into or one of its parents.
public func builtExecutable(_ name: String) -> URL {
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var folder = runner.deletingLastPathComponent()
    while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
        folder = folder.deletingLastPathComponent()
    }
    return folder.appendingPathComponent(name)
}
