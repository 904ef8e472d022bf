import Foundation
import Glibc
import GymTimerBenchSupport
import GymTimerCentral
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import Testing

/// A server that takes the connection and never answers (hung, or a black hole on the way):
/// the store gives up at its bound and throws, so the collector's loop goes on.
@Suite struct PostgresHungServerTests {
    @Test func aServerThatNeverAnswersTimesOutAtTheBound() throws {
        // A socket that listens and never accepts: the kernel completes the handshake, nobody answers.
        let (port, fd) = try LocalBroker.reservedPort()
        defer { close(fd) }
        #expect(listen(fd, 8) == 0)
        let url = PostgresURL(user: "gymtimer", password: "x", host: "127.0.0.1", port: port, database: "chain")
        let store = PostgresRecordStore(url: url, timeouts: PostgresTimeouts(connect: .seconds(1), query: .seconds(1)))
        let record = PostgresRecordStoreTests.record("north", "bench-1", minutes: 1)
        for _ in 0..<2 {
            let start = ContinuousClock.now
            do {
                let stored = try store.store([record])
                Issue.record("stored \(stored) on a server that never answers")
            } catch let error as CentralStoreError {
                #expect(error == .timedOut(database: url.description, what: "accept the connection", seconds: 1), "\(error)")
            }
            let waited = ContinuousClock.now - start
            #expect(waited >= .milliseconds(900) && waited < .seconds(10), "\(waited)")
        }
    }

    /// A server hung mid-session (every process of it frozen): the batch throws at the query's
    /// bound; thawed, the next batch reconnects and keeps both, nothing lost.
    @Test func aFrozenServerTimesOutAndTheNextBatchAfterItKeepsEverything() throws {
        let server = try LocalPostgres()
        let url = try PostgresURL.parse(server.url)
        let store = PostgresRecordStore(url: url, timeouts: PostgresTimeouts(connect: .seconds(2), query: .seconds(1)))
        let first = [PostgresRecordStoreTests.record("north", "bench-1", minutes: 1)]
        #expect(try store.store(first) == 1)
        server.freeze()
        let second = [PostgresRecordStoreTests.record("south", "rower", minutes: 2)]
        let start = ContinuousClock.now
        do {
            let stored = try store.store(second)
            Issue.record("stored \(stored) on a frozen server")
        } catch let error as CentralStoreError {
            #expect(error == .timedOut(database: url.description, what: "answer (store 1 record(s))", seconds: 1), "\(error)")
        }
        let waited = ContinuousClock.now - start
        server.thaw()
        #expect(waited < .seconds(10), "\(waited)")
        // The timed-out INSERT reached the frozen server, which may carry it out once thawed (the
        // collector acknowledged nothing, so its stations send it again): stored once either way.
        let added = try store.store(second + first)
        #expect(added == 0 || added == 1, "\(server.log)")
        #expect(try store.records().map(\.gym) == ["south", "north"], "each record once, none lost")
    }
}
