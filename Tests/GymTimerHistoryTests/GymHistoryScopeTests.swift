import Foundation
import GRDB
import Testing
@testable import GymTimerHistory

/// A collector's database is the whole gym's: what one station's stats show must be that
/// station's, and what a spreadsheet opens must not run anything a station's record carries.
@Suite struct GymHistoryScopeTests {
    /// A collector's record of `station`, completed at `date`.
    func record(_ id: String, _ station: String, _ date: Date, preset: String? = "full-body", exercises: [String] = ["Squats"]) -> StoredWorkout {
        StoredWorkout(
            id: id, kind: .workout, sets: 1, durationMilliseconds: 60_000, calories: 10, exercises: exercises,
            preset: preset, completedAt: date, localDay: LocalDay(date, in: Fixture.berlin), station: station)
    }

    @Test("stats --station shows that station's achievements, dated by its own workouts, not the gym's")
    func stationStatsAreScoped() throws {
        let dir = try TemporaryDirectory()
        let clock = HandClock(Fixture.date(2026, 3, 10, 12, 0))
        let store = try Fixture.store(dir.file("gym.sqlite"), clock: clock)
        // rack-1: ten workouts on one day; rack-2: one workout on each of 7 days.
        var records = (0..<10).map { record("r1-\($0)", "rack-1", Fixture.date(2026, 3, 2, 8, $0)) }
        records += (0..<7).map { record("r2-\($0)", "rack-2", Fixture.date(2026, 3, 1 + $0, 18, 0)) }
        try store.store(records)

        let gym = try store.stats()
        #expect(Set(gym.achievements.map(\.achievement)) == [.firstWorkout, .tenWorkouts, .weekStreak])
        let rack1 = try store.stats(station: "rack-1")
        #expect(rack1.workouts == 10)
        #expect(rack1.achievements.map(\.achievement) == [.firstWorkout, .tenWorkouts])
        #expect(rack1.achievements.map(\.unlockedAt) == [Fixture.date(2026, 3, 2, 8, 0), Fixture.date(2026, 3, 2, 8, 9)])
        let rack2 = try store.stats(station: "rack-2")
        #expect(rack2.workouts == 7 && rack2.longestStreak == 7)
        #expect(rack2.achievements.map(\.achievement) == [.firstWorkout, .weekStreak])
        #expect(rack2.achievements.last?.unlockedAt == Fixture.date(2026, 3, 7, 18, 0))
        let nobody = try store.stats(station: "nosuch")
        #expect(nobody.workouts == 0 && nobody.achievements.isEmpty && nobody.longestStreak == 0)
    }

    @Test("a CSV field a spreadsheet would read as a formula is written as text", arguments: [
        ("=HYPERLINK(\"http://x\",\"win\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"win\"\")\""),
        ("+1+1", "'+1+1"), ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"), ("\tcmd", "'\tcmd"), ("\r=1", "\"'\r=1\""),
        ("Squats", "Squats"), ("1:30, 2 rounds", "\"1:30, 2 rounds\""), ("", ""),
    ])
    func formulaCellsAreNeutralised(field: String, written: String) {
        #expect(HistoryOutput.csvField(field) == written)
    }

    @Test("a whole export: a hostile preset and exercise are text, numbers are untouched")
    func hostileRecordInAnExport() {
        let hostile = record("x", "rack-1", Fixture.date(2026, 3, 2, 8, 0), preset: "=cmd|' /C calc'!A0", exercises: ["@SUM(1+1)*cmd"])
        let line = HistoryOutput.csv([hostile]).split(separator: "\n")[1]
        #expect(line.contains(",'=cmd|' /C calc'!A0,'@SUM(1+1)*cmd,"), "\(line)")
        #expect(line.contains(",workout,1,60,10,"))
    }
}
