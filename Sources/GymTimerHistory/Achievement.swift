/// Milestones a station unlocks once each; the history keeps when.
public enum Achievement: String, CaseIterable, Hashable, Sendable, Codable {
    case firstWorkout = "first-workout"
    case tenWorkouts = "10-workouts"
    case hundredWorkouts = "100-workouts"
    case weekStreak = "7-day-streak"
    case monthStreak = "30-day-streak"

    /// How the gym owner reads it.
    public var title: String {
        switch self {
        case .firstWorkout: "First workout"
        case .tenWorkouts: "10 workouts"
        case .hundredWorkouts: "100 workouts"
        case .weekStreak: "7-day streak"
        case .monthStreak: "30-day streak"
        }
    }

    /// Every achievement a station with these totals has earned.
    public static func earned(workouts: Int, longestStreak: Int) -> [Achievement] {
        allCases.filter { achievement in
            switch achievement {
            case .firstWorkout: workouts >= 1
            case .tenWorkouts: workouts >= 10
            case .hundredWorkouts: workouts >= 100
            case .weekStreak: longestStreak >= 7
            case .monthStreak: longestStreak >= 30
            }
        }
    }
}
