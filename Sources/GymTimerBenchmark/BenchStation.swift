import Foundation
import GymTimerBenchSupport
import GymTimerDrivers
import GymTimerFleetCommands
import GymTimerSystem

/// A headless station (`simulate --headless`, fleet station `bench`) on a fresh Mosquitto on
/// loopback, in a temporary directory: what the fleet and console benchmarks time against.
/// `stop()` ends the station (SIGKILL if it does not stop within 5 s) and removes the directory.
final class BenchStation {
    let broker: LocalBroker
    let directory: String
    /// Where the station writes its trace (JSON Lines with `unix`).
    let trace: String
    let process: RunningProcess

    /// Why a station could not be set up.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    init(executable: String, purpose: String) throws {
        broker = try LocalBroker()
        var template = Array((NSTemporaryDirectory() + "gymtimer-\(purpose)-bench-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw Problem(description: "cannot make a temporary directory") }
        directory = String(cString: made)
        let config = directory + "/station.toml"
        try "[fleet]\nbroker = \"mqtt://127.0.0.1:\(broker.port)\"\nstation = \"bench\"\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        trace = directory + "/trace.jsonl"
        process = try RunningProcess(
            executable, ["simulate", "--headless", "--config", config, "--data-dir", directory + "/data"],
            stdout: trace, stderr: directory + "/station.log", pipeInput: true)
    }

    /// The trace as written so far.
    var traceText: String { (try? String(contentsOfFile: trace, encoding: .utf8)) ?? "" }

    func stop() {
        process.send("0 end")
        if process.wait(upTo: 5) == nil { process.signal(SIGKILL); process.wait() }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
