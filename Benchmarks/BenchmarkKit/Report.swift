import Foundation

/// One side's figures in a finished workload.
public struct SideResult: Codable, Sendable {
    /// The side's name.
    public var name: String
    /// Its figures (canonical unit), summarized.
    public var figure: Summary
    /// CPU seconds per run, when the runs were timed.
    public var cpu: Summary?
    /// Ours ÷ this side, of the medians (absent for ours itself).
    public var ratio: Double?

    /// A side's result as given.
    public init(name: String, figure: Summary, cpu: Summary?, ratio: Double?) {
        self.name = name
        self.figure = figure
        self.cpu = cpu
        self.ratio = ratio
    }
}

/// A finished workload: ours and every baseline, with the target the issues name.
public struct WorkloadResult: Codable, Sendable {
    /// What was measured.
    public var workload: String
    /// The figures' unit.
    public var unit: Unit
    /// Runs per side (after the warm-up).
    public var runs: Int
    /// Ours, then each baseline.
    public var sides: [SideResult]
    /// The target, in words, when an issue names one.
    public var target: String?
    /// Anything a reader needs to read the figures right.
    public var note: String?

    /// A workload's result as given (for figures measured outside `Bench.compare`).
    public init(workload: String, unit: Unit, runs: Int, sides: [SideResult], target: String?, note: String?) {
        self.workload = workload
        self.unit = unit
        self.runs = runs
        self.sides = sides
        self.target = target
        self.note = note
    }
}

/// Everything one benchmark executable measured, and where.
public struct Report: Codable, Sendable {
    /// The module ("coredata", "network", ...).
    public var module: String
    /// When the run finished (ISO 8601).
    public var date: String
    /// Whether this was the small `--quick` size (a smoke test: its figures mean little).
    public var quick: Bool
    /// The machine it ran on.
    public var machine: Machine
    /// The workloads, in the order they ran.
    public var workloads: [WorkloadResult]
    /// Figures without a baseline, and remarks (query plans, peak disk, ...).
    public var notes: [String]

    /// The machine a report was made on.
    public struct Machine: Codable, Sendable {
        /// Online cores.
        public var cores: Int
        /// The CPU's model name (/proc/cpuinfo).
        public var cpu: String
        /// Physical memory in bytes.
        public var memory: UInt64
        /// The kernel release.
        public var kernel: String

        /// The machine this process runs on.
        public static func current() -> Machine {
            let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""  // absent: "unknown"
            let model = info.split(separator: "\n").first { $0.hasPrefix("model name") }
                .map {
                    $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                }
            var name = utsname()
            uname(&name)
            let release = withUnsafeBytes(of: name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return Machine(
                cores: ProcessInfo.processInfo.activeProcessorCount, cpu: model ?? "unknown",
                memory: ProcessInfo.processInfo.physicalMemory, kernel: release)
        }
    }

    /// The report as a Markdown section: a table with a row per baseline, then the notes.
    public func markdown() -> String {
        var lines = [
            "## \(module)\(quick ? " (--quick: smoke-test sizes, not figures to quote)" : "")", "",
            "Run \(date), \(machine.cores) cores (\(machine.cpu)), kernel \(machine.kernel).", "",
        ]
        lines.append("| workload | ours | baseline | baseline's figure | ratio (ours ÷ baseline) | target |")
        lines.append("|---|---|---|---|---|---|")
        for w in workloads {
            guard let ours = w.sides.first else { continue }
            let others = w.sides.dropFirst()
            let first = "\(w.workload) | \(ours.name): \(Report.describe(ours, w.unit))"
            if others.isEmpty {
                lines.append("| \(first) | — | — | — | \(w.target ?? "") |")
            }
            for (i, side) in others.enumerated() {
                let lead = i == 0 ? first : " | "
                lines.append(
                    "| \(lead) | \(side.name) | \(Report.describe(side, w.unit)) | \(Report.ratioText(side.ratio, w.unit)) | \(i == 0 ? w.target ?? "" : "") |"
                )
            }
        }
        let remarks = workloads.compactMap { w in w.note.map { "- \(w.workload): \($0)" } } + notes.map { "- \($0)" }
        if !remarks.isEmpty { lines += ["", "Notes:", ""] + remarks }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A side's figure: median with its spread, and CPU time when timed.
    public static func describe(_ side: SideResult, _ unit: Unit) -> String {
        let f = side.figure
        var text = unit.format(f.median)
        if let p10 = f.p10, let p90 = f.p90 {
            text += " (p10–p90 \(unit.format(p10))–\(unit.format(p90))"
            // Too few samples for a p99: the largest one bounds it from above.
            if let p99 = f.p99 { text += ", p99 \(unit.format(p99))" } else { text += ", max \(unit.format(f.max))" }
            text += ", n=\(f.count))"
        } else if f.count > 1 {
            text += " (\(unit.format(f.min))–\(unit.format(f.max)), n=\(f.count))"
        }
        if let cpu = side.cpu { text += String(format: ", CPU %.3f s", cpu.median) }
        return text
    }

    /// The ratio as the table shows it; for rates also as a percentage.
    public static func ratioText(_ ratio: Double?, _ unit: Unit) -> String {
        guard let ratio else { return "—" }
        return unit.higherIsBetter
            ? String(format: "%.2fx (%.0f%%)", ratio, ratio * 100) : String(format: "%.2fx", ratio)
    }
}
