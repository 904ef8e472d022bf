import Foundation
import Glibc
import GymTimerConfig
import GymTimerCore
import GymTimerFleet
import GymTimerFleetLink
import GymTimerMQTT
import GymTimerRuntime
import GymTimerSimulator
import Testing

/// The terminal kiosk (`gymtimer simulate` with a `[fleet]`) as a fleet station on a real
/// Mosquitto: keys from a pipe, the loop on its own thread, the coach's start through
/// `FleetConsole`, what it showed read from its simulated devices.
@Suite(.serialized) struct TerminalStationTests {
    /// What the kiosk's outputs did, with the wall-clock time of each change (the loop's thread writes).
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var _frames: [(unix: Double, text: String)] = []
        private var _restOn: [Double] = []
        private var _screen = ""
        func frame(_ text: String) { lock.withLock { _frames.append((Date().timeIntervalSince1970, text)) } }
        func rest(_ on: Bool) { if on { lock.withLock { _restOn.append(Date().timeIntervalSince1970) } } }
        func screen(_ text: String) { lock.withLock { _screen += text } }
        var frames: [(unix: Double, text: String)] { lock.withLock { _frames } }
        var restOn: [Double] { lock.withLock { _restOn } }
        var screen: String { lock.withLock { _screen } }
    }

    /// Lets the simulation run on another thread (only that thread touches it until it ends).
    final class Running: @unchecked Sendable {
        let simulation: TerminalSimulation
        let done = DispatchSemaphore(value: 0)
        init(_ simulation: TerminalSimulation) { self.simulation = simulation }
    }

    func retained(_ client: MQTTClient, seconds: Double = 5, until done: @escaping ([MQTTMessage]) -> Bool) -> [MQTTMessage] {
        func of(_ events: [Int: [MQTTEvent]]) -> [MQTTMessage] {
            (events[0] ?? []).compactMap { if case .message(let message) = $0 { message } else { nil } }
        }
        return of(pump([client], timeout: seconds) { done(of($0)) })
    }

    @Test func aTerminalKioskJoinsTheFleetStartsAtTheCoachsInstantAndSaysOfflineOnQ() throws {
        let broker = try LocalBroker()
        let watcher = try observer(port: broker.port, ["gymtimer/term-1/status", "gymtimer/term-1/state"])
        var template = Array((NSTemporaryDirectory() + "fleet-terminal-XXXXXX").utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = try GymTimerConfiguration.parse(
            "[fleet]\nbroker = \"mqtt://127.0.0.1:\(broker.port)\"\nstation = \"term-1\"\n")
        var keys: [Int32] = [-1, -1]
        #expect(pipe(&keys) == 0)
        defer { close(keys[1]) }
        let recorder = Recorder()
        let simulation = try TerminalSimulation(
            configuration: configuration, fd: keys[0], colour: false, dataDirectory: directory + "/data",
            wallTime: wallTimeSinceEpoch(), write: { recorder.screen($0) })
        // The screen's own observers stay; these record beside them.
        let showFrame = simulation.devices.display.onFrame
        simulation.devices.display.onFrame = { frame in
            recorder.frame(frame.text)
            showFrame?(frame)
        }
        let restLED = simulation.devices.leds[.rest]!
        let showRest = restLED.onChange
        restLED.onChange = { on in
            recorder.rest(on)
            showRest?(on)
        }
        let running = Running(simulation)
        Thread {
            try? running.simulation.run()
            running.done.signal()
        }.start()

        let online = retained(watcher) { $0.contains { $0.topic == "gymtimer/term-1/status" && $0.text == "online" } }
        #expect(online.contains { $0.text == "online" }, "the terminal station comes online")

        let at = (Date().timeIntervalSince1970 + 1.5).rounded(.up)
        let console = FleetConsole(options: .init(clientID: "coach", host: "127.0.0.1", port: broker.port), prefix: "gymtimer")
        _ = try console.send(to: .stations(["term-1"])) { "{\"do\":\"start\",\"at\":\(at)}" }
        let states = retained(watcher, seconds: 6) { $0.contains { $0.topic.hasSuffix("/state") && $0.text.contains("\"resting\"") } }
        let resting = try #require(states.last { $0.topic.hasSuffix("/state") && $0.text.contains("\"resting\"") })
        let deadline = JSONValue.parse(Array(resting.text.utf8)).flatMap { value -> Double? in
            if case .object(let object) = value { object["deadline"]?.number } else { nil }
        }
        #expect(deadline.map { abs($0 - (at + 90)) < 0.005 } == true, "the state's deadline is at + 90 s: \(resting.text)")

        // A newcomer to the broker is told the state at once: it is retained.
        let late = try observer(port: broker.port, ["gymtimer/term-1/state"])
        let told = retained(late) { $0.contains { $0.text.contains("\"resting\"") } }
        #expect(told.contains { $0.retain && $0.text.contains("\"resting\"") }, "the resting state is retained")

        // Until the display has counted a second down (or 5 s): then q.
        let end = Date().addingTimeInterval(5)
        while !recorder.frames.contains(where: { $0.text == "0129" }), Date() < end {
            var none = pollfd()
            _ = poll(&none, 0, 20)
        }
        var quit = UInt8(ascii: "q")
        #expect(write(keys[1], &quit, 1) == 1)
        #expect(running.done.wait(timeout: .now() + 10) == .success, "q ends the run")
        let offline = retained(watcher) { $0.contains { $0.text == "offline" } }
        #expect(offline.contains { $0.topic == "gymtimer/term-1/status" && $0.text == "offline" }, "q says offline")

        // The rest began at `at`, never before (the real clock only as a lower bound).
        let began = try #require(recorder.restOn.first, "the rest LED lit")
        #expect(began >= at - 0.0005, "the rest began \(began - at) s from at")
        let frames = recorder.frames
        #expect(frames.last { $0.unix <= began + 0.0005 }?.text == "0130", "the display shows the 90 s rest: \(frames)")
        let second = try #require(frames.first { $0.text == "0129" }, "and counts down: \(frames)")
        #expect(second.unix >= at + 1 - 0.0005, "the countdown runs from at: 01:29 shown \(second.unix - at) s after it")
        let events = simulation.events.lines().joined(separator: "\n")
        #expect(events.contains("fleet: connected"), "\(events)")
        #expect(events.contains("fleet: start scheduled for"), "\(events)")
        #expect(events.contains("fleet: started by the coach"), "\(events)")
        #expect(recorder.screen.contains("station term-1"), "the status line names the station")
        // The outbox sits beside the data directory's history.
        #expect(FileManager.default.fileExists(atPath: FleetOutbox.path(besideHistory: directory + "/data/history.sqlite")))
    }
}
