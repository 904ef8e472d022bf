import Foundation
import GymTimerBenchSupport
import GymTimerCentral
import GymTimerCore
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerHistory
import GymTimerTestSupport
import Testing

/// The chain's PostgreSQL from before card pseudonyms, carried in place with the chain's key
/// (`gymtimer-central collect --card-key`), on a real server: every workout's and roster
/// card's UID becomes its pseudonym, a card stored both ways keeps its pseudonym's row, a
/// second run finds nothing, and a record an older station still sends with a UID is stored
/// under the pseudonym.
@Suite(.serialized) struct PostgresCardMigrationTests {
    @Test func theChainsDatabaseIsCarriedToPseudonymsInPlace() throws {
        let server = try LocalPostgres()
        let store = try PostgresRecordStoreTests.store(server)
        let (anna, ben) = (CardID(hex: "04A1B2C3")!, CardID(hex: "0B0E0B0E")!)
        #expect(try store.store([
            PostgresRecordStoreTests.record("north", "rower", minutes: 1, athlete: anna),
            PostgresRecordStoreTests.record("south", "rower", minutes: 2, athlete: anna),
            PostgresRecordStoreTests.record("south", "bike", minutes: 3, athlete: ben),
            PostgresRecordStoreTests.record("south", "bike", minutes: 4),
        ]) == 4)
        let roster = try PostgresRosterTests.roster(server)
        _ = try roster.add(name: "Anna Berg", card: anna)
        _ = try roster.addCard(TestCardKey.card("04A1B2C3"), to: "Anna Berg")
        _ = try roster.add(name: "Ben Ohl", card: ben)
        #expect(try store.storedUIDCount() == 4, "the test's premise: two in the workouts, two in the roster")

        #expect(try store.carryCards(with: TestCardKey.key) == 4)
        #expect(try store.storedUIDCount() == 0)
        #expect(try store.carryCards(with: TestCardKey.key) == 0, "run again, it finds nothing")
        let (a, b) = (TestCardKey.hex("04A1B2C3"), TestCardKey.hex("0B0E0B0E"))
        #expect(try server.query("SELECT gym, athlete FROM workouts ORDER BY completed_at")
            == [["north", a], ["south", a], ["south", b], ["south", ""]], "every workout kept, by its pseudonym")
        #expect(try server.query("SELECT a.name, c.card FROM athletes a JOIN athlete_cards c ON c.athlete_id = a.id ORDER BY a.name")
            == [["Anna Berg", a], ["Ben Ohl", b]], "Anna's card stored both ways is one row")
        let everything = try server.query("SELECT string_agg(athlete, ',') FROM workouts").description
            + (try server.query("SELECT string_agg(card, ',') FROM athlete_cards").description)
        #expect(!everything.contains("04A1B2C3") && !everything.contains("0B0E0B0E"), "\(everything)")

        // An older station's record still naming the UID: stored under the pseudonym.
        store.cardKey = TestCardKey.key
        #expect(try store.store([PostgresRecordStoreTests.record("north", "rower", minutes: 5, athlete: anna)]) == 1)
        #expect(try server.query("SELECT athlete FROM workouts WHERE id = 'rower/program@5'") == [[a]])
    }
}
