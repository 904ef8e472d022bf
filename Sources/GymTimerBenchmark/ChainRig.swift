import Foundation
import Glibc
import GymTimerBenchSupport
import GymTimerConfig
import GymTimerCore
import GymTimerFleet
import GymTimerFleetCommands
import GymTimerHistory
import GymTimerMQTT
import GymTimerStationLink
import GymTimerSystem

/// A chain of gyms on one machine for the bench (chain.md): the centre's Mosquitto and a
/// PostgreSQL server, two central collectors (`gymtimer-central collect`, real processes),
/// two gyms' Mosquittos bridged to the centre as `gymtimer chain bridge` writes it (plain MQTT
/// on loopback), and stations in this process, half in each gym, driven by `drive`.
final class ChainRig {
    static let gyms = ["gym-a", "gym-b"]
    static let collectors = 2

    let postgres: LocalPostgres
    let centre: LocalBroker
    let gymBrokers: [LocalBroker]
    let stations: [FleetStation]
    /// Each station's name (its records' ids begin with it).
    let names: [String]
    private var processes: [RunningProcess] = []
    private let directory: String
    /// The last counts read, by phase, and when (the database is asked at most every 200 ms).
    private var counted: [String: (rows: Int, at: ContinuousClock.Instant)] = [:]

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    init(central: String, stations count: Int) throws {
        var template = Array((NSTemporaryDirectory() + "gymtimer-chain-bench-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw Problem(description: "cannot make a temporary directory") }
        directory = String(cString: made)
        postgres = try LocalPostgres()
        centre = try LocalBroker(persistence: true, extraConfig: Self.brokerSettings)
        let centrePort = centre.port
        gymBrokers = try Self.gyms.map { gym in
            try LocalBroker(persistence: true, extraConfig: Self.brokerSettings + (try Self.bridge(gym: gym, centrePort: centrePort)))
        }
        for n in 1...Self.collectors {
            processes.append(try RunningProcess(
                central,
                ["collect", "--db", postgres.url, "--chain", "gyms", "--shared", "central", "--client-id", "central-\(n)",
                 "--broker", "mqtt://127.0.0.1:\(centrePort)"],
                stdout: "\(directory)/central-\(n).out", stderr: "\(directory)/central-\(n).log"))
        }
        let origin = ContinuousClock.now
        var built: [FleetStation] = []
        // a-1, b-1, a-2, b-2, …: the stations taken in turn from each gym.
        names = (0..<count).map { index in "\(Self.gyms[index % Self.gyms.count].suffix(1))-\(index / Self.gyms.count + 1)" }
        for (index, name) in names.enumerated() {
            let gym = index % Self.gyms.count
            let settings = FleetSettings(broker: .init(host: "127.0.0.1", port: gymBrokers[gym].port, tls: false), station: name, homeAssistant: false)
            built.append(FleetStation(
                settings: settings, password: nil, outbox: nil, now: { Moment(origin.duration(to: .now)) }, log: { _ in }))
        }
        stations = built
        guard drive(seconds: 60, until: { stations.allSatisfy(\.isOnline) }) else {
            stop()
            throw Problem(description: "\(stations.filter(\.isOnline).count) of \(count) stations connected within 60 s")
        }
    }

    /// What docs/chain.md asks of every broker of a chain: a collector (and a bridge) acknowledges
    /// a batch once it is stored, so Mosquitto's default of 20 messages in flight per client
    /// would hold each to 20 records per database round trip.
    static let brokerSettings = "max_inflight_messages 1000\nmax_queued_messages 100000\n"

    /// A gym's bridge to the centre on loopback (the topic lines of chain.md).
    static func bridge(gym: String, centrePort: Int) throws -> String {
        try ChainBridge(
            gym: gym, centre: "mqtt://127.0.0.1:\(centrePort)", insecure: true, username: gym, password: "bench", caFile: nil
        ).text
    }

    /// Runs the stations until `done` or `seconds` have passed; whether `done` held.
    @discardableResult
    func drive(seconds: Double, until done: () -> Bool) -> Bool {
        FleetPump.drive(stations, nil, seconds: seconds, until: done)
    }

    /// How many rows of `phase`'s records the central database holds (asked at most every 200 ms).
    func rows(_ phase: String) -> Int {
        if let last = counted[phase], ContinuousClock.now - last.at < .milliseconds(200) { return last.rows }
        let rows = (try? postgres.query("SELECT count(*) FROM workouts WHERE id LIKE '%/rest-\(phase)@%'"))
            .flatMap { $0.first?.first.flatMap(Int.init) } ?? 0
        counted[phase] = (rows, .now)
        return rows
    }

    /// Each of `phase`'s rows: its record id and when the database stored it (Unix seconds).
    func storedAt(_ phase: String) throws -> [(id: String, at: Double)] {
        try postgres.query("SELECT id, extract(epoch FROM stored_at) FROM workouts WHERE id LIKE '%/rest-\(phase)@%'")
            .compactMap { row in row.count == 2 ? Double(row[1]).map { (row[0], $0) } : nil }
    }

    func stop() {
        for station in stations { station.stop() }
        for process in processes {
            process.signal(SIGTERM)
            if process.wait(upTo: 5) == nil { process.signal(SIGKILL); process.wait() }
        }
        processes = []
        try? FileManager.default.removeItem(atPath: directory)
    }
}
