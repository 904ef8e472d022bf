import Foundation
import GymTimerCollector
import GymTimerCore
import GymTimerFleet
import GymTimerHistory

/// One chain gym's desk store (`GymDeskStore`) in the central PostgreSQL: what the central
/// collector's desk answers that gym's console, from that gym's rows (`workouts WHERE gym = $1`;
/// an athlete's page from their records at every gym, as they are the chain's) and the chain's
/// roster (`athletes`, `athlete_cards`: one roster across the chain, a card in no row is new), of
/// which it tells only this gym's members (`members(of:onStations:)`). Made by the same pure builders as one gym's SQLite desk
/// (`GymScores.make`, `GymDatabase.roster`, `GymAthleteSummary.make`, `StationStats.of`). The
/// roster is edited with `gymtimer athletes --db postgresql://…`, not from a gym's console:
/// naming and renaming are refused, saying so. Blocking, on the collector's loop, over its
/// store's connection (`PostgresRecordStore.desk(gym:)`); a server away is a sentence.
public struct PostgresGymDesk: GymDeskStore {
    let link: PostgresLink
    /// The gym whose rows are read.
    public let gym: String
    public let timeZone: TimeZone
    public let wall: WallClock

    init(link: PostgresLink, gym: String, timeZone: TimeZone, wall: WallClock) {
        self.link = link
        self.gym = gym
        self.timeZone = timeZone
        self.wall = wall
    }

    /// What a console's name or rename is told.
    public static let rosterElsewhere = "Refused: edit the chain's roster with gymtimer athletes --db postgresql://…"

    /// This gym's members (`members(of:)`) and the cards of its last days' records and of its
    /// stations now that no athlete of the chain has: never the whole chain's roster.
    public func roster(onStations: [String: CardID]) -> Result<GymRoster, GymDeskProblem> {
        read {
            let athletes = try readAthletes()
            let workouts = try readWorkouts(since: wall.date.addingTimeInterval(-GymDatabase.newCardDays * 86_400))
            let members = try members(of: athletes, onStations: Set(onStations.values))
            return GymDatabase.roster(members, names: GymAthleteNames(athletes), workouts: workouts, onStations: onStations)
        }
    }

    /// The class list's athletes: this gym's members.
    public func athletes() -> Result<[GymRoster.Athlete], GymDeskProblem> {
        read { try members(of: readAthletes()).map(GymDatabase.athlete) }
    }

    /// A member's page (their records at every gym); nil for an athlete who is not this gym's.
    public func summary(id: Int64) -> Result<GymAthleteSummary?, GymDeskProblem> {
        read {
            guard let athlete = try members(of: readAthletes()).first(where: { $0.id == id }) else { return nil }
            let today = LocalDay(wall.date, in: timeZone)
            // Their records at every gym, every day (the stats), of which the page keeps the week.
            let workouts = try readWorkouts(cards: athlete.cards)
            return GymAthleteSummary.make(athlete: athlete, workouts: workouts, stats: StationStats.of(workouts, today: today), today: today)
        }
    }

    public func name(card: CardID, name: String, short: String?) -> Result<String, GymDeskProblem> {
        .failure(.init(description: Self.rosterElsewhere))
    }

    public func rename(id: Int64, name: String?, short: String?, shown: PublicName?) -> Result<String, GymDeskProblem> {
        .failure(.init(description: Self.rosterElsewhere))
    }

    public func setDivision(record: String, division: Division) -> Result<String, GymDeskProblem> {
        amend(
            record, "UPDATE workouts SET division = \(division.rawValue) WHERE gym = \(gym) AND id = \(record) AND kind = 'program'",
            operation: "set a result's division", failing: "Not changed", missing: "no such program result (reload the page)",
            score: \.score, said: { "\($0) is \(division == .rx ? "Rx" : "Scaled") now" })
    }

    /// The program result `record` of this gym voided: its score kept in `voided_score`, the
    /// result no best or leaderboard of the chain counts (`CentralSchema` version 3).
    public func void(record: String) -> Result<String, GymDeskProblem> {
        amend(
            record, """
                UPDATE workouts SET voided_score = score, score = NULL, voided_at = now()
                WHERE gym = \(gym) AND id = \(record) AND kind = 'program' AND score IS NOT NULL
                """,
            operation: "void a result", failing: "Not voided", missing: "no such result counts (reload the page)",
            score: \.voidedScore, said: { "\($0) is void: no best or leaderboard counts it" })
    }

    /// One edit of a result, `update` (which must change its row): the coach's word after the
    /// fact. What the page is told names the athlete, the program and the score `score` reads,
    /// through `said`; a row not changed is `failing: missing`, an error `failing: error`.
    private func amend(
        _ record: String, _ update: PostgresQuery, operation: String, failing: String, missing: String,
        score: KeyPath<StoredWorkout, String?>, said: (String) -> String
    ) -> Result<String, GymDeskProblem> {
        do {
            let changed = try link.run(update, operation).metadata.rows ?? 0
            guard changed > 0 else { return .failure(.init(description: "\(failing): \(missing)")) }
            let workout = try readWorkouts(since: wall.date.addingTimeInterval(-8 * 86_400)).first { $0.id == record }
            let names = GymAthleteNames((try? readAthletes()) ?? [])
            let what = workout.map { "\(names.name($0.athlete))'s \($0.preset ?? "result") (\($0[keyPath: score] ?? "-"))" } ?? "The result"
            return .success(said(what))
        } catch {
            return .failure(.init(description: "\(failing): \(error)"))
        }
    }

    public func scores() -> Result<GymScores, GymDeskProblem> {
        let now = wall.date
        do {
            let workouts = try readWorkouts(since: now.addingTimeInterval(-8 * 86_400))
            // The roster's names (a database without the roster's tables: every card is new).
            let athletes = (try? readAthletes()) ?? []
            return .success(GymScores.make(workouts, day: LocalDay(now, in: timeZone), names: GymAthleteNames(athletes)))
        } catch {
            return .failure(.init(description: "\(error)"))
        }
    }

    /// The gyms with records on or after `since` (the central desk's scores to publish).
    public static func gyms(in store: PostgresRecordStore, since: Date) throws(CentralStoreError) -> [String] {
        var bindings = PostgresBindings()
        bindings.append(since)
        let result = try store.link.run(
            PostgresQuery(unsafeSQL: "SELECT DISTINCT gym FROM workouts WHERE completed_at >= $1 AND gym <> '' ORDER BY gym", binds: bindings),
            "read today's gyms")
        return result.rows.compactMap { try? $0.decode(String.self) }
    }

    /// `body`'s value, or the page's sentence for what failed.
    private func read<Value>(_ body: () throws -> Value) -> Result<Value, GymDeskProblem> {
        do {
            return .success(try body())
        } catch {
            return .failure(.init(description: "the chain's database cannot be read: \(error)"))
        }
    }

    /// The chain's roster by name (none while the database has no roster's tables).
    func readAthletes() throws(CentralStoreError) -> [RosterAthlete] {
        let exists = try link.run("SELECT to_regclass('athlete_cards') IS NOT NULL AND to_regclass('athletes') IS NOT NULL", "look for the roster")
        guard (try? exists.rows.first?.decode(Bool.self)) == true else { return [] }
        let result = try link.run(
            """
            SELECT a.id, a.name, a.short_name, a.added_at, c.card, a.public_name FROM athletes a
            LEFT JOIN athlete_cards c ON c.athlete_id = a.id ORDER BY lower(a.name), a.id, c.card
            """, "read the roster")
        var athletes: [RosterAthlete] = []
        for row in result.rows {
            guard let (id, name, short, added, card) = try? row.decode((Int64, String, String, Date, String?).self) else { continue }
            if athletes.last?.id != id {
                let chosen = (try? row[5].decode(String?.self)).flatMap { $0 }.flatMap(PublicName.init(rawValue:))
                athletes.append(RosterAthlete(id: id, name: name, shortName: short, createdAt: added, cards: [], publicName: chosen))
            }
            if let card = card.flatMap(CardID.init(hex:)) { athletes[athletes.count - 1].cards.append(card) }
        }
        return athletes
    }

    /// Which of the chain's `athletes` are this gym's members: those with a record here (a
    /// voided one too) or a card on one of its stations now (`onStations`). A gym's console, and
    /// so its account, learns only of them: not of another gym's members, who are the chain's
    /// but none of this gym's business until they train here (docs/security.md).
    func members(of athletes: [RosterAthlete], onStations: Set<CardID> = []) throws(CentralStoreError) -> [RosterAthlete] {
        var bindings = PostgresBindings()
        bindings.append(gym)
        let result = try link.run(
            PostgresQuery(unsafeSQL: "SELECT DISTINCT athlete FROM workouts WHERE gym = $1 AND athlete IS NOT NULL", binds: bindings),
            "read \(gym)'s members")
        let here = Set(result.rows.compactMap { try? $0.decode(String.self) }.compactMap(CardID.init(hex:))).union(onStations)
        return athletes.filter { $0.cards.contains(where: here.contains) }
    }

    /// This gym's records completed at or after `since`, oldest first (unreadable rows left out).
    func readWorkouts(since: Date) throws(CentralStoreError) -> [StoredWorkout] {
        var bindings = PostgresBindings()
        bindings.append(gym)
        bindings.append(since)
        return try workouts("WHERE gym = $1 AND completed_at >= $2", bindings)
    }

    /// The records of `cards` at every gym of the chain, oldest first: an athlete is the
    /// chain's, so their page (streak, points, records) follows them from gym to gym; a record
    /// of another gym names it where the page says where (`gym/station`).
    func readWorkouts(cards: [CardID]) throws(CentralStoreError) -> [StoredWorkout] {
        guard !cards.isEmpty else { return [] }
        var bindings = PostgresBindings()
        bindings.append(cards.map(\.hex))
        return try records("WHERE athlete = ANY($1)", bindings).map { record in
            var workout = record.workout
            if let other = record.gym, other != gym { workout.station = [other, workout.station].compactMap { $0 }.joined(separator: "/") }
            return workout
        }
    }

    private func workouts(_ filter: String, _ bindings: PostgresBindings) throws(CentralStoreError) -> [StoredWorkout] {
        try records(filter, bindings).map(\.workout)
    }

    private func records(_ filter: String, _ bindings: PostgresBindings) throws(CentralStoreError) -> [CollectedRecord] {
        let sql = "SELECT \(PostgresRecordStore.readColumns) FROM workouts \(filter) ORDER BY completed_at, id"
        let result = try link.run(PostgresQuery(unsafeSQL: sql, binds: bindings), "read \(gym)'s records")
        return result.rows.compactMap { try? PostgresRecordStore.record($0) }
    }
}
