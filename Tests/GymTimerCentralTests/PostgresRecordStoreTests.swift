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
import Testing

/// The central store against a real PostgreSQL server the test starts (LocalPostgres: without
/// PostgreSQL it throws, so the test fails rather than skips): each record once by (gym, id),
/// read back as it went in, and a server stopped and restarted losing nothing.
@Suite(.serialized) struct PostgresRecordStoreTests {
    /// A record of `gym`'s `station`, completed `minutes` after a fixed instant.
    static func record(_ gym: String?, _ station: String, minutes: Int, athlete: CardID? = nil) -> CollectedRecord {
        let completed = Date(timeIntervalSince1970: 1_780_000_000.125 + Double(minutes * 60))
        let kind: WorkoutRecord.Kind = athlete == nil ? .rest : .program
        let workout = StoredWorkout(
            id: "\(station)/\(kind.rawValue)@\(minutes)", kind: kind, sets: 3, durationMilliseconds: 754_321, calories: 42,
            exercises: ["Squat", "Row \"heavy\""], preset: athlete == nil ? nil : "Fran", completedAt: completed,
            localDay: LocalDay(completed, in: TimeZone(identifier: "UTC")!), score: athlete == nil ? nil : "12:34, 3 rounds",
            station: station, clockSynchronised: minutes % 2 == 0, athlete: athlete, division: athlete == nil ? nil : .scaled)
        return CollectedRecord(gym: gym, workout: workout)
    }

    static func store(_ server: LocalPostgres) throws -> PostgresRecordStore {
        PostgresRecordStore(url: try PostgresURL.parse(server.url), timeouts: PostgresTimeouts(connect: .seconds(5), query: .seconds(10)))
    }

    @Test func aBatchIsStoredOnceAndReadBackNewestFirst() throws {
        let server = try LocalPostgres()
        let store = try Self.store(server)
        let card = try #require(CardID(hex: "04A1B2C3"))
        let batch = [
            Self.record("north", "bench-1", minutes: 1), Self.record("south", "bench-1", minutes: 2, athlete: card),
            Self.record("north", "rower", minutes: 3), Self.record(nil, "lone", minutes: 4),
        ]
        #expect(try store.store(batch) == 4, "\(server.log)")
        let all = try store.records()
        #expect(all == batch.reversed(), "\(all)")
        #expect(try store.records(gym: "north") == [batch[2], batch[0]])
        #expect(try store.records(gym: "south") == [batch[1]])
        #expect(try store.records(gym: "east").isEmpty)
        // As the database holds them (psql), each with when it took it.
        let rows = try server.query("SELECT gym, id, exercises::text, local_day, stored_at >= completed_at FROM workouts ORDER BY gym, id")
        #expect(rows.first == ["", "lone/rest@4", "[\"Squat\", \"Row \\\"heavy\\\"\"]", "2026-05-28", "t"], "\(rows)")
        #expect(rows.map { $0[0] } == ["", "north", "north", "south"])
    }

    /// The same id in another gym is another record; a repeat (a resend, or the other
    /// collector's) is skipped, and one batch may hold both.
    @Test func aRepeatIsSkippedByGymAndID() throws {
        let server = try LocalPostgres()
        let store = try Self.store(server)
        let first = [Self.record("north", "bench-1", minutes: 1), Self.record("north", "bench-1", minutes: 2)]
        #expect(try store.store(first) == 2)
        let again = [first[1], Self.record("south", "bench-1", minutes: 1), first[0], Self.record("north", "bench-1", minutes: 5), first[0]]
        #expect(try store.store(again) == 2)
        #expect(try store.store(first) == 0)
        #expect(try store.records().count == 4)
        // A second store (the other central collector) on the same database skips them too.
        let other = try Self.store(server)
        #expect(try other.store(again) == 0)
        #expect(try other.records(gym: "south") == [again[1]])
    }

    /// PostgreSQL stopped: `store` throws one clear line (nothing acknowledged, the stations
    /// send again); restarted: the next `store` reconnects and keeps the batch, nothing lost.
    @Test func aStoppedServerThrowsAndARestartLosesNothing() throws {
        let server = try LocalPostgres()
        let store = try Self.store(server)
        let before = [Self.record("north", "bench-1", minutes: 1)]
        #expect(try store.store(before) == 1)
        server.stop()
        let during = [Self.record("north", "bench-1", minutes: 2), Self.record("south", "rower", minutes: 3)]
        do {
            let stored = try store.store(during)
            Issue.record("stored \(stored) with the server stopped")
        } catch let error as CentralStoreError {
            let line = error.description
            #expect(line.contains("central database postgresql://gymtimer@127.0.0.1:\(server.port)/postgres"), "\(line)")
            #expect(!line.contains(server.password) && !line.contains("\n"), "\(line)")
        }
        #expect(throws: CentralStoreError.self) { try store.records() }
        try server.start()
        #expect(try store.store(during) == 2, "\(server.log)")
        #expect(try store.records().map(\.workout.id) == (during.reversed() + before).map(\.workout.id))
    }

    /// Bad credentials: one line at the first call, not a hang.
    @Test func aWrongPasswordIsOneLine() throws {
        let server = try LocalPostgres()
        var url = try PostgresURL.parse(server.url)
        url.password = "wrong"
        let store = PostgresRecordStore(url: url)
        do {
            try store.check()
            Issue.record("logged in with a wrong password")
        } catch {
            #expect(error.description.contains("cannot reach the central database"), "\(error)")
            #expect(error.description.contains("password authentication failed"), "\(error)")
        }
    }
}
