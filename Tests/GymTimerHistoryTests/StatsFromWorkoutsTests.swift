import Foundation
import GymTimerCore
import GymTimerSystem
import Testing
@testable import GymTimerHistory

/// `StationStats.of(workouts)` (what a chain's central store uses: its rows are not SQLite's)
/// gives what `HistoryStore.stats` gives for the same records: the same totals, points,
/// streaks, achievements with their dates, and bests per program and division.
@Suite struct StatsFromWorkoutsTests {
    static let ana = CardID(hex: "04A1B2C3")!
    static let ben = CardID(hex: "04B2C3D4")!

    /// `athlete`'s record on `station` at `date`; a program's with `score` when given.
    func record(_ n: Int, _ station: String, _ athlete: CardID?, _ date: Date, program: (String, String, Division)? = nil) -> StoredWorkout {
        StoredWorkout(
            id: "\(station)/w@\(n)", kind: program == nil ? .workout : .program, sets: n % 5, durationMilliseconds: Int64(n) * 60_000,
            calories: n * 7, exercises: ["Squats"], preset: program?.0 ?? "full-body", completedAt: date,
            localDay: LocalDay(date, in: Fixture.berlin), score: program?.1, station: station, athlete: athlete,
            division: program?.2)
    }

    @Test func theStatsOfAListOfWorkoutsAreTheHistorysOwn() throws {
        let dir = try TemporaryDirectory()
        let clock = HandClock(Fixture.date(2026, 3, 20, 9, 0))
        let store = try Fixture.store(dir.file("gym.sqlite"), clock: clock)
        var workouts: [StoredWorkout] = []
        // Ana trains 12 days in a row at two stations (a streak, achievements), Ben now and then.
        for day in 1...12 {
            let date = Fixture.date(2026, 3, 7 + day, 18, 30)
            let program: (String, String, Division)? = day % 3 == 0 ? ("Fran", "\(10 - day / 3):00, 3 rounds", day == 9 ? .scaled : .rx) : nil
            workouts.append(record(day, day % 2 == 0 ? "rack-1" : "rack-2", Self.ana, date, program: program))
            if day % 4 == 0 { workouts.append(record(100 + day, "rack-3", Self.ben, date.addingTimeInterval(600))) }
        }
        workouts.append(record(200, "rack-1", nil, Fixture.date(2026, 3, 19, 7, 0)))
        _ = try store.store(workouts)
        let today = LocalDay(clock.now, in: Fixture.berlin)
        for card in [Self.ana, Self.ben] {
            let theirs = try store.workouts(athlete: card)
            #expect(StationStats.of(theirs, today: today) == (try store.stats(.athlete([card]))))
        }
        for station in ["rack-1", "rack-2", "rack-3"] {
            let theirs = try store.workouts(station: station)
            #expect(StationStats.of(theirs, today: today) == (try store.stats(station: station)))
        }
        let ana = StationStats.of(try store.workouts(athlete: Self.ana), today: today)
        #expect(ana.workouts == 12 && ana.points == 12 * StationStats.pointsPerWorkout)
        #expect(ana.longestStreak == 12 && ana.currentStreak == 12, "twelve days in a row, the last yesterday")
        #expect(ana.records.map { "\($0.program) \($0.division) \($0.score)" }.sorted() == ["Fran rx 6:00, 3 rounds", "Fran scaled 7:00, 3 rounds"])
        #expect(!ana.achievements.isEmpty)
    }
}
