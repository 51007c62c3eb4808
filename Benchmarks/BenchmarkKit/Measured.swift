/// What a workload's figure is and which way is better.
///
/// Values are kept in a canonical unit (seconds, per second, bytes) and shown in a readable one.
public enum Unit: Codable, Sendable, Equatable {
    /// Seconds; lower is better. Shown as s, ms or µs by magnitude.
    case time
    /// Events per second (the label says of what, e.g. "msg/s"); higher is better.
    case rate(String)
    /// Bytes; lower is better. Shown as B, KiB or MiB by magnitude.
    case bytes
    /// A count of something per something (the label says what, e.g. "allocs/msg"); lower is better.
    case count(String)

    /// Whether a larger figure is the better one.
    public var higherIsBetter: Bool {
        if case .rate = self { return true }
        return false
    }

    /// A value in this unit, formatted for people.
    public func format(_ value: Double) -> String {
        switch self {
        case .time:
            let magnitude = abs(value)
            if magnitude >= 1 { return String(format: "%.3f s", value) }
            if magnitude >= 1e-3 { return String(format: "%.3f ms", value * 1e3) }
            return String(format: "%.1f µs", value * 1e6)
        case .rate(let label):
            if value >= 1e6 { return String(format: "%.2fM %@", value / 1e6, label) }
            if value >= 1e4 { return String(format: "%.1fk %@", value / 1e3, label) }
            return String(format: "%.1f %@", value, label)
        case .bytes:
            if value >= 1_048_576 { return String(format: "%.1f MiB", value / 1_048_576) }
            if value >= 1024 { return String(format: "%.1f KiB", value / 1024) }
            return String(format: "%.0f B", value)
        case .count(let label):
            return String(format: "%.2f %@", value, label)
        }
    }
}

/// What one run of one side of a workload produced.
public struct Measured: Sendable {
    /// The figures: one per run for a timed or counted workload, one per request for a latency workload.
    public var values: [Double]
    /// CPU seconds the process used during the run, when it was timed.
    public var cpu: Double?
    /// A fingerprint of the run's result (a checksum, a count); every side of a workload must agree on it.
    public var check: String?

    /// A run's figures as they are.
    public init(values: [Double], cpu: Double? = nil, check: String? = nil) {
        self.values = values
        self.cpu = cpu
        self.check = check
    }

    /// A timed run: its wall-clock seconds are the figure.
    public static func time(_ timing: Timing, check: String? = nil) -> Measured {
        Measured(values: [timing.wall], cpu: timing.cpu, check: check)
    }

    /// A counted run: `count` events over the run's wall-clock time make a rate.
    public static func rate(_ count: Int, _ timing: Timing, check: String? = nil) -> Measured {
        Measured(values: [Double(count) / timing.wall], cpu: timing.cpu, check: check)
    }

    /// A latency run: every sample (seconds) is kept; the summary pools every run's samples.
    public static func latencies(_ samples: [Double], cpu: Double? = nil, check: String? = nil) -> Measured {
        Measured(values: samples, cpu: cpu, check: check)
    }
}
