/// Percentiles of measured samples, for the benchmarks: one formula, so every report's p99
/// means the same thing.
///
/// In Core (pure arithmetic, no system call): the benchmark and Hardware's audio-latency
/// measurement both use it, and Hardware cannot depend on the benchmark.
public enum Percentile {
    /// The nearest-rank `percent` percentile of `sorted` (ascending): the smallest sample that
    /// at least `percent` % of all samples are at or below; nil when there are none.
    public static func nearestRank<Sample>(_ percent: Double, of sorted: [Sample]) -> Sample? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
