/// Hands every record to several histories: the simulator keeps one in memory for its callers
/// and one in SQLite in its data directory.
public final class HistoryFanOut: WorkoutHistory {
    /// The histories each record goes to, in order.
    public let targets: [any WorkoutHistory]

    public init(_ targets: [any WorkoutHistory]) { self.targets = targets }

    public func record(_ workout: WorkoutRecord) {
        for target in targets { target.record(workout) }
    }
}
