import Foundation

/// A benchmark run: parses the command line, runs workloads side by side, prints each as it finishes and
/// writes the whole report as Markdown and JSON.
///
/// Command line (every benchmark executable): `--quick` runs the small smoke-test sizes; `--runs N` sets the
/// runs per side (at least 5 unless quick); other arguments are the executable's own (`arguments`).
/// `BENCH_RESULTS` names the results folder (default `bench-results`).
///
/// A debug build refuses to run: its figures would mislead.
@MainActor
public final class Bench {
    /// The module's name, used for the result files.
    public let module: String
    /// Whether this is the small smoke-test run.
    public let quick: Bool
    /// Runs per side after the warm-up.
    public let runs: Int
    /// `--only TEXT`: runs only the workloads whose name contains it (for working on one; a full run has none).
    public let only: String?
    /// The executable's own arguments (everything but the options above).
    public let arguments: [String]
    private var results: [WorkloadResult] = []
    private var notes: [String] = []
    private var cleanups: [() -> Void] = []
    private let machine = Report.Machine.current()

    /// Whether this is a debug build (SwiftPM defines DEBUG for `-c debug`), whose figures would mislead.
    public static let isDebugBuild: Bool = {
        #if DEBUG
            return true
        #else
            return false
        #endif
    }()

    /// Starts a run of `module`'s benchmark; exits with status 2 from a debug build, on an unknown option,
    /// or on more positional arguments than `positional` names (e.g. `["count"]`; none by default).
    public init(module: String, title: String, positional: [String] = []) {
        if Bench.isDebugBuild {
            FileHandle.standardError.write(
                Data("\(title): refusing to run from a debug build; use `swift run -c release` or scripts/bench\n".utf8)
            )
            exit(2)
        }
        self.module = module
        var rest: [String] = []
        var quick = false
        var runs: Int?
        var only: String?
        var iterator = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--quick": quick = true
            case "--only":
                guard let value = iterator.next(), !value.isEmpty else {
                    FileHandle.standardError.write(Data("\(title): --only needs part of a workload's name\n".utf8))
                    exit(2)
                }
                only = value
            case "--runs":
                guard let value = iterator.next().flatMap(Int.init), value >= 1 else {
                    FileHandle.standardError.write(Data("\(title): --runs needs a positive number\n".utf8))
                    exit(2)
                }
                runs = value
            default:
                guard !argument.hasPrefix("-"), rest.count < positional.count else {
                    let usage = (["--quick", "--runs N", "--only TEXT"] + positional.map { "[\($0)]" }).joined(
                        separator: " ")
                    FileHandle.standardError.write(
                        Data("\(title): unexpected argument '\(argument)' (usage: \(usage))\n".utf8))
                    exit(2)
                }
                rest.append(argument)
            }
        }
        self.quick = quick
        self.only = only
        self.runs = runs ?? (quick ? 2 : 5)
        self.arguments = rest
        say(
            "\(title) — release build, \(machine.cores) cores, \(machine.cpu)\(quick ? ", --quick sizes" : ""), \(self.runs) runs per side"
        )
    }

    /// Positional argument `index` as a positive integer, `defaultValue` when absent; exits with status 2
    /// when it is not one.
    public func count(at index: Int, default defaultValue: Int) -> Int {
        guard index < arguments.count else { return defaultValue }
        guard let value = Int(arguments[index]), value > 0 else {
            FileHandle.standardError.write(Data("\(module): '\(arguments[index])' is not a positive count\n".utf8))
            exit(2)
        }
        return value
    }

    /// Prints a line at once (unbuffered), so partial results survive a crash.
    public func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

    /// Runs `ours` and each baseline: one warm-up run each (not counted), then `runs` rounds in which every
    /// side runs once, the order rotating each round so no side always goes first. Every run's check must
    /// agree across sides. Prints the line and keeps the result for the report.
    @discardableResult
    public func compare(
        _ workload: String, unit: Unit, target: String? = nil, note: String? = nil, warmups: Int = 1, runs: Int? = nil,
        ours: Contender, baselines: [Contender]
    ) async throws -> WorkloadResult {
        let rounds = runs ?? self.runs
        if let only, !workload.contains(only) {
            say("skipped (--only): \(workload)")
            return WorkloadResult(workload: workload, unit: unit, runs: 0, sides: [], target: target, note: note)
        }
        let sides = [ours] + baselines
        var values = Array(repeating: [Double](), count: sides.count)
        var cpu = Array(repeating: [Double](), count: sides.count)
        var firstCheck: (side: String, check: String)?
        func record(_ measured: Measured, _ side: Int) {
            if let check = measured.check {
                if let first = firstCheck, first.check != check {
                    fatalError(
                        "\(workload): \(sides[side].name)'s result (\(check)) differs from \(first.side)'s (\(first.check))"
                    )
                }
                if firstCheck == nil { firstCheck = (sides[side].name, check) }
            }
        }
        for _ in 0..<warmups {
            for (i, side) in sides.enumerated() { record(try await side.run(), i) }
        }
        for round in 0..<rounds {
            for k in 0..<sides.count {
                let i = (round + k) % sides.count
                let measured = try await sides[i].run()
                record(measured, i)
                guard !measured.values.isEmpty else { fatalError("\(workload): \(sides[i].name) measured nothing") }
                values[i] += measured.values
                if let c = measured.cpu { cpu[i].append(c) }
            }
        }
        let summaries = values.map { Summary($0) }
        let results = sides.indices.map { i in
            SideResult(
                name: sides[i].name, figure: summaries[i], cpu: cpu[i].isEmpty ? nil : Summary(cpu[i]),
                ratio: i == 0 || summaries[i].median == 0 ? nil : summaries[0].median / summaries[i].median)
        }
        let result = WorkloadResult(
            workload: workload, unit: unit, runs: rounds, sides: results, target: target, note: note)
        add(result)
        return result
    }

    /// Keeps a workload measured some other way (e.g. in child processes) and prints it.
    public func add(_ result: WorkloadResult) {
        results.append(result)
        var line = "\(result.workload): \(result.sides[0].name) \(Report.describe(result.sides[0], result.unit))"
        for side in result.sides.dropFirst() {
            line +=
                "\n    vs \(side.name) \(Report.describe(side, result.unit)): \(Report.ratioText(side.ratio, result.unit))"
        }
        if let target = result.target { line += "\n    target: \(target)" }
        if let note = result.note { line += "\n    note: \(note)" }
        say(line)
    }

    /// Records a remark or a figure without a baseline, and prints it.
    public func note(_ text: String) {
        notes.append(text)
        say("  \(text)")
    }

    /// Registers work for `finish`: removing temporary folders, stopping servers and child processes, after
    /// the results are written (last registered, first run). A run that stops early leaves it undone.
    public func onFinish(_ body: @escaping () -> Void) { cleanups.append(body) }

    /// A new temporary folder, removed by `finish`.
    public func temporaryDirectory(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        onFinish { try? FileManager.default.removeItem(at: url) }  // a folder left in /tmp is harmless
        return url
    }

    /// Writes `<module>.md` and `<module>.json` into the results folder and says where, then runs the
    /// `onFinish` work.
    public func finish() throws {
        defer { for cleanup in cleanups.reversed() { cleanup() } }
        let folder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["BENCH_RESULTS"] ?? "bench-results")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let formatter = ISO8601DateFormatter()
        let report = Report(
            module: module, date: formatter.string(from: Date()), quick: quick, machine: machine,
            workloads: results, notes: notes)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(report).write(to: folder.appendingPathComponent("\(module).json"))
        try Data(report.markdown().utf8).write(to: folder.appendingPathComponent("\(module).md"))
        say("wrote \(folder.appendingPathComponent("\(module).md").path) and .json")
    }
}
