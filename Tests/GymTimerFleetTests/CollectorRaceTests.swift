import Foundation
import Glibc
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerHistory
import Testing
import GymTimerTestSupport
import GymTimerSystem

/// `gymtimer collect` processes started together on one new database (a gym's two collector
/// services, or a restart overlapping the old process): every one stays up. (Before, one died
/// with "no such table: grdb_migrations": 6 processes, 4 rounds made it happen.) The race is
/// the database's, not the broker's: they are pointed at a closed port (port 1), so each
/// opens its database, then says the broker is unreachable and keeps retrying; that line is
/// the event waited for.
@Suite(.serialized) struct CollectorRaceTests {
    let gymtimer = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gymtimer").path

    @Test func collectorsCreatingOneNewDatabaseAtOnceAllStayUp() throws {
        let directory = testDirectory("fleet-race")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for round in 0..<4 {
            let database = "\(directory)/gym-\(round).sqlite"
            let collectors = try (0..<6).map { n in
                try RunningProcess(
                    gymtimer, ["collect", "--broker", "mqtt://127.0.0.1:1", "--db", database, "--client-id", "race-\(round)-\(n)"],
                    stdout: "\(directory)/\(round)-\(n).out", stderr: "\(directory)/\(round)-\(n).log")
            }
            func log(_ n: Int) -> String { (try? String(contentsOfFile: "\(directory)/\(round)-\(n).log", encoding: .utf8)) ?? "" }
            // Each has opened the database and gone on to the broker (or has died trying):
            // a generous bound, for six debug processes starting on a loaded machine.
            var exits: [Int32?] = Array(repeating: nil, count: 6)
            let end = Date().addingTimeInterval(60)
            while Date() < end {
                for n in 0..<6 where exits[n] == nil { exits[n] = collectors[n].wait(upTo: 0.001) }
                if (0..<6).allSatisfy({ exits[$0] != nil || log($0).contains("unreachable") }) { break }
                var none = pollfd()
                _ = poll(&none, 0, 20)
            }
            #expect(exits.allSatisfy { $0 == nil }, "every collector stays up: \((0..<6).map(log))")
            #expect((0..<6).allSatisfy { log($0).contains("unreachable") }, "every collector got past its database: \((0..<6).map(log))")
            for collector in collectors { collector.signal(SIGTERM) }
            for collector in collectors { #expect(collector.wait(upTo: 10) == 0) }
            #expect((try? HistoryStore.reading(path: database).workouts()) == [], "a migrated, empty history")
        }
    }
}
