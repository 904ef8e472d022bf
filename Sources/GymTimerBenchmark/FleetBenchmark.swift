import Foundation
import Glibc
import GymTimerCore
import GymTimerDrivers
import GymTimerFleet
import GymTimerFleetCommands
import GymTimerMQTT
import GymTimerSystem

/// The fleet's figures for `gymtimer bench`, measured on a real Mosquitto on loopback and a
/// real station (`gymtimer simulate --headless` with a `[fleet]` section, a process of its own):
/// how long a command takes from its publication to the station's display write, and how often
/// an idle station with a broker wakes (its keep-alive, nothing else), and how exactly two
/// stations begin a synchronised start (`{"do":"start","at":…}` on `all/cmd`): each one's
/// offset from `at` and the skew across three; and a command's round trip, from its sending
/// with an id to every one of three stations' answers back at the sender.
struct FleetBenchmark {
    /// The gymtimer binary run as the station; nil: not measured.
    var executable: String?
    /// How many `set` commands to time.
    var commands: Int
    /// How long to count the idle station's wake-ups.
    var idleSeconds: Int

    static let latencyName = "fleet command→output, publish → display write"
    static let wakeupsName = "wake-ups per second, idle with [fleet] (keep-alive only)"
    static let offsetName = "fleet synchronised start, |countdown begins − at|"
    static let skewName = "fleet synchronised start, skew across three stations"
    static let roundTripName = "fleet command round trip, sent → all three stations' answers"
    /// How many synchronised starts to time.
    var starts = 10
    /// How many commands' round trips to time.
    var roundTripCommands = 30
    /// The time between two timed `set` commands: short, as a coach's tool sends them; a test
    /// on a loaded machine spaces them so that a station never takes two in one wake-up (only
    /// the second would show).
    var commandGap = 0.05
    /// How long a round trip may take before it counts as unanswered.
    var roundTripLimit = 2.0

    func run() -> [BenchmarkFigure] {
        do {
            return try measure()
        } catch {
            return [Self.latency([], note: "not measured: \(error)"), Self.wakeups([], note: "not measured: \(error)"),
                    Self.roundTrip([], note: "not measured: \(error)")]
                + Self.synchronised(offsets: [], skews: [], note: "not measured: \(error)")
        }
    }

    /// Why the fleet could not be measured.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    private func measure() throws -> [BenchmarkFigure] {
        guard let executable else { throw Problem(description: "no gymtimer binary given") }
        let bench = try BenchStation(executable: executable, purpose: "fleet")
        defer { bench.stop() }
        let topics = FleetTopics(prefix: "gymtimer", station: "bench")
        let commander = try commanderOnline(port: bench.broker.port, watching: topics)
        // Settled: the retained state is out; from here the idle station only keeps alive.
        _ = commander.pump(for: 1) { _ in false }
        let wakeups = countWakeups(of: bench.process.pid, seconds: idleSeconds)
        let latency = try commandLatency(commander, topics: topics, trace: bench.trace)

        // Two more stations (three in all, a small class), then: commands' round trips (sent
        // with an id on `all/cmd` → every station's answer back), and `starts` class starts on
        // `all/cmd`, each reset (`{"do":"reset"}`) before the next.
        var others: [(name: String, trace: String, process: RunningProcess)] = []
        defer {
            for other in others {
                other.process.send("0 end")
                if other.process.wait(upTo: 5) == nil { other.process.signal(SIGKILL); other.process.wait() }
            }
        }
        try startOthers(executable, in: bench.directory, port: bench.broker.port, subscribing: commander, into: &others)
        let roundTrips = try Self.roundTrips(
            commander, stations: ["bench"] + others.map(\.name), count: roundTripCommands, limit: roundTripLimit)
        let roundTripNote = (roundTrips.count < roundTripCommands
            ? "\(roundTripCommands - roundTrips.count) of \(roundTripCommands) not answered by all three within \(roundTripLimit) s. " : "")
            + "\(roundTripCommands) `set` commands with an id on `all/cmd` (QoS 1) to three headless stations, each timed from just before its publication to the third station's answer (its `command` event under that id) back at the sender, as `gymtimer fleet` and the console wait for them; Mosquitto on loopback"
        let ats = try classStarts(commander)
        commander.disconnect()
        return [latency, wakeups, Self.roundTrip(roundTrips, note: roundTripNote)]
            + synchronisedStarts(ats, traces: [bench.trace] + others.map(\.trace))
    }

    /// The coach's client on the bench's broker, once the station says it is online.
    private func commanderOnline(port: Int, watching topics: FleetTopics) throws -> MQTTClient {
        let commander = try MQTTClient(.init(clientID: "bench-\(getpid())", host: "127.0.0.1", port: port))
        try commander.connect()
        guard commander.pump(for: 5, until: { $0.contains(.connected) }).contains(.connected) else {
            throw Problem(description: "the benchmark could not connect to its broker")
        }
        try commander.subscribe(topics.status, qos: 1)
        let online = commander.pump(for: 10) { events in
            events.contains { if case .message(let m) = $0 { m.text == "online" } else { false } }
        }
        guard online.contains(where: { if case .message(let m) = $0 { m.text == "online" } else { false } }) else {
            throw Problem(description: "the station did not come online within 10 s (see its log)")
        }
        return commander
    }

    /// `commands` `set` commands, alternately 60 s and 90 s (each changes what idle rest shows,
    /// so each is one display write), each timed to its display write in the station's trace.
    private func commandLatency(_ commander: MQTTClient, topics: FleetTopics, trace: String) throws -> BenchmarkFigure {
        var sent: [(at: Double, shows: String)] = []
        for k in 0..<commands {
            let seconds = k % 2 == 0 ? 60 : 90
            let at = WallClock.system.now
            _ = try commander.publish(MQTTMessage(topic: topics.command, text: "{\"do\":\"set\",\"rest_seconds\":\(seconds)}", qos: 0))
            sent.append((at, seconds == 60 ? "0100" : "0130"))
            _ = commander.pump(for: commandGap) { _ in false }
        }
        _ = commander.pump(for: 0.5) { _ in false }
        let (latencies, unanswered) = Self.latencies(sent, trace: (try? String(contentsOfFile: trace, encoding: .utf8)) ?? "")
        let note = (unanswered > 0 ? "\(unanswered) of \(commands) commands gave no display write. " : "")
            + "\(commands) `set` commands (QoS 0) through Mosquitto on loopback to a headless station, each timed from just before its publication to the station's display write (the trace's `unix`); one machine, one wall clock"
        return Self.latency(latencies, note: note)
    }

    /// Stations bench-2 and bench-3 beside the bench's own, into `others` as each starts (so
    /// the caller stops those started if a later one fails), once all three are online.
    private func startOthers(
        _ executable: String, in directory: String, port: Int, subscribing commander: MQTTClient,
        into others: inout [(name: String, trace: String, process: RunningProcess)]
    ) throws {
        for name in ["bench-2", "bench-3"] {
            let otherTrace = directory + "/\(name).jsonl"
            let process = try RunningProcess(
                executable, ["simulate", "--headless", "--config", try config(name, directory, port: port), "--data-dir", directory + "/" + name],
                stdout: otherTrace, stderr: directory + "/\(name).log", pipeInput: true)
            others.append((name, otherTrace, process))
            try commander.subscribe(FleetTopics(prefix: "gymtimer", station: name).status, qos: 1)
        }
        var online: Set<String> = []
        _ = commander.pump(for: 10) { events in
            for case .message(let m) in events where m.text == "online" { online.insert(m.topic) }
            return online.count >= 3
        }
        _ = commander.pump(for: 1) { _ in false }
    }

    /// `starts` class starts 1 s ahead on `all/cmd`, each reset before the next: their `at`s.
    private func classStarts(_ commander: MQTTClient) throws -> [Double] {
        var ats: [Double] = []
        for _ in 0..<starts {
            let at = WallClock.system.now + 1
            _ = try commander.publish(MQTTMessage(topic: "gymtimer/all/cmd", text: "{\"do\":\"start\",\"at\":\(at)}", qos: 1))
            ats.append(at)
            _ = commander.pump(for: 1.5) { _ in false }
            _ = try commander.publish(MQTTMessage(topic: "gymtimer/all/cmd", text: "{\"do\":\"reset\"}", qos: 1))
            _ = commander.pump(for: 0.3) { _ in false }
        }
        return ats
    }

    /// Each start's offset from its `at` on every station, and its skew across them, from the
    /// traces' rest LED lighting.
    private func synchronisedStarts(_ ats: [Double], traces: [String]) -> [BenchmarkFigure] {
        let begins = traces.map {
            Self.countdownBegins(trace: (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "", after: ats.first ?? 0)
        }
        var offsets: [Double] = []
        var skews: [Double] = []
        for (n, at) in ats.enumerated() where begins.allSatisfy({ n < $0.count }) {
            let instants = begins.map { $0[n] }
            offsets += instants.map { abs($0 - at) * 1000 }
            skews.append(((instants.max() ?? 0) - (instants.min() ?? 0)) * 1000)
        }
        let startNote = (skews.count < starts ? "\(starts - skews.count) of \(starts) starts not seen in all three traces. " : "")
            + "\(starts) starts with `at` 1 s ahead on `all/cmd` to three headless stations on one machine (one clock), from the traces' `unix` of the rest LED lighting (the skew: latest − earliest of the three); each reset before the next"
        return Self.synchronised(offsets: offsets, skews: skews, note: startNote)
    }

    /// Each command's round trip in ms: a `set` with a fresh id published on `all/cmd`, until
    /// every one of `stations` has answered it (its event under that id); a command not answered
    /// by all within `limit` seconds has no sample.
    static func roundTrips(_ commander: MQTTClient, stations: [String], count: Int, limit: Double) throws -> [Double] {
        try commander.subscribe("gymtimer/+/event", qos: 1)
        _ = commander.pump(for: 0.3) { _ in false }
        var samples: [Double] = []
        for k in 0..<count {
            let request = FleetRequest(.setRest(seconds: k % 2 == 0 ? 60 : 90), id: FleetRequest.newID())
            var answers = FleetAnswers(id: request.id ?? "", asked: stations, offline: [])
            let sent = ContinuousClock.now
            _ = try commander.publish(MQTTMessage(topic: "gymtimer/all/cmd", text: request.json, qos: 1))
            var done: ContinuousClock.Instant?
            _ = commander.pump(for: limit) { events in
                for case .message(let m) in events {
                    guard let station = FleetTopics.validStation(in: m.topic, prefix: "gymtimer") else { continue }
                    answers.take(event: m.payload, from: station)
                }
                if answers.isComplete, done == nil { done = .now }
                return answers.isComplete
            }
            if let done { samples.append((done - sent) / .milliseconds(1)) }
        }
        return samples
    }

    /// Station `name`'s config, in `directory`.
    private func config(_ name: String, _ directory: String, port: Int) throws -> String {
        let path = directory + "/\(name).toml"
        try "[fleet]\nbroker = \"mqtt://127.0.0.1:\(port)\"\nstation = \"\(name)\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The `unix` times at which the rest LED lit (a countdown began), from `after` on.
    static func countdownBegins(trace: String, after: Double) -> [Double] {
        trace.split(separator: "\n").compactMap { line in
            guard case .object(let fields)? = JSONValue.parse(Array(line.utf8)), fields["device"]?.string == "led",
                  fields["name"]?.string == "rest", fields["on"] == .bool(true), let unix = fields["unix"]?.number,
                  unix >= after - 2 else { return nil }
            return unix
        }
    }

    static func synchronised(offsets: [Double], skews: [Double], note: String) -> [BenchmarkFigure] {
        [BenchmarkFigure(name: offsetName, unit: .milliseconds, statistics: BenchmarkStatistics(offsets), target: .init(.p99, .below, 5), note: note),
         BenchmarkFigure(name: skewName, unit: .milliseconds, statistics: BenchmarkStatistics(skews), target: .init(.p99, .below, 5), note: note)]
    }

    /// Each command's latency: from its publication to the first display write of what it
    /// sets, at or after it — even one that comes after the next command was sent (a slow
    /// answer is a latency, not a loss), unless the next command was answered first (the two
    /// were taken together and this one's value never showed); and how many commands have none.
    static func latencies(_ sent: [(at: Double, shows: String)], trace: String) -> (samples: [Double], unanswered: Int) {
        let writes: [(unix: Double, text: String)] = trace.split(separator: "\n").compactMap { line in
            guard case .object(let fields)? = JSONValue.parse(Array(line.utf8)), fields["device"]?.string == "display",
                  let text = fields["text"]?.string, let unix = fields["unix"]?.number else { return nil }
            return (unix, text)
        }
        /// The first write of `text` at or after `at`.
        func answer(_ text: String, after at: Double) -> Double? {
            writes.first { $0.unix >= at && $0.text == text }?.unix
        }
        var samples: [Double] = []
        for (n, command) in sent.enumerated() {
            guard let written = answer(command.shows, after: command.at) else { continue }
            if n + 1 < sent.count, let next = answer(sent[n + 1].shows, after: sent[n + 1].at), next < written { continue }
            samples.append((written - command.at) * 1000)
        }
        return (samples, sent.count - samples.count)
    }

    /// Wake-ups of process `pid` in each whole second of `seconds`: its threads' voluntary
    /// context switches (each is a sleep in poll that ended), read from /proc once a second.
    private func countWakeups(of pid: pid_t, seconds: Int) -> BenchmarkFigure {
        var counts: [Double] = []
        var before = Self.voluntarySwitches(of: pid)
        for _ in 0..<seconds {
            var none = pollfd()
            _ = poll(&none, 0, 1000)
            let now = Self.voluntarySwitches(of: pid)
            if let b = before, let n = now { counts.append(Double(n - b)) }
            before = now
        }
        let note = counts.count < seconds ? "not measured: /proc/\(pid) could not be read" : nil
        return Self.wakeups(counts, note: note)
    }

    /// The sum of `voluntary_ctxt_switches` over the threads of `pid`, or nil.
    static func voluntarySwitches(of pid: pid_t) -> Int? {
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        var total = 0
        for thread in threads {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") }),
                  let count = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) else { return nil }
            total += count
        }
        return total
    }

    static func latency(_ samples: [Double], note: String) -> BenchmarkFigure {
        BenchmarkFigure(
            name: latencyName, unit: .milliseconds, statistics: BenchmarkStatistics(samples),
            target: .init(.p99, .below, 50), note: note)
    }

    static func roundTrip(_ samples: [Double], note: String) -> BenchmarkFigure {
        BenchmarkFigure(
            name: roundTripName, unit: .milliseconds, statistics: BenchmarkStatistics(samples),
            target: .init(.p99, .below, 100), note: note)
    }

    static func wakeups(_ counts: [Double], note: String?) -> BenchmarkFigure {
        BenchmarkFigure(
            name: wakeupsName, unit: .perSecond, statistics: BenchmarkStatistics(counts), target: .init(.max, .atMost, 2),
            note: note ?? "a connected station with nothing to do, counted in each whole second of \(counts.count) s from its voluntary context switches; the keep-alive (every 15 s) and the broker's answer are the only wake-ups")
    }
}
