import Foundation
import Glibc
import GymTimerBenchSupport
import GymTimerCollector
import GymTimerConfig
import GymTimerCore
import GymTimerFleetCommands
import GymTimerHistory
import GymTimerStationLink
import GymTimerSystem

/// The fleet's record figure for `gymtimer bench` (fleet.md: no record lost between a station
/// and the gym's database): a real Mosquitto with Debian's persistence (saved every 30 min), a
/// collector that subscribed and went away, a station that finishes `records` workouts the
/// broker takes for the collector, then the broker killed with SIGKILL (a power cut) and
/// started again, and the collector back: how many records never reach its database. Target 0.
struct RecordLossDrill {
    var records: Int

    static let name = "fleet records lost, broker killed while the collector is away"

    func run() -> BenchmarkFigure {
        do {
            let (lost, seconds) = try measure()
            return Self.figure([Double(lost)], note: "\(records) records from one station through Mosquitto (persistence true, SIGKILL); \(records - lost) in the gym's database \(String(format: "%.1f", seconds)) s after the broker came back")
        } catch {
            return Self.figure([], note: "not measured: \(error)")
        }
    }

    static func figure(_ samples: [Double], note: String) -> BenchmarkFigure {
        BenchmarkFigure(
            name: name, unit: .records, statistics: samples.isEmpty ? nil : BenchmarkStatistics(samples),
            target: .init(.max, .atMost, 0), note: note)
    }

    /// Why the drill could not run.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    private func measure() throws -> (lost: Int, seconds: Double) {
        var template = Array((NSTemporaryDirectory() + "gymtimer-record-drill-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw Problem(description: "cannot make a temporary directory") }
        let directory = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let broker = try LocalBroker(persistence: true)
        let database = directory + "/gym.sqlite"
        func collector() throws -> FleetCollector {
            try FleetCollector(
                options: .init(clientID: "bench-collector", host: "127.0.0.1", port: broker.port, cleanSession: false),
                prefix: "gymtimer", database: database, log: { _ in })
        }
        let first = try collector()
        guard drive([], first, seconds: 10, until: { first.isSubscribed }) else {
            throw Problem(description: "the collector did not subscribe within 10 s")
        }
        first.stop()
        let outbox = try FleetOutbox(path: directory + "/outbox.sqlite")
        let origin = ContinuousClock.now
        let station = FleetStation(
            settings: FleetSettings(broker: .init(host: "127.0.0.1", port: broker.port, tls: false), station: "bench", homeAssistant: false),
            password: nil, outbox: outbox, now: { Moment(origin.duration(to: .now)) }, log: { _ in })
        let day = WallClock.system.date
        for n in 0..<records {
            station.record(StoredWorkout(
                id: "rest@\(n)", kind: .rest, sets: 3, durationMilliseconds: 180_000, calories: 0, exercises: [], preset: nil,
                completedAt: day, localDay: LocalDay(day, in: .current)))
        }
        // Long enough for the station to connect and the broker to take every record.
        _ = drive([station], nil, seconds: 2, until: { false })
        broker.kill()
        try broker.start()
        let back = ContinuousClock.now
        let second = try collector()
        _ = drive([station], second, seconds: 30, until: { second.stored == records && (try? outbox.count()) == 0 })
        return (records - second.stored, (ContinuousClock.now - back) / .seconds(1))
    }

    /// Runs the stations' and the collector's loops until `done`, or `seconds`.
    private func drive(_ stations: [FleetStation], _ collector: FleetCollector?, seconds: Double, until done: () -> Bool) -> Bool {
        FleetPump.drive(stations, collector, seconds: seconds, until: done)
    }
}
