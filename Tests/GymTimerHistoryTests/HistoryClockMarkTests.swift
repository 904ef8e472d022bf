import Foundation
import GRDB
import GymTimerCore
import Testing
@testable import GymTimerHistory

/// A record's date comes from a synchronised clock or is marked as not (issue #24): a Pi
/// without a clock battery records with a wrong date until NTP synchronises, and `history`
/// must show which dates those are.
@Suite("History: dates from an unsynchronised clock are marked")
struct HistoryClockMarkTests {
    /// A file as the release before this one left it (migrations v1 to v3), one workout in it.
    func versionThreeFile(_ path: String) throws {
        let old = try DatabaseQueue(path: path)
        try old.write { db in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1'), ('v2'), ('v3');
                CREATE TABLE workouts (id TEXT PRIMARY KEY NOT NULL, kind TEXT NOT NULL, sets INTEGER NOT NULL,
                    duration_ms INTEGER NOT NULL, calories INTEGER NOT NULL, exercises TEXT NOT NULL DEFAULT '[]',
                    preset TEXT, completed_at TEXT NOT NULL, local_day TEXT NOT NULL, score TEXT, station TEXT);
                CREATE INDEX workouts_completed_at ON workouts(completed_at);
                CREATE INDEX workouts_local_day ON workouts(local_day);
                CREATE TABLE achievements (name TEXT PRIMARY KEY NOT NULL, unlocked_at TEXT NOT NULL);
                INSERT INTO workouts VALUES ('rest@0', 'rest', 4, 300000, 0, '[]', NULL, '2026-01-05 17:00:00.000', '2026-01-05', NULL, NULL);
                """)
        }
        try old.close()
    }

    @Test("an old file is migrated: its rows read as unknown, a record on an unsynchronised clock is marked")
    func anOldFileIsMigratedAndANewRecordMarked() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("old.sqlite")
        try versionThreeFile(path)
        // Before the kiosk migrates it, `history` reads the old file as it is.
        #expect(try HistoryStore.reading(path: path, timeZone: Fixture.berlin).workouts().map(\.clockSynchronised) == [nil])

        let store = try Fixture.store(path, clock: HandClock(Fixture.date(2026, 1, 6, 9, 0)))
        store.clockSynchronised = { false }
        store.record(Fixture.session(start: 1000))
        store.clockSynchronised = { true }
        store.record(Fixture.session(start: 5000))
        let rows = try store.workouts()
        #expect(rows.map(\.clockSynchronised) == [nil, false, true])
        try store.database.read { db in
            #expect(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10"])
            let stored = try Row.fetchAll(db, sql: "SELECT clock_synchronised FROM workouts ORDER BY completed_at, id")
            #expect(stored.map { $0[0] as DatabaseValue } == [.null, 0.databaseValue, 1.databaseValue])
        }
        // Read-only, as `gymtimer history` reads it.
        let read = try HistoryStore.reading(path: path, timeZone: Fixture.berlin).workouts()
        #expect(read.map(\.clockSynchronised) == [nil, false, true])

        let table = HistoryOutput.table(read, timeZone: Fixture.berlin)
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines[1].contains("18:00 "), "an old row's time unmarked: \(table)")
        #expect(lines[2].contains("09:00?"), "the unsynchronised one marked: \(table)")
        #expect(lines[3].contains("09:00 ") || lines[3].contains("10:0"), "the synchronised one unmarked: \(table)")
        #expect(!lines[3].contains("?"), "\(table)")
        #expect(table.contains("? recorded before the kiosk's clock was synchronised"), "\(table)")

        let csv = HistoryOutput.csv(read).split(separator: "\n").map(String.init)
        #expect(csv[0].hasSuffix(",score,clock_synchronised"), "\(csv[0])")
        #expect(csv[1].hasSuffix(","), "unknown is empty: \(csv[1])")
        #expect(csv[2].hasSuffix(",false") && csv[3].hasSuffix(",true"), "\(csv)")

        let json = try HistoryOutput.json(read)
        #expect(json.components(separatedBy: "\"clock_synchronised\" : false").count == 2, "\(json)")
        #expect(json.components(separatedBy: "\"clock_synchronised\"").count == 3, "unknown left out: \(json)")
    }

    @Test("a history with every date synchronised looks as before: no mark, no extra column")
    func synchronisedDatesAreUnmarked() throws {
        let dir = try TemporaryDirectory()
        let store = try Fixture.store(dir.file("h.sqlite"), clock: HandClock(Fixture.date(2026, 1, 6, 9, 0)))
        store.clockSynchronised = { true }
        store.record(Fixture.session(start: 1000))
        let rows = try store.workouts()
        #expect(!HistoryOutput.table(rows, timeZone: Fixture.berlin).contains("?"))
        #expect(!HistoryOutput.csv(rows).contains("clock_synchronised"))
    }
}
