/// The station's totals and gamification, as the history holds them.
///
/// Every recorded workout earns `pointsPerWorkout`, whatever its kind: a rest-mode series and an
/// interval workout are training too, and one rule is easier to explain on the gym floor.
public struct StationStats: Hashable, Sendable, Codable {
    public static let pointsPerWorkout = 50

    public var workouts: Int
    public var totalDurationMilliseconds: Int64
    public var calories: Int
    public var points: Int
    /// Consecutive local days with a workout, ending today or yesterday.
    public var currentStreak: Int
    public var longestStreak: Int
    /// In the order they were unlocked.
    public var achievements: [UnlockedAchievement]
    /// The best result of each program (`PersonalRecord`), by program name.
    public var records: [PersonalRecord]

    public init(
        workouts: Int, totalDurationMilliseconds: Int64, calories: Int,
        currentStreak: Int, longestStreak: Int, achievements: [UnlockedAchievement], records: [PersonalRecord] = []
    ) {
        self.records = records
        self.workouts = workouts
        self.totalDurationMilliseconds = totalDurationMilliseconds
        self.calories = calories
        self.points = workouts * Self.pointsPerWorkout
        self.currentStreak = currentStreak
        self.longestStreak = longestStreak
        self.achievements = achievements
    }

    enum CodingKeys: String, CodingKey {
        case workouts, calories, points, achievements, records
        case totalDurationMilliseconds = "total_duration_ms"
        case currentStreak = "current_streak"
        case longestStreak = "longest_streak"
    }
}
