import Foundation
import GymTimerCore
import Testing
@testable import GymTimerHistory

/// An athlete's personal records, over every station of the gym: each program's best (the
/// fastest finish of a for-time, else the most rounds), first reached; nobody else's results.
@Suite struct PersonalRecordTests {
    static let anna = CardID(hex: "04A1B2C3")!
    static let ben = CardID(hex: "0E0F1011")!

    func program(_ id: String, _ name: String, _ score: ProgramScore, _ athlete: CardID?, _ station: String, day: Int) -> StoredWorkout {
        let date = Fixture.date(2026, 3, day, 18, 0)
        return StoredWorkout(
            id: id, kind: .program, sets: score.rounds, durationMilliseconds: 720_000, calories: 0, exercises: [],
            preset: name, completedAt: date, localDay: LocalDay(date, in: Fixture.berlin), score: score.description,
            station: station, athlete: athlete)
    }

    @Test func aScoreReadsBackFromItsTextAndOnlyFromIt() {
        for score in [ProgramScore(rounds: 0), ProgramScore(rounds: 1), ProgramScore(rounds: 8), ProgramScore(rounds: 3, time: .seconds(754)),
                      ProgramScore(rounds: 5, capped: true), ProgramScore(rounds: 1, time: .seconds(6000))] {
            #expect(ProgramScore(text: score.description) == score, "\(score)")
        }
        for junk in ["", "8", "8 round", "1 rounds", "-2 rounds", "12:3, 3 rounds", "12:60, 3 rounds", "x, 3 rounds", "capped", "1:00, 2 rounds, 3 rounds"] {
            #expect(ProgramScore(text: junk) == nil, "\(junk)")
        }
        #expect(ProgramScore(rounds: 3, time: .seconds(700)).beats(ProgramScore(rounds: 3, time: .seconds(754))))
        #expect(ProgramScore(rounds: 1, time: .seconds(900)).beats(ProgramScore(rounds: 9, capped: true)), "a finish beats the cap")
        #expect(!ProgramScore(rounds: 8).beats(ProgramScore(rounds: 8)), "an equal result is no new record")
    }

    @Test func anAthletesRecordsAreTheirBestOnAnyStationFirstReached() throws {
        let dir = try TemporaryDirectory()
        let store = try Fixture.store(dir.file("gym.sqlite"), clock: HandClock(Fixture.date(2026, 3, 20, 9, 0)))
        _ = try store.store([
            program("rack-1/p@1", "AMRAP 12", ProgramScore(rounds: 6), Self.anna, "rack-1", day: 2),
            program("rack-2/p@2", "AMRAP 12", ProgramScore(rounds: 8), Self.anna, "rack-2", day: 4),
            program("rack-1/p@3", "AMRAP 12", ProgramScore(rounds: 8), Self.anna, "rack-1", day: 6),
            program("rack-1/p@4", "AMRAP 12", ProgramScore(rounds: 11), Self.ben, "rack-1", day: 6),
            program("rack-1/p@5", "Fran", ProgramScore(rounds: 3, time: .seconds(754)), Self.anna, "rack-1", day: 3),
            program("rack-2/p@6", "Fran", ProgramScore(rounds: 5, capped: true), Self.anna, "rack-2", day: 5),
            program("rack-2/p@7", "Fran", ProgramScore(rounds: 3, time: .seconds(719)), Self.anna, "rack-2", day: 9),
            program("rack-2/p@8", "Fran", ProgramScore(rounds: 3, time: .seconds(400)), nil, "rack-2", day: 9),
        ])
        let records = try store.stats(.athlete([Self.anna])).records
        #expect(records.map(\.program) == ["AMRAP 12", "Fran"])
        #expect(records.map(\.score) == ["8 rounds", "11:59, 3 rounds"])
        #expect(records.map(\.station) == ["rack-2", "rack-2"])
        #expect(records.map { LocalDay($0.completedAt, in: Fixture.berlin).description } == ["2026-03-04", "2026-03-09"])
        #expect(try store.stats(.athlete([Self.ben])).records.map(\.score) == ["11 rounds"])
        #expect(try store.stats(.all).records.map(\.score) == ["11 rounds", "6:40, 3 rounds"], "the gym's records: anyone's")
        let text = HistoryOutput.text(try store.stats(.athlete([Self.anna])), timeZone: Fixture.berlin)
        #expect(text.hasSuffix("Records:\n  AMRAP 12: 8 rounds (2026-03-04, rack-2)\n  Fran: 11:59, 3 rounds (2026-03-09, rack-2)\n"), "\(text)")
    }
}
