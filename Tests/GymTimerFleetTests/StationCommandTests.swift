import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerFleet
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import GymTimerMQTT
import GymTimerSimulation
import GymTimerSimulator
import Testing

/// Commands to a station, in virtual time: the kiosk's loop hosting its station
/// (`VirtualStation`) on the in-memory broker, a coach publishing, and what the station
/// published read back from the broker. Hostile values are errors, the verbs are obeyed, and a
/// class start on a station whose athlete started a rest leaves the rest and says why. (What
/// only a real broker and a real process show, retained commands across SIGKILL restarts and
/// a command too large for the station's packet limit, is in `HeadlessStationTests`.)
@Suite struct StationCommandTests {
    let clock = VirtualClock()
    let broker: InMemoryBroker
    let station: VirtualStation
    let coach: any MQTTTransport
    let name = "rack-2"

    init() throws {
        let clock = clock
        broker = InMemoryBroker(now: { clock.now.offset })
        let configuration = try GymTimerConfiguration.parse(
            "[fleet]\nbroker = \"mqtt://gym.local:1883\"\nstation = \"\(name)\"\nhome_assistant = false\n")
        station = VirtualStation(configuration: configuration, clock: clock, broker: broker, log: { print($0) })
        coach = try broker.factory(.init(clientID: "coach", host: "gym.local", port: 1883))
        try coach.connect()
    }

    /// What the station published on `state` and `event`, from the broker's `from`th message on.
    func published(from: Int = 0) -> [(topic: String, object: [String: JSONValue])] {
        broker.published.dropFirst(from)
            .filter { $0.topic == "gymtimer/\(name)/state" || $0.topic == "gymtimer/\(name)/event" }
            .map { ($0.topic, Watcher.object($0.text)) }
    }
    var states: [[String: JSONValue]] { published().filter { $0.topic.hasSuffix("/state") }.map(\.object) }
    func errors(_ kind: String) -> [[String: JSONValue]] {
        published().map(\.object).filter { $0["event"]?.string == "error" && $0["kind"]?.string == kind }
    }

    /// Runs the station's loop in steps of 10 ms until `done`, for at most `bound` of virtual time.
    @discardableResult
    func run(upTo bound: Duration = .seconds(10), until done: () -> Bool) throws -> Bool {
        let end = clock.now.offset + bound
        while !done(), clock.now.offset < end { try station.run(for: .milliseconds(10)) }
        return done()
    }

    /// Sends `payload`; the first state or error event the station published after it.
    func command(_ payload: String) throws -> [String: JSONValue] {
        let count = broker.published.count
        try coach.publish(MQTTMessage(topic: "gymtimer/\(name)/cmd", text: payload, qos: 1))
        func answer() -> [String: JSONValue]? {
            published(from: count).first { $0.topic.hasSuffix("/state") || $0.object["event"]?.string == "error" }?.object
        }
        try run { answer() != nil }
        return answer() ?? [:]
    }

    @Test func hostileValuesAreErrorsAndPauseResumeResetAndSetAreObeyed() throws {
        #expect(try run { !states.isEmpty }, "online, with its first state")
        let now = station.wall.now
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
        #expect(broker.connectedClients.contains("gymtimer-\(name)"), "still up, still connected")
    }

    /// The display counts down each second; the state is published on change only: over ten
    /// seconds of a rest, exactly no state (its deadline says it all).
    @Test func theStateIsPublishedOnChangeNotPerDisplayedSecond() throws {
        #expect(try run { !states.isEmpty })
        #expect(try command("{\"do\":\"start\"}")["phase"]?.string == "resting")
        let from = broker.published.count
        try station.run(for: .seconds(10))
        #expect([.time(seconds: 80), .time(seconds: 79)].contains(station.runtime.shownDisplay),
                "the display counted ten seconds down: \(String(describing: station.runtime.shownDisplay))")
        let later = published(from: from)
        #expect(later.filter { $0.topic.hasSuffix("/state") }.isEmpty, "no state per displayed second: \(later.map(\.object))")
    }

    @Test func aScheduledStartOnAStationWhoseAthleteStartedARestLeavesTheRestAndSaysWhy() throws {
        let clock = clock
        var restLED: [(at: Duration, on: Bool)] = []
        let line = try #require(station.devices.leds[.rest])
        let shown = line.onChange
        line.onChange = { on in
            restLED.append((clock.now.offset, on))
            shown?(on)
        }
        #expect(try run { !states.isEmpty })
        let at = station.wall.now + 2
        try coach.publish(MQTTMessage(topic: "gymtimer/\(name)/cmd", text: "{\"do\":\"start\",\"at\":\(at)}", qos: 1))
        #expect(try run { published().contains { $0.object["event"]?.string == "scheduled" } })
        // The athlete, before the class start.
        station.inputs.schedule([InputGestures.click("start", at: clock.now.offset + .milliseconds(100))])
        #expect(try run { states.contains { $0["phase"]?.string == "resting" } })
        let deadline = states.last?["deadline"]?.number
        #expect(try run(upTo: .seconds(8)) { !errors("not-allowed").isEmpty }, "the class start says why it did not start")
        let reason = errors("not-allowed").first?["reason"]?.string ?? ""
        #expect(reason.contains("no longer idle"), "\(reason)")
        // Ten seconds more: nothing cancels or restarts the athlete's rest.
        try station.run(for: .seconds(10))
        #expect(states.last?["phase"]?.string == "resting" && states.last?["deadline"]?.number == deadline,
                "the athlete's rest is neither cancelled nor restarted: \(states)")
        #expect(!published().contains { $0.object["event"]?.string == "started" })
        #expect(restLED.drop { !$0.on }.map(\.on) == [true], "one rest, never interrupted: \(restLED)")
    }
}
