import Foundation
import GymTimerCollector
import GymTimerCore
import GymTimerHistory
import GymTimerSystem

/// A chain's central store: every gym's records in one PostgreSQL database, each once by its gym
/// and id (`CentralSchema`). Blocking, for the collector's loop: each call waits at most its
/// bounded time-outs, throws `CentralStoreError` when the server is down or hung (the collector
/// then acknowledges nothing and the stations send again), and the next call reconnects, so a
/// PostgreSQL restart loses nothing. Several collectors may share one database.
public final class PostgresRecordStore: CollectorStore {
    let link: PostgresLink
    /// The chain's card key, when the collector was given it: a record an older station sends
    /// with a card's UID is stored under the card's pseudonym.
    public var cardKey: CardKey?

    /// The store at `url`; nothing is connected until the first call (`check` connects now).
    public init(url: PostgresURL, timeouts: PostgresTimeouts = PostgresTimeouts()) {
        link = PostgresLink(url: url, timeouts: timeouts, prepare: CentralSchema.prepare)
    }

    /// The desk of `gym` (`PostgresGymDesk`) over this store's connection, for the collector's loop.
    public func desk(gym: String, timeZone: TimeZone = .current, wall: WallClock = .system) -> PostgresGymDesk {
        PostgresGymDesk(link: link, gym: gym, timeZone: timeZone, wall: wall)
    }

    /// Where the store is (without its password).
    public var database: String { link.url.description }

    /// Connects (creating the schema if missing) unless connected: the start's one-line check.
    public func check() throws(CentralStoreError) {
        try link.run("SELECT 1", "answer")
    }

    /// Rows per INSERT: 15 parameters each, well under PostgreSQL's 65,535 per statement.
    static let rowsPerStatement = 1000

    /// Stores `records` in one transaction, each once by (gym, id); a record of no gym (one
    /// gym's collector) goes under gym ''. Returns how many were new.
    public func store(_ given: [CollectedRecord]) throws -> Int {
        guard !given.isEmpty else { return 0 }
        let records = cardKey.map { key in given.map { CollectedRecord(gym: $0.gym, workout: $0.workout.carryingCard(with: key)) } } ?? given
        do {
            // One statement is a transaction of its own: a batch that fits one is one round trip
            // (a collector's batches are mostly small, so this is what sets its records per second).
            if records.count <= Self.rowsPerStatement {
                return try link.run(try Self.insert(records[...]), "store \(records.count) record(s)").metadata.rows ?? 0
            }
            try link.run("BEGIN", "begin a batch")
            var added = 0
            var start = 0
            while start < records.count {
                let end = min(start + Self.rowsPerStatement, records.count)
                let result = try link.run(try Self.insert(records[start..<end]), "store \(records.count) record(s)")
                added += result.metadata.rows ?? 0
                start = end
            }
            try link.run("COMMIT", "commit \(records.count) record(s)")
            return added
        } catch {
            // A transaction left open (an encoding failure) is dropped with the connection.
            link.disconnect()
            throw error
        }
    }

    /// The columns `insert` writes, in its order.
    private static let columns =
        "gym, id, station, kind, sets, duration_ms, calories, exercises, preset, score, completed_at, local_day, clock_synchronised, athlete, division"

    /// One INSERT of `records`, skipping what the table holds.
    private static func insert(_ records: ArraySlice<CollectedRecord>) throws -> PostgresQuery {
        var bindings = PostgresBindings(capacity: records.count * 15)
        var rows: [String] = []
        rows.reserveCapacity(records.count)
        for record in records {
            let base = bindings.count
            let workout = record.workout
            let exercises = String(decoding: try JSONEncoder().encode(workout.exercises), as: UTF8.self)
            bindings.append(record.gym ?? "")
            bindings.append(workout.id)
            bindings.append(workout.station)
            bindings.append(workout.kind.rawValue)
            bindings.append(workout.sets)
            bindings.append(workout.durationMilliseconds)
            bindings.append(workout.calories)
            bindings.append(exercises)
            bindings.append(workout.preset)
            bindings.append(workout.score)
            bindings.append(workout.completedAt)
            bindings.append(workout.localDay.description)
            bindings.append(workout.clockSynchronised)
            bindings.append(workout.athlete?.hex)
            bindings.append(workout.kind == .program ? workout.division?.rawValue : nil)
            let marks = (1...15).map { index -> String in
                let mark = "$\(base + index)"
                return index == 8 ? mark + "::jsonb" : index == 12 ? mark + "::date" : mark
            }
            rows.append("(" + marks.joined(separator: ", ") + ")")
        }
        let sql = "INSERT INTO workouts (\(columns)) VALUES " + rows.joined(separator: ", ") + " ON CONFLICT (gym, id) DO NOTHING"
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    /// The records of `gym` (every gym's with nil), newest first, each with its gym.
    public func records(gym: String? = nil) throws(CentralStoreError) -> [CollectedRecord] {
        let select = "SELECT \(Self.readColumns) FROM workouts"
        let order = " ORDER BY completed_at DESC, gym, id"
        var bindings = PostgresBindings()
        var sql = select + order
        if let gym {
            bindings.append(gym)
            sql = select + " WHERE gym = $1" + order
        }
        let result = try link.run(PostgresQuery(unsafeSQL: sql, binds: bindings), "read the records")
        var records: [CollectedRecord] = []
        records.reserveCapacity(result.rows.count)
        for row in result.rows {
            do {
                records.append(try Self.record(row))
            } catch {
                throw .failed(database: database, operation: "read the records", reason: "a row it cannot read: \(error)")
            }
        }
        return records
    }

    /// The columns `record` reads, in its order (the day and the exercises as text).
    static let readColumns =
        "gym, id, station, kind, sets, duration_ms, calories, exercises::text, preset, score, completed_at, local_day::text, clock_synchronised, athlete, division, voided_score"

    /// A row unreadable as a record (edited by hand): which column.
    struct Unreadable: Error, CustomStringConvertible {
        var column: String
        var description: String { "its \(column) is not one" }
    }

    static func record(_ row: PostgresRow) throws -> CollectedRecord {
        let cells = row.makeRandomAccess()
        let gym = try cells[0].decode(String.self)
        guard let kind = WorkoutRecord.Kind(rawValue: try cells[3].decode(String.self)) else { throw Unreadable(column: "kind") }
        guard let day = LocalDay(try cells[11].decode(String.self)) else { throw Unreadable(column: "local_day") }
        let exercises = try JSONDecoder().decode([String].self, from: Data(try cells[7].decode(String.self).utf8))
        // To the millisecond, as a station sends it (PostgreSQL keeps microseconds).
        let completed = try cells[10].decode(Date.self).timeIntervalSince1970
        let workout = StoredWorkout(
            id: try cells[1].decode(String.self), kind: kind, sets: try cells[4].decode(Int.self),
            durationMilliseconds: try cells[5].decode(Int64.self), calories: try cells[6].decode(Int.self), exercises: exercises,
            preset: try cells[8].decode(String?.self), completedAt: Date(timeIntervalSince1970: (completed * 1000).rounded() / 1000),
            localDay: day, score: try cells[9].decode(String?.self), station: try cells[2].decode(String?.self),
            clockSynchronised: try cells[12].decode(Bool?.self), athlete: try cells[13].decode(String?.self).flatMap(CardID.init(hex:)),
            division: kind == .program ? try cells[14].decode(String?.self).flatMap(Division.init(rawValue:)) : nil,
            voidedScore: try cells[15].decode(String?.self))
        return CollectedRecord(gym: gym.isEmpty ? nil : gym, workout: workout)
    }
}
