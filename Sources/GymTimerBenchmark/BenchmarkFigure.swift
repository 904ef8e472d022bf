/// One row of the benchmark report: what was measured, its statistics, and the target it is
/// held to, so a miss is printed as MISSED rather than left for the reader to notice.
public struct BenchmarkFigure: Hashable, Sendable, Codable {
    /// How the values are shown.
    public enum Unit: String, Hashable, Sendable, Codable {
        case milliseconds = "ms"
        case perSecond = "/s"
        case megabytes = "MB"
        case hoursPerSecond = "h/s"
        case percent = "%"
        case records = "records"
    }

    /// A bound on one statistic.
    public struct Target: Hashable, Sendable, Codable {
        public enum Comparison: String, Hashable, Sendable, Codable {
            case below = "<"
            case atMost = "≤"
            case atLeast = "≥"
        }

        public var statistic: BenchmarkStatistics.Statistic
        public var comparison: Comparison
        public var bound: Double

        public init(_ statistic: BenchmarkStatistics.Statistic, _ comparison: Comparison, _ bound: Double) {
            self.statistic = statistic
            self.comparison = comparison
            self.bound = bound
        }

        public func isMet(by statistics: BenchmarkStatistics) -> Bool {
            let value = statistics.value(statistic)
            switch comparison {
            case .below: return value < bound
            case .atMost: return value <= bound
            case .atLeast: return value >= bound
            }
        }
    }

    /// Whether the figure met its target.
    public enum Status: String, Hashable, Sendable, Codable {
        case met
        case missed = "MISSED"
        /// Reported for information; nothing to meet.
        case noTarget = "-"
        /// No samples: the measurement could not be made (see the note).
        case notMeasured = "not measured"
    }

    public var name: String
    public var unit: Unit
    public var statistics: BenchmarkStatistics?
    public var target: Target?
    /// Why the figure is what it is, or why it could not be measured.
    public var note: String?

    public init(name: String, unit: Unit, statistics: BenchmarkStatistics?, target: Target? = nil, note: String? = nil) {
        self.name = name
        self.unit = unit
        self.statistics = statistics
        self.target = target
        self.note = note
    }

    public var status: Status {
        guard let statistics else { return .notMeasured }
        guard let target else { return .noTarget }
        return target.isMet(by: statistics) ? .met : .missed
    }
}
