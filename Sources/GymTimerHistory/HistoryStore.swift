#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GRDB
import GymTimerCore
import GymTimerHAL
import SystemPackage
import GymTimerSystem

/// The station's persistent history: workouts, totals, streaks and achievements in one SQLite file.
///
/// The timer calls `record(_:)` from its event loop; it never throws and blocks at most about
/// the busy timeout. The core's records carry monotonic moments only, so the store stamps each
/// with the wall-clock time (`now`) and local day (`timeZone`) at which it receives it. A record
/// that cannot be written (database locked, read-only, disk full, not open) stays in `pending`,
/// in order, and is written with the next record or on `retryPending()`; the kiosk keeps
/// `pending` in its journal so it survives a restart (`restore(_:)` hands it back). The fault is
/// logged once through `FaultLog` as `history`, and the recovery once. Inserts are idempotent on
/// `WorkoutRecord.id`, so a record replayed after a crash is stored once.
public final class HistoryStore: WorkoutHistory {
    /// Where the kiosk keeps its history unless the config says otherwise.
    public static let defaultPath = "/var/lib/gymtimer/history.sqlite"
    /// The name faults are logged under.
    public static let faultName = "history"

    public let path: String
    /// Records received but not yet written, oldest first.
    public internal(set) var pending: [StoredWorkout] = []

    /// The open database; nil while it cannot be opened (records wait in `pending`).
    private var connection: DatabaseQueue?
    private let busyTimeout: Duration
    /// Whether each write is synced to the disk (see `opening`).
    let durable: Bool
    private let faults: FaultLog
    private let timeZone: TimeZone
    /// The wall clock records are stamped with and today is read on.
    private let wall: WallClock
    /// The gym's card key, once the station has it: the UIDs this file stored before
    /// pseudonyms are carried to them then (`CardPseudonymMigration`), and so is every waiting
    /// record's and every later one's card that is still a UID (a journal from before).
    public var cardKey: CardKey? {
        didSet { carryCards() }
    }

    /// Opens (creating it and its directory if needed) and migrates the history at `path`.
    ///
    /// Throws a one-line `HistoryError` when the path is unusable.
    public convenience init(
        path: String, faults: FaultLog, timeZone: TimeZone = .current,
        busyTimeout: Duration = .milliseconds(100), wall: WallClock = .system
    ) throws(HistoryError) {
        let database: DatabaseQueue
        do {
            database = try Self.openForWriting(path: path, busyTimeout: busyTimeout, note: faults.note)
        } catch let error as HistoryError {
            throw error
        } catch {
            throw .cannotOpen(path: path, reason: HistoryError.reason(error))
        }
        self.init(path: path, database: database, faults: faults, timeZone: timeZone, wall: wall, busyTimeout: busyTimeout)
    }

    /// The kiosk's history, which never stops the kiosk from starting: a corrupt file is moved
    /// aside (`PATH.corrupt-DATE`, logged once) and a new one created; a locked or uncreatable
    /// one is opened later, on the next write or `retryPending()`, and records wait until then.
    /// `durable` false skips SQLite's syncs (`PRAGMA synchronous = OFF`): only for a file no
    /// crash needs to survive, the scripted simulator's own temporary one, where a sync per
    /// record cost more than the rest of a simulated day.
    public static func opening(
        path: String, faults: FaultLog, timeZone: TimeZone = .current,
        busyTimeout: Duration = .milliseconds(100), wall: WallClock = .system, durable: Bool = true
    ) -> HistoryStore {
        let store = HistoryStore(
            path: path, database: nil, faults: faults, timeZone: timeZone, wall: wall, busyTimeout: busyTimeout, durable: durable)
        _ = store.connect()
        return store
    }

    /// The mode a new history is made with (at most: the umask may take more away): its
    /// owner's group may read it (`history`, `stats`: join the service's group), no one else.
    public static let fileMode: mode_t = 0o640

    /// Opens and migrates the file at `path`, creating it (`fileMode`) and its directory if
    /// needed; a history other local users may open is closed to them, told to `note`.
    static func openForWriting(
        path: String, busyTimeout: Duration, durable: Bool = true, note: (String) -> Void = { _ in }
    ) throws -> DatabaseQueue {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty && !FileManager.default.fileExists(atPath: directory),
           let reason = Self.makeDirectories(directory) {
            throw HistoryError.cannotCreateDirectory(path: path, reason: reason)
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw HistoryError.cannotOpen(path: path, reason: "it is a directory")
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.seconds(busyTimeout))
        if !durable { configuration.prepareDatabase { try $0.execute(sql: "PRAGMA synchronous = OFF") } }
        return try migrated(path: path, configuration: configuration, note: note)
    }

    /// Opens the file and brings its schema up to date, while another process (a second
    /// collector) may be creating or migrating the same new file (`openMigrated`).
    private static func migrated(path: String, configuration: Configuration, note: (String) -> Void) throws -> DatabaseQueue {
        let migrator = HistorySchema.migrator
        return try migrator.openMigrated(path: path, configuration: configuration, mode: fileMode, note: note) { db in
            if try migrator.hasBeenSuperseded(db) {
                throw HistoryError.notAHistory(path: path, reason: "written by a newer GymTimer")
            }
        }
    }

    /// Opens the database if it is not open; a corrupt one is moved aside and replaced.
    /// True when it is open.
    private func connect() -> Bool {
        if connection != nil { return true }
        do {
            connection = try Self.openForWriting(path: path, busyTimeout: busyTimeout, durable: durable, note: faults.note)
        } catch where Self.isCorrupt(error) {
            setAside(error)
            do {
                connection = try Self.openForWriting(path: path, busyTimeout: busyTimeout, durable: durable, note: faults.note)
            } catch {
                faults.failed(Self.faultName, HistoryError.cannotOpen(path: path, reason: HistoryError.reason(error)))
            }
        } catch {
            let failure = error as? HistoryError ?? .cannotOpen(path: path, reason: HistoryError.reason(error))
            faults.failed(Self.faultName, failure)
        }
        return connection != nil
    }

    /// Whether `error` says the file is damaged (rather than busy, read-only or full).
    private static func isCorrupt(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// Moves the damaged database (and its journal files) aside and says so, loudly, once.
    private func setAside(_ error: any Error) {
        connection = nil
        let aside = SafeFiles.asideName(for: path)
        rename(path, aside)
        for suffix in ["-journal", "-wal", "-shm"] { rename(path + suffix, aside + suffix) }
        SafeFiles.syncDirectory(of: path)
        faults.note(
            "HISTORY DATABASE CORRUPT: \(path) (\(HistoryError.reason(error))) was moved to \(aside); "
                + "a new, empty history is started (copy the old file off the card to try to recover it)")
    }

    /// Opens an existing history read-only (the CLI's `history` and `stats`): never creates,
    /// migrates or writes the file; a `record` on it stays pending.
    public static func reading(
        path: String, faults: FaultLog = FaultLog(sink: { _ in }), timeZone: TimeZone = .current,
        wall: WallClock = .system
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
        return HistoryStore(path: path, database: database, faults: faults, timeZone: timeZone, wall: wall)
    }

    private init(
        path: String, database: DatabaseQueue?, faults: FaultLog, timeZone: TimeZone, wall: WallClock,
        busyTimeout: Duration = .seconds(1), durable: Bool = true
    ) {
        self.path = path
        self.connection = database
        self.busyTimeout = busyTimeout
        self.durable = durable
        self.faults = faults
        self.timeZone = timeZone
        self.wall = wall
    }

    // MARK: Writing

    /// Whether the wall clock is synchronised now, asked for each record `record` stamps (the
    /// kiosk's reads adjtimex); nil, unknown, unless set.
    public var clockSynchronised: () -> Bool? = { nil }

    /// Stamps `workout` with the wall-clock time and stores it after any pending ones; on
    /// failure keeps it in memory. Never throws.
    public func record(_ workout: WorkoutRecord) {
        pending.append(StoredWorkout(workout, completedAt: wall.date, timeZone: timeZone, clockSynchronised: clockSynchronised()))
        flush()
    }

    /// Writes the pending records, if any; true when none is left in memory.
    @discardableResult
    public func retryPending() -> Bool {
        flush()
    }

    /// Puts back records that were received by an earlier process but not yet written (from
    /// the kiosk's journal), before any received since; ones already pending are skipped.
    public func restore(_ workouts: [StoredWorkout]) {
        let known = Set(pending.map(\.id))
        pending.insert(contentsOf: workouts.filter { !known.contains($0.id) }, at: 0)
        flush()
    }

    /// The open database, for tests and reads.
    var database: DatabaseQueue {
        get throws(HistoryError) {
            guard let connection else { throw .cannotRead(reason: "the database \(path) is not open") }
            return connection
        }
    }

    @discardableResult
    private func flush(afterSettingAside: Bool = false) -> Bool {
        guard !pending.isEmpty else { return true }
        guard connect(), let database = connection else { return false }
        let batch = pending
        do {
            try database.write { db in
                for workout in batch { try Self.insert(carried(workout), db) }
            }
            pending.removeFirst(batch.count)
            faults.succeeded(Self.faultName)
            return true
        } catch where Self.isCorrupt(error) && !afterSettingAside {
            setAside(error)
            return connect() && flush(afterSettingAside: true)
        } catch {
            faults.failed(Self.faultName, HistoryError.cannotSave(reason: HistoryError.reason(error), pending: pending.count))
            return false
        }
    }

    /// The stored UIDs and the waiting records' carried to pseudonyms under `cardKey`; a file
    /// that cannot be written now is carried on the next start (logged).
    private func carryCards() {
        guard let cardKey else { return }
        pending = pending.map { $0.carryingCard(with: cardKey) }
        guard connect(), let database = connection else { return }
        do {
            let carried = try database.write { try CardPseudonymMigration.carry($0, key: cardKey) }
            if carried > 0 { faults.note("history \(path): \(carried) card UID(s) stored before pseudonyms now their pseudonyms") }
        } catch {
            faults.note("history \(path): the card UIDs stored before pseudonyms could not be carried now (\(HistoryError.reason(error))); tried again at the next start")
        }
    }

    /// How many cards the file still stores as UIDs from before pseudonyms (nil: not open).
    public func storedUIDCount() -> Int? {
        guard connect(), let database = connection else { return nil }
        return try? database.read { try CardPseudonymMigration.uidCount($0) }
    }

    /// `workout` with its card carried to a pseudonym when it is still a UID and the key is known.
    private func carried(_ workout: StoredWorkout) -> StoredWorkout {
        cardKey.map { workout.carryingCard(with: $0) } ?? workout
    }

    /// Inserts `workout` unless its id is already stored, then unlocks what it earned; true
    /// when it was new.
    @discardableResult
    private static func insert(_ workout: StoredWorkout, _ db: Database) throws -> Bool {
        let exercises = String(decoding: try JSONEncoder().encode(workout.exercises), as: UTF8.self)
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO workouts
                    (id, kind, sets, duration_ms, calories, exercises, preset, completed_at, local_day, score, station,
                     clock_synchronised, athlete, division)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                workout.id, workout.kind.rawValue, workout.sets, workout.durationMilliseconds, workout.calories,
                exercises, workout.preset, workout.completedAt, workout.localDay.description, workout.score,
                workout.station, workout.clockSynchronised, workout.athlete?.hex,
                workout.kind == .program ? workout.division?.rawValue : nil,
            ])
        guard db.changesCount > 0 else { return false }
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workouts") ?? 0
        let days = try localDays(db)
        let streak = DailyStreak(days: days, today: workout.localDay)
        for achievement in Achievement.earned(workouts: count, longestStreak: streak.longest) {
            try db.execute(
                sql: "INSERT OR IGNORE INTO achievements (name, unlocked_at) VALUES (?, ?)",
                arguments: [achievement.rawValue, workout.completedAt])
        }
        return true
    }

    /// Stores workouts that already carry their time and station (a collector's records), each
    /// once: one whose `id` is stored is skipped. Returns how many were new.
    @discardableResult
    public func store(_ workouts: [StoredWorkout]) throws(HistoryError) -> Int {
        do {
            return try database.write { db in
                var added = 0
                for workout in workouts {
                    added += try Self.insert(carried(workout), db) ? 1 : 0
                }
                return added
            }
        } catch let error as HistoryError {
            throw error
        } catch {
            throw .cannotSave(reason: HistoryError.reason(error), pending: workouts.count)
        }
    }

    /// Amends the division of the program result stored as `recordID` (a collector's id,
    /// `station/program@…`; a kiosk's own, `program@…`): the coach's word after the fact (an
    /// athlete who chose wrong at the wall). nil: not said (counts as Rx). Returns whether such a
    /// program result is stored (a rest or interval workout has no division; nothing changes).
    /// Achievements and streaks do not depend on it; records (`stats`) read it as they are asked for.
    @discardableResult
    public func setDivision(recordID: String, to division: Division?) throws(HistoryError) -> Bool {
        do {
            return try database.write { db in
                try db.execute(
                    sql: "UPDATE workouts SET division = ? WHERE id = ? AND kind = 'program'",
                    arguments: [division?.rawValue, recordID])
                return db.changesCount > 0
            }
        } catch let error as HistoryError {
            throw error
        } catch {
            throw .cannotAmend(reason: HistoryError.reason(error))
        }
    }

    /// Voids the program result stored as `recordID` (the coach's word: a result filed under the
    /// wrong athlete, a forged or mistaken score): its score moves to `voided_score`, so that no
    /// best, leaderboard or athlete's page counts it from now on (each is worked out from the
    /// scores as it is read), while the workout, its time and its day stay. Returns whether a
    /// result that counted was there; voiding one again changes nothing.
    @discardableResult
    public func void(recordID: String) throws(HistoryError) -> Bool {
        do {
            return try database.write { db in
                try db.execute(
                    sql: """
                        UPDATE workouts SET voided_score = score, score = NULL, voided_at = ?
                        WHERE id = ? AND kind = 'program' AND score IS NOT NULL
                        """,
                    arguments: [wall.date, recordID])
                return db.changesCount > 0
            }
        } catch let error as HistoryError {
            throw error
        } catch {
            throw .cannotAmend(reason: HistoryError.reason(error))
        }
    }

    // MARK: Reading

    /// The rows a reader trusts: numbers that are integers in range and a readable time. A row
    /// edited by hand or damaged on the card is left out (and counted), never trusted into
    /// arithmetic or a conversion that could trap.
    static let validRow = """
        typeof(sets) = 'integer' AND sets BETWEEN 0 AND 100000
        AND typeof(duration_ms) = 'integer' AND duration_ms BETWEEN 0 AND 604800000
        AND typeof(calories) = 'integer' AND calories BETWEEN 0 AND 10000000
        AND typeof(completed_at) = 'text' AND julianday(completed_at) IS NOT NULL
        AND typeof(local_day) = 'text' AND typeof(exercises) = 'text' AND json_valid(exercises)
        AND kind IN (\(WorkoutRecord.Kind.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")))
        """

    /// Rows the last `workouts(since:scope:)` left out as malformed.
    public private(set) var skippedRows = 0

    /// The stored workouts of `scope` completed at or after `since` (all when nil), oldest
    /// first; rows that are not valid workouts are left out and counted in `skippedRows`.
    /// Pending records are not included until they are written.
    public func workouts(since: Date? = nil, scope: HistoryScope = .all) throws(HistoryError) -> [StoredWorkout] {
        do {
            let (all, valid) = try database.read { db -> (Int, [StoredWorkout]) in
                var (filter, arguments) = try scope.condition(db)
                if let since {
                    filter += " AND completed_at >= ?"
                    arguments += [since]
                }
                let rows = try Row.fetchAll(
                    db, sql: "SELECT * FROM workouts WHERE 1\(filter) ORDER BY completed_at, id", arguments: arguments)
                let valid = try Set(String.fetchAll(db, sql: "SELECT id FROM workouts WHERE \(Self.validRow)"))
                return (rows.count, rows.compactMap { Self.workout($0, valid: valid) })
            }
            skippedRows = all - valid.count
            return valid
        } catch {
            throw .cannotRead(reason: HistoryError.reason(error))
        }
    }

    /// Only that fleet station's workouts (a collector's database), or all with nil.
    public func workouts(since: Date? = nil, station: String?) throws(HistoryError) -> [StoredWorkout] {
        try workouts(since: since, scope: station.map(HistoryScope.station) ?? .all)
    }

    /// Only that athlete's workouts, on every station.
    public func workouts(since: Date? = nil, athlete: CardID) throws(HistoryError) -> [StoredWorkout] {
        try workouts(since: since, scope: .athlete([athlete]))
    }

    /// Totals, points, streaks (as of `now` in the kiosk's time zone) and achievements of
    /// `scope`: with a station or an athlete, everything of theirs only, their achievements
    /// worked out from their own workouts (the file's `achievements` table is the whole file's).
    public func stats(_ scope: HistoryScope = .all) throws(HistoryError) -> StationStats {
        let today = LocalDay(wall.date, in: timeZone)
        do {
            return try database.read { db in
                let (filter, arguments) = try scope.condition(db)
                let totals = try Row.fetchOne(
                    db, sql: """
                        SELECT COUNT(*), COALESCE(SUM(duration_ms), 0), COALESCE(SUM(calories), 0)
                        FROM workouts WHERE \(Self.validRow)\(filter)
                        """, arguments: arguments)
                let streak = DailyStreak(days: try Self.localDays(db, filter: filter, arguments: arguments), today: today)
                let achievements = scope != .all ? try Self.achievements(db, scope: scope) : try Row.fetchAll(
                    db, sql: "SELECT name, unlocked_at FROM achievements ORDER BY unlocked_at, name"
                ).compactMap { row -> UnlockedAchievement? in
                    // A name from a newer version is skipped, not an error.
                    guard let name = String.fromDatabaseValue(row[0]), let achievement = Achievement(rawValue: name),
                          let date = Date.fromDatabaseValue(row[1]) else { return nil }
                    return UnlockedAchievement(achievement, unlockedAt: date)
                }
                // A file not migrated yet (read-only, an older schema) may lack the later columns.
                let columns = Set(try db.columns(in: "workouts").map(\.name))
                let results = try Row.fetchAll(
                    db, sql: """
                        SELECT preset, score, completed_at, \(columns.contains("station") ? "station" : "NULL"),
                            \(columns.contains("division") ? "division" : "NULL") FROM workouts
                        WHERE \(Self.validRow) AND kind = 'program' AND preset IS NOT NULL AND score IS NOT NULL\(filter)
                        """, arguments: arguments
                ).compactMap { row -> PersonalRecord.Result? in
                    guard let program = String.fromDatabaseValue(row[0]), let score = String.fromDatabaseValue(row[1]),
                          let date = Date.fromDatabaseValue(row[2]) else { return nil }
                    let division = String.fromDatabaseValue(row[4]).flatMap(Division.init(rawValue:)) ?? .rx
                    return PersonalRecord.Result(
                        program: program, division: division, score: score, completedAt: date, station: String.fromDatabaseValue(row[3]))
                }
                return StationStats(
                    workouts: totals.flatMap { Int.fromDatabaseValue($0[0]) } ?? 0,
                    totalDurationMilliseconds: totals.flatMap { Int64.fromDatabaseValue($0[1]) } ?? 0,
                    calories: totals.flatMap { Int.fromDatabaseValue($0[2]) } ?? 0,
                    currentStreak: streak.current, longestStreak: streak.longest, achievements: achievements,
                    records: PersonalRecord.bests(of: results))
            }
        } catch {
            throw .cannotRead(reason: HistoryError.reason(error))
        }
    }

    /// The stats of that fleet station only, or the whole file's with nil.
    public func stats(station: String?) throws(HistoryError) -> StationStats {
        try stats(station.map(HistoryScope.station) ?? .all)
    }

    private static func localDays(_ db: Database, filter: String = "", arguments: StatementArguments = []) throws -> [LocalDay] {
        try String.fetchAll(
            db, sql: "SELECT DISTINCT local_day FROM workouts WHERE \(validRow)\(filter) ORDER BY local_day",
            arguments: arguments
        ).compactMap(LocalDay.init)
    }

    /// The workout in `row`, nil when the row is not one (`valid`: the ids of rows in range).
    private static func workout(_ row: Row, valid: Set<String>) -> StoredWorkout? {
        guard let id = String.fromDatabaseValue(row["id"]), valid.contains(id),
              let kind = String.fromDatabaseValue(row["kind"]).flatMap(WorkoutRecord.Kind.init(rawValue:)),
              let day = String.fromDatabaseValue(row["local_day"]).flatMap(LocalDay.init),
              let exercisesText = String.fromDatabaseValue(row["exercises"]),
              let exercises = try? JSONDecoder().decode([String].self, from: Data(exercisesText.utf8)),
              let sets = Int.fromDatabaseValue(row["sets"]), let duration = Int64.fromDatabaseValue(row["duration_ms"]),
              let calories = Int.fromDatabaseValue(row["calories"]), let completedAt = Date.fromDatabaseValue(row["completed_at"])
        else { return nil }
        let preset = row["preset"] as DatabaseValue
        return StoredWorkout(
            id: id, kind: kind, sets: sets, durationMilliseconds: duration, calories: calories, exercises: exercises,
            preset: preset.isNull ? nil : String.fromDatabaseValue(preset), completedAt: completedAt, localDay: day,
            // A database the kiosk has not migrated yet (read-only, schema v1) has no score column.
            score: row.hasColumn("score") ? String.fromDatabaseValue(row["score"] as DatabaseValue) : nil,
            station: row.hasColumn("station") ? String.fromDatabaseValue(row["station"] as DatabaseValue) : nil,
            clockSynchronised: row.hasColumn("clock_synchronised") ? Bool.fromDatabaseValue(row["clock_synchronised"] as DatabaseValue) : nil,
            // Not a card UID (edited by hand): read as a guest's, as it is in no athlete's history.
            athlete: row.hasColumn("athlete") ? String.fromDatabaseValue(row["athlete"] as DatabaseValue).flatMap(CardID.init(hex:)) : nil,
            // Not a division (edited by hand), or on another kind: not said.
            division: kind == .program && row.hasColumn("division")
                ? String.fromDatabaseValue(row["division"] as DatabaseValue).flatMap(Division.init(rawValue:)) : nil,
            voidedScore: row.hasColumn("voided_score") ? String.fromDatabaseValue(row["voided_score"] as DatabaseValue) : nil)
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
                return "\(current): \(Errno.last.text)"
            }
        }
        return nil
    }
}
