import Foundation
import GRDB
import GymTimerCore
import GymTimerSystem
import Testing
@testable import GymTimerHistory

/// The gym's roster (schema v6) on a real SQLite file: adding athletes and cards, renaming,
/// merging, finding an athlete's records by name or by any card, forgetting them down to the
/// file's bytes, and exporting what is kept of them.
@Suite struct AthleteRosterTests {
    static let anna = CardID(hex: "04A1B2C3")!
    static let annaFob = CardID(hex: "04D4E5F6A1B2C3")!
    static let ben = CardID(hex: "04B2C3D4")!
    static let guestCard = CardID(hex: "0E")!

    /// A collector's record: `athlete`'s (nil, a guest's) on `station`, `hours` after a fixed start.
    func record(_ n: Int, _ station: String, _ athlete: CardID?) -> StoredWorkout {
        let date = Fixture.date(2026, 3, 2, 9, 0).addingTimeInterval(Double(n) * 3600)
        return StoredWorkout(
            id: "\(station)/workout@\(n)", kind: .workout, sets: 2, durationMilliseconds: 600_000, calories: 10,
            exercises: ["Squats"], preset: "full-body", completedAt: date, localDay: LocalDay(date, in: Fixture.berlin),
            station: station, athlete: athlete)
    }

    /// A gym's database with records of Anna's two cards, Ben's, a card nobody named and a guest.
    func gym(_ dir: TemporaryDirectory) throws -> (path: String, store: HistoryStore) {
        let path = dir.file("gym.sqlite")
        let store = try Fixture.store(path, clock: HandClock(Fixture.date(2026, 3, 9, 9, 0)))
        let cards: [CardID?] = [Self.anna, Self.ben, Self.annaFob, nil, Self.guestCard, Self.anna, Self.ben]
        try store.store(cards.enumerated().map { record($0.offset, "rack-\($0.offset % 2 + 1)", $0.element) })
        return (path, store)
    }

    @Test("short names: derived from the name in the case a digit draws, else the card's tail; a given one is checked")
    func shortNames() throws {
        #expect(RosterNames.shortName(derivedFrom: "Anna Berg", card: Self.anna) == "AnnA")
        #expect(RosterNames.shortName(derivedFrom: "Ben Ohl", card: Self.anna) == "bEno")
        #expect(RosterNames.shortName(derivedFrom: "Max Weber", card: Self.anna) == "AEbE")
        #expect(RosterNames.shortName(derivedFrom: "Wmkx", card: Self.anna) == "B2C3")
        #expect(RosterNames.shortName(derivedFrom: "Zoë", card: Self.anna) == "o")
        for short in ["AnnA", "bEn", "1", "P-3"] { #expect(RosterNames.shortName(short) == short) }
        for short in ["", "    ", "AnnaB", "Kim", "Max", "a\n"] { #expect(RosterNames.shortName(short) == nil) }
        #expect(RosterNames.name("  Anna Berg ") == "Anna Berg")
        for name in ["", "   ", "Anna\nBerg", "Anna\u{7}", "An\u{200B}na", String(repeating: "a", count: 65)] {
            #expect(RosterNames.name(name) == nil)
        }
        #expect(RosterNames.name(String(repeating: "é", count: 64)) != nil)
    }

    @Test("add: a name, a card and a short name; a card already someone's is refused naming whose; names are unique")
    func addAthletes() throws {
        let dir = try TemporaryDirectory()
        let (path, _) = try gym(dir)
        let roster = try AthleteRoster.open(path: path, wall: .fixed(Fixture.date(2026, 3, 1, 8, 0)))
        let anna = try roster.add(name: "Anna Berg", card: Self.anna)
        #expect(anna.name == "Anna Berg" && anna.shortName == "AnnA" && anna.cards == [Self.anna])
        #expect(anna.createdAt == Fixture.date(2026, 3, 1, 8, 0))
        let ben = try roster.add(name: "Ben", card: Self.ben, shortName: "bEn")
        #expect(ben.shortName == "bEn")
        #expect(try roster.athletes().map(\.name) == ["Anna Berg", "Ben"])

        #expect(throws: RosterError.cardTaken(card: Self.anna, owner: "Anna Berg")) {
            try roster.add(name: "Carla", card: Self.anna)
        }
        #expect(throws: RosterError.nameTaken(name: "anna berg")) { try roster.add(name: "anna berg", card: Self.annaFob) }
        #expect(throws: RosterError.badName(name: "")) { try roster.add(name: "", card: Self.annaFob) }
        #expect(throws: RosterError.badShortName(shortName: "Kim")) { try roster.add(name: "Kim", card: Self.annaFob, shortName: "Kim") }
        // Nothing half-done: the refused ones left no row.
        #expect(try roster.athletes().count == 2)
        #expect(try roster.athlete(card: Self.annaFob) == nil)
        #expect(try roster.athlete(named: "ANNA BERG")?.id == anna.id)
        #expect("\(RosterError.cardTaken(card: Self.anna, owner: "Anna Berg"))".contains("already \"Anna Berg\"'s"))
    }

    @Test("another card, a rename, a merge: the merged person's records answer by name and by either card")
    func cardsRenameAndMerge() throws {
        let dir = try TemporaryDirectory()
        let (path, store) = try gym(dir)
        let roster = try AthleteRoster.open(path: path)
        try roster.add(name: "Anna Berg", card: Self.anna)
        try roster.add(name: "Ben", card: Self.ben)
        try roster.add(name: "Anna B.", card: Self.annaFob)
        #expect(throws: RosterError.cardTaken(card: Self.ben, owner: "Ben")) { try roster.addCard(Self.ben, to: "Anna Berg") }
        #expect(throws: RosterError.unknownAthlete(name: "Ana")) { try roster.addCard(Self.guestCard, to: "Ana") }
        #expect(try roster.addCard(Self.anna, to: "anna berg").cards == [Self.anna])

        let renamed = try roster.rename("Anna Berg", to: "Anna Nilsson", shortName: "AnnN")
        #expect(renamed.name == "Anna Nilsson" && renamed.shortName == "AnnN" && renamed.cards == [Self.anna])
        #expect(try roster.rename("Anna Nilsson", shortName: "AnnA").name == "Anna Nilsson")
        #expect(throws: RosterError.nameTaken(name: "Ben")) { try roster.rename("Anna Nilsson", to: "Ben") }
        #expect(throws: RosterError.badShortName(shortName: "Kim")) { try roster.rename("Ben", shortName: "Kim") }

        // Before the merge, the fob's record is "Anna B."'s alone.
        #expect(try store.workouts(scope: roster.scope(for: "Anna B.")).map(\.id) == ["rack-1/workout@2"])
        #expect(throws: RosterError.mergeIntoSelf(name: "Anna B.")) { try roster.merge("Anna B.", into: "anna b.") }
        let merged = try roster.merge("Anna B.", into: "Anna Nilsson")
        #expect(merged.cards == [Self.anna, Self.annaFob] && merged.name == "Anna Nilsson")
        #expect(try roster.athlete(named: "Anna B.") == nil)
        #expect(try roster.athletes().map(\.name) == ["Anna Nilsson", "Ben"])

        let hers = ["rack-1/workout@0", "rack-1/workout@2", "rack-2/workout@5"]
        for text in ["Anna Nilsson", "04A1B2C3", "04:d4:e5:f6:a1:b2:c3"] {
            #expect(try store.workouts(scope: roster.scope(for: text)).map(\.id) == hers, "\(text)")
        }
        #expect(try store.stats(roster.scope(for: "Anna Nilsson")).workouts == 3)
        // A card nobody named is that card alone; neither a name nor a card is an error.
        #expect(try roster.scope(for: "0e") == .athlete([Self.guestCard]))
        #expect(throws: RosterError.unknownAthleteOrCard(text: "Zed")) { try roster.scope(for: "Zed") }
        // The same answers read-only, as `history --athlete` opens it.
        let reader = try AthleteRoster.reading(path: path)
        #expect(try reader.scope(for: "04D4E5F6A1B2C3") == .athlete([Self.anna, Self.annaFob]))
    }

    @Test("forget: their entry, cards and records go in one transaction, and no byte of the file still holds them")
    func forgetLeavesNoTrace() throws {
        let dir = try TemporaryDirectory()
        let (path, store) = try gym(dir)
        // More rows, so the athlete's are spread over many pages among the others'.
        try store.store((10..<400).map { record($0, "rack-\($0 % 3 + 1)", [Self.anna, Self.ben, Self.annaFob, nil][$0 % 4]) })
        let roster = try AthleteRoster.open(path: path)
        try roster.add(name: "Anna Berg", card: Self.anna)
        try roster.addCard(Self.annaFob, to: "Anna Berg")
        try roster.add(name: "Ben", card: Self.ben)
        let traces = ["Anna Berg", Self.anna.hex, Self.annaFob.hex]
        func bytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
        for trace in traces { #expect(try bytes().range(of: Data(trace.utf8)) != nil, "the test's premise: \(trace) is there") }
        let before = try store.workouts()

        let forgotten = try roster.forget("anna berg")
        #expect(forgotten.athlete.name == "Anna Berg" && forgotten.athlete.cards == [Self.anna, Self.annaFob])
        let theirs = before.filter { $0.athlete == Self.anna || $0.athlete == Self.annaFob }
        #expect(forgotten.workouts == theirs.count && theirs.count > 150)

        // Her name is gone at once; her cards wait only in the forget requests the collector
        // carries to the stations, and go when it completes them.
        #expect(try bytes().range(of: Data("Anna Berg".utf8)) == nil, "the name is still in the file")
        let requests = try store.forgetRequests()
        #expect(requests.map(\.card) == [Self.anna, Self.annaFob] && requests.allSatisfy(\.answered.isEmpty))
        for request in requests { try store.completeForget(request: request.id) }
        #expect(try store.forgetRequests().isEmpty)
        let data = try bytes()
        for trace in traces { #expect(data.range(of: Data(trace.utf8)) == nil, "\(trace) is still in the file") }
        for suffix in ["-wal", "-journal"] { #expect(!FileManager.default.fileExists(atPath: path + suffix)) }
        #expect(try roster.athlete(named: "Anna Berg") == nil && roster.athlete(card: Self.anna) == nil)
        #expect(try roster.athletes().map(\.name) == ["Ben"])
        // Everyone else's records stay, Ben's with his card, the guests' too.
        let after = try HistoryStore.reading(path: path).workouts()
        #expect(after.map(\.id) == before.filter { !theirs.contains($0) }.map(\.id))
        #expect(try roster.scope(for: "Ben") == .athlete([Self.ben]))
        #expect(throws: RosterError.unknownAthlete(name: "Anna Berg")) { try roster.forget("Anna Berg") }
        // The collector's open store goes on writing into the rewritten file.
        try store.store([record(500, "rack-1", Self.ben)])
        #expect(try store.workouts(athlete: Self.ben).count == after.filter { $0.athlete == Self.ben }.count + 1)
    }

    @Test("export: their entry, cards and workouts as JSON and as CSV")
    func export() throws {
        let dir = try TemporaryDirectory()
        let (path, _) = try gym(dir)
        let roster = try AthleteRoster.open(path: path, wall: .fixed(1_772_000_000))
        try roster.add(name: "Anna, \"the\" Berg", card: Self.anna)
        try roster.addCard(Self.annaFob, to: "Anna, \"the\" Berg")
        let export = try AthleteRoster.reading(path: path).export("anna, \"the\" berg")
        #expect(export.workouts.map(\.id) == ["rack-1/workout@0", "rack-1/workout@2", "rack-2/workout@5"])

        let json = try JSONSerialization.jsonObject(with: Data(export.json().utf8)) as? [String: Any]
        let athlete = json?["athlete"] as? [String: Any]
        #expect(athlete?["name"] as? String == "Anna, \"the\" Berg" && athlete?["short_name"] as? String == "AnnA")
        #expect(athlete?["cards"] as? [String] == ["04A1B2C3", "04D4E5F6A1B2C3"])
        #expect(athlete?["created_at"] as? String == "2026-02-25T06:13:20Z")
        #expect((json?["workouts"] as? [[String: Any]])?.map { $0["athlete"] as? String } == ["04A1B2C3", "04D4E5F6A1B2C3", "04A1B2C3"])

        let lines = export.csv().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "name,short_name,created_at,cards")
        #expect(lines[1] == "\"Anna, \"\"the\"\" Berg\",AnnA,2026-02-25T06:13:20Z,04A1B2C3; 04D4E5F6A1B2C3")
        #expect(lines[2] == "" && lines[3].hasPrefix("id,completed_at,") && lines.count == 4 + 3 + 1)
    }

    @Test("a missing file is refused, not created; a file before v6 read-only has no roster; opening it migrates it")
    func missingAndOldFiles() throws {
        let dir = try TemporaryDirectory()
        #expect(throws: RosterError.missingDatabase(path: dir.file("typo.sqlite"))) { try AthleteRoster.open(path: dir.file("typo.sqlite")) }
        #expect(throws: RosterError.missingDatabase(path: dir.file("typo.sqlite"))) { try AthleteRoster.reading(path: dir.file("typo.sqlite")) }
        #expect(!FileManager.default.fileExists(atPath: dir.file("typo.sqlite")))

        let path = dir.file("v5.sqlite")
        let old = try DatabaseQueue(path: path)
        try old.write { db in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1'), ('v2'), ('v3'), ('v4'), ('v5');
                CREATE TABLE workouts (id TEXT PRIMARY KEY NOT NULL, kind TEXT NOT NULL, sets INTEGER NOT NULL,
                    duration_ms INTEGER NOT NULL, calories INTEGER NOT NULL, exercises TEXT NOT NULL DEFAULT '[]',
                    preset TEXT, completed_at TEXT NOT NULL, local_day TEXT NOT NULL, score TEXT, station TEXT,
                    clock_synchronised INTEGER, athlete TEXT);
                CREATE TABLE achievements (name TEXT PRIMARY KEY NOT NULL, unlocked_at TEXT NOT NULL);
                """)
        }
        try old.close()
        let reader = try AthleteRoster.reading(path: path)
        #expect(try reader.athletes().isEmpty)
        #expect(try reader.scope(for: "04A1B2C3") == .athlete([Self.anna]))
        #expect(throws: RosterError.unknownAthleteOrCard(text: "Anna")) { try reader.scope(for: "Anna") }
        try AthleteRoster.open(path: path).add(name: "Anna", card: Self.anna)
        #expect(try AthleteRoster.reading(path: path).scope(for: "anna") == .athlete([Self.anna]))
    }

    @Test("public: the owner's choice of how the signed-out world names an athlete is kept, an unknown athlete refused")
    func publicNameIsKept() throws {
        let dir = try TemporaryDirectory()
        let (path, _) = try gym(dir)
        let roster = try AthleteRoster.open(path: path)
        try roster.add(name: "Anna Berg", card: Self.anna)
        #expect(try roster.athlete(named: "anna berg")?.shownName == "Anna B.", "the initial when not said")
        #expect(try roster.setPublicName("Anna Berg", to: .short).shownName == "AnnA")
        #expect(try AthleteRoster.reading(path: path).athlete(named: "Anna Berg")?.publicName == .short)
        #expect(try roster.setPublicName("Anna Berg", to: .guest).shownName == "guest")
        #expect(throws: RosterError.unknownAthlete(name: "Cy")) { try roster.setPublicName("Cy", to: .short) }
    }
}
