import Foundation
import Glibc
import GymTimerDrivers
import GymTimerFleetLink
import GymTimerHistory
import Testing

/// `gymtimer collect` processes started together on one new database (a gym's two collector
/// services, or a restart overlapping the old process): every one stays up. (Before, one died
/// with "no such table: grdb_migrations": 6 processes, 4 rounds made it happen.)
@Suite(.serialized) struct CollectorRaceTests {
    let gymtimer = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gymtimer").path

    @Test func collectorsCreatingOneNewDatabaseAtOnceAllStayUp() throws {
        var template = Array((NSTemporaryDirectory() + "fleet-race-XXXXXX").utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        let broker = try LocalBroker()
        for round in 0..<4 {
            let database = "\(directory)/gym-\(round).sqlite"
            let collectors = try (0..<6).map { n in
                try RunningProcess(
                    gymtimer, ["collect", "--broker", "mqtt://127.0.0.1:\(broker.port)", "--db", database, "--client-id", "race-\(round)-\(n)"],
                    stdout: "\(directory)/\(round)-\(n).out", stderr: "\(directory)/\(round)-\(n).log")
            }
            // Up for a second (a collector that fails to open its database exits at once).
            let exits = collectors.enumerated().map { n, collector in collector.wait(upTo: n == 0 ? 1.5 : 0.01) }
            #expect(exits.allSatisfy { $0 == nil },
                    "every collector stays up: \((0..<6).map { (try? String(contentsOfFile: "\(directory)/\(round)-\($0).log", encoding: .utf8)) ?? "" })")
            for collector in collectors { collector.signal(SIGTERM) }
            for collector in collectors { #expect(collector.wait(upTo: 10) == 0) }
            #expect((try? HistoryStore.reading(path: database).workouts()) == [], "a migrated, empty history")
        }
    }
}
