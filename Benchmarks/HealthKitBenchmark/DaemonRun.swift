import BenchmarkKit
import Foundation
import OpenHealthKit

/// orchard-healthd for the benchmark: a copy of the benchmark's store in a private folder, a registry naming this
/// program as the app and a hard link to it as the Health app (a writer process fed through its standard input).
final class DaemonRun {
    let socket: String
    private let folder: URL
    private let daemon = Process()
    private let writer = Process()
    private let writerInput = Pipe()

    /// Copies the store (checkpointed first, so the file holds everything) and starts the daemon and the writer.
    init(store: URL, raw: RawSQLite, granted: [String], writing medication: String) throws {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        // The registry and the Health app's link live under the package's .build folder: every folder above a
        // registered program must be writable only by its owner, which /tmp is not.
        var build = me.deletingLastPathComponent()
        while build.lastPathComponent != ".build" && build.path != "/" { build = build.deletingLastPathComponent() }
        folder = build.appendingPathComponent("healthd-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o755)
        let storeFolder = folder.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: storeFolder, withIntermediateDirectories: true)
        chmod(storeFolder.path, 0o700)
        try raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try FileManager.default.copyItem(at: store, to: storeFolder.appendingPathComponent("HealthStore.sqlite"))
        let health = folder.appendingPathComponent("health-writer")
        guard link(me.path, health.path) == 0 else { throw RawSQLiteError(description: "cannot link \(health.path)") }
        let registry: [String: Any] = [
            "apps": [
                ["executable": me.path, "bundleIdentifier": "com.example.bench", "grants": ["medications": granted]],
                ["executable": health.path, "bundleIdentifier": "com.apple.Health"],
            ]
        ]
        let registryURL = folder.appendingPathComponent("apps.json")
        try JSONSerialization.data(withJSONObject: registry).write(to: registryURL)
        chmod(registryURL.path, 0o644)
        socket = folder.appendingPathComponent("socket").path

        daemon.executableURL = me.deletingLastPathComponent().appendingPathComponent("orchard-healthd")
        daemon.arguments = [
            "--store-directory", storeFolder.path, "--socket", socket, "--registry", registryURL.path,
        ]
        let daemonOutput = Pipe()
        daemon.standardOutput = daemonOutput
        try daemon.run()
        guard String(decoding: daemonOutput.fileHandleForReading.availableData, as: UTF8.self).contains("serving")
        else {
            throw RawSQLiteError(description: "orchard-healthd did not start (is it built beside this program?)")
        }

        writer.executableURL = health
        writer.arguments = ["--health-writer", socket, medication]
        let writerOutput = Pipe()
        writer.standardOutput = writerOutput
        writer.standardInput = writerInput
        try writer.run()
        guard String(decoding: writerOutput.fileHandleForReading.availableData, as: UTF8.self).contains("ready") else {
            throw RawSQLiteError(description: "the Health app writer did not start")
        }
    }

    /// Tells the writer to log one dose.
    func writeLine(_ line: String) throws {
        try writerInput.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Ends the writer and the daemon (SIGTERM, then SIGKILL after a second) and removes the folder.
    func stop() {
        for process in [writer, daemon] where process.isRunning {
            let pid = process.processIdentifier
            kill(pid, SIGTERM)
            var status: Int32 = 0
            for _ in 0..<100 where waitpid(pid, &status, WNOHANG) == 0 { usleep(10_000) }
            if waitpid(pid, &status, WNOHANG) == 0 {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
            }
        }
        try? FileManager.default.removeItem(at: folder)  // a benchmark's folder: gone is gone
    }

}
