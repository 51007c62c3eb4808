/// What a series of measurements says: its median and spread.
///
/// For a timed workload the samples are one per run (at least five); for a latency workload they are every
/// request of every run pooled. Percentiles use the nearest-rank method; p99 is given only from 1,000 samples or
/// more (ten samples lie above it; with fewer, the largest sample is shown instead, which bounds it from above), p10
/// and p90 only from 10 or more.
public struct Summary: Codable, Sendable {
    /// How many samples the summary is made of.
    public var count: Int
    /// The middle sample (the mean of the two middle ones for an even count).
    public var median: Double
    /// The smallest sample.
    public var min: Double
    /// The largest sample.
    public var max: Double
    /// The 10th percentile, from 10 samples or more.
    public var p10: Double?
    /// The 90th percentile, from 10 samples or more.
    public var p90: Double?
    /// The 99th percentile, from 1,000 samples or more.
    public var p99: Double?

    /// Summarizes `samples`; it must not be empty.
    public init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "a summary needs at least one sample")
        let sorted = samples.sorted()
        count = sorted.count
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = sorted[0]
        max = sorted[sorted.count - 1]
        p10 = sorted.count >= 10 ? Summary.percentile(sorted, 0.10) : nil
        p90 = sorted.count >= 10 ? Summary.percentile(sorted, 0.90) : nil
        p99 = sorted.count >= 1_000 ? Summary.percentile(sorted, 0.99) : nil
    }

    /// The nearest-rank percentile `p` (0...1) of sorted samples.
    public static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }
}
