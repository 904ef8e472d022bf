import Foundation
import GRDB
import GymTimerCore
import Testing
@testable import GymTimerHistory

/// A history edited by hand or damaged on the card: rows that are not valid workouts are left
/// out (and counted) by `workouts` and `stats`, never trusted into a conversion that traps.
@Suite struct HistoryMalformedRowTests {
    @Test(arguments: [
        "UPDATE workouts SET completed_at = 'not a date' WHERE id = ?",
        "UPDATE workouts SET duration_ms = 'long' WHERE id = ?",
        "UPDATE workouts SET duration_ms = 1e30 WHERE id = ?",
        "UPDATE workouts SET duration_ms = 9223372036854775807 WHERE id = ?",
        "UPDATE workouts SET sets = -5 WHERE id = ?",
        "UPDATE workouts SET calories = x'00ff' WHERE id = ?",
        "UPDATE workouts SET kind = 'yoga' WHERE id = ?",
        "UPDATE workouts SET exercises = '{' WHERE id = ?",
        "UPDATE workouts SET local_day = NULL WHERE id = ?",
    ])
    func aMalformedRowIsLeftOutNotACrash(edit: String) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("h.sqlite")
        let store = try Fixture.store(path, clock: HandClock(Fixture.date(2026, 4, 1, 9, 0)))
        store.record(Fixture.session(start: 0))
        store.record(Fixture.session(start: 1000))
        // Hand edits: SQLite's columns take any type; local_day NULL needs the NOT NULL lifted.
        let editor = try DatabaseQueue(path: path)
        try editor.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: "UPDATE sqlite_master SET sql = replace(sql, 'local_day TEXT NOT NULL', 'local_day TEXT') WHERE name = 'workouts'")
        }
        try editor.close()
        let reopened = try DatabaseQueue(path: path)
        try reopened.write { try $0.execute(sql: edit, arguments: [Fixture.session(start: 0).id]) }
        try reopened.close()

        let reader = try HistoryStore.reading(path: path, timeZone: Fixture.berlin)
        let workouts = try reader.workouts()
        #expect(workouts.map(\.id) == [Fixture.session(start: 1000).id])
        #expect(reader.skippedRows == 1)
        let stats = try reader.stats()
        #expect(stats.workouts == 1)
        #expect(stats.totalDurationMilliseconds == 360_000)
    }
}
