import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerSimulation
import Testing
@testable import GymTimerSimulator

/// `simulate --script` with a `[fleet]`: the run hosts its station on an in-memory broker in
/// virtual time, the script's `fleet` and `broker` lines are the gym's network, and what the
/// station sends is in the trace as `fleet` records beside the devices'.
@Suite struct ScriptedFleetTests {
    static let config = """
        [fleet]
        broker = "mqtt://gym.local:1883"
        station = "rack-1"
        home_assistant = false
        """

    /// Unix time of virtual time `t` (the simulator's epoch is virtual time 0).
    static func unix(_ t: Int) -> Int { Int(ScriptedSimulation.virtualEpoch.timeIntervalSince1970) + t }

    /// The trace of `script` as JSON objects.
    func run(_ script: String, config: String = Self.config) throws -> [[String: Any]] {
        let configuration = try GymTimerConfiguration.parse(config)
        let parsed = try ScriptParser(fleet: configuration.fleet != nil).parse(script)
        var lines: [String] = []
        let simulation = try ScriptedSimulation(
            script: parsed, settings: configuration.kiosk, fleet: configuration, write: { lines.append($0) })
        try simulation.run()
        return try lines.map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
    }

    /// The station's messages on `topic` as (t, payload).
    func fleet(_ trace: [[String: Any]], _ topic: String) -> [(t: Double, payload: Any)] {
        trace.filter { $0["device"] as? String == "fleet" && $0["topic"] as? String == topic }
            .map { ($0["t"] as? Double ?? -1, $0["payload"] as Any) }
    }

    /// The events the station published as (t, event name, kind).
    func events(_ trace: [[String: Any]]) -> [(t: Double, event: String, kind: String?)] {
        fleet(trace, "event").compactMap { t, payload in
            guard let object = payload as? [String: Any], let event = object["event"] as? String else { return nil }
            return (t, event, object["kind"] as? String)
        }
    }

    /// The display's digits at time `t`.
    func digits(_ trace: [[String: Any]], at t: Double) -> String? {
        trace.last { $0["device"] as? String == "display" && ($0["t"] as? Double ?? .infinity) <= t + 1e-9 }?["text"] as? String
    }

    @Test func aRetainedHostileCommandOnAllIsRefusedAtEveryRestartAndTheRestRunsOn() throws {
        let trace = try run("""
            0 fleet all retained {"do":"start","at":1e300}
            1 click start
            10 restart
            20 restart
            30 restart
            40 end
            """)
        // The first controller, subscribed already, gets it live (a broker sends a retained
        // message to an established subscription as a plain one), and refuses its `at`; every
        // restart finds it retained at the broker and refuses it as such.
        let refusals = events(trace).filter { $0.event == "error" }
        #expect(refusals.map(\.t) == [0, 10, 20, 30])
        #expect(refusals.map(\.kind) == ["too-early", "retained", "retained", "retained"])
        // Each restart is an unclean end (the broker says offline for it) and a new connection.
        #expect(fleet(trace, "status").map { $0.payload as? String ?? "" } == [
            "online", "offline", "online", "offline", "online", "offline", "online", "offline",
        ])
        // The rest started by hand at 1.01 s counts on through the restarts, second by second.
        #expect(digits(trace, at: 9.5) == "0122")
        #expect(digits(trace, at: 39.5) == "0052")
        #expect(!events(trace).contains { $0.event == "command" })
    }

    @Test func hostileAtValuesAreErrorEventsAndChangeNothing() throws {
        let trace = try run("""
            1 fleet {"do":"start","at":1e300}
            2 fleet {"do":"start","at":1e10}
            3 fleet {"do":"start","at":9e18}
            4 fleet {"do":"start","at":\(Self.unix(4 + 25 * 3600))}
            5 fleet not json at all
            10 end
            """)
        let errors = events(trace).filter { $0.event == "error" }
        #expect(errors.map(\.t) == [1, 2, 3, 4, 5])
        #expect(digits(trace, at: 10) == "0130", "the station is still idle")
        #expect(trace.filter { $0["device"] as? String == "led" && $0["name"] as? String == "rest" }.count == 1, "the rest LED never lit")
    }

    @Test func aScheduledStartFindsTheAthletesRestAtItsInstantAndLeavesItAlone() throws {
        let trace = try run("""
            1 fleet {"do":"start","at":\(Self.unix(10))}
            5 click start
            15 end
            """)
        #expect(events(trace).map(\.event).prefix(2) == ["scheduled", "phase"])
        let atInstant = events(trace).filter { $0.t == 10 }
        #expect(atInstant.map(\.event) == ["error"], "\(atInstant)")
        // The athlete's rest from 5.01 s goes on: 90 − 9 = 81 s shown at 14.5 s.
        #expect(digits(trace, at: 14.5) == "0121")
    }

    @Test func aCoachPausesAndAfterTheBrokerCameBackResumes() throws {
        let trace = try run("""
            2 fleet {"do":"start"}
            10 fleet {"do":"pause"}
            12 broker down
            14 broker up
            30 fleet {"do":"resume"}
            35 end
            """)
        #expect(events(trace).filter { $0.event == "command" }.map(\.t) == [2, 10, 30])
        // Paused at 82 s left (8 s in), still 82 s when resumed at 30 s, then 80 s at 32 s.
        #expect(digits(trace, at: 29.9) == "0122")
        #expect(digits(trace, at: 32.5) == "0120")
        // The station found the broker gone and came back on its own.
        let statuses = fleet(trace, "status").map { $0.payload as? String ?? "" }
        #expect(statuses.first == "online" && statuses.dropFirst().contains("online") && statuses.last == "offline")
    }

    @Test func theSameScriptGivesTheSameTraceByteForByte() throws {
        let script = """
            1 click start
            3 fleet {"do":"set","rest_seconds":60}
            4 click dismiss
            5 fleet all {"do":"start","at":\(Self.unix(8))}
            12 broker down
            13 broker up
            20 end
            """
        let configuration = try GymTimerConfiguration.parse(Self.config)
        func text() throws -> [String] {
            var lines: [String] = []
            let simulation = try ScriptedSimulation(
                script: try ScriptParser(fleet: true).parse(script), settings: configuration.kiosk, fleet: configuration,
                write: { lines.append($0) })
            try simulation.run()
            return lines
        }
        let first = try text()
        #expect(first.contains { $0.contains(#""device":"fleet""#) })
        #expect(try text() == first)
    }

    @Test func fleetLinesNeedAFleetAndAreCheckedAsEveryLineIs() {
        #expect(throws: ScriptError(line: 1, "'fleet' needs a [fleet] section in the config: the simulated station has no broker without one")) {
            try ScriptParser().parse("1 fleet {\"do\":\"start\"}\n2 end")
        }
        #expect(throws: ScriptError(line: 2, "usage: TIME broker down|up")) {
            try ScriptParser(fleet: true).parse("1 broker down\n2 broker sideways\n3 end")
        }
        #expect(throws: ScriptError.self) { try ScriptParser(fleet: true).parse("1 fleet all retained\n2 end") }
        let parsed = try? ScriptParser(fleet: true).parse("1 fleet all retained {\"do\": \"start\"}\n2 end")
        #expect(parsed?.steps.map(\.action) == [.fleet(.message(payload: #"{"do": "start"}"#, everyStation: true, retained: true))])
        // The gym's athlete card, retained on its topic; no payload clears it; a UID is required.
        let cards = try? ScriptParser(fleet: true).parse("1 fleet card 04a1b2c3 {\"short\": \"AnnA\"}\n2 fleet card 04A1B2C3\n3 end")
        let anna = CardUID(hex: "04A1B2C3")!
        #expect(cards?.steps.map(\.action) == [
            .fleet(.athleteCard(card: anna, payload: #"{"short": "AnnA"}"#)), .fleet(.athleteCard(card: anna, payload: "")),
        ])
        #expect(throws: ScriptError.self) { try ScriptParser(fleet: true).parse("1 fleet card AnnA {}\n2 end") }
        #expect(throws: ScriptError.self) { try ScriptParser(fleet: true).parse("1 fleet card\n2 end") }
    }

    @Test func aBrightnessCommandReachesTheChipAndARestartSetsItAgain() throws {
        let configuration = try GymTimerConfiguration.parse(Self.config)
        let script = try ScriptParser(fleet: true).parse("""
            1 fleet {"do":"brightness","percent":40}
            2 restart
            3 end
            """)
        let simulation = try ScriptedSimulation(
            script: script, settings: configuration.kiosk, display: .ht16k33(i2cBus: 1, address: 0x70), fleet: configuration, write: { _ in })
        let display = try #require(simulation.display as? SimulatedChipDisplay)
        let chip = try #require(display.device as? SimulatedHT16K33)
        #expect(chip.dimming == 15, "full brightness before any command")
        try simulation.run()
        // 40 % of steps 0…15 is 6 (a restarted kiosk sets it again: FloorCommandTests).
        #expect(chip.dimming == 6)
    }
}
