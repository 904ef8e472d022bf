/// Runs of consecutive local days with at least one workout.
public struct DailyStreak: Hashable, Sendable {
    /// The run that ends today or yesterday (a streak is not broken before the day is over); 0 if none.
    public var current: Int
    /// The longest run ever.
    public var longest: Int

    /// Counts streaks over the days that had workouts (any order, repeats allowed), as of `today`.
    public init(days: some Sequence<LocalDay>, today: LocalDay) {
        let numbers = Set(days.map(\.dayNumber)).sorted()
        var longest = 0
        var run = 0
        var previous: Int?
        for number in numbers {
            run = previous == number - 1 ? run + 1 : 1
            longest = max(longest, run)
            previous = number
        }
        self.longest = longest
        if let last = previous, last >= today.dayNumber - 1 {
            current = run
        } else {
            current = 0
        }
    }
}
