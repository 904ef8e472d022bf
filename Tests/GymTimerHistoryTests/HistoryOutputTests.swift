import Foundation
import GymTimerCore
import Testing
@testable import GymTimerHistory

@Suite("History output: CSV, table, JSON, stats")
struct HistoryOutputTests {
    let workouts = [
        StoredWorkout(
            id: "rest@1000000000", kind: .rest, sets: 6, durationMilliseconds: 1_450_400, calories: 0,
            exercises: [], preset: nil, completedAt: Fixture.date(2026, 3, 29, 7, 5),
            localDay: LocalDay(year: 2026, month: 3, day: 29)),
        StoredWorkout(
            id: "workout@5000000000", kind: .workout, sets: 2, durationMilliseconds: 45_000, calories: 150,
            exercises: ["Squats", "Push-ups, \"wide\""], preset: "full-body", completedAt: Fixture.date(2026, 3, 30, 0, 30),
            localDay: LocalDay(year: 2026, month: 3, day: 30)),
    ]

    @Test("--csv: a header, UTC ISO 8601 times, whole seconds, RFC 4180 quoting")
    func csv() {
        #expect(HistoryOutput.csv(workouts) == """
            id,completed_at,local_day,kind,sets,duration_s,calories,preset,exercises,score
            rest@1000000000,2026-03-29T05:05:00Z,2026-03-29,rest,6,1450,0,,,
            workout@5000000000,2026-03-29T22:30:00Z,2026-03-30,workout,2,45,150,full-body,"Squats; Push-ups, ""wide""\",

            """)
        #expect(HistoryOutput.csv([]) == "id,completed_at,local_day,kind,sets,duration_s,calories,preset,exercises,score\n")
    }

    @Test("the table shows local date and time, aligned columns and totals")
    func table() {
        #expect(HistoryOutput.table(workouts, timeZone: Fixture.berlin) == """
            Date        Time   Type     Duration  Sets  Calories  Preset     Score
            2026-03-29  07:05  rest        24:10     6         -
            2026-03-30  00:30  workout      0:45     2       150  full-body

            2 workouts, 24:55 in all, 150 kcal

            """)
        #expect(HistoryOutput.table([], timeZone: Fixture.berlin) == "No workouts recorded.\n")
    }

    @Test("a program's score is its own column in the table, CSV and JSON")
    func programScore() throws {
        let program = StoredWorkout(
            id: "program@7000000000", kind: .program, sets: 5, durationMilliseconds: 720_000, calories: 0,
            exercises: [], preset: "AMRAP 12", completedAt: Fixture.date(2026, 3, 30, 9, 0),
            localDay: LocalDay(year: 2026, month: 3, day: 30), score: "5 rounds")
        #expect(HistoryOutput.table([program], timeZone: Fixture.berlin) == """
            Date        Time   Type     Duration  Sets  Calories  Preset    Score
            2026-03-30  09:00  program     12:00     5         -  AMRAP 12  5 rounds

            1 workout, 12:00 in all, 0 kcal

            """)
        #expect(HistoryOutput.csv([program]).hasSuffix(",program,5,720,0,AMRAP 12,,5 rounds\n"))
        let text = try HistoryOutput.json([program])
        #expect(text.contains("\"score\" : \"5 rounds\""))
    }

    @Test("JSON uses the database's keys and round-trips")
    func json() throws {
        let text = try HistoryOutput.json(workouts)
        #expect(text.contains("\"duration_ms\" : 1450400"))
        #expect(text.contains("\"completed_at\" : \"2026-03-29T05:05:00Z\""))
        #expect(text.contains("\"local_day\" : \"2026-03-30\""))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode([StoredWorkout].self, from: Data(text.utf8)) == workouts)
    }

    @Test("stats as labelled lines")
    func statsText() {
        let stats = StationStats(
            workouts: 12, totalDurationMilliseconds: 3_723_000, calories: 900, currentStreak: 1, longestStreak: 7,
            achievements: [
                UnlockedAchievement(.firstWorkout, unlockedAt: Fixture.date(2026, 3, 1, 8, 0)),
                UnlockedAchievement(.weekStreak, unlockedAt: Fixture.date(2026, 3, 7, 23, 30)),
            ])
        #expect(HistoryOutput.text(stats, timeZone: Fixture.berlin) == """
            Workouts:        12
            Total time:      1:02:03
            Calories:        900 kcal
            Points:          600
            Current streak:  1 day
            Longest streak:  7 days
            Achievements:    First workout (2026-03-01), 7-day streak (2026-03-07)

            """)
    }
}
