#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GRDB
import GymTimerCore
import GymTimerDrivers

/// The station's persistent history: workouts, totals, streaks and achievements in one SQLite file.
///
/// The timer calls `record(_:)` from its event loop; it never throws and blocks at most about
/// the busy timeout. The core's records carry monotonic moments only, so the store stamps each
/// with the wall-clock time (`now`) and local day (`timeZone`) at which it receives it. A record
/// that cannot be written (database locked, read-only, disk full) stays in memory, in order, and
/// is written with the next record or on `retryPending()`; the fault is logged once through
/// `FaultLog` as `history`, and the recovery once. Inserts are idempotent on `WorkoutRecord.id`,
/// so a record replayed after a crash is stored once.
public final class HistoryStore: WorkoutHistory {
    /// Where the kiosk keeps its history unless the config says otherwise.
    public static let defaultPath = "/var/lib/gymtimer/history.sqlite"
    /// The name faults are logged under.
    public static let faultName = "history"

    public let path: String
    /// Records received but not yet written, oldest first.
    public private(set) var pending: [StoredWorkout] = []

    let database: DatabaseQueue
    private let faults: FaultLog
    private let timeZone: TimeZone
    private let now: () -> Date

    /// Opens (creating it and its directory if needed) and migrates the history at `path`.
    ///
    /// Throws a one-line `HistoryError` when the path is unusable, for the CLI to print at start-up.
    public convenience init(
        path: String, faults: FaultLog, timeZone: TimeZone = .current,
        busyTimeout: Duration = .milliseconds(100), now: @escaping () -> Date = Date.init
    ) throws(HistoryError) {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty && !FileManager.default.fileExists(atPath: directory),
           let reason = Self.makeDirectories(directory) {
            throw .cannotCreateDirectory(path: path, reason: reason)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.seconds(busyTimeout))
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw .cannotOpen(path: path, reason: HistoryError.reason(error))
        }
        do {
            let migrator = HistorySchema.migrator
            if try database.read({ try migrator.hasBeenSuperseded($0) }) {
                throw HistoryError.notAHistory(path: path, reason: "written by a newer GymTimer")
            }
            try migrator.migrate(database)
        } catch let error as HistoryError {
            throw error
        } catch {
            throw .cannotOpen(path: path, reason: HistoryError.reason(error))
        }
        self.init(path: path, database: database, faults: faults, timeZone: timeZone, now: now)
    }

    /// Opens an existing history read-only (the CLI's `history` and `stats`): never creates,
    /// migrates or writes the file; a `record` on it stays pending.
    public static func reading(
        path: String, faults: FaultLog = FaultLog(sink: { _ in }), timeZone: TimeZone = .current,
        now: @escaping () -> Date = Date.init
    ) throws(HistoryError) -> HistoryStore {
        if access(path, R_OK) != 0 {
            // On a kiosk the history belongs to the service's user, in a directory others cannot enter.
            guard errno == EACCES else { throw .missing(path: path) }
            throw .cannotOpen(
                path: path,
                reason: "permission denied: it belongs to the gymtimer service; use sudo, or join its group (sudo usermod -a -G gymtimer $USER, then log in again)")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(1)
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw .cannotOpen(path: path, reason: HistoryError.reason(error))
        }
        let migrator = HistorySchema.migrator
        let complete: Bool
        do {
            complete = try database.read { db in
                // A file the kiosk has not migrated yet reads too (a missing column reads as NULL).
                try migrator.appliedIdentifiers(db).contains("v1") && !migrator.hasBeenSuperseded(db)
            }
        } catch {
            throw .notAHistory(path: path, reason: HistoryError.reason(error))
        }
        guard complete else { throw .notAHistory(path: path, reason: "unknown schema version") }
        return HistoryStore(path: path, database: database, faults: faults, timeZone: timeZone, now: now)
    }

    private init(path: String, database: DatabaseQueue, faults: FaultLog, timeZone: TimeZone, now: @escaping () -> Date) {
        self.path = path
        self.database = database
        self.faults = faults
        self.timeZone = timeZone
        self.now = now
    }

    // MARK: Writing

    /// Stamps `workout` with the wall-clock time and stores it after any pending ones; on
    /// failure keeps it in memory. Never throws.
    public func record(_ workout: WorkoutRecord) {
        pending.append(StoredWorkout(workout, completedAt: now(), timeZone: timeZone))
        flush()
    }

    /// Writes the pending records, if any; true when none is left in memory.
    @discardableResult
    public func retryPending() -> Bool {
        flush()
    }

    @discardableResult
    private func flush() -> Bool {
        guard !pending.isEmpty else { return true }
        let batch = pending
        do {
            try database.write { db in
                for workout in batch { try Self.insert(workout, db) }
            }
            pending.removeFirst(batch.count)
            faults.succeeded(Self.faultName)
            return true
        } catch {
            faults.failed(Self.faultName, HistoryError.cannotSave(reason: HistoryError.reason(error), pending: pending.count))
            return false
        }
    }

    /// Inserts `workout` unless its id is already stored, then unlocks what it earned.
    private static func insert(_ workout: StoredWorkout, _ db: Database) throws {
        let exercises = String(decoding: try JSONEncoder().encode(workout.exercises), as: UTF8.self)
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO workouts
                    (id, kind, sets, duration_ms, calories, exercises, preset, completed_at, local_day, score)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                workout.id, workout.kind.rawValue, workout.sets, workout.durationMilliseconds, workout.calories,
                exercises, workout.preset, workout.completedAt, workout.localDay.description, workout.score,
            ])
        guard db.changesCount > 0 else { return }
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workouts") ?? 0
        let days = try localDays(db)
        let streak = DailyStreak(days: days, today: workout.localDay)
        for achievement in Achievement.earned(workouts: count, longestStreak: streak.longest) {
            try db.execute(
                sql: "INSERT OR IGNORE INTO achievements (name, unlocked_at) VALUES (?, ?)",
                arguments: [achievement.rawValue, workout.completedAt])
        }
    }

    // MARK: Reading

    /// The stored workouts completed at or after `since` (all when nil), oldest first.
    /// Pending records are not included until they are written.
    public func workouts(since: Date? = nil) throws(HistoryError) -> [StoredWorkout] {
        do {
            return try database.read { db in
                let rows: [Row]
                if let since {
                    rows = try Row.fetchAll(
                        db, sql: "SELECT * FROM workouts WHERE completed_at >= ? ORDER BY completed_at, id",
                        arguments: [since])
                } else {
                    rows = try Row.fetchAll(db, sql: "SELECT * FROM workouts ORDER BY completed_at, id")
                }
                return try rows.map(Self.workout)
            }
        } catch {
            throw .cannotRead(reason: HistoryError.reason(error))
        }
    }

    /// Totals, points, streaks (as of `now` in the kiosk's time zone) and achievements.
    public func stats() throws(HistoryError) -> StationStats {
        let today = LocalDay(now(), in: timeZone)
        do {
            return try database.read { db in
                let totals = try Row.fetchOne(
                    db, sql: "SELECT COUNT(*), COALESCE(SUM(duration_ms), 0), COALESCE(SUM(calories), 0) FROM workouts")
                let streak = DailyStreak(days: try Self.localDays(db), today: today)
                let achievements = try Row.fetchAll(
                    db, sql: "SELECT name, unlocked_at FROM achievements ORDER BY unlocked_at, name"
                ).compactMap { row -> UnlockedAchievement? in
                    // A name from a newer version is skipped, not an error.
                    let name: String = row[0]
                    let date: Date? = row[1]
                    guard let achievement = Achievement(rawValue: name), let date else { return nil }
                    return UnlockedAchievement(achievement, unlockedAt: date)
                }
                return StationStats(
                    workouts: totals?[0] ?? 0, totalDurationMilliseconds: totals?[1] ?? 0, calories: totals?[2] ?? 0,
                    currentStreak: streak.current, longestStreak: streak.longest, achievements: achievements)
            }
        } catch {
            throw .cannotRead(reason: HistoryError.reason(error))
        }
    }

    private static func localDays(_ db: Database) throws -> [LocalDay] {
        try String.fetchAll(db, sql: "SELECT DISTINCT local_day FROM workouts ORDER BY local_day").compactMap(LocalDay.init)
    }

    private static func workout(_ row: Row) throws -> StoredWorkout {
        let kindText: String = row["kind"]
        let dayText: String = row["local_day"]
        guard let kind = WorkoutRecord.Kind(rawValue: kindText), let day = LocalDay(dayText) else {
            throw HistoryError.cannotRead(reason: "workout \(row["id"] as String? ?? "?") has kind \(kindText), day \(dayText)")
        }
        let exercisesText: String = row["exercises"]
        let exercises = try JSONDecoder().decode([String].self, from: Data(exercisesText.utf8))
        return StoredWorkout(
            id: row["id"], kind: kind, sets: row["sets"], durationMilliseconds: row["duration_ms"],
            calories: row["calories"], exercises: exercises, preset: row["preset"],
            completedAt: row["completed_at"], localDay: day, score: row["score"])
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.nanoseconds) / 1_000_000_000
    }

    /// Creates `directory` and its parents (like `mkdir -p`); nil on success, else why not.
    /// POSIX directly, since Foundation reports only "error 512" on Linux.
    private static func makeDirectories(_ directory: String) -> String? {
        var current = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                return "\(current): \(String(cString: strerror(errno)))"
            }
        }
        return nil
    }
}
