import Foundation
import GymTimerCore
import GymTimerHistory

/// What an athlete's page shows: their week (each of the last 7 days' workouts, on every
/// station), their personal record per program, their streak and points, by the same rules
/// as a station's (`HistoryStore.stats` with `HistoryScope.athlete`). Pure: `make` takes what
/// was read.
public struct ConsoleAthleteSummary: Hashable, Sendable {
    /// One workout of theirs.
    public struct Workout: Hashable, Sendable {
        /// The program's name, else the kind (`rest`, `intervals`…).
        public var what: String
        public var score: String?
        public var station: String?
    }

    /// One day of their week.
    public struct Day: Hashable, Sendable {
        public var day: String
        public var workouts: [Workout]
    }

    public var id: Int64
    public var name: String
    public var shortName: String
    /// The last 7 days, oldest first.
    public var week: [Day]
    public var records: [PersonalRecord]
    public var currentStreak: Int
    public var longestStreak: Int
    public var points: Int
    public var workouts: Int

    /// The summary of `athlete` from their `workouts` (any days: only the 7 ending on `today`
    /// are kept) and their `stats`.
    public static func make(athlete: RosterAthlete, workouts: [StoredWorkout], stats: StationStats, today: LocalDay) -> ConsoleAthleteSummary {
        let days = (0..<7).reversed().map { ConsoleScores.earlier(today, by: $0) }
        let week = days.map { day in
            Day(day: day.description, workouts: workouts.filter { $0.localDay == day }.map {
                Workout(what: $0.preset ?? $0.kind.rawValue, score: $0.score, station: $0.station)
            })
        }
        return ConsoleAthleteSummary(
            id: athlete.id, name: athlete.name, shortName: athlete.shortName, week: week, records: stats.records,
            currentStreak: stats.currentStreak, longestStreak: stats.longestStreak, points: stats.points, workouts: stats.workouts)
    }
}
