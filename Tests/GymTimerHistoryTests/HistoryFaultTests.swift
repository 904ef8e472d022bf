import Foundation
import GRDB
import GymTimerCore
import Testing
@testable import GymTimerHistory

/// Storage that fails: record() keeps the workouts in memory, logs once, and writes them later.
/// Each failure is made in a way that also works as root (where chmod stops no write).
@Suite("HistoryStore faults")
struct HistoryFaultTests {
    @Test("a read-only database: record keeps workouts in memory and logs the fault once")
    func readOnlyDatabase() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("h.sqlite")
        _ = try Fixture.store(path, clock: HandClock(Date(timeIntervalSince1970: 0)))
        let log = LogLines()
        let store = try HistoryStore.reading(path: path, faults: log.faults, timeZone: Fixture.berlin)
        let history: any WorkoutHistory = store
        history.record(Fixture.session(start: 0))
        history.record(Fixture.session(start: 1000))
        #expect(store.pending.map(\.id) == [Fixture.session(start: 0).id, Fixture.session(start: 1000).id])
        #expect(store.retryPending() == false)
        #expect(try store.workouts().isEmpty)
        #expect(log.lines.count == 1)
        #expect(log.lines.first?.contains("readonly") == true)
    }

    @Test("a locked database: one fault line, workouts kept in order, written when the lock goes, one recovery line")
    func lockedDatabase() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("h.sqlite")
        let log = LogLines()
        let clock = HandClock(Fixture.date(2026, 4, 1, 9, 0))
        let store = try Fixture.store(path, clock: clock, log: log)

        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let locker = try DatabaseQueue(path: path, configuration: configuration)
        try locker.writeWithoutTransaction { try $0.execute(sql: "BEGIN EXCLUSIVE TRANSACTION") }

        store.record(Fixture.session(start: 0))
        clock.now = Fixture.date(2026, 4, 1, 9, 10)
        store.record(Fixture.session(start: 1000))
        #expect(store.pending.count == 2)
        #expect(log.lines.count == 1)
        #expect(log.lines.first?.hasPrefix("fault: history: cannot save workouts (1 waiting") == true)
        #expect(log.lines.first?.contains("locked") == true)

        try locker.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
        clock.now = Fixture.date(2026, 4, 1, 9, 20)
        store.record(Fixture.session(start: 2000))
        #expect(store.pending.isEmpty)
        #expect(log.lines.count == 2)
        #expect(log.lines.last == "recovered: history works again")
        let stored = try store.workouts()
        #expect(stored.map(\.id) == [0, 1000, 2000].map { Fixture.session(start: $0).id })
        // Each keeps the wall-clock time it arrived at, not the time it was written.
        #expect(stored.map(\.completedAt) == [
            Fixture.date(2026, 4, 1, 9, 0), Fixture.date(2026, 4, 1, 9, 10), Fixture.date(2026, 4, 1, 9, 20),
        ])
        #expect(try store.stats().points == 150)
    }

    @Test("a full disk (SQLite max_page_count): kept in memory, written by retryPending once there is room")
    func fullDisk() throws {
        let dir = try TemporaryDirectory()
        let log = LogLines()
        let store = try Fixture.store(dir.file("h.sqlite"), clock: HandClock(Fixture.date(2026, 4, 1, 9, 0)), log: log)
        try store.database.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 1
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
        // Long enough to need new pages.
        let big = Fixture.session(start: 0, exercises: Array(repeating: String(repeating: "x", count: 200), count: 100))
        store.record(big)
        #expect(store.pending.map(\.id) == [big.id])
        #expect(log.lines.count == 1)
        #expect(log.lines.first?.contains("full") == true)
        #expect(store.retryPending() == false)
        #expect(log.lines.count == 1)

        try store.database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA max_page_count = 1000000") }
        #expect(store.retryPending())
        #expect(store.pending.isEmpty)
        #expect(try store.workouts().map(\.exercises.count) == [100])
        #expect(log.lines == [log.lines[0], "recovered: history works again"])
    }

    @Test("unusable paths at start-up are one clear error")
    func unusablePaths() throws {
        let dir = try TemporaryDirectory()
        let file = dir.file("plain-file")
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: file))
        let log = LogLines()

        #expect(throws: HistoryError.self) {
            try HistoryStore(path: file + "/sub/h.sqlite", faults: log.faults)
        }
        do {
            _ = try HistoryStore(path: file + "/sub/h.sqlite", faults: log.faults)
        } catch {
            guard case .cannotCreateDirectory = error else { Issue.record("unexpected \(error)"); return }
            #expect("\(error)".hasSuffix("plain-file/sub: Not a directory"))
            #expect(!"\(error)".contains("\n"))
        }
        do {
            _ = try HistoryStore(path: file, faults: log.faults)
            Issue.record("a text file opened as a history")
        } catch {
            guard case .cannotOpen = error else { Issue.record("unexpected \(error)"); return }
        }
        #expect(throws: HistoryError.missing(path: dir.file("none.sqlite"))) {
            try HistoryStore.reading(path: dir.file("none.sqlite"))
        }
        let other = try DatabaseQueue(path: dir.file("other.sqlite"))
        try other.write { try $0.execute(sql: "CREATE TABLE t (x)") }
        try other.close()
        do {
            _ = try HistoryStore.reading(path: dir.file("other.sqlite"))
            Issue.record("another database opened as a history")
        } catch {
            guard case .notAHistory = error else { Issue.record("unexpected \(error)"); return }
        }
        #expect(log.lines.isEmpty)
    }

    @Test("a database written by a newer version is refused, not migrated")
    func newerSchemaIsRefused() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("h.sqlite")
        _ = try Fixture.store(path, clock: HandClock(Date(timeIntervalSince1970: 0)))
        let raw = try DatabaseQueue(path: path)
        try raw.write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99')") }
        try raw.close()
        do {
            _ = try HistoryStore(path: path, faults: LogLines().faults)
            Issue.record("a newer file opened")
        } catch {
            guard case .notAHistory = error else { Issue.record("unexpected \(error)"); return }
        }
    }
}
