import Foundation
import GRDB
import GymTimerCore
import Testing
@testable import GymTimerHistory
import GymTimerSystem

@Suite("HistoryStore: schema, recording, streaks, achievements")
struct HistoryStoreTests {
    @Test("a new file gets the v1 schema, v2's score column, v3's station column, v4's clock_synchronised, v5's athlete, v6's roster, v7's division, v8's forget requests, v9's voided results and v10's public names")
    func migrationsCreateTheSchema() throws {
        let dir = try TemporaryDirectory()
        let store = try Fixture.store(dir.file("h.sqlite"), clock: HandClock(Date(timeIntervalSince1970: 0)))
        try store.database.read { db in
            #expect(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10"])
            let workouts = try db.columns(in: "workouts").map(\.name)
            #expect(workouts == [
                "id", "kind", "sets", "duration_ms", "calories", "exercises", "preset", "completed_at", "local_day", "score",
                "station", "clock_synchronised", "athlete", "division", "voided_score", "voided_at",
            ])
            #expect(try db.primaryKey("workouts").columns == ["id"])
            #expect(try db.columns(in: "achievements").map(\.name) == ["name", "unlocked_at"])
            #expect(try db.columns(in: "athletes").map(\.name) == ["id", "name", "short_name", "created_at", "public_name"])
            #expect(try db.columns(in: "cards").map(\.name) == ["card", "athlete"])
            #expect(try db.primaryKey("cards").columns == ["card"])
            #expect(try db.columns(in: "forget_requests").map(\.name) == ["id", "card", "requested_at"])
            #expect(try db.columns(in: "forget_answers").map(\.name) == ["request", "station"])
        }
    }

    @Test("a file written by v1 opens, for the kiosk and read-only")
    func aVersionOneFileOpens() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("old.sqlite")
        // Written by hand, as the first release left it.
        let old = try DatabaseQueue(path: path)
        try old.write { db in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1');
                CREATE TABLE workouts (id TEXT PRIMARY KEY NOT NULL, kind TEXT NOT NULL, sets INTEGER NOT NULL,
                    duration_ms INTEGER NOT NULL, calories INTEGER NOT NULL, exercises TEXT NOT NULL DEFAULT '[]',
                    preset TEXT, completed_at TEXT NOT NULL, local_day TEXT NOT NULL);
                CREATE TABLE achievements (name TEXT PRIMARY KEY NOT NULL, unlocked_at TEXT NOT NULL);
                INSERT INTO workouts VALUES ('rest@0', 'rest', 4, 300000, 0, '[]', NULL, '2026-01-05 17:00:00.000', '2026-01-05');
                INSERT INTO achievements VALUES ('first-workout', '2026-01-05 17:00:00.000');
                """)
        }
        try old.close()

        let readOnly = try HistoryStore.reading(path: path, timeZone: Fixture.berlin)
        let rows = try readOnly.workouts()
        #expect(rows.map(\.id) == ["rest@0"])
        #expect(rows.first?.localDay == LocalDay(year: 2026, month: 1, day: 5))
        #expect(rows.first?.completedAt == Fixture.date(2026, 1, 5, 18, 0))

        let clock = HandClock(Fixture.date(2026, 1, 6, 9, 0))
        let store = try Fixture.store(path, clock: clock)
        store.record(Fixture.session(start: 1000))
        let stats = try store.stats()
        #expect(stats.workouts == 2)
        #expect(stats.currentStreak == 2)
        #expect(stats.achievements.map(\.achievement) == [.firstWorkout])
        #expect(try store.workouts().map(\.score) == [nil, nil], "v2 added the column to the old file")
    }

    @Test("a program's record keeps its score and counts in points like any workout")
    func programScoreIsStored() throws {
        let dir = try TemporaryDirectory()
        let store = try Fixture.store(dir.file("h.sqlite"), clock: HandClock(Fixture.date(2026, 5, 4, 10, 0)))
        store.record(WorkoutRecord(
            kind: .program, sets: 3, duration: .seconds(754), preset: "For Time",
            score: ProgramScore(rounds: 3, time: .seconds(754)), endedAt: Moment(.seconds(800))))
        store.record(WorkoutRecord(
            kind: .program, sets: 5, duration: .seconds(720), preset: "AMRAP 12", score: ProgramScore(rounds: 5),
            endedAt: Moment(.seconds(2000))))
        let rows = try store.workouts()
        #expect(Set(rows.map(\.score)) == ["12:34, 3 rounds", "5 rounds"])
        #expect(rows.map(\.kind) == [.program, .program])
        #expect(try store.stats().points == 100)
    }

    @Test("a record replayed after a crash is stored once")
    func insertIsIdempotent() throws {
        let dir = try TemporaryDirectory()
        let clock = HandClock(Fixture.date(2026, 5, 4, 10, 0))
        let store = try Fixture.store(dir.file("h.sqlite"), clock: clock)
        let workout = Fixture.session(start: 60)
        store.record(workout)
        clock.now = Fixture.date(2026, 5, 4, 10, 5)
        store.record(workout)
        // A second store on the same file, as after a restart.
        let again = try Fixture.store(dir.file("h.sqlite"), clock: clock)
        again.record(workout)

        let rows = try store.workouts()
        #expect(rows.count == 1)
        #expect(rows.first?.id == workout.id)
        #expect(rows.first?.completedAt == Fixture.date(2026, 5, 4, 10, 0))
        #expect(rows.first?.exercises == ["Squats", "Plank"])
        #expect(rows.first?.durationMilliseconds == 360_000)
        #expect(try store.stats().points == 50)
    }

    @Test("totals and points: 50 for every workout, whatever its kind")
    func totalsAndPoints() throws {
        let dir = try TemporaryDirectory()
        let clock = HandClock(Fixture.date(2026, 5, 4, 10, 0))
        let store = try Fixture.store(dir.file("h.sqlite"), clock: clock)
        #expect(try store.stats() == StationStats(
            workouts: 0, totalDurationMilliseconds: 0, calories: 0, currentStreak: 0, longestStreak: 0, achievements: []))
        store.record(WorkoutRecord(kind: .rest, sets: 5, duration: .seconds(600), endedAt: Moment(.seconds(600))))
        store.record(WorkoutRecord(kind: .interval, sets: 8, duration: .seconds(480), calories: 90, endedAt: Moment(.seconds(2000))))
        store.record(Fixture.session(start: 3000))
        let stats = try store.stats()
        #expect(stats.workouts == 3)
        #expect(stats.totalDurationMilliseconds == 1_440_000)
        #expect(stats.calories == 240)
        #expect(stats.points == 150)
    }

    @Test("workouts(since:) keeps those completed at or after the date, oldest first")
    func workoutsSince() throws {
        let dir = try TemporaryDirectory()
        let clock = HandClock(Fixture.date(2026, 5, 4, 10, 0))
        let store = try Fixture.store(dir.file("h.sqlite"), clock: clock)
        for (index, day) in [4, 5, 6].enumerated() {
            clock.now = Fixture.date(2026, 5, day, 0, 30)
            store.record(Fixture.session(start: index * 1000))
        }
        let since = LocalDay(year: 2026, month: 5, day: 5).start(in: Fixture.berlin)
        #expect(try store.workouts(since: since).map(\.localDay.day) == [5, 6])
        #expect(try store.workouts().map(\.localDay.day) == [4, 5, 6])
    }

    /// Records one session at each local time, then reads the streaks at `now`.
    private func streaks(_ times: [Date], now: Date, in timeZone: TimeZone = Fixture.berlin) throws -> (stats: StationStats, days: [String]) {
        let dir = try TemporaryDirectory()
        let clock = HandClock(times[0])
        let store = try HistoryStore(
            path: dir.file("h.sqlite"), faults: LogLines().faults, timeZone: timeZone, wall: clock.wall)
        for (index, time) in times.enumerated() {
            clock.now = time
            store.record(Fixture.session(start: index * 1000))
        }
        clock.now = now
        return (try store.stats(), try store.workouts().map(\.localDay.description))
    }

    @Test("23:59 and 00:01 the next day are two days of a streak; the same day twice is one")
    func streakAcrossMidnight() throws {
        let twoDays = [Fixture.date(2026, 6, 10, 23, 59), Fixture.date(2026, 6, 11, 0, 1)]
        let (stats, days) = try streaks(twoDays, now: Fixture.date(2026, 6, 11, 12, 0))
        #expect(days == ["2026-06-10", "2026-06-11"])
        #expect(stats.currentStreak == 2)
        #expect(stats.longestStreak == 2)

        let oneDay = [Fixture.date(2026, 6, 10, 0, 1), Fixture.date(2026, 6, 10, 23, 59)]
        #expect(try streaks(oneDay, now: Fixture.date(2026, 6, 10, 23, 59)).stats.currentStreak == 1)
    }

    @Test("the current streak survives until the end of the next day, then ends")
    func currentStreakEndsAfterAMissedDay() throws {
        let times = [Fixture.date(2026, 6, 10, 18, 0), Fixture.date(2026, 6, 11, 18, 0)]
        #expect(try streaks(times, now: Fixture.date(2026, 6, 12, 23, 59)).stats.currentStreak == 2)
        let broken = try streaks(times, now: Fixture.date(2026, 6, 13, 0, 1)).stats
        #expect(broken.currentStreak == 0)
        #expect(broken.longestStreak == 2)
    }

    @Test("streaks count local days across the spring DST change (Berlin, 29 March 2026)")
    func streakAcrossSpringForward() throws {
        let times = [
            Fixture.date(2026, 3, 28, 23, 30),
            Fixture.date(2026, 3, 29, 3, 30), // 02:00 became 03:00: a 23-hour day
            Fixture.date(2026, 3, 29, 23, 45),
            Fixture.date(2026, 3, 30, 0, 30), // still 29 March in UTC
        ]
        let (stats, days) = try streaks(times, now: Fixture.date(2026, 3, 30, 12, 0))
        #expect(days == ["2026-03-28", "2026-03-29", "2026-03-29", "2026-03-30"])
        #expect(stats.currentStreak == 3)
        #expect(stats.longestStreak == 3)
    }

    @Test("streaks count local days across the autumn DST change (Berlin, 25 October 2026)")
    func streakAcrossFallBack() throws {
        let times = [
            Fixture.date(2026, 10, 24, 23, 30),
            Fixture.date(2026, 10, 25, 23, 30), // a 25-hour day
            Fixture.date(2026, 10, 26, 0, 15), // 25 October 23:15 in UTC
        ]
        let (stats, days) = try streaks(times, now: Fixture.date(2026, 10, 27, 23, 0))
        #expect(days == ["2026-10-24", "2026-10-25", "2026-10-26"])
        #expect(stats.currentStreak == 3)
    }

    @Test("achievements unlock once, stamped with the workout that earned them")
    func achievementsUnlockOnce() throws {
        let dir = try TemporaryDirectory()
        let clock = HandClock(Fixture.date(2026, 2, 1, 8, 0))
        let store = try Fixture.store(dir.file("h.sqlite"), clock: clock)
        func unlocked() throws -> [Achievement: Date] {
            Dictionary(uniqueKeysWithValues: try store.stats().achievements.map { ($0.achievement, $0.unlockedAt) })
        }
        for index in 0..<9 {
            clock.now = Fixture.date(2026, 2, 1, 8, index)
            store.record(Fixture.session(start: index * 1000))
        }
        #expect(try unlocked() == [.firstWorkout: Fixture.date(2026, 2, 1, 8, 0)])

        clock.now = Fixture.date(2026, 2, 1, 9, 0)
        store.record(Fixture.session(start: 9000))
        let tenth = Fixture.date(2026, 2, 1, 9, 0)
        #expect(try unlocked()[.tenWorkouts] == tenth)

        clock.now = Fixture.date(2026, 2, 1, 10, 0)
        store.record(Fixture.session(start: 10000))
        #expect(try unlocked() == [.firstWorkout: Fixture.date(2026, 2, 1, 8, 0), .tenWorkouts: tenth])
        #expect(try store.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM achievements") } == 2)
    }

    @Test("a 7-day streak unlocks on the seventh day")
    func weekStreakUnlocks() throws {
        // 26 March to 1 April at 07:00, across the spring DST change.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Fixture.berlin
        let times = (0..<7).map { calendar.date(byAdding: .day, value: $0, to: Fixture.date(2026, 3, 26, 7, 0))! }
        #expect(times.map { LocalDay($0, in: Fixture.berlin).description }.last == "2026-04-01")
        let (stats, _) = try streaks(times, now: times[6])
        #expect(stats.longestStreak == 7)
        #expect(stats.achievements.map(\.achievement) == [.firstWorkout, .weekStreak])
        #expect(stats.achievements.last?.unlockedAt == times[6])
    }

    @Test("a history opened not durable skips SQLite's syncs and still records; a durable one syncs fully")
    func aHistoryOpenedNotDurableSkipsSQLitesSyncs() throws {
        let dir = try TemporaryDirectory()
        func synchronous(_ store: HistoryStore) throws -> Int? {
            try store.database.read { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        }
        let quick = HistoryStore.opening(path: dir.file("quick.sqlite"), faults: FaultLog { _ in }, durable: false)
        #expect(try synchronous(quick) == 0)
        quick.record(WorkoutRecord(kind: .rest, sets: 2, duration: .seconds(60), endedAt: Moment(.seconds(60))))
        #expect(quick.pending.isEmpty)
        #expect(try quick.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM workouts") } == 1)
        let durable = HistoryStore.opening(path: dir.file("durable.sqlite"), faults: FaultLog { _ in })
        #expect(try synchronous(durable) == 2)
    }
}
