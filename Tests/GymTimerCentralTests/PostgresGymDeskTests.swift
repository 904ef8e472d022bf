import Foundation
import GymTimerBenchSupport
import GymTimerCentral
import GymTimerCore
import GymTimerFleet
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerHistory
import Testing

/// A chain gym's desk in the central PostgreSQL (a real server, LocalPostgres): the gym's
/// scores, roster and athlete pages from its own rows only, names from the chain's roster,
/// the coach's Rx/Scaled switch, and the roster's edits refused (they belong to `gymtimer athletes`).
@Suite(.serialized) struct PostgresGymDeskTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let start = 1_780_000_000.0
    static let anna = CardID(hex: "04A1B2C3")!
    static let newcomer = CardID(hex: "0499AABB")!

    /// A Fran of `gym`'s `station` finished `minutes` after `start` in `seconds`.
    static func fran(_ gym: String, _ station: String, minutes: Int, seconds: Int, card: CardID?) -> CollectedRecord {
        let completed = Date(timeIntervalSince1970: start + Double(minutes * 60))
        let workout = StoredWorkout(
            id: "\(station)/program@\(minutes)", kind: .program, sets: 3, durationMilliseconds: Int64(seconds) * 1000, calories: 40,
            exercises: ["Thruster", "Pull-up"], preset: "Fran", completedAt: completed, localDay: LocalDay(completed, in: utc),
            score: "\(seconds / 60):\(String(format: "%02d", seconds % 60)), 3 rounds", station: station, clockSynchronised: true,
            athlete: card, division: .rx)
        return CollectedRecord(gym: gym, workout: workout)
    }

    /// The agreed roster tables (central schema 2, written by the roster's branch), with Anna.
    static func roster(_ server: LocalPostgres) throws {
        _ = try server.query(
            "CREATE TABLE IF NOT EXISTS athletes (id bigserial PRIMARY KEY, name text NOT NULL UNIQUE, short_name text NOT NULL, "
                + "added_at timestamptz NOT NULL DEFAULT clock_timestamp())")
        _ = try server.query(
            "CREATE TABLE IF NOT EXISTS athlete_cards (card text PRIMARY KEY, athlete_id bigint NOT NULL REFERENCES athletes(id) ON DELETE CASCADE)")
        _ = try server.query("INSERT INTO athletes (name, short_name) VALUES ('Anna Berg', 'AnnA')")
        _ = try server.query("INSERT INTO athlete_cards (card, athlete_id) SELECT '04A1B2C3', id FROM athletes WHERE name = 'Anna Berg'")
    }

    /// Two gyms' records: north's Anna (4:00) and a new card (3:30), south's Anna (2:00).
    static func chain() throws -> (LocalPostgres, PostgresRecordStore) {
        let server = try LocalPostgres()
        let store = PostgresRecordStore(url: try PostgresURL.parse(server.url), timeouts: PostgresTimeouts(connect: .seconds(5), query: .seconds(10)))
        let records = [
            fran("north", "bench-1", minutes: 1, seconds: 240, card: anna), fran("north", "rower", minutes: 2, seconds: 210, card: newcomer),
            fran("south", "bench-1", minutes: 3, seconds: 120, card: anna),
        ]
        #expect(try store.store(records) == 3, "\(server.log)")
        return (server, store)
    }

    static func desk(_ store: PostgresRecordStore, _ gym: String) -> PostgresGymDesk {
        store.desk(gym: gym, timeZone: utc, wall: .fixed(start + 3_600))
    }

    @Test func scoresAreTheGymsOwnNamedFromTheChainsRoster() throws {
        let (server, store) = try Self.chain()
        try Self.roster(server)
        let scores = try Self.desk(store, "north").scores().get()
        #expect(scores.day == "2026-05-28")
        #expect(scores.boards.map(\.program) == ["Fran"])
        let entries = scores.boards.first?.entries ?? []
        #expect(entries.map(\.athlete) == ["new card AABB", "Anna Berg"], "\(entries)")
        #expect(entries.map(\.score) == ["3:30, 3 rounds", "4:00, 3 rounds"])
        #expect(entries.map(\.station) == ["rower", "bench-1"])
        #expect(entries.map(\.rank) == [1, 2])
        #expect(entries[1].athleteID != nil && entries[0].athleteID == nil)
        #expect(scores.week.stations == ["bench-1", "rower"] && scores.week.counts.map { $0.last } == [1, 1])
        let south = try Self.desk(store, "south").scores().get()
        #expect(south.boards.first?.entries.map(\.athlete) == ["Anna Berg"])
        #expect(south.boards.first?.entries.map(\.score) == ["2:00, 3 rounds"])
        #expect(try Self.desk(store, "east").scores().get().boards.isEmpty)
        #expect(try PostgresGymDesk.gyms(in: store, since: Date(timeIntervalSince1970: Self.start)) == ["north", "south"])
    }

    @Test func withoutTheRostersTablesEveryCardIsNew() throws {
        let (server, store) = try Self.chain()
        let scores = try Self.desk(store, "north").scores().get()
        #expect(scores.boards.first?.entries.map(\.athlete) == ["new card AABB", "new card B2C3"])
        #expect(try Self.desk(store, "north").athletes().get().isEmpty)
        withExtendedLifetime(server) {}
    }

    @Test func rosterAndSummaryAreTheGyms() throws {
        let (server, store) = try Self.chain()
        try Self.roster(server)
        let desk = Self.desk(store, "north")
        let roster = try desk.roster(onStations: ["ski": try #require(CardID(hex: "0411"))]).get()
        #expect(roster.athletes.map(\.name) == ["Anna Berg"])
        #expect(roster.athletes.first?.cards == ["04A1B2C3"] && roster.athletes.first?.short == "AnnA")
        #expect(roster.newCards == [.init(card: "0411", station: "ski"), .init(card: "0499AABB", station: "rower")])
        let id = try #require(roster.athletes.first?.id)
        // Her page follows her: her records at every gym, another gym's named where it was.
        let summary = try #require(try desk.summary(id: id).get())
        #expect(summary.name == "Anna Berg" && summary.workouts == 2, "\(summary)")
        #expect(summary.week.flatMap(\.workouts).map(\.score) == ["4:00, 3 rounds", "2:00, 3 rounds"], "\(summary.week)")
        #expect(summary.records.map(\.score) == ["2:00, 3 rounds"], "\(summary.records)")
        #expect(summary.records.map(\.station) == ["south/bench-1"], "\(summary.records)")
        #expect(try desk.summary(id: id + 100).get() == nil)
        let south = try #require(try Self.desk(store, "south").summary(id: id).get())
        #expect(south.workouts == 2 && south.records.map(\.score) == ["2:00, 3 rounds"])
        #expect(south.records.map(\.station) == ["bench-1"], "at south, its own station")
    }

    /// A gym's console learns only its own members: Bo, who has trained at south only, is in
    /// none of north's answers (roster, class list, page) until his card is on a north station.
    @Test func aGymIsToldOnlyItsOwnMembers() throws {
        let (server, store) = try Self.chain()
        try Self.roster(server)
        let bo = try #require(CardID(hex: "04B0B0B0"))
        _ = try server.query("INSERT INTO athletes (name, short_name) VALUES ('Bo Lind', 'Bo')")
        _ = try server.query("INSERT INTO athlete_cards (card, athlete_id) SELECT '04B0B0B0', id FROM athletes WHERE name = 'Bo Lind'")
        _ = try server.query("INSERT INTO athletes (name, short_name) VALUES ('Cy Nobody', 'Cy')")
        #expect(try store.store([Self.fran("south", "rower", minutes: 4, seconds: 300, card: bo)]) == 1)
        let north = Self.desk(store, "north"), south = Self.desk(store, "south")
        #expect(try north.roster(onStations: [:]).get().athletes.map(\.name) == ["Anna Berg"])
        #expect(try north.athletes().get().map(\.name) == ["Anna Berg"])
        #expect(try south.athletes().get().map(\.name) == ["Anna Berg", "Bo Lind"])
        let boID = try #require(try south.athletes().get().first { $0.name == "Bo Lind" }?.id)
        #expect(try north.summary(id: boID).get() == nil, "his page is not north's to read")
        #expect(try south.summary(id: boID).get()?.workouts == 1)
        // His card on a north station: he is north's to see, by name, and no new card.
        let tapped = try north.roster(onStations: ["ski": bo]).get()
        #expect(tapped.athletes.map(\.name) == ["Anna Berg", "Bo Lind"] && tapped.newCards.map(\.card) == ["0499AABB"])
        // Nobody's athlete without a record (Cy) is any gym's.
        #expect(try south.roster(onStations: [:]).get().athletes.map(\.name) == ["Anna Berg", "Bo Lind"])
    }

    @Test func divisionIsSwitchedInTheGymOnlyAndRosterEditsAreRefused() throws {
        let (server, store) = try Self.chain()
        try Self.roster(server)
        let desk = Self.desk(store, "north")
        #expect(try desk.setDivision(record: "bench-1/program@1", division: .scaled).get() == "Anna Berg's Fran (4:00, 3 rounds) is Scaled now")
        #expect(try server.query("SELECT gym, division FROM workouts WHERE id = 'bench-1/program@1' ORDER BY gym") == [["north", "scaled"]])
        // south's bench-1/program@3 is not north's to switch.
        if case .success = desk.setDivision(record: "bench-1/program@3", division: .scaled) { Issue.record("switched another gym's result") }
        #expect(try desk.scores().get().boards.first?.entries.map(\.division) == [.rx, .scaled])
        guard case .failure(let refused) = desk.rename(id: 1, name: "Ann", short: nil, shown: nil) else { Issue.record("renamed"); return }
        #expect(refused.description == PostgresGymDesk.rosterElsewhere)
        guard case .failure = desk.name(card: Self.newcomer, name: "Bo", short: nil) else { Issue.record("named"); return }
        #expect(try server.query("SELECT count(*) FROM athletes") == [["1"]])
    }

    /// The coach voids a result of their gym: it leaves the gym's board (its score kept aside,
    /// schema v3); another gym's result of the same id is not theirs to void.
    @Test func aResultIsVoidedInTheGymOnly() throws {
        let (server, store) = try Self.chain()
        try Self.roster(server)
        let desk = Self.desk(store, "north")
        let before = try desk.scores().get().boards.first?.entries.count ?? 0
        #expect(try desk.void(record: "bench-1/program@1").get() == "Anna Berg's Fran (4:00, 3 rounds) is void: no best or leaderboard counts it")
        #expect(try server.query("SELECT gym, score, voided_score FROM workouts WHERE id = 'bench-1/program@1' ORDER BY gym")
            == [["north", "", "4:00, 3 rounds"]])
        #expect(try desk.scores().get().boards.first?.entries.count ?? 0 == before - 1)
        if case .success = desk.void(record: "bench-1/program@1") { Issue.record("voided twice") }
        if case .success = desk.void(record: "bench-1/program@3") { Issue.record("voided another gym's result") }
        #expect(try store.records(gym: "north").first { $0.workout.id == "bench-1/program@1" }?.workout.voidedScore == "4:00, 3 rounds")
    }
}
