import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerHistory

/// An athlete's page made from the collector's rows, by the same rules as a station's
/// (`HistoryStore.stats` with `HistoryScope.athlete`). Pure: `make` takes what was read.
extension GymAthleteSummary {
    /// The summary of `athlete` from their `workouts` (any days: only the 7 ending on `today`
    /// are kept) and their `stats`.
    package static func make(athlete: RosterAthlete, workouts: [StoredWorkout], stats: StationStats, today: LocalDay) -> GymAthleteSummary {
        let days = (0..<7).reversed().map { GymScores.earlier(today, by: $0) }
        let week = days.map { day in
            Day(day: day.description, workouts: workouts.filter { $0.localDay == day }.map {
                Workout(what: $0.preset ?? $0.kind.rawValue, score: $0.score, station: $0.station)
            })
        }
        let records = stats.records.map { Record(program: $0.program, division: $0.division, score: $0.score, station: $0.station) }
        return GymAthleteSummary(
            id: athlete.id, name: athlete.name, shortName: athlete.shortName, week: week, records: records,
            currentStreak: stats.currentStreak, longestStreak: stats.longestStreak, points: stats.points, workouts: stats.workouts)
    }
}
