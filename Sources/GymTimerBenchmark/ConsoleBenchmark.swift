import Foundation
import Glibc
import GymTimerBenchSupport
import GymTimerCollector
import GymTimerCore
import GymTimerDrivers
import GymTimerFleet
import GymTimerFleetCommands
import GymTimerSystem

/// The coach's console's figure for `gymtimer bench`: how long a click takes to reach a
/// station's display, measured end to end on real processes — `gymtimer-console` (HTTP, its
/// MQTT thread; the program `gymtimer console` runs, found beside the gymtimer binary), a real
/// Mosquitto on loopback and a headless station — from just before the
/// HTTP request of a Reset to the station's display write of its idle screen (a running rest
/// never shows it: its countdown starts one below). Each rest is started by a press on the
/// station's own input between clicks. Logged in as a browser is: the PIN, the session cookie,
/// the page's token and its `Origin`. (A Pause would not do: its first write is the colon's
/// blink, a quarter second after the pause itself.)
struct ConsoleBenchmark {
    /// The gymtimer binary run as the station, with `gymtimer-console` beside it; nil: not measured.
    var executable: String?
    /// How many resets to time (a rest started on the station before each).
    var clicks: Int

    static let name = "console click→display, HTTP request → station display write"

    func run() -> BenchmarkFigure {
        do {
            return try measure()
        } catch {
            return Self.figure([], note: "not measured: \(error)")
        }
    }

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    private func measure() throws -> BenchmarkFigure {
        guard let executable else { throw Problem(description: "no gymtimer binary given") }
        let consoleProgram = Self.console(beside: executable)
        guard FileManager.default.isExecutableFile(atPath: consoleProgram) else {
            throw Problem(description: "no \(consoleProgram): build it with gymtimer (swift build builds both)")
        }
        let bench = try BenchStation(executable: executable, purpose: "console")
        defer { bench.stop() }
        let (broker, directory, trace, station) = (bench.broker, bench.directory, bench.trace, bench.process)
        let pin = "bench-\(getpid())"
        try (pin + "\n").write(toFile: directory + "/pin", atomically: true, encoding: .utf8)
        let port = try LocalBroker.freePort()
        let console = try RunningProcess(
            consoleProgram,
            ["--broker", "mqtt://127.0.0.1:\(broker.port)", "--listen", "127.0.0.1:\(port)", "--pin-file", directory + "/pin"],
            stdout: directory + "/console.out", stderr: directory + "/console.log")
        defer {
            console.signal(SIGTERM)
            if console.wait(upTo: 5) == nil { console.signal(SIGKILL); console.wait() }
        }
        let http = BenchHTTP(port: port)
        guard let login = retry(10, { try? http.request("POST", "/login", body: "pin=\(pin)", type: "application/x-www-form-urlencoded") }),
              let cookie = login.header("set-cookie")?.split(separator: ";").first.map(String.init) else {
            throw Problem(description: "the console did not log in within 10 s (see its log)")
        }
        let page = try http.request("GET", "/", cookie: cookie)
        guard let token = BenchHTTP.csrf(in: page.body) else { throw Problem(description: "the console's page has no token") }
        func act(_ verb: String, _ body: String) -> Int {
            (try? http.request("POST", "/api/\(verb)", body: body, type: "application/json", cookie: cookie, token: token))?.status ?? 0
        }
        // Once the console has seen the station online, its actions are accepted.
        guard retry(10, { act("reset", #"{"stations":["bench"]}"#) == 200 ? true : nil }) != nil else {
            throw Problem(description: "the console never saw the station (see the logs)")
        }
        Thread.sleep(forTimeInterval: 0.5)
        var clicked: [Double] = []
        for _ in 0..<clicks {
            station.send("0 click start")
            Thread.sleep(forTimeInterval: 1.2)
            let at = WallClock.system.now
            guard act("reset", #"{"stations":["bench"]}"#) == 200 else { continue }
            clicked.append(at)
            Thread.sleep(forTimeInterval: 0.6)
        }
        Thread.sleep(forTimeInterval: 0.3)
        let samples = Self.latencies(clicked, trace: (try? String(contentsOfFile: trace, encoding: .utf8)) ?? "")
        let note = (samples.count < clicks ? "\(clicks - samples.count) of \(clicks) resets gave no display write. " : "")
            + "\(clicks) Reset clicks (logged-in HTTP POSTs, as the page sends them) through `gymtimer-console` and Mosquitto on loopback to a headless station running a rest, each timed from just before the request to the station's write of its idle screen (the trace's `unix`); one machine, one wall clock"
        return Self.figure(samples, note: note)
    }

    /// The console's program: `gymtimer-console` in the gymtimer binary's directory, as
    /// `gymtimer console` finds it.
    static func console(beside executable: String) -> String {
        URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("gymtimer-console").path
    }

    /// `body` until it is non-nil, for up to `seconds`.
    private func retry<T>(_ seconds: Double, _ body: () -> T?) -> T? {
        let end = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < end {
            if let value = body() { return value }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return nil
    }

    /// Each click's latency: from the click to the first write of the idle screen (the trace's
    /// first display write, before any rest ran) at or after it, in milliseconds.
    static func latencies(_ clicks: [Double], trace: String) -> [Double] {
        let writes: [(unix: Double, text: String)] = trace.split(separator: "\n").compactMap { line in
            guard case .object(let fields)? = JSONValue.parse(Array(line.utf8)), fields["device"]?.string == "display",
                  let text = fields["text"]?.string, let unix = fields["unix"]?.number else { return nil }
            return (unix, text)
        }
        guard let idle = writes.first?.text else { return [] }
        let answers = writes.filter { $0.text == idle }.map(\.unix)
        return clicks.enumerated().compactMap { n, at in
            guard let first = answers.first(where: { $0 >= at }) else { return nil }
            // A write after the next click answers that one, not this.
            if n + 1 < clicks.count, first >= clicks[n + 1] { return nil }
            return (first - at) * 1000
        }
    }

    static func figure(_ samples: [Double], note: String) -> BenchmarkFigure {
        BenchmarkFigure(name: name, unit: .milliseconds, statistics: BenchmarkStatistics(samples), target: .init(.p99, .below, 100), note: note)
    }
}
