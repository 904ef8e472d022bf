import Foundation
import GymTimerCore
import GymTimerHistory
import Testing
import GymTimerFleet
@testable import GymTimerCollector
@testable import GymTimerFleetCommands
@testable import GymTimerFleetLink
@testable import GymTimerStationLink
@testable import GymTimerUpgrade
import GymTimerSystem

@Suite struct GymScoresTests {
    let today = LocalDay(year: 2026, month: 11, day: 24)

    func program(_ id: String, _ name: String, _ score: String?, station: String?, day: LocalDay, at: Double = 1000) -> StoredWorkout {
        StoredWorkout(
            id: id, kind: .program, sets: 0, durationMilliseconds: 60_000, calories: 0, exercises: [], preset: name,
            completedAt: Date(timeIntervalSince1970: at), localDay: day, score: score, station: station)
    }

    @Test func todaysResultsAreRankedPerProgram() {
        let yesterday = LocalDay(year: 2026, month: 11, day: 23)
        let rows = [
            program("1", "AMRAP 12", "5 rounds", station: "rack-1", day: today),
            program("2", "AMRAP 12", "8 rounds", station: "rack-2", day: today),
            program("3", "AMRAP 12", "9 rounds", station: "rack-3", day: yesterday),
            program("4", "For Time", "capped, 5 rounds", station: "rack-1", day: today),
            program("5", "For Time", "12:34, 3 rounds", station: "rack-2", day: today),
            program("6", "For Time", "9:58, 3 rounds", station: "rack-3", day: today),
            program("7", "For Time", "garbage", station: "rack-4", day: today),
            StoredWorkout(
                id: "8", kind: .rest, sets: 3, durationMilliseconds: 1, calories: 0, exercises: [], preset: nil,
                completedAt: Date(timeIntervalSince1970: 1), localDay: today, station: "rack-1"),
        ]
        let scores = GymScores.make(rows, day: today)
        #expect(scores.day == "2026-11-24")
        #expect(scores.boards.map(\.program) == ["AMRAP 12", "For Time"])
        #expect(scores.boards[0].kind == "AMRAP")
        #expect(scores.boards[0].entries.map(\.station) == ["rack-2", "rack-1"])
        #expect(scores.boards[1].kind == "For Time")
        #expect(scores.boards[1].entries.map(\.score) == ["9:58, 3 rounds", "12:34, 3 rounds", "capped, 5 rounds"])
        #expect(scores.week.days.first == "2026-11-18" && scores.week.days.last == "2026-11-24")
        #expect(scores.week.stations == ["rack-1", "rack-2", "rack-3", "rack-4"])
        #expect(scores.week.counts[0] == [0, 0, 0, 0, 0, 0, 3])
        #expect(scores.week.counts[2] == [0, 0, 0, 0, 0, 1, 1])
    }

    @Test func tiedScoresShareARank() {
        let rows = [
            program("1", "AMRAP 12", "5 rounds", station: "rack-1", day: today, at: 1000),
            program("2", "AMRAP 12", "8 rounds", station: "rack-2", day: today, at: 1001),
            program("3", "AMRAP 12", "5 rounds", station: "rack-3", day: today, at: 1002),
            program("4", "AMRAP 12", "4 rounds", station: "rack-4", day: today, at: 1003),
            program("5", "For Time", "9:58, 3 rounds", station: "rack-1", day: today),
            program("6", "For Time", "9:58, 3 rounds", station: "rack-2", day: today, at: 1001),
            program("7", "For Time", "capped, 3 rounds", station: "rack-3", day: today),
        ]
        let boards = GymScores.make(rows, day: today).boards
        #expect(boards[0].entries.map { "\($0.rank) \($0.station)" } == ["1 rack-2", "2 rack-1", "2 rack-3", "4 rack-4"])
        #expect(boards[1].entries.map { "\($0.rank) \($0.station)" } == ["1 rack-1", "1 rack-2", "3 rack-3"],
            "a capped 3 rounds is not tied with a 9:58 for 3 rounds")
    }

    @Test func scoresAreReadBack() {
        #expect(GymScores.parse("1 round") == .init(rounds: 1, seconds: nil, capped: false))
        #expect(GymScores.parse("12:34, 3 rounds") == .init(rounds: 3, seconds: 754, capped: false))
        #expect(GymScores.parse("capped, 5 rounds") == .init(rounds: 5, seconds: nil, capped: true))
        #expect(GymScores.parse("12:99, 3 rounds") == nil)
        #expect(GymScores.parse("x rounds") == nil)
    }

    @Test func theLeaderboardIsReadFromACollectorsDatabase() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("console-scores-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("gym.sqlite").path
        let utc = TimeZone(identifier: "UTC")!
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let day = LocalDay(now, in: utc)
        let store = HistoryStore.opening(path: path, faults: FaultLog(sink: { _ in }), timeZone: utc, wall: .fixed(now))
        var anna = program("b", "AMRAP 12", "8 rounds", station: "rack-2", day: day, at: now.timeIntervalSince1970)
        anna.athlete = CardID(hex: "04A1B2C3")
        _ = try store.store([program("a", "AMRAP 12", "7 rounds", station: "rack-1", day: day, at: now.timeIntervalSince1970), anna])
        // The roster's names are read with the scores (the collector's desk opens the file read-only).
        let annaID = try AthleteRoster.open(path: path).add(name: "Anna Berg", card: CardID(hex: "04A1B2C3")!).id
        let decoded = try GymDatabase(path: path, timeZone: utc, wall: .fixed(now)).scores().get()
        #expect(decoded.boards == [.init(program: "AMRAP 12", kind: "AMRAP", entries: [
            .init(id: "b", athlete: "Anna Berg", athleteID: annaID, station: "rack-2", score: "8 rounds", at: now.timeIntervalSince1970, rank: 1,
                  shown: "Anna B."),
            .init(id: "a", station: "rack-1", score: "7 rounds", at: now.timeIntervalSince1970, rank: 2),
        ])])
        #expect(decoded.week.stations == ["rack-1", "rack-2"])
        let missing = GymDatabase(path: directory.appendingPathComponent("none").path).scores()
        #expect((try? missing.get()) == nil)
    }
}
