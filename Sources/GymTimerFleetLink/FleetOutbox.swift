import Foundation
import GRDB

/// The station's durable outbox (fleet.md): every workout record to publish waits here, in a
/// SQLite file beside the history, until the broker has acknowledged it (QoS 1 PUBACK). A
/// broker down for a week, a restart, SIGKILL or a power cut in between loses none; a record
/// sent but not acknowledged before a crash is sent again (its `id` lets the collector store
/// it once). It also keeps a start scheduled with `at`, so a station restarted before the
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

    /// Opens (creating it) the outbox at `path`.
    public init(path: String) throws(FleetLinkError) {
        self.path = path
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(1)
            database = try DatabaseQueue(path: path, configuration: configuration)
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
            try migrator.migrate(database)
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

    /// The records still waiting, oldest first.
    public func pending() throws(FleetLinkError) -> [Entry] {
        do {
            return try database.read { db in
                try Row.fetchAll(db, sql: "SELECT id, payload FROM outbox ORDER BY seq").map { Entry(id: $0[0], payload: $0[1]) }
            }
        } catch {
            throw .outbox(path: path, detail: "\(error)")
        }
    }

    /// The broker has the record: forget it.
    public func remove(id: String) throws(FleetLinkError) {
        do {
            try database.write { db in try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [id]) }
        } catch {
            throw .outbox(path: path, detail: "\(error)")
        }
    }

    /// The start the station waits for (a Unix time), if any.
    public func scheduledStart() throws(FleetLinkError) -> Double? {
        do {
            return try database.read { db in try Double.fetchOne(db, sql: "SELECT at FROM scheduled_start WHERE slot = 1") }
        } catch {
            throw .outbox(path: path, detail: "\(error)")
        }
    }

    /// Keeps (or, with nil, forgets) the start the station waits for.
    public func setScheduledStart(_ at: Double?) throws(FleetLinkError) {
        do {
            try database.write { db in
                if let at {
                    try db.execute(sql: "INSERT OR REPLACE INTO scheduled_start (slot, at) VALUES (1, ?)", arguments: [at])
                } else {
                    try db.execute(sql: "DELETE FROM scheduled_start")
                }
            }
        } catch {
            throw .outbox(path: path, detail: "\(error)")
        }
    }
}
