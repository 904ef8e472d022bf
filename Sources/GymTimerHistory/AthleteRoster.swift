import Foundation
import GRDB
import GymTimerCore
import GymTimerSystem

/// The gym's roster, kept in the gym's database (the one `gymtimer collect` fills, schema v6):
/// who each card is. Records are keyed by card (`workouts.athlete`), so an athlete's records
/// are those of their cards: adding a card or merging two athletes moves cards only, and
/// `history --athlete` by a name or by any of their cards answers for the whole person
/// (`scope(for:)`). `forget` erases an athlete from the file, bytes included.
///
/// Every change is one transaction; names are found whatever their (ASCII) case.
public final class AthleteRoster {
    public let path: String
    private let database: DatabaseQueue
    /// Whether the file has the roster's tables (a read-only look at a file not yet migrated to v6).
    private let hasRoster: Bool
    private let wall: WallClock

    private init(path: String, database: DatabaseQueue, hasRoster: Bool, wall: WallClock) {
        self.path = path
        self.database = database
        self.hasRoster = hasRoster
        self.wall = wall
    }

    /// Opens the gym's database at `path` for roster changes, bringing its schema up to v6. It
    /// must exist: a typo'd path is an error, not a new empty gym.
    public static func open(path: String, wall: WallClock = .system) throws(RosterError) -> AthleteRoster {
        guard FileManager.default.fileExists(atPath: path) else { throw .missingDatabase(path: path) }
        do {
            // The history's own opening: migrated to the newest schema, a newer GymTimer's file refused.
            let database = try HistoryStore.openForWriting(path: path, busyTimeout: .seconds(5))
            // A renamed or merged entry's old name is zeroed where it lay, not left in a free page.
            try database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA secure_delete = ON") }
            return AthleteRoster(path: path, database: database, hasRoster: true, wall: wall)
        } catch let error as HistoryError {
            throw .database(error)
        } catch {
            throw .database(.cannotOpen(path: path, reason: HistoryError.reason(error)))
        }
    }

    /// Opens the gym's database read-only, to find athletes (`history --athlete NAME`): never
    /// creates, migrates or writes it; a file without a roster (before v6) has no athletes.
    public static func reading(path: String) throws(RosterError) -> AthleteRoster {
        guard FileManager.default.fileExists(atPath: path) else { throw .missingDatabase(path: path) }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(1)
        do {
            let database = try DatabaseQueue(path: path, configuration: configuration)
            let hasRoster = try database.read { try $0.tableExists("athletes") && $0.tableExists("cards") }
            return AthleteRoster(path: path, database: database, hasRoster: hasRoster, wall: .system)
        } catch {
            throw .database(.cannotOpen(path: path, reason: HistoryError.reason(error)))
        }
    }

    // MARK: Reading

    /// Every athlete, by name.
    public func athletes() throws(RosterError) -> [RosterAthlete] {
        guard hasRoster else { return [] }
        return try reading { db in
            try Row.fetchAll(db, sql: "SELECT id FROM athletes ORDER BY name COLLATE NOCASE, id")
                .compactMap { try Self.athlete(db, id: $0[0]) }
        }
    }

    /// The athlete named `name` (any ASCII case), or nil.
    public func athlete(named name: String) throws(RosterError) -> RosterAthlete? {
        guard hasRoster else { return nil }
        return try reading { db in try Self.athlete(db, named: name) }
    }

    /// The athlete whose card `card` is, or nil.
    public func athlete(card: CardID) throws(RosterError) -> RosterAthlete? {
        guard hasRoster else { return nil }
        return try reading { db in try Self.athlete(db, card: card) }
    }

    /// The records `text` names for `history --athlete` / `stats --athlete`: a roster name →
    /// every card of that athlete's; else a card UID → every card of its owner's, or that card
    /// alone when the roster does not know it. A name is looked up first, so an athlete called
    /// `Abba` is found by name, not read as the card `ABBA`.
    public func scope(for text: String) throws(RosterError) -> HistoryScope {
        if let named = try self.athlete(named: text) { return named.scope }
        guard let card = CardID(hex: text) else { throw .unknownAthleteOrCard(text: text) }
        return try self.athlete(card: card)?.scope ?? .athlete([card])
    }

    /// Everything the gym's database keeps of `name`: their entry, cards and workouts.
    public func export(_ name: String) throws(RosterError) -> AthleteExport {
        let athlete = try required(name)
        do {
            let store = try HistoryStore.reading(path: path)
            return AthleteExport(athlete: athlete, workouts: try store.workouts(scope: athlete.scope))
        } catch {
            throw .database(error)
        }
    }

    // MARK: Changing

    /// Adds `name` with `card`; the short name is `shortName`, else derived from the name
    /// (`RosterNames`). A card already someone's is refused, naming whose.
    @discardableResult
    public func add(name: String, card: CardID, shortName: String? = nil) throws(RosterError) -> RosterAthlete {
        guard let name = RosterNames.name(name) else { throw .badName(name: name) }
        let short: String
        if let shortName {
            guard let valid = RosterNames.shortName(shortName) else { throw .badShortName(shortName: shortName) }
            short = valid
        } else {
            short = RosterNames.shortName(derivedFrom: name, card: card)
        }
        let createdAt = wall.date
        return try writing { db in
            if try Self.athlete(db, named: name) != nil { throw RosterError.nameTaken(name: name) }
            if let owner = try Self.athlete(db, card: card) { throw RosterError.cardTaken(card: card, owner: owner.name) }
            try db.execute(
                sql: "INSERT INTO athletes (name, short_name, created_at) VALUES (?, ?, ?)",
                arguments: [name, short, createdAt])
            let id = db.lastInsertedRowID
            try db.execute(sql: "INSERT INTO cards (card, athlete) VALUES (?, ?)", arguments: [card.hex, id])
            return try Self.athlete(db, id: id)!
        }
    }

    /// Gives `name` one more card (a second fob); one already someone's is refused, naming
    /// whose (theirs already: nothing changes).
    @discardableResult
    public func addCard(_ card: CardID, to name: String) throws(RosterError) -> RosterAthlete {
        try writing { db in
            let athlete = try Self.required(db, name)
            if let owner = try Self.athlete(db, card: card) {
                guard owner.id == athlete.id else { throw RosterError.cardTaken(card: card, owner: owner.name) }
                return owner
            }
            try db.execute(sql: "INSERT INTO cards (card, athlete) VALUES (?, ?)", arguments: [card.hex, athlete.id])
            return try Self.athlete(db, id: athlete.id)!
        }
    }

    /// Renames `name` to `newName` and/or sets their short name; their cards and records stay.
    @discardableResult
    public func rename(_ name: String, to newName: String? = nil, shortName: String? = nil) throws(RosterError) -> RosterAthlete {
        var validName: String?
        if let newName {
            guard let valid = RosterNames.name(newName) else { throw .badName(name: newName) }
            validName = valid
        }
        if let shortName, RosterNames.shortName(shortName) == nil { throw .badShortName(shortName: shortName) }
        return try writing { db in
            let athlete = try Self.required(db, name)
            if let validName {
                if let other = try Self.athlete(db, named: validName), other.id != athlete.id {
                    throw RosterError.nameTaken(name: validName)
                }
                try db.execute(sql: "UPDATE athletes SET name = ? WHERE id = ?", arguments: [validName, athlete.id])
            }
            if let shortName {
                try db.execute(sql: "UPDATE athletes SET short_name = ? WHERE id = ?", arguments: [shortName, athlete.id])
            }
            return try Self.athlete(db, id: athlete.id)!
        }
    }

    /// How the signed-out world names `name` from now on (`PublicName`).
    @discardableResult
    public func setPublicName(_ name: String, to choice: PublicName) throws(RosterError) -> RosterAthlete {
        try writing { db in
            let athlete = try Self.required(db, name)
            try db.execute(sql: "UPDATE athletes SET public_name = ? WHERE id = ?", arguments: [choice.rawValue, athlete.id])
            return try Self.athlete(db, id: athlete.id)!
        }
    }

    /// Merges `name` into `other` (two entries of one person): every card of `name`'s becomes
    /// `other`'s, and so every record of those cards; `name`'s entry is removed. Returns `other`.
    @discardableResult
    public func merge(_ name: String, into other: String) throws(RosterError) -> RosterAthlete {
        try writing { db in
            let from = try Self.required(db, name)
            let into = try Self.required(db, other)
            guard from.id != into.id else { throw RosterError.mergeIntoSelf(name: from.name) }
            try db.execute(sql: "UPDATE cards SET athlete = ? WHERE athlete = ?", arguments: [into.id, from.id])
            try db.execute(sql: "DELETE FROM athletes WHERE id = ?", arguments: [from.id])
            return try Self.athlete(db, id: into.id)!
        }
    }

    /// What `forget` removed.
    public struct Forgotten: Hashable, Sendable {
        public var athlete: RosterAthlete
        /// How many workout rows of their cards were deleted.
        public var workouts: Int
    }

    /// Forgets `name`: their roster entry, their cards and every workout of those cards are
    /// deleted in one transaction, then the file is rewritten (`secure_delete`, `VACUUM`, the
    /// write-ahead log, if any, checkpointed and truncated) so that no page of it still holds
    /// their name. In the same transaction each of their cards gets a `ForgetRequest`: the
    /// collector tells every station to delete what it holds of the card, and only then
    /// deletes the request (the UID's last trace in this file) and VACUUMs again. What stays
    /// elsewhere (backups) is "The roster" (docs/history.md).
    @discardableResult
    public func forget(_ name: String) throws(RosterError) -> Forgotten {
        let requestedAt = wall.date
        do {
            return try database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA secure_delete = ON")
                var forgotten: Forgotten?
                try db.inTransaction {
                    let athlete = try Self.required(db, name)
                    let marks = Array(repeating: "?", count: athlete.cards.count).joined(separator: ", ")
                    var workouts = 0
                    if !athlete.cards.isEmpty {
                        try db.execute(
                            sql: "DELETE FROM workouts WHERE athlete IN (\(marks))",
                            arguments: StatementArguments(athlete.cards.map(\.hex)))
                        workouts = db.changesCount
                    }
                    try db.execute(sql: "DELETE FROM cards WHERE athlete = ?", arguments: [athlete.id])
                    try db.execute(sql: "DELETE FROM athletes WHERE id = ?", arguments: [athlete.id])
                    // What the stations still hold of these cards: the collector tells them.
                    for card in athlete.cards { try ForgetRequest.insert(card: card, at: requestedAt, db) }
                    forgotten = Forgotten(athlete: athlete, workouts: workouts)
                    return .commit
                }
                // Rebuilds every table and index from the rows left, so no freed page or index
                // entry keeps the old bytes; in WAL mode, the log is emptied too.
                try db.execute(sql: "VACUUM")
                if try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal" {
                    try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                }
                return forgotten!
            }
        } catch let error as RosterError {
            throw error
        } catch {
            throw .database(.cannotSave(reason: HistoryError.reason(error), pending: 0))
        }
    }

    // MARK: Helpers

    private func reading<T>(_ body: (Database) throws -> T) throws(RosterError) -> T {
        do {
            return try database.read(body)
        } catch let error as RosterError {
            throw error
        } catch {
            throw .database(.cannotRead(reason: HistoryError.reason(error)))
        }
    }

    private func writing<T>(_ body: (Database) throws -> T) throws(RosterError) -> T {
        do {
            return try database.write(body)
        } catch let error as RosterError {
            throw error
        } catch {
            throw .database(.cannotSave(reason: HistoryError.reason(error), pending: 0))
        }
    }

    private func required(_ name: String) throws(RosterError) -> RosterAthlete {
        guard let found = try self.athlete(named: name) else { throw .unknownAthlete(name: name) }
        return found
    }

    private static func required(_ db: Database, _ name: String) throws -> RosterAthlete {
        guard let found = try Self.athlete(db, named: name) else { throw RosterError.unknownAthlete(name: name) }
        return found
    }

    private static func athlete(_ db: Database, named name: String) throws -> RosterAthlete? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM athletes WHERE name = ?", arguments: [trimmed]) else { return nil }
        return try athlete(db, id: id)
    }

    private static func athlete(_ db: Database, card: CardID) throws -> RosterAthlete? {
        guard let id = try Int64.fetchOne(db, sql: "SELECT athlete FROM cards WHERE card = ?", arguments: [card.hex]) else { return nil }
        return try athlete(db, id: id)
    }

    private static func athlete(_ db: Database, id: Int64) throws -> RosterAthlete? {
        // A file not migrated yet (read-only, before v10) has no public_name: not said.
        let chosen = try db.columns(in: "athletes").contains { $0.name == "public_name" } ? "public_name" : "NULL"
        guard let row = try Row.fetchOne(db, sql: "SELECT name, short_name, created_at, \(chosen) FROM athletes WHERE id = ?", arguments: [id]),
              let name = String.fromDatabaseValue(row[0]), let short = String.fromDatabaseValue(row[1]),
              let createdAt = Date.fromDatabaseValue(row[2]) else { return nil }
        // A choice edited into something else reads as not said.
        let publicName = String.fromDatabaseValue(row[3]).flatMap(PublicName.init(rawValue:))
        // A card edited into something that is no UID is left out, never trusted.
        let cards = try String.fetchAll(db, sql: "SELECT card FROM cards WHERE athlete = ? ORDER BY card", arguments: [id])
            .compactMap(CardID.init(hex:))
        return RosterAthlete(id: id, name: name, shortName: short, createdAt: createdAt, cards: cards, publicName: publicName)
    }
}
