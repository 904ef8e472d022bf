import Foundation
import GRDB
import GymTimerCore
import GymTimerFleet
import GymTimerFleetLink
import GymTimerHistory

/// The station's durable outbox (fleet.md): every workout record to publish waits here, in a
/// SQLite file beside the history, until the gym's collector says its database holds it (or
/// will never store it): its `FleetRecordAck` on `P/ack`, not the broker's PUBACK, which says
/// only that the broker has it for now. A broker down for a week or killed while the
/// collector is away, a collector that subscribes for the first time, a restart, SIGKILL or a
/// power cut in between loses none; a record is sent again until acknowledged (its `id` lets
/// the collector store it once). It also keeps a start scheduled with `at`, so a station restarted before the
/// class starts still starts on time.
public final class FleetOutbox {
    /// One record waiting: its stable id and the JSON payload to publish.
    public struct Entry: Hashable, Sendable {
        public var id: String
        public var payload: String
    }

    /// `outbox.sqlite` in the directory of the history at `historyPath`.
    public static func path(besideHistory historyPath: String) -> String {
        let directory = (historyPath as NSString).deletingLastPathComponent
        return ((directory.isEmpty ? "." : directory) as NSString).appendingPathComponent("outbox.sqlite")
    }

    public let path: String
    private let database: DatabaseQueue

    /// The mode a new outbox is made with (at most): the station's alone, its records name cards.
    public static let fileMode: mode_t = 0o600

    /// Opens (creating it, `fileMode`) the outbox at `path`; an outbox other local users may
    /// open is closed to them, told to `log`.
    public init(path: String, log: (String) -> Void = { _ in }) throws(FleetLinkError) {
        self.path = path
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(1)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in
                // seq keeps the order records were made in; id is the record's, unique.
                try db.execute(sql: """
                    CREATE TABLE outbox (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        id TEXT NOT NULL UNIQUE,
                        payload TEXT NOT NULL
                    )
                    """)
            }
            migrator.registerMigration("v2") { db in
                // At most one row: the Unix time of the start the station is waiting for.
                try db.execute(sql: "CREATE TABLE scheduled_start (slot INTEGER PRIMARY KEY CHECK (slot = 1), at REAL NOT NULL)")
            }
            migrator.registerMigration("v3") { db in
                // A class program's lead-in (its run begins that long before `at`) and the id its
                // `started` answers: a station restarted before the instant starts as it was asked.
                try db.execute(sql: "ALTER TABLE scheduled_start ADD COLUMN lead_in REAL NOT NULL DEFAULT 0")
                try db.execute(sql: "ALTER TABLE scheduled_start ADD COLUMN request_id TEXT")
            }
            // Another process may be creating the same file at this instant (`openMigrated`).
            database = try migrator.openMigrated(path: path, configuration: configuration, mode: Self.fileMode, note: log)
        } catch {
            throw .outbox(path: path, detail: "\(error)")
        }
    }

    /// Keeps a record until `remove(id:)`; one already waiting with the same id is kept as it was.
    public func add(id: String, payload: String) throws(FleetLinkError) {
        do {
            try database.write { db in
                try db.execute(sql: "INSERT OR IGNORE INTO outbox (id, payload) VALUES (?, ?)", arguments: [id, payload])
            }
        } catch {
            throw .outbox(path: path, detail: "\(error)")
        }
    }

    /// The records still waiting, oldest first (at most `limit` of them).
    public func pending(limit: Int = Int.max) throws(FleetLinkError) -> [Entry] {
        do {
            return try database.read { db in
                try Row.fetchAll(db, sql: "SELECT id, payload FROM outbox ORDER BY seq LIMIT ?", arguments: [Int64(clamping: limit)])
                    .map { Entry(id: $0[0], payload: $0[1]) }
            }
        } catch {
            throw .outbox(path: path, detail: "\(error)")
        }
    }

    /// How many records wait.
    public func count() throws(FleetLinkError) -> Int {
        do {
            return try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0 }
        } catch {
            throw .outbox(path: path, detail: "\(error)")
        }
    }

    /// How many records wait in the outbox at `path`, read without creating, migrating or
    /// writing it: a look from outside the station (a test, a diagnosis) while the station may
    /// be creating it. A second process opening it with `init` then could make the station's
    /// first migration fail, and the station run without its outbox.
    public static func count(readingOnly path: String) throws(FleetLinkError) -> Int {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(1)
            let database = try DatabaseQueue(path: path, configuration: configuration)
            return try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0 }
        } catch {
            throw .outbox(path: path, detail: "\(error)")
        }
    }

    /// The gym's database holds the record (or will never store it): forget it.
    public func remove(id: String) throws(FleetLinkError) {
        try remove(ids: [id])
    }

    /// Forgets the records with these ids (ids not waiting are skipped), in one transaction.
    public func remove(ids: [String]) throws(FleetLinkError) {
        guard !ids.isEmpty else { return }
        do {
            try database.write { db in
                for id in ids { try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [id]) }
            }
        } catch {
            throw .outbox(path: path, detail: "\(error)")
        }
    }

    /// Every waiting record whose athlete is still a card UID (an outbox from before
    /// pseudonyms) rewritten with the card's pseudonym under `key`, so none leaves the station
    /// with its UID; returns how many. Run again, it finds none.
    @discardableResult
    public func carryCards(with key: CardKey) throws(FleetLinkError) -> Int {
        do {
            return try database.write { db in
                var carried = 0
                for row in try Row.fetchAll(db, sql: "SELECT seq, payload FROM outbox") {
                    let payload: String = row["payload"]
                    guard case .object(let fields)? = JSONValue.parse(Array(payload.utf8)), let text = fields["athlete"]?.string,
                          let card = CardID(hex: text), !card.isPseudonym else { continue }
                    let rewritten = payload.replacingOccurrences(
                        of: "\"athlete\":\"\(text)\"", with: "\"athlete\":\"\(key.carried(card).hex)\"")
                    guard rewritten != payload else { continue }
                    try db.execute(sql: "UPDATE outbox SET payload = ? WHERE seq = ?", arguments: [rewritten, row["seq"] as Int64])
                    carried += 1
                }
                return carried
            }
        } catch {
            throw .outbox(path: path, detail: "\(error)")
        }
    }

    /// The gym forgot `card`'s athlete: every waiting record of theirs is deleted (not sent as a
    /// guest's: the records are the member's), then the file is rewritten (`secure_delete`,
    /// `VACUUM`) so that no page keeps the UID. Returns how many were deleted.
    @discardableResult
    public func forget(card: CardID) throws(FleetLinkError) -> Int {
        do {
            return try database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA secure_delete = ON")
                var deleted = 0
                try db.inTransaction {
                    for row in try Row.fetchAll(db, sql: "SELECT seq, payload FROM outbox") {
                        guard Self.record(row[1], isOf: card) else { continue }
                        try db.execute(sql: "DELETE FROM outbox WHERE seq = ?", arguments: [row[0] as Int64])
                        deleted += 1
                    }
                    return .commit
                }
                try db.execute(sql: "VACUUM")
                return deleted
            }
        } catch {
            throw .outbox(path: path, detail: "\(error)")
        }
    }

    /// Whether the record `payload` is `card`'s (its `athlete`).
    static func record(_ payload: String, isOf card: CardID) -> Bool {
        guard case .object(let fields)? = JSONValue.parse(Array(payload.utf8)), let athlete = fields["athlete"]?.string else {
            return false
        }
        return CardID(hex: athlete) == card
    }

    /// A start the station waits for: its instant (Unix time), how long before it a class
    /// program's run begins (seconds; 0 for a plain start), and the id it answers.
    public struct ScheduledStart: Hashable, Sendable {
        public var at: Double
        public var leadIn: Double
        public var id: String?

        public init(at: Double, leadIn: Double = 0, id: String? = nil) {
            self.at = at
            self.leadIn = leadIn
            self.id = id
        }
    }

    /// The start the station waits for, if any.
    public func scheduledStart() throws(FleetLinkError) -> ScheduledStart? {
        do {
            return try database.read { db in
                try Row.fetchOne(db, sql: "SELECT at, lead_in, request_id FROM scheduled_start WHERE slot = 1").map {
                    ScheduledStart(at: $0["at"], leadIn: $0["lead_in"], id: $0["request_id"])
                }
            }
        } catch {
            throw .outbox(path: path, detail: "\(error)")
        }
    }

    /// Keeps (or, with nil, forgets) the start the station waits for.
    public func setScheduledStart(_ start: ScheduledStart?) throws(FleetLinkError) {
        do {
            try database.write { db in
                if let start {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO scheduled_start (slot, at, lead_in, request_id) VALUES (1, ?, ?, ?)",
                        arguments: [start.at, start.leadIn, start.id])
                } else {
                    try db.execute(sql: "DELETE FROM scheduled_start")
                }
            }
        } catch {
            throw .outbox(path: path, detail: "\(error)")
        }
    }
}
