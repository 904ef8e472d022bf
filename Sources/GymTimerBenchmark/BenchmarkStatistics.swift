import GymTimerCore

/// Median, 99th percentile and maximum of a set of samples: the three figures every benchmark
/// row reports, so a good median cannot hide a bad tail.
public struct BenchmarkStatistics: Hashable, Sendable, Codable {
    public var count: Int
    public var median: Double
    /// Nearest-rank 99th percentile: the smallest sample at or above 99 % of all samples.
    public var p99: Double
    public var max: Double

    public init(count: Int, median: Double, p99: Double, max: Double) {
        self.count = count
        self.median = median
        self.p99 = p99
        self.max = max
    }

    /// The statistics of `samples`, or nil when there are none (nothing was measured).
    public init?(_ samples: [Double]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let n = sorted.count
        count = n
        median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        p99 = Percentile.nearestRank(99, of: sorted) ?? sorted[n - 1]
        max = sorted[n - 1]
    }

    /// One statistic by name.
    public func value(_ statistic: Statistic) -> Double {
        switch statistic {
        case .median: return median
        case .p99: return p99
        case .max: return max
        }
    }

    /// Which of the three figures a target applies to.
    public enum Statistic: String, Hashable, Sendable, Codable { case median, p99, max }
}
