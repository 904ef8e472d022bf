import Foundation
import Testing
import GymTimerCore
@testable import GymTimerFleet

/// Every message the fleet writes, byte for byte as the hand-built payloads before
/// `FleetJSONEncoder` wrote them (key order, `%.3f` seconds, which nils are null and which
/// are left out, `\/` or `/`): stations, consoles and Home Assistant of every version read them.
@Suite struct FleetMessageBytesTests {
    static let program = Program(name: "AMRAP \"12\"", label: "A12", leadInSeconds: 5, format: .amrap(timeSeconds: 720))
    static let tap: CardTap = {
        var tap = CardTap(card: CardID(hex: "04A1B2C3")!)
        tap.shortName = "AnnA"
        tap.division = .scaled
        return tap
    }()

    @Test(arguments: [
        (FleetCommand.start(at: nil), #"{"do":"start"}"#),
        (.start(at: 1_767_225_600.5), #"{"do":"start","at":1767225600.500}"#),
        (.classStart(at: 1_767_225_600, runs: .named(mode: "workout", name: nil)), #"{"do":"start","at":1767225600.000,"mode":"workout"}"#),
        (.classStart(at: 1_767_225_600.25, runs: .named(mode: "program", name: "Fran/2")),
         #"{"do":"start","at":1767225600.250,"mode":"program","name":"Fran\/2"}"#),
        (.classStart(at: 1, runs: .defined(program)),
         #"{"do":"start","at":1.000,"program":{"name":"AMRAP \"12\"","label":"A12","kind":"amrap","time_seconds":720,"lead_in_seconds":5}}"#),
        (.cancel, #"{"do":"cancel"}"#), (.ping, #"{"do":"ping"}"#), (.dismiss, #"{"do":"dismiss"}"#),
        (.pause, #"{"do":"pause"}"#), (.resume, #"{"do":"resume"}"#), (.reset, #"{"do":"reset"}"#),
        (.lock, #"{"do":"lock"}"#), (.unlock, #"{"do":"unlock"}"#),
        (.brightness(percent: 40), #"{"do":"brightness","percent":40}"#),
        (.sleep(nil), #"{"do":"sleep","off":true}"#),
        (.sleep(try! SleepWindow.parse(from: "22:00", until: "06:30").get()), #"{"do":"sleep","from":"22:00","until":"06:30"}"#),
        (.message(text: "HI \"é\"\n", seconds: 5), #"{"do":"message","text":"HI \"é\"\n","seconds":5}"#),
        (.setRest(seconds: 90), #"{"do":"set","rest_seconds":90}"#),
        (.athlete(nil), #"{"do":"athlete","card":null}"#),
        (.athlete(CardTap(card: CardID(hex: "04A1")!)), #"{"do":"athlete","card":"04A1"}"#),
        (.athlete(tap), #"{"do":"athlete","card":"04A1B2C3","short":"AnnA","division":"scaled"}"#),
        (.forget(card: CardID(hex: "04A1B2C3")!), #"{"do":"forget","card":"04A1B2C3"}"#),
        (.select(mode: "rest", name: nil), #"{"do":"select","mode":"rest"}"#),
        (.select(mode: "program", name: "Tabata"), #"{"do":"select","mode":"program","name":"Tabata"}"#),
    ])
    func commands(command: FleetCommand, payload: String) {
        #expect(command.json == payload)
        #expect(FleetRequest(command, id: nil).json == payload)
        #expect(FleetRequest(command, id: "q-1").json == String(payload.dropLast()) + #","id":"q-1"}"#)
    }

    @Test func classRecord() {
        let record = FleetClassRecord(
            id: "class/7", workBegins: 1_767_225_600.1234, pauses: [.init(from: 1_767_225_700, until: 1_767_225_760.5), .init(from: 1_767_225_800, until: nil)])
        #expect(record.json == #"{"id":"class\/7","at":1767225600.123,"pauses":[[1767225700.000,1767225760.500],[1767225800.000,null]]}"#)
        #expect(FleetClassRecord(id: "c", workBegins: 2).json == #"{"id":"c","at":2.000,"pauses":[]}"#)
    }

    @Test func recordAcknowledgement() {
        let ack = FleetRecordAck(stored: ["rack-1/rest@1", "rack-1/a\"b"], refused: [.init(id: "rack-1/x", kind: "bad-sets", reason: "sets 0/1")])
        #expect(ack.payload
            == #"{"stored":["rack-1/rest@1","rack-1/a\"b"],"refused":[{"id":"rack-1/x","kind":"bad-sets","reason":"sets 0/1"}]}"#)
        #expect(FleetRecordAck().payload == #"{"stored":[],"refused":[]}"#)
    }

    /// Sorted keys and slashes as they are, as Foundation's JSONEncoder wrote the card.
    @Test func athleteCard() throws {
        let card = FleetAthleteCard(short: "AnnA", bests: [ProgramBest(program: "Fran/2 \"é\"", division: .scaled, score: "3:45, 1 round")])
        let expected = #"{"bests":[{"division":"scaled","program":"Fran/2 \"é\"","score":"3:45, 1 round"}],"short":"AnnA"}"#
        #expect(String(decoding: card.payload, as: UTF8.self) == expected)
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(card.payload == Array(try foundation.encode(card)))
        #expect(String(decoding: FleetAthleteCard().payload, as: UTF8.self) == #"{"bests":[]}"#)
    }

    /// Home Assistant's discovery: the bytes Foundation's JSONSerialization (sorted keys, slashes
    /// as they are) writes of the same content, as it wrote them before.
    @Test func homeAssistantDiscovery() throws {
        let discovery = HomeAssistantDiscovery(
            topics: FleetTopics(prefix: "gym/one", station: "rack-3"), programs: ["Fran/2", "AMRAP \"12\" é", "Tabata"])
        let payload = discovery.device.payload
        let object = try JSONSerialization.jsonObject(with: Data(payload.utf8))
        let again = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        #expect(payload == String(decoding: again, as: UTF8.self))
        #expect(payload.contains(#""payload_press":"{\"do\":\"start\"}""#))
        #expect(payload.contains(#""max":300,"#) && payload.hasSuffix(#""qos":1}"#))
    }

    @Test func events() {
        var event = FleetEvent.command("select", mode: "rest")
        event.id = "q1"
        event.t = WireSeconds(1_767_225_600.0006)
        #expect(event.json == #"{"t":1767225600.001,"event":"command","do":"select","id":"q1","mode":"rest"}"#)
        var moved = FleetEvent.classFollowed(id: "c/1", moved: -0.25, paused: true)
        moved.t = WireSeconds(5)
        #expect(moved.json == #"{"t":5.000,"event":"class","id":"c\/1","moved":-0.250,"paused":true}"#)
        var refused = FleetEvent.error(kind: "malformed", reason: "command \"x\"")
        (refused.id, refused.t) = ("abc", WireSeconds(6))
        #expect(refused.json == #"{"t":6.000,"event":"error","id":"abc","kind":"malformed","reason":"command \"x\""}"#)
        var started = FleetEvent.started(at: 7.5)
        started.t = WireSeconds(7.5)
        #expect(started.json == #"{"t":7.500,"event":"started","at":7.500}"#)
        var done = FleetEvent.completed(kind: "rest", sets: 3)
        done.t = WireSeconds(8)
        #expect(done.json == #"{"t":8.000,"event":"completed","kind":"rest","sets":3}"#)
        var phase = FleetEvent.phase(mode: "rest", phase: "alarm")
        phase.t = WireSeconds(9)
        #expect(phase.json == #"{"t":9.000,"event":"phase","mode":"rest","phase":"alarm"}"#)
    }

    @Test func states() {
        let idle = FleetStateMessage(
            mode: "rest", phase: "idle", program: nil, display: "  90", deadline: nil, remaining: nil, round: nil, result: nil,
            sets: 0, restSeconds: 90, startsAt: nil, programs: [], locked: false, brightness: nil, sleep: nil, asleep: false,
            division: "rx", t: WireSeconds(1))
        #expect(idle.json == #"{"mode":"rest","phase":"idle","program":null,"display":"  90","deadline":null,"remaining":null,"#
            + #""round":null,"sets":0,"rest_seconds":90,"programs":[],"locked":false,"brightness":null,"division":"rx","t":1.000}"#)
        let busy = FleetStateMessage(
            mode: "program", phase: "complete", program: "Fran", display: "12:34", deadline: WireSeconds(2.5), remaining: WireSeconds(0.25),
            round: 3, result: "12:34, 3 rounds", sets: 1, restSeconds: nil, startsAt: WireSeconds(3), programs: ["Fran", "Tabata"],
            locked: true, brightness: 40, sleep: try! SleepWindow.parse(from: "22:00", until: "06:00").get(), asleep: true,
            division: "scaled", t: WireSeconds(4))
        #expect(busy.json == #"{"mode":"program","phase":"complete","program":"Fran","display":"12:34","deadline":2.500,"#
            + #""remaining":0.250,"round":3,"result":"12:34, 3 rounds","sets":1,"rest_seconds":null,"starts_at":3.000,"#
            + #""programs":["Fran","Tabata"],"locked":true,"brightness":40,"sleep":{"from":"22:00","until":"06:00"},"#
            + #""asleep":true,"division":"scaled","t":4.000}"#, "no athlete: the state names nobody")
    }
}
