import Foundation
import Glibc
import GymTimerBenchSupport
import GymTimerCore
import GymTimerFleet
import GymTimerFleetCommands
import GymTimerHistory
import GymTimerMQTT
import GymTimerSystem

/// A chain of gyms' figures for `gymtimer bench` (chain.md), on one machine with real
/// processes: two gyms' Mosquittos bridged to the centre's, a PostgreSQL server, two central
/// collectors (`gymtimer-central collect`, beside the gymtimer binary) sharing the records,
/// and `stations` stations (half in each gym) in this process. Records per second into
/// PostgreSQL: every station finishes `burst` workouts at once, from the first until the last
/// row's `stored_at`. A record's latency from a station to the central database: each station
/// finishes one workout a second for `pacedSeconds`, each timed from its finish to its row's
/// `stored_at` (one clock: the machine's).
struct ChainBenchmark {
    var executable: String?
    var stations: Int
    var burst: Int
    var pacedSeconds: Int

    static let throughputName = "chain: records into PostgreSQL (two bridged gyms, two collectors)"
    static let latencyName = "chain: record latency, station → central database"

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    func run() -> [BenchmarkFigure] {
        do {
            return try measure()
        } catch {
            return [Self.throughput([], note: "not measured: \(error)"), Self.latency([], note: "not measured: \(error)")]
        }
    }

    static func throughput(_ samples: [Double], note: String) -> BenchmarkFigure {
        BenchmarkFigure(
            name: throughputName, unit: .perSecond, statistics: samples.isEmpty ? nil : BenchmarkStatistics(samples),
            target: .init(.median, .atLeast, 2_000), note: note)
    }

    static func latency(_ samples: [Double], note: String) -> BenchmarkFigure {
        BenchmarkFigure(
            name: latencyName, unit: .milliseconds, statistics: samples.isEmpty ? nil : BenchmarkStatistics(samples),
            target: .init(.p99, .below, 1_000), note: note)
    }

    private func measure() throws -> [BenchmarkFigure] {
        guard let executable else { throw Problem(description: "no gymtimer binary given") }
        let central = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("gymtimer-central").path
        guard FileManager.default.isExecutableFile(atPath: central) else {
            throw Problem(description: "no \(central): build it with gymtimer (swift build builds it)")
        }
        let chain = try ChainRig(central: central, stations: stations)
        defer { chain.stop() }
        let total = stations * burst
        let burstStart = Date().timeIntervalSince1970
        for n in 1...burst {
            for station in chain.stations { station.record(Self.workout("burst", n)) }
        }
        guard chain.drive(seconds: Double(total) / 200 + 60, until: { chain.rows("burst") >= total }) else {
            throw Problem(description: "\(chain.rows("burst")) of \(total) records reached PostgreSQL in time")
        }
        let last = try chain.storedAt("burst").map(\.at).max() ?? burstStart
        let rate = Double(total) / max(last - burstStart, 0.001)
        let latencies = try pacedLatencies(chain)
        return [
            Self.throughput([rate], note: "\(total) records: \(stations) stations × \(burst) at once, through each gym's bridge to \(ChainRig.collectors) collectors"),
            Self.latency(latencies, note: "\(latencies.count) records, each of \(stations) stations finishing one a second for \(pacedSeconds) s"),
        ]
    }

    /// Each station finishes one workout a second (spread over the second) for `pacedSeconds`:
    /// each record's time from `record` to its row.
    private func pacedLatencies(_ chain: ChainRig) throws -> [Double] {
        var sent: [String: Double] = [:]
        let begin = ContinuousClock.now
        var next = 0
        let count = stations * pacedSeconds
        let spacing = 1.0 / Double(stations)
        let finished = chain.drive(seconds: Double(pacedSeconds) + 60) {
            let elapsed = Self.seconds(ContinuousClock.now - begin)
            while next < count, Double(next) * spacing <= elapsed {
                let station = chain.stations[next % stations]
                let workout = Self.workout("paced", next)
                sent["\(chain.names[next % stations])/\(workout.id)"] = Date().timeIntervalSince1970
                station.record(workout)
                next += 1
            }
            return next == count && chain.rows("paced") >= count
        }
        guard finished else { throw Problem(description: "\(chain.rows("paced")) of \(count) paced records reached PostgreSQL in time") }
        return try chain.storedAt("paced").compactMap { row in sent[row.id].map { (row.at - $0) * 1000 } }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// A rest's record; `phase` in its id, so each phase's rows are counted apart.
    static func workout(_ phase: String, _ n: Int) -> StoredWorkout {
        let now = Date()
        return StoredWorkout(
            id: "rest-\(phase)@\(n)", kind: .rest, sets: 1, durationMilliseconds: 60_000, calories: 0, exercises: [], preset: nil,
            completedAt: now, localDay: LocalDay(now, in: .current))
    }
}
