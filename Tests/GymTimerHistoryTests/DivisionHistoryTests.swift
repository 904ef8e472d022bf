import Foundation
import GRDB
import GymTimerCore
import Testing
@testable import GymTimerHistory

/// Rx or Scaled in the history (schema v7's `division`): stored with a program's result, shown
/// by `history`, amended by the coach (`setDivision`), and records kept per program and
/// division, an unsaid division counting as Rx. A v6 file keeps its rows when migrated.
@Suite struct DivisionHistoryTests {
    static let anna = CardID(hex: "04A1B2C3")!

    func program(_ id: String, _ score: ProgramScore, _ division: Division?, day: Int) -> StoredWorkout {
        let date = Fixture.date(2026, 3, day, 18, 0)
        return StoredWorkout(
            id: id, kind: .program, sets: score.rounds, durationMilliseconds: 600_000, calories: 0, exercises: [],
            preset: "Fran", completedAt: date, localDay: LocalDay(date, in: Fixture.berlin), score: score.description,
            station: "rack-1", athlete: Self.anna, division: division)
    }

    @Test func recordsAreKeptPerDivisionAndAnUnsaidOneIsRx() throws {
        let dir = try TemporaryDirectory()
        let store = try Fixture.store(dir.file("gym.sqlite"), clock: HandClock(Fixture.date(2026, 3, 20, 9, 0)))
        _ = try store.store([
            program("rack-1/p@1", ProgramScore(rounds: 3, time: .seconds(400)), nil, day: 2),
            program("rack-1/p@2", ProgramScore(rounds: 3, time: .seconds(300)), .scaled, day: 3),
            program("rack-1/p@3", ProgramScore(rounds: 3, time: .seconds(380)), .rx, day: 4),
        ])
        let records = try store.stats(.athlete([Self.anna])).records
        #expect(records.map(\.division) == [.rx, .scaled])
        #expect(records.map(\.score) == ["6:20, 3 rounds", "5:00, 3 rounds"], "the faster scaled finish beats no Rx best")
        let text = HistoryOutput.text(try store.stats(.athlete([Self.anna])), timeZone: Fixture.berlin)
        #expect(text.hasSuffix("Records:\n  Fran: 6:20, 3 rounds (2026-03-04, rack-1)\n  Fran (Scaled): 5:00, 3 rounds (2026-03-03, rack-1)\n"), "\(text)")
        let rows = try store.workouts()
        #expect(rows.map(\.division) == [nil, .scaled, .rx])
        let table = HistoryOutput.table(rows, timeZone: Fixture.berlin)
        #expect(table.split(separator: "\n").first?.hasSuffix("Score           Division") == true || table.split(separator: "\n").first?.hasSuffix(" Division") == true, "\(table)")
        #expect(table.contains("5:00, 3 rounds  Scaled\n") && table.contains("6:20, 3 rounds  Rx\n"), "\(table)")
        let csv = HistoryOutput.csv(rows).split(separator: "\n")
        #expect(csv.first?.hasSuffix(",athlete,division") == true)
        #expect(csv.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).last.map(String.init) } == ["", "scaled", "rx"])
        #expect(try HistoryOutput.json([rows[1]]).contains(#""division" : "scaled""#))
    }

    @Test func theCoachAmendsAResultsDivision() throws {
        let dir = try TemporaryDirectory()
        let store = try Fixture.store(dir.file("gym.sqlite"), clock: HandClock(Fixture.date(2026, 3, 20, 9, 0)))
        var rest = program("rack-1/rest@9", ProgramScore(rounds: 1), nil, day: 5)
        rest.kind = .rest
        rest.score = nil
        rest.preset = nil
        _ = try store.store([program("rack-1/p@1", ProgramScore(rounds: 3, time: .seconds(300)), .rx, day: 2), rest])
        #expect(try store.setDivision(recordID: "rack-1/p@1", to: .scaled))
        #expect(try store.workouts().first?.division == .scaled)
        #expect(try store.stats(.athlete([Self.anna])).records.map(\.division) == [.scaled])
        #expect(try store.setDivision(recordID: "rack-1/p@1", to: nil))
        #expect(try store.workouts().first?.division == nil)
        #expect(try !store.setDivision(recordID: "rack-1/rest@9", to: .scaled), "a rest has no division")
        #expect(try !store.setDivision(recordID: "rack-1/nothing", to: .rx))
        #expect(try store.workouts().map(\.division) == [nil, nil])
    }

    @Test func aVersion6FileKeepsItsRowsAndGainsTheColumn() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("old.sqlite")
        let old = try DatabaseQueue(path: path)
        try HistorySchema.migrator.migrate(old, upTo: "v6")
        try old.write { db in
            try db.execute(sql: """
                INSERT INTO workouts (id, kind, sets, duration_ms, calories, exercises, preset, completed_at, local_day, score, athlete)
                VALUES ('program@1', 'program', 3, 600000, 0, '[]', 'Fran', '2026-03-02 17:00:00.000', '2026-03-02', '5:00, 3 rounds', '04A1B2C3')
                """)
        }
        try old.close()
        let store = try Fixture.store(path, clock: HandClock(Fixture.date(2026, 3, 20, 9, 0)))
        let rows = try store.workouts()
        #expect(rows.map(\.id) == ["program@1"] && rows.map(\.division) == [nil] && rows.map(\.athlete) == [Self.anna])
        #expect(try store.stats().records.map(\.division) == [.rx], "an unsaid division counts as Rx")
        #expect(try store.setDivision(recordID: "program@1", to: .scaled))
        #expect(try store.workouts().map(\.division) == [.scaled])
    }
}
