import Foundation
import Glibc
import GymTimerDrivers
import GymTimerFleet
import GymTimerFleetLink
import GymTimerMQTT
import Testing

/// Commands against headless stations (`simulate --headless`, separate processes) and a real
/// Mosquitto: what only a real broker shows (retained messages at (re)subscription, a broker
/// that drops what exceeds the station's packet limit), and hostile values end to end.
@Suite(.serialized) struct StationCommandTests {
    let directory: String
    let gymtimer = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gymtimer").path

    init() throws {
        var template = Array((NSTemporaryDirectory() + "fleet-commands-XXXXXX").utf8CString)
        directory = String(cString: mkdtemp(&template)!)
    }

    func station(_ name: String, port: Int) throws -> RunningProcess {
        let config = "\(directory)/\(name).toml"
        try "[fleet]\nbroker = \"mqtt://127.0.0.1:\(port)\"\nstation = \"\(name)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        return try RunningProcess(
            gymtimer, ["simulate", "--headless", "--config", config, "--data-dir", "\(directory)/\(name)"],
            stdout: "\(directory)/\(name).jsonl", stderr: "\(directory)/\(name).log", pipeInput: true)
    }

    /// Everything a subscriber saw so far, and waiting for more.
    final class Watcher {
        let client: MQTTClient
        private(set) var seen: [MQTTMessage] = []

        init(port: Int, _ topics: [String]) throws { client = try observer(port: port, topics) }

        /// Pumps until `done` holds for everything seen (or `seconds` pass); whether it holds.
        @discardableResult
        func wait(_ seconds: Double = 10, until done: ([MQTTMessage]) -> Bool) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while !done(seen), Date() < end {
                let events = pump([client], timeout: 0.05) { _ in false }
                seen += (events[0] ?? []).compactMap { if case .message(let message) = $0 { message } else { nil } }
            }
            return done(seen)
        }

        var states: [[String: JSONValue]] { seen.filter { $0.topic.hasSuffix("/state") }.map { object($0.text) } }
        var events: [[String: JSONValue]] { seen.filter { $0.topic.hasSuffix("/event") }.map { object($0.text) } }
        func errors(_ kind: String) -> [[String: JSONValue]] {
            events.filter { $0["event"]?.string == "error" && $0["kind"]?.string == kind }
        }
    }

    static func object(_ text: String) -> [String: JSONValue] {
        if case .object(let object)? = JSONValue.parse(Array(text.utf8)) { return object }
        return [:]
    }

    func coach(_ port: Int) throws -> MQTTClient {
        let client = try MQTTClient(.init(clientID: "coach-\(UUID().uuidString.prefix(6))", host: "127.0.0.1", port: port))
        try client.connect()
        _ = pump([client]) { $0[0]?.contains(.connected) == true }
        return client
    }

    func publish(_ client: MQTTClient, _ topic: String, _ payload: [UInt8], retain: Bool = false, timeout: Double = 5) throws {
        let mid = try client.publish(MQTTMessage(topic: topic, payload: payload, qos: 1, retain: retain))
        _ = pump([client], timeout: timeout) { $0[0]?.contains(.delivered(mid: mid)) == true }
    }

    func publish(_ client: MQTTClient, _ topic: String, _ text: String, retain: Bool = false) throws {
        try publish(client, topic, Array(text.utf8), retain: retain)
    }

    @Test func aRetainedCommandIsNeverObeyedAndAHostileOneCannotCrashLoopAStation() throws {
        let broker = try LocalBroker()
        let coach = try coach(broker.port)
        // Before: `at` 1e300 trapped (Double → Int) at every start, so under Restart=always
        // every station of the gym crash-looped; a retained start was obeyed at every restart.
        try publish(coach, "gymtimer/all/cmd", "{\"do\":\"start\",\"at\":1e300}", retain: true)
        try publish(coach, "gymtimer/rack-1/cmd", "{\"do\":\"start\"}", retain: true)
        let watcher = try Watcher(port: broker.port, ["gymtimer/rack-1/state", "gymtimer/rack-1/event"])
        var rack = try station("rack-1", port: broker.port)
        #expect(watcher.wait { _ in watcher.errors("retained").count >= 2 }, "both retained commands refused: \(watcher.events)")
        #expect(watcher.wait(2) { _ in false } == false)
        #expect(watcher.states.allSatisfy { $0["phase"]?.string == "idle" }, "neither was obeyed: \(watcher.states)")
        rack.send("0 click start")
        #expect(watcher.wait { _ in watcher.states.contains { $0["phase"]?.string == "resting" } })
        let deadline = try #require(watcher.states.last { $0["phase"]?.string == "resting" }?["deadline"]?.number)
        for restart in 1...3 {
            rack.signal(SIGKILL)
            rack.wait()
            let before = watcher.states.count
            rack = try station("rack-1", port: broker.port)
            #expect(watcher.wait { _ in watcher.errors("retained").count >= 2 * (restart + 1) && watcher.states.count > before },
                    "restart \(restart): up, refusing both again")
            let state = watcher.states.last
            #expect(state?["phase"]?.string == "resting", "restart \(restart): the rest goes on")
            #expect(state?["deadline"]?.number.map { abs($0 - deadline) < 0.05 } == true,
                    "restart \(restart): the countdown is undisturbed: \(state ?? [:]) vs \(deadline)")
        }
        #expect(rack.wait(upTo: 1) == nil, "the station stays up")
        rack.send("0 end")
        #expect(rack.wait(upTo: 10) == 0)
        let log = (try? String(contentsOfFile: "\(directory)/rack-1.log", encoding: .utf8)) ?? ""
        #expect(log.components(separatedBy: "refused a command (retained)").count - 1 == 1, "logged once per run:\n\(log)")
    }

    @Test func hostileValuesAreErrorsAndPauseResumeResetAndSetAreObeyed() throws {
        let broker = try LocalBroker()
        let coach = try coach(broker.port)
        let watcher = try Watcher(port: broker.port, ["gymtimer/rack-2/state", "gymtimer/rack-2/event"])
        let rack = try station("rack-2", port: broker.port)
        #expect(watcher.wait { _ in !watcher.states.isEmpty })
        /// Sends `payload`; the first state or error event that follows it.
        func command(_ payload: String) throws -> [String: JSONValue] {
            let count = watcher.seen.count
            try publish(coach, "gymtimer/rack-2/cmd", payload)
            func answer(_ seen: [MQTTMessage]) -> [String: JSONValue]? {
                seen.dropFirst(count).lazy.map { (topic: $0.topic, object: Self.object($0.text)) }
                    .first { $0.topic.hasSuffix("/state") || $0.object["event"]?.string == "error" }?.object
            }
            watcher.wait { answer($0) != nil }
            return answer(watcher.seen) ?? [:]
        }
        let now = Date().timeIntervalSince1970
        for at in ["1e300", "1e10", "9.2e18", String(now + 25 * 3600)] {
            #expect(try command("{\"do\":\"start\",\"at\":\(at)}")["kind"]?.string == "too-early", "at \(at)")
        }
        #expect(try command("{\"do\":\"start\",\"at\":1e-300}")["kind"]?.string == "too-late")
        #expect(try command("{\"do\":\"pause\"}")["kind"]?.string == "not-allowed", "nothing runs to pause")
        #expect(try command("{\"do\":\"set\",\"rest_seconds\":7}")["kind"]?.string == "not-allowed", "7 s is off the knob (was clamped to 15)")
        #expect(try command("{\"do\":\"set\",\"rest_seconds\":120}")["rest_seconds"]?.number == 120)
        #expect(try command("{\"do\":\"start\"}")["phase"]?.string == "resting")
        let paused = try command("{\"do\":\"pause\"}")
        #expect(paused["phase"]?.string == "paused")
        #expect(paused["remaining"]?.number.map { $0 > 100 && $0 <= 120 } == true, "\(paused)")
        #expect(try command("{\"do\":\"resume\"}")["phase"]?.string == "resting")
        let reset = try command("{\"do\":\"reset\"}")
        #expect(reset["phase"]?.string == "idle" && reset["sets"]?.number == 0)
        #expect(rack.wait(upTo: 0.2) == nil, "still up")
        rack.send("0 end")
        #expect(rack.wait(upTo: 10) == 0)
    }

    @Test func aScheduledStartOnAStationWhoseAthleteStartedARestLeavesTheRestAndSaysWhy() throws {
        let broker = try LocalBroker()
        let coach = try coach(broker.port)
        let watcher = try Watcher(port: broker.port, ["gymtimer/rack-3/state", "gymtimer/rack-3/event"])
        let rack = try station("rack-3", port: broker.port)
        #expect(watcher.wait { _ in !watcher.states.isEmpty })
        let at = Date().timeIntervalSince1970 + 2
        try publish(coach, "gymtimer/rack-3/cmd", "{\"do\":\"start\",\"at\":\(at)}")
        #expect(watcher.wait { $0.contains { Self.object($0.text)["event"]?.string == "scheduled" } })
        rack.send("0 click start")  // the athlete, before the class start
        #expect(watcher.wait { _ in watcher.states.contains { $0["phase"]?.string == "resting" } })
        let deadline = watcher.states.last?["deadline"]?.number
        #expect(watcher.wait(8) { _ in !watcher.errors("not-allowed").isEmpty }, "the class start says why it did not start")
        let reason = watcher.errors("not-allowed").first?["reason"]?.string ?? ""
        #expect(reason.contains("no longer idle"), "\(reason)")
        watcher.wait(0.5) { _ in false }
        #expect(watcher.states.last?["phase"]?.string == "resting" && watcher.states.last?["deadline"]?.number == deadline,
                "the athlete's rest is neither cancelled nor restarted: \(watcher.states)")
        #expect(!watcher.events.contains { $0["event"]?.string == "started" })
        rack.send("0 end")
        #expect(rack.wait(upTo: 10) == 0)
        let trace = ((try? String(contentsOfFile: "\(directory)/rack-3.jsonl", encoding: .utf8)) ?? "").split(separator: "\n")
        let rest = trace.map { Self.object(String($0)) }.filter { $0["device"]?.string == "led" && $0["name"]?.string == "rest" }
        #expect(rest.drop { $0["on"] == .bool(false) }.map { $0["on"] } == [.bool(true)], "one rest, never interrupted: \(rest)")
    }

    /// VmHWM (peak resident memory) of `pid`, in kB.
    static func peakMemory(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    @Test func aTwoHundredMegabyteCommandNeverReachesTheStationsMemory() throws {
        let broker = try LocalBroker()
        let coach = try coach(broker.port)
        let watcher = try Watcher(port: broker.port, ["gymtimer/rack-4/state", "gymtimer/rack-4/event"])
        let rack = try station("rack-4", port: broker.port)
        #expect(watcher.wait { _ in !watcher.states.isEmpty })
        let before = try #require(Self.peakMemory(rack.pid))
        // Before: the station read it whole (40 MB → 653 MB), then refused it as too large.
        var huge = Array("{\"do\":\"start\",\"pad\":\"".utf8)
        huge += [UInt8](repeating: UInt8(ascii: "x"), count: 200_000_000)
        huge += Array("\"}".utf8)
        try publish(coach, "gymtimer/rack-4/cmd", huge, timeout: 60)
        huge = []
        // Delivered in order after it: once this one is answered, the huge one is behind us.
        try publish(coach, "gymtimer/rack-4/cmd", "{\"do\":\"jump\"}")
        #expect(watcher.wait(30) { _ in !watcher.errors("unknown-command").isEmpty })
        let after = try #require(Self.peakMemory(rack.pid))
        print("peak memory of a station sent a 200 MB command: \(before) kB → \(after) kB (+\(after - before) kB)")
        #expect(after - before < 20_000, "peak \(before) kB → \(after) kB (goal: under +5 MB)")
        #expect(watcher.errors("too-large").isEmpty, "the broker dropped it: the station never read it")
        #expect(rack.wait(upTo: 0.2) == nil)
        rack.send("0 end")
        #expect(rack.wait(upTo: 10) == 0)
    }
}
