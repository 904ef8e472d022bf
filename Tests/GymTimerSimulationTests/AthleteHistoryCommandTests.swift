import Foundation
import GymTimerCore
import GymTimerHistory
import Testing
import GymTimerSystem

/// `gymtimer history --athlete CARD` and `gymtimer stats --athlete CARD`, the real binary on a
/// real collector's database: one athlete's records, points and card; a card that is no UID a
/// one-line error.
@Suite struct AthleteHistoryCommandTests {
    static let card = CardID(hex: "04A1B2C3")!

    /// A collector's database: two workouts of the athlete's (two stations), one of another's, one guest's.
    func database(in files: ScratchDirectory) throws -> String {
        let path = files.path + "/gym.sqlite"
        let store = try HistoryStore(path: path, faults: FaultLog(sink: { _ in }))
        let start = Date(timeIntervalSince1970: 1_767_600_000)
        let entries: [(String, CardID?)] = [("rack-1", Self.card), ("rack-2", Self.card), ("rack-1", CardID(hex: "0E")), ("rack-2", nil)]
        try store.store(entries.enumerated().map { n, entry in
            let date = start.addingTimeInterval(Double(n) * 3600)
            return StoredWorkout(
                id: "\(entry.0)/rest@\(n)", kind: .rest, sets: 3, durationMilliseconds: 300_000, calories: 0, exercises: [],
                preset: nil, completedAt: date, localDay: LocalDay(date, in: .current), station: entry.0, athlete: entry.1)
        })
        return path
    }

    @Test func historyAndStatsAnswerForOneAthlete() throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let files = try ScratchDirectory()
        let path = try database(in: files)

        let table = try GymtimerBinary.run(["history", "--db", path, "--athlete", "04a1b2c3"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Station  Athlete   Date") == true, "\(table.stdout)")
        #expect(lines.filter { $0.contains("04A1B2C3") }.count == 2 && !table.stdout.contains(" 0E "), "\(table.stdout)")
        #expect(table.stdout.contains("2 workouts,"), "\(table.stdout)")

        let json = try GymtimerBinary.run(["history", "--db", path, "--json", "--athlete", "04A1B2C3"])
        let records = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(records?.map { $0["id"] as? String } == ["rack-1/rest@0", "rack-2/rest@1"])
        #expect(records?.map { $0["athlete"] as? String } == ["04A1B2C3", "04A1B2C3"])
        // The whole history: every record, the guest's without an athlete.
        let all = try GymtimerBinary.run(["history", "--db", path, "--json"])
        let every = try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]]
        #expect(every?.map { $0["athlete"] as? String } == ["04A1B2C3", "04A1B2C3", "0E", nil])

        let stats = try GymtimerBinary.run(["stats", "--db", path, "--json", "--athlete", "04A1B2C3"])
        let numbers = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
        #expect(numbers?["workouts"] as? Int == 2 && numbers?["points"] as? Int == 100, "\(stats.stdout)")
        let text = try GymtimerBinary.run(["stats", "--db", path, "--athlete", "0E"])
        #expect(text.stdout.contains("Points:          50"), "\(text.stdout)")
    }

    @Test(arguments: ["zz", "04A1B2C", "", String(repeating: "AB", count: 11)])
    func neitherANameNorAUIDIsAOneLineError(card: String) throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let files = try ScratchDirectory()
        let path = try database(in: files)
        for command in ["history", "stats"] {
            let outcome = try GymtimerBinary.run([command, "--db", path, "--athlete", card])
            #expect(outcome.status == 2)
            #expect(outcome.stdout.isEmpty)
            #expect(outcome.stderr == "gymtimer: no athlete named \(card) in the roster of \(path), and not a card either (its pseudonym as `athletes list` prints it)\n")
        }
        let both = try GymtimerBinary.run(["history", "--db", path, "--athlete", "04A1B2C3", "--station", "rack-1"])
        #expect(both.status == 2 && both.stderr.split(separator: "\n").count == 1, "\(both.stderr)")
    }

    /// `history --void ID`, the real binary on the file: the result is void (its score shown
    /// so in the table), again is a one-line error, and so is an id that is not one.
    @Test func historyVoidsAResult() throws {
        try #require(GymtimerBinary.isBuilt, "build first: swift build")
        let files = try ScratchDirectory()
        let path = files.path + "/gym.sqlite"
        let store = try HistoryStore(path: path, faults: FaultLog(sink: { _ in }))
        let date = Date(timeIntervalSince1970: 1_767_600_000)
        try store.store([StoredWorkout(
            id: "rack-2/program@1", kind: .program, sets: 99, durationMilliseconds: 600_000, calories: 0, exercises: [],
            preset: "Fran", completedAt: date, localDay: LocalDay(date, in: .current), score: "99 rounds", station: "rack-2",
            athlete: Self.card)])

        let voided = try GymtimerBinary.run(["history", "--db", path, "--void", "rack-2/program@1"])
        #expect(voided.status == 0 && voided.stdout == "rack-2/program@1: void; no best or leaderboard counts it\n", "\(voided)")
        let table = try GymtimerBinary.run(["history", "--db", path])
        #expect(table.stdout.contains("void (99 rounds)"), "\(table.stdout)")
        let stats = try GymtimerBinary.run(["stats", "--db", path, "--json"])
        #expect(!stats.stdout.contains("99 rounds"), "no record counts it: \(stats.stdout)")

        let again = try GymtimerBinary.run(["history", "--db", path, "--void", "rack-2/program@1"])
        #expect(again.status == 1 && again.stderr.hasPrefix("gymtimer: \(path): no program result") && again.stderr.filter { $0 == "\n" }.count == 1, "\(again)")
        let bad = try GymtimerBinary.run(["history", "--db", path, "--void", "rack\u{202E}-2"])
        #expect(bad.status == 2 && bad.stderr.contains("not a result's id"), "\(bad)")
        let missing = try GymtimerBinary.run(["history", "--db", files.path + "/none.sqlite", "--void", "rack-2/program@1"])
        #expect(missing.status == 1 && missing.stderr.contains("no history database there"), "\(missing)")
    }
}
