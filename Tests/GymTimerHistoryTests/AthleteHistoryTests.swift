import Foundation
import GRDB
import GymTimerCore
import GymTimerSystem
import Testing
@testable import GymTimerHistory

/// An athlete's records carry their card into the history (v5's `athlete` column), and an
/// athlete's history, points, streak and achievements follow the rules a station's do
/// (fleet.md, "Athletes"), over every station of the gym; a guest's record is in no athlete's.
@Suite struct AthleteHistoryTests {
    static let a = CardID(hex: "04A1B2C3")!
    static let b = CardID(hex: "04B2C3D4")!
    static let c = CardID(hex: "04C3D4E5")!
    static let d = CardID(hex: "04D4E5F6A1B2C3")!
    static let e = CardID(hex: "0E")!

    /// A collector's record: `athlete`'s (nil, a guest's) on `station`, at `date`.
    func record(_ id: String, _ station: String, _ athlete: CardID?, _ date: Date, calories: Int = 10) -> StoredWorkout {
        StoredWorkout(
            id: id, kind: .workout, sets: 2, durationMilliseconds: 600_000, calories: calories, exercises: ["Squats"],
            preset: "full-body", completedAt: date, localDay: LocalDay(date, in: Fixture.berlin), station: station,
            athlete: athlete)
    }

    @Test("a record's athlete is stored in its column, indexed, and read back, read-only too; a guest's is NULL")
    func theAthleteIsStoredAndReadBack() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("h.sqlite")
        let clock = HandClock(Fixture.date(2026, 3, 2, 9, 0))
        let store = try Fixture.store(path, clock: clock)
        var session = Fixture.session(start: 100)
        session.athlete = Self.a
        store.record(session)
        clock.now = Fixture.date(2026, 3, 2, 10, 0)
        store.record(Fixture.session(start: 5000))
        try store.database.read { db in
            let stored = try Row.fetchAll(db, sql: "SELECT athlete FROM workouts ORDER BY completed_at")
            #expect(stored.map { $0[0] as DatabaseValue } == ["04A1B2C3".databaseValue, .null])
            let indexes = try db.indexes(on: "workouts").filter { $0.columns == ["athlete"] }.map(\.name)
            #expect(indexes == ["workouts_athlete"])
        }
        let reader = try HistoryStore.reading(path: path, timeZone: Fixture.berlin)
        #expect(try reader.workouts().map(\.athlete) == [Self.a, nil])
        #expect(try reader.workouts(athlete: Self.a).map(\.id) == [session.id])
        #expect(try reader.workouts(athlete: Self.b).isEmpty)
    }

    @Test("a file read before its kiosk migrated it to v5 (read-only) lists its records as guests' and no athlete's")
    func anUnmigratedFileReads() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("v4.sqlite")
        let old = try DatabaseQueue(path: path)
        try old.write { db in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1'), ('v2'), ('v3'), ('v4');
                CREATE TABLE workouts (id TEXT PRIMARY KEY NOT NULL, kind TEXT NOT NULL, sets INTEGER NOT NULL,
                    duration_ms INTEGER NOT NULL, calories INTEGER NOT NULL, exercises TEXT NOT NULL DEFAULT '[]',
                    preset TEXT, completed_at TEXT NOT NULL, local_day TEXT NOT NULL, score TEXT, station TEXT,
                    clock_synchronised INTEGER);
                CREATE TABLE achievements (name TEXT PRIMARY KEY NOT NULL, unlocked_at TEXT NOT NULL);
                INSERT INTO workouts VALUES ('rest@0', 'rest', 4, 300000, 0, '[]', NULL, '2026-01-05 17:00:00.000',
                    '2026-01-05', NULL, 'rack-1', 1);
                """)
        }
        try old.close()
        let reader = try HistoryStore.reading(path: path, timeZone: Fixture.berlin, wall: .fixed(Fixture.date(2026, 1, 5, 20, 0)))
        #expect(try reader.workouts().map(\.athlete) == [nil])
        #expect(try reader.workouts(athlete: Self.a).isEmpty)
        #expect(try reader.stats().workouts == 1)
        let athlete = try reader.stats(.athlete([Self.a]))
        #expect(athlete == StationStats(workouts: 0, totalDurationMilliseconds: 0, calories: 0, currentStreak: 0, longestStreak: 0, achievements: []))
        #expect(try reader.stats(.station("rack-1")).workouts == 1)
    }

    /// A week at a gym: A, B and C share rack-1, D and E rack-2, guests train on both.
    /// Each athlete trains on their own days, some twice a day; every record goes into one
    /// collector database, a day's batch at a time, as `collect` stores them.
    static func week() -> [(id: String, station: String, athlete: CardID?, date: Date)] {
        // For each athlete: their station and, per day of March 1…7, how many workouts.
        let plan: [(CardID, String, [Int])] = [
            (a, "rack-1", [2, 2, 2, 2, 2, 2, 2]),  // 14 workouts, every day: 10 workouts and a 7-day streak
            (b, "rack-1", [1, 1, 1, 0, 1, 1, 0]),  // 5, streaks of 3 and 2, the last yesterday
            (c, "rack-1", [0, 0, 0, 3, 0, 0, 0]),  // 3 on one day, long ago
            (d, "rack-2", [1, 1, 1, 1, 1, 1, 1]),  // 7: a 7-day streak but not 10 workouts
            (e, "rack-2", [3, 3, 3, 3, 0, 0, 1]),  // 13: 10 workouts on the 4th day, streaks 4 and 1 (today)
        ]
        var records: [(id: String, station: String, athlete: CardID?, date: Date)] = []
        for day in 1...7 {
            for (card, station, counts) in plan {
                for n in 0..<counts[day - 1] {
                    records.append(("\(station)/\(card.hex)-\(day)-\(n)", station, card, Fixture.date(2026, 3, day, 7 + 3 * n, day * 3)))
                }
            }
            for station in ["rack-1", "rack-2"] {
                records.append(("\(station)/guest-\(day)", station, nil, Fixture.date(2026, 3, day, 12, 30)))
            }
        }
        return records.sorted { ($0.date, $0.id) < ($1.date, $1.id) }
    }

    @Test("a week at the gym: each athlete's stats are those of a history holding only their records")
    func aWeekAtTheGym() throws {
        let dir = try TemporaryDirectory()
        let clock = HandClock(Fixture.date(2026, 3, 7, 21, 0))
        let gym = try Fixture.store(dir.file("gym.sqlite"), clock: clock)
        let week = Self.week()
        let workouts = week.enumerated().map { index, entry in
            record(entry.id, entry.station, entry.athlete, entry.date, calories: 10 + index)
        }
        for day in 1...7 {
            try gym.store(workouts.filter { $0.localDay == LocalDay(year: 2026, month: 3, day: day) })
        }

        for card in [Self.a, Self.b, Self.c, Self.d, Self.e] {
            let theirs = workouts.filter { $0.athlete == card }
            let alone = try Fixture.store(dir.file("\(card.hex).sqlite"), clock: clock)
            try alone.store(theirs)
            let scoped = try gym.stats(.athlete([card]))
            #expect(try scoped == alone.stats(), "\(card)")
            #expect(scoped.points == theirs.count * StationStats.pointsPerWorkout)
            #expect(try gym.workouts(athlete: card) == theirs, "\(card)")
            #expect(try gym.workouts(since: Fixture.date(2026, 3, 6, 0, 0), athlete: card) == theirs.filter {
                $0.completedAt >= Fixture.date(2026, 3, 6, 0, 0)
            })
        }

        // What each athlete's rules give, so the comparison above is not of two empty histories.
        let a = try gym.stats(.athlete([Self.a]))
        #expect((a.workouts, a.points, a.currentStreak, a.longestStreak) == (14, 700, 7, 7))
        #expect(a.achievements.map(\.achievement) == [.firstWorkout, .tenWorkouts, .weekStreak])
        #expect(a.achievements.map(\.unlockedAt) == [
            Fixture.date(2026, 3, 1, 7, 3), Fixture.date(2026, 3, 5, 10, 15), Fixture.date(2026, 3, 7, 7, 21),
        ])
        let b = try gym.stats(.athlete([Self.b]))
        #expect((b.workouts, b.points, b.currentStreak, b.longestStreak) == (5, 250, 2, 3))
        #expect(b.achievements.map(\.achievement) == [.firstWorkout])
        let c = try gym.stats(.athlete([Self.c]))
        #expect((c.workouts, c.currentStreak, c.longestStreak, c.totalDurationMilliseconds) == (3, 0, 1, 1_800_000))
        let d = try gym.stats(.athlete([Self.d]))
        #expect((d.workouts, d.currentStreak, d.longestStreak) == (7, 7, 7))
        #expect(d.achievements.map(\.achievement) == [.firstWorkout, .weekStreak])
        let e = try gym.stats(.athlete([Self.e]))
        #expect((e.workouts, e.currentStreak, e.longestStreak) == (13, 1, 4))
        #expect(e.achievements.map(\.achievement) == [.firstWorkout, .tenWorkouts])
        #expect(e.achievements.last?.unlockedAt == Fixture.date(2026, 3, 4, 7, 12))

        // Guests' records are the whole gym's and its stations', no athlete's.
        let guests = workouts.filter { $0.athlete == nil }
        #expect(guests.count == 14)
        #expect(try gym.workouts() == workouts)
        #expect(try gym.stats().workouts == workouts.count)
        let athletes = try [Self.a, Self.b, Self.c, Self.d, Self.e].flatMap { try gym.workouts(athlete: $0) }
        #expect(athletes.count + guests.count == workouts.count)
        #expect(Set(athletes.map(\.id)).isDisjoint(with: guests.map(\.id)))
        #expect(try gym.workouts(station: "rack-1").count == 14 + 5 + 3 + 7)
        #expect(try gym.stats(station: "rack-2").workouts == 7 + 13 + 7)
        #expect(try gym.stats(.athlete([CardID(hex: "FFFF")!])).workouts == 0)
    }

    @Test("history's table and CSV get an athlete column when a record has a card, JSON its `athlete`")
    func outputsShowTheAthlete() throws {
        let date = Fixture.date(2026, 3, 2, 8, 0)
        let workouts = [record("rack-1/x", "rack-1", Self.a, date), record("rack-1/y", "rack-1", nil, date.addingTimeInterval(60))]
        let table = HistoryOutput.table(workouts, timeZone: Fixture.berlin).split(separator: "\n").map(String.init)
        #expect(table[0].hasPrefix("Station  Athlete   Date"), "\(table)")
        #expect(table[1].hasPrefix("rack-1   04A1B2C3  2026-03-02  08:00  workout     10:00"), "\(table)")
        #expect(table[2].hasPrefix("rack-1" + String(repeating: " ", count: 13) + "2026-03-02  08:01"), "\(table)")
        let csv = HistoryOutput.csv(workouts).split(separator: "\n").map(String.init)
        #expect(csv[0].hasSuffix(",score,station,athlete"))
        #expect(csv[1].hasSuffix(",rack-1,04A1B2C3") && csv[2].hasSuffix(",rack-1,"))

        let decoded = try JSONSerialization.jsonObject(with: Data(try HistoryOutput.json(workouts).utf8)) as? [[String: Any]]
        #expect(decoded?.map { $0["athlete"] as? String } == ["04A1B2C3", nil])
        // A guest's history has no athlete column at all.
        #expect(!HistoryOutput.table([workouts[1]], timeZone: Fixture.berlin).contains("Athlete"))
    }

    @Test("history's table names an athlete the roster knows, and shows the UID of a card it does not")
    func theTableNamesRosterAthletes() {
        let date = Fixture.date(2026, 3, 2, 8, 0)
        let workouts = [record("rack-1/x", "rack-1", Self.a, date), record("rack-1/y", "rack-1", Self.b, date.addingTimeInterval(60))]
        let table = HistoryOutput.table(workouts, timeZone: Fixture.berlin, names: [Self.a: "Anna Berg"]).split(separator: "\n").map(String.init)
        #expect(table[0].hasPrefix("Station  Athlete    Date"), "\(table)")
        #expect(table[1].hasPrefix("rack-1   Anna Berg  2026-03-02  08:00"), "\(table)")
        #expect(table[2].hasPrefix("rack-1   \(Self.b.hex)   2026-03-02  08:01"), "\(table)")
        #expect(!table[1].contains(Self.a.hex))
    }
}
