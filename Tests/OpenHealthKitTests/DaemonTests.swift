import Foundation
import TestSupport
import Testing

@testable import OpenHealthKit

/// A running program whose output lines (JSON, from HealthProbe; text, from the daemon) are collected.
final class Child: @unchecked Sendable {  // Unchecked: `lines` is read and written under `lock`.
    let process = Process()
    private let lock = NSLock()
    private var collected: [String] = []
    private var ended = false  // the reader saw the end of the output

    init(_ command: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        Thread { [self] in
            var pending = Data()
            while true {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty {
                    if !pending.isEmpty { lock.withLock { collected.append(String(decoding: pending, as: UTF8.self)) } }
                    lock.withLock { ended = true }
                    break
                }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    lock.withLock { collected.append(line) }
                }
            }
        }.start()
    }

    var lines: [String] { lock.withLock { collected } }

    /// The JSON objects printed so far.
    var objects: [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }  // other lines: not JSON
    }

    /// Waits for a line containing `text` (60 s at most; this is a watchdog, not a timing check).
    func line(containing text: String) async throws -> String {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let found = lines.first(where: { $0.contains(text) }) { return found }
            if !process.isRunning, let found = lines.first(where: { $0.contains(text) }) { return found }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw HKError(.errorNoData, "\(process.arguments ?? []): no line with \(text); it printed \(lines)")
    }

    /// Waits for the program to end and for everything it printed to be read; returns its status. (The process can
    /// end before the reader thread has taken its last lines from the pipe; a caller reading `lines` right after
    /// must see them all.)
    @discardableResult
    func finish() async -> Int32 {
        let status = await reap(process, timeout: .seconds(120))
        // A watchdog, not a timing check: the pipe's end arrives once the program and its children have exited.
        let deadline = Date().addingTimeInterval(30)
        while !lock.withLock({ ended }) && Date() < deadline { try? await Task.sleep(for: .milliseconds(2)) }  // cancelled: read what there is
        return status
    }
}

/// orchard-healthd with copies of HealthProbe registered as two apps and the Health app, all run as `nobody`.
final class DaemonFixture: @unchecked Sendable {
    static let nobody: UInt32 = 65534
    let root: URL
    let socket: String
    let registry: URL
    let store: URL
    private let lock = NSLock()
    private var daemon: Child?

    /// `grantedMedications`: what the person lets `granted` read (the `other` app is granted nothing).
    init(grantedMedications: [String] = ["rxnorm:313782"]) async throws {
        // Not under /tmp: every folder above a registered program must be writable by no one but its owner.
        let build = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/healthd-tests")
        root = build.appendingPathComponent(String(UUID().uuidString.prefix(8)).lowercased())
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("bin"), withIntermediateDirectories: true)
        for folder in [build, root, root.appendingPathComponent("bin")] { chmod(folder.path, 0o755) }
        let probe = builtExecutable("HealthProbe")
        for name in ["granted", "other", "health", "stranger"] {
            let copy = root.appendingPathComponent("bin/\(name)")
            // A hard link is another path to the same program (the daemon tells programs apart by path).
            if link(probe.path, copy.path) != 0 { try FileManager.default.copyItem(at: probe, to: copy) }
        }
        socket = root.appendingPathComponent("run/socket").path
        registry = root.appendingPathComponent("apps.json")
        store = root.appendingPathComponent("store")
        try writeRegistry(granted: grantedMedications, other: [])
        try await startDaemon()
    }

    deinit {
        stopDaemon()
        try? FileManager.default.removeItem(at: root)  // a test folder: gone is gone
    }

    func program(_ name: String) -> String { root.appendingPathComponent("bin/\(name)").path }

    func writeRegistry(granted: [String], other: [String], mode: mode_t = 0o644) throws {
        let apps: [[String: Any]] = [
            [
                "executable": program("granted"), "bundleIdentifier": "org.example.granted",
                "grants": [
                    "medications": granted, "read": ["HKCategoryTypeIdentifierHeadache"],
                    "share": ["HKCategoryTypeIdentifierHeadache"],
                ],
            ],
            [
                "executable": program("other"), "bundleIdentifier": "org.example.other",
                "grants": ["medications": other],
            ],
            ["executable": program("health"), "bundleIdentifier": "com.apple.Health"],
        ]
        let data = try JSONSerialization.data(withJSONObject: ["apps": apps], options: [.prettyPrinted])
        // Written beside and renamed, so the daemon never reads half a file.
        let temporary = registry.appendingPathExtension("new")
        try data.write(to: temporary)
        chmod(temporary.path, mode)
        guard rename(temporary.path, registry.path) == 0 else { throw HKError(.errorInvalidArgument, "rename failed") }
    }

    func startDaemon() async throws {
        let child = try Child([
            builtExecutable("orchard-healthd").path, "--store-directory", store.path, "--socket", socket, "--registry",
            registry.path, "--allow-user", String(Self.nobody),
        ])
        lock.withLock { daemon = child }
        _ = try await child.line(containing: "serving")
    }

    /// SIGKILL, as a crash or the OOM killer would.
    func killDaemon() async {
        guard let child = lock.withLock({ daemon }) else { return }
        kill(child.process.processIdentifier, SIGKILL)
        await child.finish()
    }

    func stopDaemon() {
        guard let child = lock.withLock({ daemon }) else { return }
        kill(child.process.processIdentifier, SIGTERM)
        reapNow(child.process, timeout: .seconds(5))
    }

    var daemonIsRunning: Bool { lock.withLock { daemon?.process.isRunning ?? false } }

    /// Starts a registered (or not) copy of HealthProbe as `nobody` (or as `user`).
    func start(
        _ name: String, _ arguments: [String], claim: String? = nil, user: UInt32 = DaemonFixture.nobody
    ) throws -> Child {
        var environment: [String: String] = ["ORCHARD_HEALTHD_SOCKET": socket]
        if let claim { environment["HEALTH_CLAIM"] = claim }
        return try Child(
            ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups", program(name), socket]
                + arguments,
            environment: environment)
    }

    /// Runs a probe to its end; returns its last JSON line.
    func run(
        _ name: String, _ arguments: [String], claim: String? = nil, user: UInt32 = DaemonFixture.nobody
    )
        async throws -> [String: Any]
    {
        let child = try start(name, arguments, claim: claim, user: user)
        await child.finish()
        guard let last = child.objects.last else {
            throw HKError(.errorNoData, "\(name) \(arguments) printed no JSON: \(child.lines)")
        }
        return last
    }

    /// A probe's list result (a query it ran), or its error text.
    func list(_ name: String, _ command: String, _ key: String, claim: String? = nil) async throws -> [String] {
        let result = try await run(name, [command], claim: claim)
        guard let values = result[key] as? [String] else {
            throw HKError(.errorNoData, "\(name) \(command): \(result)")
        }
        return values
    }
}

func uuid(_ index: Int, _ code: Int) -> String { String(format: "%08X-0000-4000-8000-%012X", code, index) }

/// orchard-healthd as a privacy boundary: apps run as another user than the daemon, each known by the program the
/// kernel says it runs; they see only what the person granted them, through every query form; lies, garbage,
/// floods and a killed daemon change nothing of that.
@Suite(.serialized, .enabled(if: getuid() == 0, "the clients run as another user, which needs root"))
struct DaemonTests {
    @Test func twoAppsSeeOnlyWhatTheyWereGrantedThroughEveryQueryForm() async throws {
        let f = try await DaemonFixture()
        #expect(try await f.run("health", ["add-medication", "313782", "1665229"])["ok"] as? Bool == true)
        _ = try await f.run("health", ["log-doses", "313782", "3"])
        _ = try await f.run("health", ["log-doses", "1665229", "2"])
        let tylenol = (0..<3).map { uuid($0, 313782) }
        for app in ["granted", "other"] {
            #expect(try await f.run(app, ["request-medications"])["ok"] as? Bool == true)
        }
        #expect(try await f.list("granted", "medications", "medications") == ["rxnorm:313782"])
        #expect(try await f.list("granted", "default-medications", "medications") == ["rxnorm:313782"])
        #expect(try await f.list("granted", "doses", "doses") == tylenol)
        #expect(try await f.list("granted", "sample-query", "doses") == tylenol)
        #expect(try await f.list("other", "medications", "medications") == [])
        #expect(try await f.list("other", "doses", "doses") == [])
        #expect(try await f.list("other", "sample-query", "doses") == [])
        let grantedStart = try await f.run("granted", ["anchored"])
        let otherStart = try await f.run("other", ["anchored"])
        #expect(grantedStart["added"] as? [String] == tylenol)
        #expect(otherStart["added"] as? [String] == [])
        // Deletions reach only the app that may read the medication.
        _ = try await f.run("health", ["delete-dose", tylenol[0]])
        _ = try await f.run("health", ["delete-dose", uuid(0, 1_665_229)])
        let grantedAfter = try await f.run("granted", ["anchored", grantedStart["anchor"] as? String ?? ""])
        let otherAfter = try await f.run("other", ["anchored", otherStart["anchor"] as? String ?? ""])
        #expect(grantedAfter["deleted"] as? [String] == [tylenol[0]])
        #expect(otherAfter["deleted"] as? [String] == [] && otherAfter["added"] as? [String] == [])
        // An observer wakes for a granted medication's dose, and not for one the app may not read.
        let watching = try f.start("granted", ["observe", "20"])
        let blind = try f.start("other", ["observe", "3"])
        _ = try await watching.line(containing: "ready")
        _ = try await blind.line(containing: "ready")
        _ = try await f.run("health", ["log-doses", "313782", "4"])  // the fourth dose is new
        await watching.finish()
        await blind.finish()
        #expect(watching.objects.last?["changed"] as? Bool == true)
        #expect(blind.objects.last?["changed"] as? Bool == false)
    }

    /// A client paging through a history asks for the next page before the app does (HealthDaemonClient's
    /// read-ahead): every event still comes once and in order, and a page read ahead before the person withdrew a
    /// grant is not handed out after it.
    @Test func pagesReadAheadAreCompleteAndNeverOutliveAWithdrawnGrant() async throws {
        let f = try await DaemonFixture(grantedMedications: ["rxnorm:313782", "rxnorm:1665229"])
        #expect(try await f.run("health", ["add-medication", "313782", "1665229"])["ok"] as? Bool == true)
        _ = try await f.run("health", ["log-doses", "313782", "10"])
        _ = try await f.run("health", ["log-doses", "1665229", "12"])
        #expect(try await f.run("granted", ["request-medications"])["ok"] as? Bool == true)
        let tylenol = (0..<10).map { uuid($0, 313782) }
        let other = (0..<12).map { uuid($0, 1_665_229) }
        let all = try await f.run("granted", ["page-through", "5"])["pages"] as? [[String]]
        let expected = [tylenol[0..<5], tylenol[5..<10], other[0..<5], other[5..<10], other[10...]].map { Array($0) }
        #expect(all?.map { $0.sorted() } == expected)

        // Paused after two pages: the third (the other medication's first doses) was read ahead by then.
        let go = f.root.appendingPathComponent("go").path
        let reader = try f.start("granted", ["page-through", "5", "2", go])
        _ = try await reader.line(containing: "paused")
        try await Task.sleep(for: .milliseconds(200))  // the read-ahead's reply has arrived (not a timing check: without it the test proves less)
        try f.writeRegistry(granted: ["rxnorm:313782"], other: [])
        #expect(try await f.list("granted", "medications", "medications") == ["rxnorm:313782"])
        #expect(FileManager.default.createFile(atPath: go, contents: Data()))
        await reader.finish()
        let afterWithdrawal = (reader.objects.last?["pages"] as? [[String]])?.map { $0.sorted() }
        #expect(afterWithdrawal == [tylenol[0..<5], tylenol[5..<10]].map { Array($0) })
    }

    @Test func aClientIsKnownByWhatTheKernelSaysNotByWhatItClaims() async throws {
        let f = try await DaemonFixture()
        _ = try await f.run("health", ["add-medication", "313782"])
        _ = try await f.run("granted", ["request-medications"])
        _ = try await f.run("other", ["request-medications"])
        // Claiming another app's identity gets nothing but the reason.
        let lie = try await f.run("other", ["medications"], claim: "org.example.granted")
        #expect((lie["error"] as? String ?? "").contains("registered as org.example.other, not org.example.granted"))
        // A program the person never registered, and a user the daemon does not serve, get nothing.
        #expect((try await f.run("stranger", ["medications"])["error"] as? String ?? "").contains("not registered"))
        #expect(
            (try await f.run("granted", ["medications"], user: 0)["error"] as? String ?? "").contains(
                "user 0 may not use"))
        // The store file is not readable around the daemon.
        let direct = try await f.run(
            "granted", ["read-file", f.store.appendingPathComponent("HealthStore.sqlite").path])
        #expect(direct["read"] as? Bool == false)
        // The person changes their mind in the registry: the next connection follows it.
        try f.writeRegistry(granted: [], other: ["313782"])
        #expect(try await f.list("granted", "medications", "medications") == [])
        #expect(try await f.list("other", "medications", "medications") == ["rxnorm:313782"])
        // A registry anyone could rewrite is refused, and so is every client, until it is mended.
        try f.writeRegistry(granted: ["*"], other: [], mode: 0o666)
        let refused = try await f.run("granted", ["medications"])
        #expect((refused["error"] as? String ?? "").contains("writable by others"))
        try f.writeRegistry(granted: ["*"], other: [])
        #expect(try await f.list("granted", "medications", "medications") == ["rxnorm:313782"])
    }

    @Test func hostileClientsEndOnlyTheirOwnConnection() async throws {
        let f = try await DaemonFixture()
        _ = try await f.run("health", ["add-medication", "313782"])
        _ = try await f.run("granted", ["request-medications"])
        for kind in [
            "junk", "huge", "badjson", "json", "no-hello", "deep", "hostile-predicate", "half", "leave-waiting",
        ] {
            let answer = try await f.run("granted", ["garbage", kind])
            #expect(answer["sent"] as? Int ?? 0 > 0, "\(kind): \(answer)")
            let reply = answer["reply"] as? String ?? ""
            switch kind {
            case "no-hello": #expect(reply.contains("introduce yourself first"))
            case "deep": #expect(reply.contains("nested deeper than 32 levels"))
            case "hostile-predicate":
                #expect(reply.contains("may not compare") && reply.contains("operator 6 is not allowed"))
            default: #expect(answer["closed"] as? Bool == true, "\(kind): \(answer)")
            }
            #expect(f.daemonIsRunning)
        }
        // A million queries written without reading a reply (for four seconds at most, so the flood does not starve
        // the rest of a CI run) while another app is served.
        let flood = try f.start("granted", ["flood", "1000000", "4"])
        var served = 0
        while flood.process.isRunning {
            #expect(try await f.list("other", "medications", "medications") == [])
            served += 1
        }
        await flood.finish()
        #expect(served > 0)
        #expect((flood.objects.last?["written"] as? Int ?? 0) > 0)
        #expect(try await f.list("granted", "medications", "medications") == ["rxnorm:313782"])
        #expect(f.daemonIsRunning)
    }

    @Test func aDaemonKilledFiftyTimesLosesNoConfirmedDoseAndLogsNoneTwice() async throws {
        let f = try await DaemonFixture()
        _ = try await f.run("health", ["add-medication", "313782"])
        let count = 300
        let writer = try f.start("health", ["log-doses", "313782", String(count)])
        var kills = 0
        while kills < 50 {
            try await Task.sleep(for: .milliseconds(Int.random(in: 20...150)))
            await f.killDaemon()
            kills += 1
            try await f.startDaemon()
        }
        await writer.finish()
        let confirmed = Set(writer.objects.compactMap { $0["confirmed"] as? Int })
        #expect(
            writer.objects.last?["done"] as? Int == count, "\(writer.lines.prefix(5)) … \(writer.lines.suffix(5))")
        #expect(confirmed == Set(0..<count))
        let stored = try await f.list("health", "doses", "doses")
        #expect(stored.count == count)  // none twice
        #expect(Set(stored) == Set((0..<count).map { uuid($0, 313782) }))  // none lost
        #expect((writer.objects.last?["retries"] as? Int ?? 0) > 0)  // the kills did interrupt it
    }
}
