import Foundation
import Glibc
import GymTimerDrivers
import GymTimerFleet
import GymTimerFleetLink

/// The coach's console's figure for `gymtimer bench`: how long a click takes to reach a
/// station's display, measured end to end on real processes — `gymtimer console` (HTTP, its
/// MQTT thread), a real Mosquitto on loopback and a headless station — from just before the
/// HTTP request of a Pause to the station's first display write of the pause (its colon's first
/// blink off; while a rest runs the colon is always lit). Logged in as a browser is: the PIN,
/// the session cookie, the page's token and its `Origin`.
struct ConsoleBenchmark {
    /// The gymtimer binary run as the console and the station; nil: not measured.
    var executable: String?
    /// How many pauses to time (each resumed before the next).
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
        let broker = try LocalBroker()
        var template = Array((NSTemporaryDirectory() + "gymtimer-console-bench-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw Problem(description: "cannot make a temporary directory") }
        let directory = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/station.toml"
        try "[fleet]\nbroker = \"mqtt://127.0.0.1:\(broker.port)\"\nstation = \"bench\"\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let trace = directory + "/trace.jsonl"
        let station = try RunningProcess(
            executable, ["simulate", "--headless", "--config", config, "--data-dir", directory + "/data"],
            stdout: trace, stderr: directory + "/station.log", pipeInput: true)
        defer {
            station.send("0 end")
            if station.wait(upTo: 5) == nil { station.signal(SIGKILL); station.wait() }
        }
        let pin = "bench-\(getpid())"
        try (pin + "\n").write(toFile: directory + "/pin", atomically: true, encoding: .utf8)
        let port = try LocalBroker.freePort()
        let console = try RunningProcess(
            executable,
            ["console", "--broker", "mqtt://127.0.0.1:\(broker.port)", "--listen", "127.0.0.1:\(port)", "--pin-file", directory + "/pin"],
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
        // The class: a rest on the station, 3 s from now (once the console has seen it online).
        guard retry(10, { act("class", #"{"stations":["bench"],"lead":3}"#) == 200 ? true : nil }) != nil else {
            throw Problem(description: "the console never saw the station (see the logs)")
        }
        Thread.sleep(forTimeInterval: 4)
        var clicked: [Double] = []
        for _ in 0..<clicks {
            let at = Date().timeIntervalSince1970
            guard act("pause", #"{"stations":["bench"]}"#) == 200 else { continue }
            clicked.append(at)
            Thread.sleep(forTimeInterval: 0.8)
            _ = act("resume", #"{"stations":["bench"]}"#)
            Thread.sleep(forTimeInterval: 0.8)
        }
        Thread.sleep(forTimeInterval: 0.5)
        let samples = Self.latencies(clicked, trace: (try? String(contentsOfFile: trace, encoding: .utf8)) ?? "")
        let note = (samples.count < clicks ? "\(clicks - samples.count) of \(clicks) pauses gave no display write. " : "")
            + "\(clicks) Pause clicks (logged-in HTTP POSTs, as the page sends them) through `gymtimer console` and Mosquitto on loopback to a headless station running a rest, each timed from just before the request to the station's first blink of the paused display (the trace's `unix`); one machine, one wall clock"
        return Self.figure(samples, note: note)
    }

    /// `body` until it is non-nil, for up to `seconds`.
    private func retry<T>(_ seconds: Double, _ body: () -> T?) -> T? {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if let value = body() { return value }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return nil
    }

    /// Each click's latency: from the click to the first display write with the colon off at or
    /// after it (a running rest keeps its colon lit; a paused one blinks it), in milliseconds.
    static func latencies(_ clicks: [Double], trace: String) -> [Double] {
        let blinks: [Double] = trace.split(separator: "\n").compactMap { line in
            guard case .object(let fields)? = JSONValue.parse(Array(line.utf8)), fields["device"]?.string == "display",
                  fields["colon"] == .bool(false), let unix = fields["unix"]?.number else { return nil }
            return unix
        }
        return clicks.enumerated().compactMap { n, at in
            guard let first = blinks.first(where: { $0 >= at }) else { return nil }
            // A blink after the next click answers that one, not this.
            if n + 1 < clicks.count, first >= clicks[n + 1] { return nil }
            return (first - at) * 1000
        }
    }

    static func figure(_ samples: [Double], note: String) -> BenchmarkFigure {
        BenchmarkFigure(name: name, unit: .milliseconds, statistics: BenchmarkStatistics(samples), target: .init(.p99, .below, 100), note: note)
    }
}
