import Foundation
import GymTimerCore
import GymTimerHistory
import Testing
@testable import GymTimerCollector
@testable import GymTimerFleetCommands
@testable import GymTimerFleetLink
@testable import GymTimerStationLink
@testable import GymTimerUpgrade
import GymTimerSystem

/// The coach's edits on a real collector's database, as the collector's desk does them: a new card offered then named, a rename,
/// a refusal that says why, and an athlete's summary by the station's rules.
@Suite struct GymDatabaseTests {
    let utc = TimeZone(identifier: "UTC")!
    let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18, 08:26 UTC

    func gym() throws -> (path: String, cleanup: () -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("console-gym-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/gym.sqlite"
        let store = try HistoryStore(path: path, faults: FaultLog(sink: { _ in }), timeZone: utc, busyTimeout: .zero, wall: .fixed(now))
        let rows: [(String, String, String?, Double)] = [
            ("rack-1", "8 rounds", "04A1B2C3", -86_400), ("rack-1", "9 rounds", "04A1B2C3", -60), ("rack-2", "5 rounds", "0DDC0FFE", -30),
        ]
        try store.store(rows.enumerated().map { index, row in
            let at = now.addingTimeInterval(row.3)
            return StoredWorkout(
                id: "\(row.0)/program@\(index)", kind: .program, sets: 0, durationMilliseconds: 720_000, calories: 0, exercises: [],
                preset: "AMRAP 12", completedAt: at, localDay: LocalDay(at, in: utc), score: row.1, station: row.0,
                athlete: row.2.flatMap(CardID.init(hex:)))
        })
        _ = try AthleteRoster.open(path: path).add(name: "Anna Berg", card: CardID(hex: "04A1B2C3")!)
        return (path, { try? FileManager.default.removeItem(atPath: folder) })
    }

    @Test func aNewCardIsOfferedThenNamedAndRenamed() throws {
        let (path, cleanup) = try gym()
        defer { cleanup() }
        let database = GymDatabase(path: path, timeZone: utc, wall: .fixed(now))
        let before = try database.roster(onStations: ["rack-3": CardID(hex: "04A1B2C3")!]).get()
        #expect(before.athletes.map(\.name) == ["Anna Berg"])
        #expect(before.newCards == [.init(card: "0DDC0FFE", station: "rack-2")], "Anna's card on rack-3 is known: not offered")
        #expect(try database.name(card: CardID(hex: "0DDC0FFE")!, name: "Cara Dune", short: "CArA").get()
            == "Card 0DDC0FFE is Cara Dune (CArA on the wall)")
        let after = try database.roster().get()
        #expect(after.newCards.isEmpty && after.athletes.map(\.name) == ["Anna Berg", "Cara Dune"])
        let cara = try #require(after.athletes.last)
        #expect(try database.rename(id: cara.id, name: "Cara Lind", short: nil).get() == "Cara Dune is now Cara Lind (CArA on the wall)")
        guard case .failure(let problem) = database.rename(id: cara.id, name: nil, short: "WWWW") else {
            Issue.record("a short name a digit cannot draw was taken")
            return
        }
        #expect(problem.description.hasPrefix("Not renamed: bad short name"))
        // How the signed-out world names her, the owner's choice from the console's roster row.
        #expect(try database.rename(id: cara.id, name: nil, short: nil, shown: .short).get() == "Signed out, Cara Lind is shown as CArA")
        #expect(try database.roster().get().athletes.last?.shown == .short)
        #expect(try database.rename(id: cara.id, name: "Cara Dune", short: nil, shown: .guest).get()
            == "Cara Lind is now Cara Dune (CArA on the wall), shown signed out as guest")
        guard case .failure(let taken) = database.name(card: CardID(hex: "04A1B2C3")!, name: "Mallory", short: nil) else {
            Issue.record("someone's card was given to another")
            return
        }
        #expect(taken.description.contains("already \"Anna Berg\"'s"))
    }

    @Test func theCoachSetsAResultsDivision() throws {
        let (path, cleanup) = try gym()
        defer { cleanup() }
        let database = GymDatabase(path: path, timeZone: utc, wall: .fixed(now))
        #expect(try database.setDivision(record: "rack-1/program@1", division: .scaled).get() == "Anna Berg's AMRAP 12 (9 rounds) is Scaled now")
        let stored = try HistoryStore.reading(path: path, timeZone: utc, wall: .fixed(now)).workouts().first { $0.id == "rack-1/program@1" }
        #expect(stored?.division == .scaled)
        guard case .failure(let problem) = database.setDivision(record: "rack-9/program@9", division: .rx) else {
            Issue.record("a result that does not exist was amended")
            return
        }
        #expect(problem.description == "Not changed: no such program result (reload the page)")
        let missing = GymDatabase(path: path + ".typo")
        #expect((try? missing.setDivision(record: "rack-1/program@1", division: .rx).get()) == nil)
        #expect(!FileManager.default.fileExists(atPath: path + ".typo"), "a typo'd path is no new database")
    }

    @Test func anAthletesSummaryFollowsTheStationsRules() throws {
        let (path, cleanup) = try gym()
        defer { cleanup() }
        let database = GymDatabase(path: path, timeZone: utc, wall: .fixed(now))
        let anna = try #require(try database.athletes().get().first)
        let summary = try #require(try database.summary(id: anna.id).get())
        #expect(summary.name == "Anna Berg" && summary.workouts == 2 && summary.points == 100)
        #expect(summary.currentStreak == 2)
        #expect(summary.records.map { "\($0.program) \($0.score)" } == ["AMRAP 12 9 rounds"])
        #expect(summary.week.map(\.workouts.count) == [0, 0, 0, 0, 0, 1, 1])
        #expect(try database.summary(id: 999).get() == nil)
    }
}
