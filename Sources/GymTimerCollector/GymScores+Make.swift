import Foundation
import GymTimerCore
import GymTimerFleet
import GymTimerHistory

/// Today's scores and the week's workouts made from the collector's rows: the leaderboard's
/// ranking and the chart's table. Pure: `make` takes the rows and the day; the collector's
/// desk (`CollectorDesk`) reads them and publishes what is made.
extension GymScores {
    /// A score as the history writes it (`8 rounds`, `12:34, 3 rounds`, `capped, 5 rounds`),
    /// read back for ranking; nil for anything else.
    struct Parsed: Hashable {
        var rounds: Int
        var seconds: Int?
        var capped: Bool
    }

    static func parse(_ score: String) -> Parsed? {
        let parts = score.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let last = parts.last, parts.count <= 2 else { return nil }
        let words = last.split(separator: " ")
        guard words.count == 2, words[1] == "round" || words[1] == "rounds", let rounds = Int(words[0]), rounds >= 0 else { return nil }
        guard parts.count == 2 else { return Parsed(rounds: rounds, seconds: nil, capped: false) }
        if parts[0] == "capped" { return Parsed(rounds: rounds, seconds: nil, capped: true) }
        let clock = parts[0].split(separator: ":")
        guard clock.count == 2, let minutes = Int(clock[0]), let seconds = Int(clock[1]), minutes >= 0, (0..<60).contains(seconds) else {
            return nil
        }
        return Parsed(rounds: rounds, seconds: minutes * 60 + seconds, capped: false)
    }

    /// A record's division: as said at the wall or by the coach; a record without one (before
    /// divisions, or nobody said) counts as Rx.
    static func division(of workout: StoredWorkout) -> Division { workout.division ?? .rx }

    /// The boards of `day` from `workouts` (a collector's rows: program results with a score
    /// and a station), each named by `names`, and the table of the 7 days that end on `day`.
    package static func make(_ workouts: [StoredWorkout], day: LocalDay, names: GymAthleteNames = GymAthleteNames()) -> GymScores {
        var byProgram: [String: [(Entry, Parsed)]] = [:]
        for workout in workouts where workout.localDay == day && workout.kind == .program {
            guard let score = workout.score, let parsed = parse(score), let program = workout.preset else { continue }
            let entry = Entry(
                id: workout.id, athlete: names.name(workout.athlete), athleteID: names.athlete(workout.athlete)?.id,
                station: workout.station ?? "-", score: score, division: division(of: workout), at: workout.completedAt.timeIntervalSince1970,
                shown: names.athlete(workout.athlete)?.shownName)
            byProgram[program, default: []].append((entry, parsed))
        }
        let boards = byProgram.keys.sorted().map { program -> Board in
            let rows = byProgram[program]!
            let timed = rows.contains { $0.1.seconds != nil || $0.1.capped }
            return Board(program: program, kind: timed ? "For Time" : "AMRAP", entries: ranked(rows))
        }
        let week = Self.week(workouts, endingOn: day)
        return GymScores(day: day.description, boards: boards, week: week)
    }

    /// One program's results in their order on the board, each with its rank: Rx above Scaled,
    /// equal scores in one division sharing a rank (1, 2, 2, 4).
    static func ranked(_ rows: [(Entry, Parsed)]) -> [Entry] {
        let ranked = rows.sorted { a, b in
            // Rx above Scaled; then timed finishes first (fastest first), then capped or
            // untimed by rounds, then who finished first.
            if a.0.division != b.0.division { return a.0.division == .rx }
            let (x, y) = (a.1, b.1)
            switch (x.seconds, y.seconds) {
            case (let p?, let q?) where p != q: return p < q
            case (.some, nil): return true
            case (nil, .some): return false
            default: break
            }
            if x.rounds != y.rounds { return x.rounds > y.rounds }
            return a.0.at < b.0.at
        }
        var entries = ranked.map(\.0)
        for index in entries.indices {
            let tied = index > 0 && entries[index].division == entries[index - 1].division
                && ranked[index].1.rounds == ranked[index - 1].1.rounds
                && ranked[index].1.seconds == ranked[index - 1].1.seconds
            entries[index].rank = tied ? entries[index - 1].rank : index + 1
        }
        return entries
    }

    /// Workouts per station on each of the 7 days ending on `day`.
    static func week(_ workouts: [StoredWorkout], endingOn day: LocalDay) -> Week {
        let days = (0..<7).reversed().map { earlier(day, by: $0) }
        let index = Dictionary(uniqueKeysWithValues: days.enumerated().map { ($1, $0) })
        var counts: [String: [Int]] = [:]
        for workout in workouts {
            guard let column = index[workout.localDay] else { continue }
            counts[workout.station ?? "-", default: Array(repeating: 0, count: 7)][column] += 1
        }
        let stations = counts.keys.sorted()
        return Week(days: days.map(\.description), stations: stations, counts: stations.map { counts[$0]! })
    }

    /// The day `count` days before `day` (on the calendar, whatever the clocks did).
    static func earlier(_ day: LocalDay, by count: Int) -> LocalDay {
        let utc = TimeZone(identifier: "UTC")!
        let noon = Date(timeIntervalSince1970: Double(day.dayNumber - count) * 86_400 + 43_200)
        return LocalDay(noon, in: utc)
    }
}
