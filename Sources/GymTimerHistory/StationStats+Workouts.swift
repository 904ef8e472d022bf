import Foundation
import GymTimerCore

extension StationStats {
    /// The stats of `workouts` as `today` sees them, by the rules `HistoryStore.stats` applies
    /// to its rows: totals and points, the daily streaks, the achievements each dated by the
    /// workout that earned it, and the best result of each program and division. For a store
    /// that is not the SQLite history (a chain's PostgreSQL holds every gym's records): a
    /// member's points, streak and records over every gym they trained at.
    public static func of(_ workouts: [StoredWorkout], today: LocalDay) -> StationStats {
        let ordered = workouts.sorted { ($0.completedAt, $0.id) < ($1.completedAt, $1.id) }
        let unlocked = achievements(earnedBy: ordered.map { ($0.completedAt, $0.localDay) })
        let streak = DailyStreak(days: ordered.map(\.localDay), today: today)
        let results = ordered.compactMap { workout -> PersonalRecord.Result? in
            guard workout.kind == .program, let program = workout.preset, let score = workout.score else { return nil }
            return PersonalRecord.Result(
                program: program, division: workout.division ?? .rx, score: score, completedAt: workout.completedAt, station: workout.station)
        }
        return StationStats(
            workouts: ordered.count, totalDurationMilliseconds: ordered.reduce(0) { $0 + $1.durationMilliseconds },
            calories: ordered.reduce(0) { $0 + $1.calories }, currentStreak: streak.current, longestStreak: streak.longest,
            achievements: unlocked, records: PersonalRecord.bests(of: results))
    }

    /// The achievements earned by workouts finished at these instants on these local days (in
    /// the order they were finished), each dated by the workout that earned it.
    static func achievements(earnedBy workouts: [(date: Date, day: LocalDay)]) -> [UnlockedAchievement] {
        var unlocked: [UnlockedAchievement] = []
        var earned: Set<Achievement> = []
        var days: Set<LocalDay> = []
        var longest = 0
        for (index, workout) in workouts.enumerated() {
            // The longest streak changes only with a day not seen before.
            if days.insert(workout.day).inserted { longest = DailyStreak(days: days, today: workout.day).longest }
            for achievement in Achievement.earned(workouts: index + 1, longestStreak: longest) where earned.insert(achievement).inserted {
                unlocked.append(UnlockedAchievement(achievement, unlockedAt: workout.date))
            }
        }
        return unlocked
    }
}
