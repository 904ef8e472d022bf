import Foundation
import GymTimerCore
import GymTimerHistory

/// The chain's roster in the central database (`CentralSchema` v2: athletes, athlete_cards):
/// who each card is at every gym, so that an athlete's records (keyed by card in workouts, in
/// whichever gym they trained) are one person's. The operations and refusals are one gym's
/// `AthleteRoster`'s: add with a card, give a card, rename, list, forget — a card already
/// someone's, a name taken (names are found whatever their case), an unknown athlete are
/// refused in its words. Every change is one transaction; a refusal rolls it back.
///
/// Blocking with bounded waits, as `PostgresRecordStore` (one connection of its own).
public final class PostgresRoster {
    private let link: PostgresLink

    /// The roster in the database at `url`; nothing is connected until the first call.
    public init(url: PostgresURL, timeouts: PostgresTimeouts = PostgresTimeouts()) {
        link = PostgresLink(url: url, timeouts: timeouts, prepare: CentralSchema.prepare)
    }

    /// Where the roster is (without its password).
    public var database: String { link.url.description }

    // MARK: Reading

    /// Every athlete, by name (any case), then by when added.
    public func athletes() throws(CentralRosterError) -> [RosterAthlete] {
        let rows = try run("SELECT id, name, short_name, added_at FROM athletes ORDER BY lower(name), id", "list the athletes")
        let cards = try run("SELECT athlete_id, card FROM athlete_cards ORDER BY card", "list the athletes' cards")
        var byAthlete: [Int64: [CardID]] = [:]
        for row in cards.rows {
            let (id, card) = try decoding("list the athletes' cards") { try row.decode((Int64, String).self) }
            // A card edited into something that is no UID is left out, never trusted.
            if let card = CardID(hex: card) { byAthlete[id, default: []].append(card) }
        }
        var athletes: [RosterAthlete] = []
        for row in rows.rows {
            let (id, name, short, added) = try decoding("list the athletes") { try row.decode((Int64, String, String, Date).self) }
            athletes.append(RosterAthlete(id: id, name: name, shortName: short, createdAt: added, cards: byAthlete[id] ?? []))
        }
        return athletes
    }

    /// The athlete named `name` (any case), or nil.
    public func athlete(named name: String) throws(CentralRosterError) -> RosterAthlete? {
        try find(named: name)
    }

    /// The athlete whose card `card` is, or nil.
    public func athlete(card: CardID) throws(CentralRosterError) -> RosterAthlete? {
        try find(card: card)
    }

    /// The cards `text` names (`stats --athlete`): a roster name → every card of that
    /// athlete's; else a card UID → every card of its owner's, or that card alone when the
    /// roster does not know it. A name is looked up first (`AthleteRoster.scope(for:)`'s rule).
    public func cards(for text: String) throws(CentralRosterError) -> [CardID] {
        if let named = try athlete(named: text) { return named.cards }
        guard let card = CardID(hex: text) else { throw .refused(.unknownAthleteOrCard(text: text)) }
        return try athlete(card: card)?.cards ?? [card]
    }

    // MARK: Changing

    /// Adds `name` with `card`; the short name is `shortName`, else derived from the name
    /// (`RosterNames`). A card already someone's, or a name taken, is refused.
    @discardableResult
    public func add(name: String, card: CardID, shortName: String? = nil) throws(CentralRosterError) -> RosterAthlete {
        guard let valid = RosterNames.name(name) else { throw .refused(.badName(name: name)) }
        let short: String
        if let shortName {
            guard let validShort = RosterNames.shortName(shortName) else { throw .refused(.badShortName(shortName: shortName)) }
            short = validShort
        } else {
            short = RosterNames.shortName(derivedFrom: valid, card: card)
        }
        return try transaction("add \(valid)") { () throws(CentralRosterError) in
            if try find(named: valid) != nil { throw .refused(.nameTaken(name: valid)) }
            if let owner = try find(card: card) { throw .refused(.cardTaken(card: card, owner: owner.name)) }
            let inserted = try run("INSERT INTO athletes (name, short_name) VALUES (\(valid), \(short)) RETURNING id", "add an athlete")
            guard let row = inserted.rows.first else {
                throw .database(.failed(database: database, operation: "add an athlete", reason: "no id returned"))
            }
            let id = try decoding("add an athlete") { try row.decode(Int64.self) }
            try run("INSERT INTO athlete_cards (card, athlete_id) VALUES (\(card.hex), \(id))", "give the card")
            return try required(id: id)
        }
    }

    /// Gives `name` one more card; one already someone else's is refused, naming whose
    /// (theirs already: nothing changes).
    @discardableResult
    public func addCard(_ card: CardID, to name: String) throws(CentralRosterError) -> RosterAthlete {
        try transaction("give a card to \(name)") { () throws(CentralRosterError) in
            let athlete = try required(name)
            if let owner = try find(card: card) {
                guard owner.id == athlete.id else { throw .refused(.cardTaken(card: card, owner: owner.name)) }
                return owner
            }
            try run("INSERT INTO athlete_cards (card, athlete_id) VALUES (\(card.hex), \(athlete.id))", "give the card")
            return try required(id: athlete.id)
        }
    }

    /// Renames `name` to `newName` and/or sets their short name; their cards and records stay.
    @discardableResult
    public func rename(_ name: String, to newName: String? = nil, shortName: String? = nil) throws(CentralRosterError) -> RosterAthlete {
        var validName: String?
        if let newName {
            guard let valid = RosterNames.name(newName) else { throw .refused(.badName(name: newName)) }
            validName = valid
        }
        var validShort: String?
        if let shortName {
            guard let valid = RosterNames.shortName(shortName) else { throw .refused(.badShortName(shortName: shortName)) }
            validShort = valid
        }
        return try transaction("rename \(name)") { () throws(CentralRosterError) in
            let athlete = try required(name)
            if let validName {
                if let other = try find(named: validName), other.id != athlete.id { throw .refused(.nameTaken(name: validName)) }
                try run("UPDATE athletes SET name = \(validName) WHERE id = \(athlete.id)", "rename the athlete")
            }
            if let validShort {
                try run("UPDATE athletes SET short_name = \(validShort) WHERE id = \(athlete.id)", "set the short name")
            }
            return try required(id: athlete.id)
        }
    }

    /// What `forget` removed.
    public struct Forgotten: Hashable, Sendable {
        public var athlete: RosterAthlete
        /// How many workout rows of their cards were deleted, in every gym.
        public var workouts: Int
    }

    /// Forgets `name` in one transaction: every workouts row of their cards in every gym, their
    /// cards and their entry. (PostgreSQL's freed space is reused, not wiped: what stays in its
    /// files until VACUUM, and in backups, is docs/chain.md's "Athletes across the chain".)
    @discardableResult
    public func forget(_ name: String) throws(CentralRosterError) -> Forgotten {
        try transaction("forget \(name)") { () throws(CentralRosterError) in
            let athlete = try required(name)
            let cards = athlete.cards.map(\.hex)
            let deleted = try run("DELETE FROM workouts WHERE athlete = ANY(\(cards))", "delete the athlete's workouts")
            try run("DELETE FROM athletes WHERE id = \(athlete.id)", "delete the athlete")
            return Forgotten(athlete: athlete, workouts: deleted.metadata.rows ?? 0)
        }
    }

    /// How the signed-out world names `name` from now on (`PublicName`).
    @discardableResult
    public func setPublicName(_ name: String, to choice: PublicName) throws(CentralRosterError) -> RosterAthlete {
        try transaction("set how \(name) is shown") { () throws(CentralRosterError) in
            let athlete = try required(name)
            try run("UPDATE athletes SET public_name = \(choice.rawValue) WHERE id = \(athlete.id)", "set how the athlete is shown")
            return try required(id: athlete.id)
        }
    }

    // MARK: Helpers

    /// `query`, its failure the roster's.
    @discardableResult
    func run(_ query: PostgresQuery, _ operation: String) throws(CentralRosterError) -> PostgresQueryResult {
        do throws(CentralStoreError) {
            return try link.run(query, operation)
        } catch {
            throw .database(error)
        }
    }

    /// `body` in one transaction: committed when it returns, rolled back when it throws.
    private func transaction<T>(_ operation: String, _ body: () throws(CentralRosterError) -> T) throws(CentralRosterError) -> T {
        try run("BEGIN", "begin to \(operation)")
        let value: T
        do throws(CentralRosterError) {
            value = try body()
        } catch {
            // A failed ROLLBACK closes the connection, which rolls back as well.
            _ = try? link.run("ROLLBACK", "roll back")
            throw error
        }
        try run("COMMIT", "commit (\(operation))")
        return value
    }

    private func required(_ name: String) throws(CentralRosterError) -> RosterAthlete {
        guard let found = try athlete(named: name) else { throw .refused(.unknownAthlete(name: name)) }
        return found
    }

    private func required(id: Int64) throws(CentralRosterError) -> RosterAthlete {
        guard let found = try find(id: id) else {
            throw .database(.failed(database: database, operation: "read the athlete back", reason: "no athlete \(id)"))
        }
        return found
    }

    private func find(named name: String) throws(CentralRosterError) -> RosterAthlete? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        let result = try run("SELECT id FROM athletes WHERE lower(name) = lower(\(trimmed)) ORDER BY id LIMIT 1", "find an athlete")
        guard let row = result.rows.first else { return nil }
        return try find(id: try decoding("find an athlete") { try row.decode(Int64.self) })
    }

    private func find(card: CardID) throws(CentralRosterError) -> RosterAthlete? {
        let result = try run("SELECT athlete_id FROM athlete_cards WHERE card = \(card.hex)", "find a card's athlete")
        guard let row = result.rows.first else { return nil }
        return try find(id: try decoding("find a card's athlete") { try row.decode(Int64.self) })
    }

    private func find(id: Int64) throws(CentralRosterError) -> RosterAthlete? {
        let result = try run("SELECT name, short_name, added_at, public_name FROM athletes WHERE id = \(id)", "read an athlete")
        guard let row = result.rows.first else { return nil }
        let (name, short, added, chosen) = try decoding("read an athlete") { try row.decode((String, String, Date, String?).self) }
        let cards = try run("SELECT card FROM athlete_cards WHERE athlete_id = \(id) ORDER BY card", "read an athlete's cards")
        var ids: [CardID] = []
        for row in cards.rows {
            if let card = CardID(hex: try decoding("read an athlete's cards") { try row.decode(String.self) }) { ids.append(card) }
        }
        return RosterAthlete(id: id, name: name, shortName: short, createdAt: added, cards: ids, publicName: chosen.flatMap(PublicName.init(rawValue:)))
    }

    /// What `body` decodes of a row; a row it cannot read (edited by hand) fails `operation`.
    func decoding<T>(_ operation: String, _ body: () throws -> T) throws(CentralRosterError) -> T {
        do {
            return try body()
        } catch {
            throw .database(.failed(database: database, operation: operation, reason: "a row it cannot read: \(error)"))
        }
    }
}
