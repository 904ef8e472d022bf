import GymTimerHistory

/// One record a collector took off the broker, with the gym it came from (nil: the collector's
/// own gym, as a single gym's collector takes every record).
public struct CollectedRecord: Hashable, Sendable {
    public var gym: String?
    public var workout: StoredWorkout

    public init(gym: String?, workout: StoredWorkout) {
        self.gym = gym
        self.workout = workout
    }
}
