import Foundation
import GRDB
import GymTimerCore

/// What the collector reads and writes of the roster through its own open database: the cards
/// it tells the stations of, whether another process changed the file, and the forget requests
/// it carries out.
extension HistoryStore {
    /// SQLite's `PRAGMA data_version` on this connection: it changes when another connection
    /// (the CLI's `athletes`, the console) commits to the file, never for this one's own writes.
    public func dataVersion() throws(HistoryError) -> Int64 {
        do {
            return try database.read { db in try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        } catch {
            throw .cannotRead(reason: HistoryError.reason(error))
        }
    }

    /// Every card of the roster (with `only`, every card of the athletes owning one of those),
    /// with its athlete's short name and bests; a file without a roster has none.
    public func rosterCards(only: Set<CardID>? = nil) throws(HistoryError) -> [RosterCard] {
        do {
            return try database.read { db in
                guard try db.tableExists("cards") && db.tableExists("athletes") else { return [] }
                let rows = try Row.fetchAll(db, sql: """
                    SELECT cards.card, cards.athlete, athletes.short_name FROM cards JOIN athletes ON athletes.id = cards.athlete
                    ORDER BY cards.card
                    """)
                var byAthlete: [Int64: [(card: CardID, short: String)]] = [:]
                for row in rows {
                    // A card edited into something that is no UID is left out, never published.
                    guard let card = String.fromDatabaseValue(row[0]).flatMap(CardID.init(hex:)),
                          let athlete = Int64.fromDatabaseValue(row[1]), let short = String.fromDatabaseValue(row[2]) else { continue }
                    byAthlete[athlete, default: []].append((card, short))
                }
                var cards: [RosterCard] = []
                for theirs in byAthlete.values where only.map({ only in theirs.contains { only.contains($0.card) } }) ?? true {
                    let bests = try Self.bests(db, scope: .athlete(theirs.map(\.card)))
                    cards += theirs.map { RosterCard(card: $0.card, shortName: $0.short, bests: bests) }
                }
                return cards.sorted { $0.card < $1.card }
            }
        } catch {
            throw .cannotRead(reason: HistoryError.reason(error))
        }
    }

    /// The best of each program in each division over `scope`'s records (`PersonalRecord`'s rules).
    static func bests(_ db: Database, scope: HistoryScope) throws -> [RosterCard.Best] {
        let (filter, arguments) = try scope.condition(db)
        // The division of a record (v7's column); one not said counts as Rx.
        let rows = try Row.fetchAll(db, sql: """
            SELECT preset, score, completed_at, COALESCE(division, 'rx') FROM workouts
            WHERE \(validRow) AND kind = 'program' AND preset IS NOT NULL AND score IS NOT NULL\(filter)
            """, arguments: arguments)
        var results: [PersonalRecord.Result] = []
        for row in rows {
            guard let program = String.fromDatabaseValue(row[0]), let score = String.fromDatabaseValue(row[1]),
                  let date = Date.fromDatabaseValue(row[2]),
                  let division = String.fromDatabaseValue(row[3]).flatMap(Division.init(rawValue:)) else { continue }
            results.append(PersonalRecord.Result(program: program, division: division, score: score, completedAt: date))
        }
        return PersonalRecord.bests(of: results).map {
            ProgramBest(program: $0.program, division: $0.division, score: $0.score)
        }.sorted { ($0.program, $0.division.rawValue) < ($1.program, $1.division.rawValue) }
    }

    // MARK: Forget requests (the collector's side)

    /// The forget requests still waiting, oldest first, with the stations that answered.
    public func forgetRequests() throws(HistoryError) -> [ForgetRequest] {
        do {
            return try database.read { db in
                guard try db.tableExists("forget_requests") else { return [] }
                let answers = try Row.fetchAll(db, sql: "SELECT request, station FROM forget_answers")
                var answered: [Int64: Set<String>] = [:]
                for row in answers {
                    guard let id = Int64.fromDatabaseValue(row[0]), let station = String.fromDatabaseValue(row[1]) else { continue }
                    answered[id, default: []].insert(station)
                }
                return try Row.fetchAll(db, sql: "SELECT id, card, requested_at FROM forget_requests ORDER BY id").compactMap { row in
                    guard let id = Int64.fromDatabaseValue(row[0]),
                          let card = String.fromDatabaseValue(row[1]).flatMap(CardID.init(hex:)),
                          let date = Date.fromDatabaseValue(row[2]) else { return nil }
                    return ForgetRequest(id: id, card: card, requestedAt: date, answered: answered[id] ?? [])
                }
            }
        } catch {
            throw .cannotRead(reason: HistoryError.reason(error))
        }
    }

    /// `station` answered request `id` (done): kept, so a restarted collector does not ask again.
    public func recordForgetAnswer(request id: Int64, station: String) throws(HistoryError) {
        do {
            try database.write { db in
                guard try Int64.fetchOne(db, sql: "SELECT id FROM forget_requests WHERE id = ?", arguments: [id]) != nil else { return }
                try db.execute(
                    sql: "INSERT OR IGNORE INTO forget_answers (request, station) VALUES (?, ?)", arguments: [id, station])
            }
        } catch {
            throw .cannotSave(reason: HistoryError.reason(error), pending: 0)
        }
    }

    /// Request `id` is done: any record of its card that arrived meanwhile and the request itself
    /// are deleted, then the file is rewritten (`secure_delete`, `VACUUM`, the write-ahead log
    /// emptied) so that no page keeps the UID. Returns how many late records were deleted.
    @discardableResult
    public func completeForget(request id: Int64) throws(HistoryError) -> Int {
        do {
            return try database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA secure_delete = ON")
                var late = 0
                try db.inTransaction {
                    if let card = try String.fetchOne(db, sql: "SELECT card FROM forget_requests WHERE id = ?", arguments: [id]) {
                        try db.execute(sql: "DELETE FROM workouts WHERE athlete = ?", arguments: [card])
                        late = db.changesCount
                    }
                    try db.execute(sql: "DELETE FROM forget_requests WHERE id = ?", arguments: [id])
                    return .commit
                }
                try Self.rewrite(db)
                return late
            }
        } catch {
            throw .cannotSave(reason: HistoryError.reason(error), pending: 0)
        }
    }

    // MARK: A station's own forget

    /// The gym forgot `card`'s athlete: every workout of that card is deleted from this history
    /// (and from the records waiting to be written), then the file is rewritten so that no page
    /// keeps the UID. Returns how many rows were deleted.
    @discardableResult
    public func forget(card: CardID) throws(HistoryError) -> Int {
        pending.removeAll { $0.athlete == card }
        do {
            return try database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA secure_delete = ON")
                try db.execute(sql: "DELETE FROM workouts WHERE athlete = ?", arguments: [card.hex])
                let deleted = db.changesCount
                try Self.rewrite(db)
                return deleted
            }
        } catch {
            throw .cannotSave(reason: HistoryError.reason(error), pending: pending.count)
        }
    }

    /// Rebuilds every table and index from the rows left (no freed page keeps old bytes); in WAL
    /// mode the log is emptied too.
    static func rewrite(_ db: Database) throws {
        try db.execute(sql: "VACUUM")
        if try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal" {
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }
}
