import Foundation
import GRDB
import GymTimerCore
import Testing
@testable import GymTimerHistory

/// The coach voids a result (schema v9): its score leaves every best (stats, the roster's bests)
/// while the workout stays listed with its score shown as void; voiding is idempotent, a rest
/// has no result to void, and a station sending the same record again does not bring it back.
@Suite struct VoidResultTests {
    static let anna = DivisionHistoryTests.anna

    func program(_ id: String, _ score: ProgramScore, day: Int) -> StoredWorkout {
        DivisionHistoryTests().program(id, score, .rx, day: day)
    }

    @Test func aVoidedResultCountsForNoBestAndStaysListed() throws {
        let dir = try TemporaryDirectory()
        let clock = HandClock(Fixture.date(2026, 3, 20, 9, 0))
        let store = try Fixture.store(dir.file("gym.sqlite"), clock: clock)
        let forged = program("rack-2/p@9", ProgramScore(rounds: 99, time: .seconds(200)), day: 3)
        _ = try store.store([program("rack-1/p@1", ProgramScore(rounds: 3, time: .seconds(400)), day: 2), forged])
        #expect(try store.stats(.athlete([Self.anna])).records.map(\.score) == ["3:20, 99 rounds"], "the forged best first")

        #expect(try store.void(recordID: "rack-2/p@9"))
        #expect(try store.stats(.athlete([Self.anna])).records.map(\.score) == ["6:40, 3 rounds"], "the best is worked out again")
        let rows = try store.workouts()
        #expect(rows.map(\.score) == ["6:40, 3 rounds", nil])
        #expect(rows.map(\.voidedScore) == [nil, "3:20, 99 rounds"])
        #expect(try store.stats(.athlete([Self.anna])).workouts == 2, "the workout itself stays")
        let table = HistoryOutput.table(rows, timeZone: Fixture.berlin)
        #expect(table.contains("void (3:20, 99 rounds)"), "\(table)")
        #expect(try HistoryOutput.json([rows[1]]).contains(#""voided_score" : "3:20, 99 rounds""#))

        #expect(try !store.void(recordID: "rack-2/p@9"), "void already")
        #expect(try !store.void(recordID: "rack-1/nothing"))
        _ = try store.store([forged])
        #expect(try store.workouts().map(\.score) == ["6:40, 3 rounds", nil], "sent again, it stays void")
        let voidedAt = try DatabaseQueue(path: dir.file("gym.sqlite")).read { db in
            try String.fetchOne(db, sql: "SELECT voided_at FROM workouts WHERE id = 'rack-2/p@9'")
        }
        #expect(voidedAt?.hasPrefix("2026-03-20 08:00:00") == true, "when, on the store's wall clock: \(voidedAt ?? "nil")")
    }

    @Test func aRestHasNoResultToVoid() throws {
        let dir = try TemporaryDirectory()
        let store = try Fixture.store(dir.file("gym.sqlite"), clock: HandClock(Fixture.date(2026, 3, 20, 9, 0)))
        var rest = program("rack-1/rest@1", ProgramScore(rounds: 1), day: 2)
        (rest.kind, rest.score, rest.preset, rest.division) = (.rest, nil, nil, nil)
        _ = try store.store([rest])
        #expect(try !store.void(recordID: "rack-1/rest@1"))
        #expect(try store.workouts().map(\.voidedScore) == [nil])
    }
}
