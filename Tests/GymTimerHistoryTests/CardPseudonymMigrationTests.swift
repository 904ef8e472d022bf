import Foundation
import GymTimerCore
import GymTimerHistory
import GymTimerSystem
import GymTimerTestSupport
import Testing

/// A gym's database from before card pseudonyms, carried in place when the collector is given
/// the gym's key (`HistoryStore.cardKey`, what `gymtimer collect --card-key` sets): every
/// workout's, roster card's and forget request's UID becomes its pseudonym, nothing is lost, no
/// byte of a UID is left, and a second start changes nothing.
@Suite struct CardPseudonymMigrationTests {
    let directory = testDirectory("card-migration")

    func workout(_ n: Int, _ card: String?) -> StoredWorkout {
        let date = Date(timeIntervalSince1970: 1_767_600_000 + Double(n) * 600)
        return StoredWorkout(
            id: "rack-1/rest@\(n)", kind: .rest, sets: 2, durationMilliseconds: 60_000, calories: 0, exercises: [], preset: nil,
            completedAt: date, localDay: LocalDay(date, in: .current), station: "rack-1", athlete: card.flatMap { CardID(hex: $0) })
    }

    @Test func aGymDatabaseIsCarriedToPseudonymsInPlaceWithNothingLost() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/gym.sqlite"
        do {
            let store = try HistoryStore(path: path, faults: FaultLog(sink: { _ in }))
            try store.store([workout(1, "04A1B2C3"), workout(2, "04A1B2C3"), workout(3, "0B0E0B0E"), workout(4, nil), workout(5, "0C0C0C0C")])
            let roster = try AthleteRoster.open(path: path)
            _ = try roster.add(name: "Anna Berg", card: CardID(hex: "04A1B2C3")!)
            _ = try roster.add(name: "Ben Ohl", card: CardID(hex: "0B0E0B0E")!)
            // Ben's second fob, added after the change (its pseudonym), and also stored as a UID before.
            _ = try roster.addCard(TestCardKey.card("0D0D0D0D"), to: "Ben Ohl")
            _ = try roster.add(name: "Cy", card: CardID(hex: "0C0C0C0C")!)
            _ = try roster.forget("Cy")
            // Counted per column: two in the workouts, two in the roster's cards, one forget request.
            #expect(store.storedUIDCount() == 5, "the test's premise")
        }
        let bytesBefore = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytesBefore.range(of: Data("04A1B2C3".utf8)) != nil)

        var lines: [String] = []
        let store = try HistoryStore(path: path, faults: FaultLog(sink: { lines.append($0) }))
        store.cardKey = TestCardKey.key
        #expect(store.storedUIDCount() == 0)
        #expect(lines == ["history \(path): 5 card UID(s) stored before pseudonyms now their pseudonyms"], "\(lines)")
        let workouts = try store.workouts()
        #expect(workouts.map { $0.athlete?.hex ?? "guest" } == [
            TestCardKey.hex("04A1B2C3"), TestCardKey.hex("04A1B2C3"), TestCardKey.hex("0B0E0B0E"), "guest",
        ], "every workout kept, Cy's forgotten ones gone as before")
        let roster = try AthleteRoster.reading(path: path)
        #expect(try roster.athlete(named: "Anna Berg")?.cards == [TestCardKey.card("04A1B2C3")])
        #expect(try roster.athlete(named: "Ben Ohl")?.cards.sorted() == [TestCardKey.card("0B0E0B0E"), TestCardKey.card("0D0D0D0D")].sorted())
        #expect(try store.forgetRequests().map(\.card) == [TestCardKey.card("0C0C0C0C")], "a forget still owed names the pseudonym")
        // Her history by name still finds both her records.
        #expect(try store.workouts(scope: try roster.scope(for: "Anna Berg")).count == 2)
        lines = []
        store.cardKey = TestCardKey.key
        #expect(lines.isEmpty, "a second start finds nothing to carry")
    }

    @Test func aCardStoredBothWaysKeepsItsPseudonymsRow() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/gym.sqlite"
        let store = try HistoryStore(path: path, faults: FaultLog(sink: { _ in }))
        let roster = try AthleteRoster.open(path: path)
        _ = try roster.add(name: "Anna Berg", card: CardID(hex: "04A1B2C3")!)
        _ = try roster.addCard(TestCardKey.card("04A1B2C3"), to: "Anna Berg")
        store.cardKey = TestCardKey.key
        #expect(try AthleteRoster.reading(path: path).athlete(named: "Anna Berg")?.cards == [TestCardKey.card("04A1B2C3")])
    }
}
