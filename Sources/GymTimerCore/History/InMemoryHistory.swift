/// Keeps the history in memory (tests, and a kiosk with no writable storage).
public final class InMemoryHistory: WorkoutHistory {
    public private(set) var records: [WorkoutRecord] = []
    public init() {}
    public func record(_ workout: WorkoutRecord) { records.append(workout) }
}
