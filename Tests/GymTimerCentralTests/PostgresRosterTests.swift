import Foundation
import GymTimerBenchSupport
import GymTimerCentral
import GymTimerCore
import GymTimerHistory
import Testing

/// The chain's roster in a real PostgreSQL (LocalPostgres): the rows each change leaves, the
/// refusals of one gym's roster, forget deleting every gym's workouts of the athlete's cards,
/// and a version 1 database brought to version 2 in place.
@Suite(.serialized) struct PostgresRosterTests {
    static func roster(_ server: LocalPostgres) throws -> PostgresRoster {
        PostgresRoster(url: try PostgresURL.parse(server.url), timeouts: PostgresTimeouts(connect: .seconds(5), query: .seconds(10)))
    }

    static let anna = CardID(hex: "04A1B2C3")!
    static let fob = CardID(hex: "04FFEE01")!
    static let bo = CardID(hex: "0A0B0C0D")!

    @Test func addGiveRenameListAsRows() throws {
        let server = try LocalPostgres()
        let roster = try Self.roster(server)
        let added = try roster.add(name: "Anna Berg", card: Self.anna)
        #expect(added.name == "Anna Berg" && added.shortName == RosterNames.shortName(derivedFrom: "Anna Berg", card: Self.anna) && added.cards == [Self.anna], "\(added)")
        try roster.add(name: "bo", card: Self.bo, shortName: "bo")
        #expect(try roster.addCard(Self.fob, to: "anna berg").cards == [Self.anna, Self.fob])
        // Theirs already: nothing changes.
        #expect(try roster.addCard(Self.fob, to: "Anna Berg").cards == [Self.anna, Self.fob])
        let renamed = try roster.rename("Anna Berg", to: "Anna B", shortName: "AnA")
        #expect(renamed.id == added.id && renamed.name == "Anna B" && renamed.shortName == "AnA")
        #expect(try roster.athletes().map(\.name) == ["Anna B", "bo"])
        #expect(try roster.athlete(card: Self.fob)?.name == "Anna B")
        #expect(try roster.cards(for: "0A0B0C0D") == [Self.bo])
        #expect(try roster.cards(for: "04FFEE01") == [Self.anna, Self.fob])
        #expect(try roster.cards(for: "DEADBEEF") == [CardID(hex: "DEADBEEF")!])
        let athletes = try server.query("SELECT id, name, short_name FROM athletes ORDER BY id")
        #expect(athletes == [["\(added.id)", "Anna B", "AnA"], ["\(added.id + 1)", "bo", "bo"]], "\(athletes)")
        let cards = try server.query("SELECT card, athlete_id FROM athlete_cards ORDER BY card")
        #expect(cards == [["04A1B2C3", "\(added.id)"], ["04FFEE01", "\(added.id)"], ["0A0B0C0D", "\(added.id + 1)"]], "\(cards)")
        #expect(try server.query("SELECT max(version) FROM gymtimer_schema") == [["3"]])
        // How the signed-out world names them: kept in the row, read back with them.
        #expect(try roster.setPublicName("anna b", to: .guest).shownName == "guest")
        #expect(try server.query("SELECT public_name FROM athletes WHERE id = \(added.id)") == [["guest"]])
        #expect(try roster.athlete(card: Self.anna)?.publicName == .guest)
    }

    /// The SQLite roster's refusals, in its words, and nothing written by them.
    @Test func theRefusalsOfOneGymsRoster() throws {
        let server = try LocalPostgres()
        let roster = try Self.roster(server)
        try roster.add(name: "Anna", card: Self.anna)
        try roster.add(name: "Bo", card: Self.bo)
        #expect(throws: CentralRosterError.refused(.cardTaken(card: Self.anna, owner: "Anna"))) {
            try roster.add(name: "Cy", card: Self.anna)
        }
        #expect(throws: CentralRosterError.refused(.nameTaken(name: "anna"))) { try roster.add(name: "anna", card: Self.fob) }
        #expect(throws: CentralRosterError.refused(.cardTaken(card: Self.bo, owner: "Bo"))) { try roster.addCard(Self.bo, to: "Anna") }
        #expect(throws: CentralRosterError.refused(.unknownAthlete(name: "Cy"))) { try roster.addCard(Self.fob, to: "Cy") }
        #expect(throws: CentralRosterError.refused(.nameTaken(name: "Bo"))) { try roster.rename("Anna", to: "Bo") }
        #expect(throws: CentralRosterError.refused(.unknownAthlete(name: "Cy"))) { try roster.rename("Cy", to: "Dee") }
        #expect(throws: CentralRosterError.refused(.unknownAthlete(name: "Cy"))) { try roster.forget("Cy") }
        #expect(throws: CentralRosterError.refused(.badShortName(shortName: "MMMMM"))) { try roster.rename("Anna", shortName: "MMMMM") }
        #expect(throws: CentralRosterError.refused(.unknownAthleteOrCard(text: "Cy"))) { try roster.cards(for: "Cy") }
        #expect(try server.query("SELECT name FROM athletes ORDER BY name") == [["Anna"], ["Bo"]])
        #expect(try server.query("SELECT count(*) FROM athlete_cards") == [["2"]])
        // A refusal leaves the connection usable.
        #expect(try roster.rename("Anna", shortName: "An").shortName == "An")
    }

    /// Forget deletes the athlete, their cards and every workouts row of their cards in every
    /// gym; the others' rows stay.
    @Test func forgetDeletesEveryGymsWorkoutsOfTheirCards() throws {
        let server = try LocalPostgres()
        let store = try PostgresRecordStoreTests.store(server)
        let roster = try Self.roster(server)
        try roster.add(name: "Anna", card: Self.anna)
        try roster.addCard(Self.fob, to: "Anna")
        try roster.add(name: "Bo", card: Self.bo)
        let records = [
            PostgresRecordStoreTests.record("north", "bench-1", minutes: 1, athlete: Self.anna),
            PostgresRecordStoreTests.record("south", "rower", minutes: 2, athlete: Self.fob),
            PostgresRecordStoreTests.record("south", "rower", minutes: 3, athlete: Self.bo),
            PostgresRecordStoreTests.record("north", "bench-1", minutes: 4),
        ]
        #expect(try store.store(records) == 4)
        let forgotten = try roster.forget("anna")
        #expect(forgotten.athlete.name == "Anna" && forgotten.athlete.cards == [Self.anna, Self.fob] && forgotten.workouts == 2)
        #expect(try server.query("SELECT gym, athlete FROM workouts ORDER BY id") == [["north", ""], ["south", "0A0B0C0D"]])
        #expect(try server.query("SELECT name FROM athletes") == [["Bo"]])
        #expect(try server.query("SELECT card FROM athlete_cards") == [["0A0B0C0D"]])
    }

    /// A database of version 1 (its tables and its version row only) is brought to version 2
    /// under the lock, its workouts kept.
    @Test func aVersionOneDatabaseIsUpgradedInPlace() throws {
        let server = try LocalPostgres()
        _ = try server.query("""
            CREATE TABLE gymtimer_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
            INSERT INTO gymtimer_schema (version) VALUES (1);
            CREATE TABLE workouts (gym text NOT NULL, id text NOT NULL, station text, kind text NOT NULL, sets integer NOT NULL,
                duration_ms bigint NOT NULL, calories integer NOT NULL, exercises jsonb NOT NULL DEFAULT '[]', preset text, score text,
                completed_at timestamptz NOT NULL, local_day date NOT NULL, clock_synchronised boolean, athlete text, division text,
                stored_at timestamptz NOT NULL DEFAULT clock_timestamp(), PRIMARY KEY (gym, id));
            INSERT INTO workouts (gym, id, kind, sets, duration_ms, calories, completed_at, local_day, athlete)
                VALUES ('north', 'old', 'rest', 1, 1000, 1, now(), current_date, '04A1B2C3');
            """)
        let roster = try Self.roster(server)
        #expect(try roster.athletes().isEmpty)
        #expect(try server.query("SELECT version FROM gymtimer_schema ORDER BY version") == [["1"], ["2"], ["3"]])
        try roster.add(name: "Anna", card: Self.anna)
        #expect(try roster.forget("Anna").workouts == 1)
        #expect(try server.query("SELECT count(*) FROM workouts") == [["0"]])
    }
}

/// What the central collector reads of the roster (`RosterSource`): each card with its
/// athlete's bests over every gym's records of every card of theirs, and a stamp that moves
/// with an edit and only then.
@Suite(.serialized) struct PostgresRosterSourceTests {
    @Test func cardsCarryBestsOverEveryGymAndTheStampMovesWithEdits() throws {
        let server = try LocalPostgres()
        let store = try PostgresRecordStoreTests.store(server)
        let roster = try PostgresRosterTests.roster(server)
        let empty = try roster.rosterStamp()
        #expect(try roster.rosterCards(only: nil).isEmpty)
        try roster.add(name: "Anna", card: PostgresRosterTests.anna, shortName: "AnnA")
        try roster.addCard(PostgresRosterTests.fob, to: "Anna")
        try roster.add(name: "Bo", card: PostgresRosterTests.bo, shortName: "bo")
        let added = try roster.rosterStamp()
        #expect(added != empty && added.count == 32)
        // Anna trained at two gyms, one card at each.
        let records = [
            PostgresRecordStoreTests.record("north", "bench-1", minutes: 1, athlete: PostgresRosterTests.anna),
            PostgresRecordStoreTests.record("south", "rower", minutes: 2, athlete: PostgresRosterTests.fob),
        ]
        #expect(try store.store(records) == 2)
        #expect(try roster.rosterStamp() == added, "records are no edit of the roster")
        let cards = try roster.rosterCards(only: nil)
        #expect(cards.map(\.card) == [PostgresRosterTests.anna, PostgresRosterTests.fob, PostgresRosterTests.bo])
        #expect(cards.map(\.shortName) == ["AnnA", "AnnA", "bo"])
        let expected = PersonalRecord.bests(of: records.map {
            PersonalRecord.Result(program: "Fran", division: .scaled, score: $0.workout.score!, completedAt: $0.workout.completedAt)
        }).map { ProgramBest(program: $0.program, division: $0.division, score: $0.score) }
        #expect(!expected.isEmpty && cards[0].bests == expected && cards[1].bests == expected, "\(cards)")
        #expect(cards[2].bests.isEmpty)
        #expect(try roster.rosterCards(only: [PostgresRosterTests.fob]).map(\.card) == [PostgresRosterTests.anna, PostgresRosterTests.fob])
        try roster.rename("Bo", shortName: "b0")
        let renamed = try roster.rosterStamp()
        #expect(renamed != added)
        try roster.forget("Bo")
        #expect(try roster.rosterStamp() != renamed)
    }
}
