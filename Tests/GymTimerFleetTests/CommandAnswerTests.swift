import Foundation
import GymTimerConfig
import GymTimerCore
import GymTimerFleet
import GymTimerFleetLink
import GymTimerMQTT
import GymTimerSimulation
import GymTimerSimulator
import Testing

/// Every command that carries an id is answered under it (fleet.md, "Commands are answered"):
/// the station's loop (`VirtualStation`) on the in-memory broker in virtual time, a coach
/// publishing with ids, the answers read back as `FleetAnswers` reads them. Then the answers'
/// arithmetic on its own: a refusal is never counted as done.
@Suite struct CommandAnswerTests {
    let clock = VirtualClock()
    let broker: InMemoryBroker
    let station: VirtualStation
    let coach: any MQTTTransport
    let name = "rack-7"

    init() throws {
        let clock = clock
        broker = InMemoryBroker(now: { clock.now.offset })
        let configuration = try GymTimerConfiguration.parse(
            "[fleet]\nbroker = \"mqtt://gym.local:1883\"\nstation = \"\(name)\"\nhome_assistant = false\n")
        station = VirtualStation(configuration: configuration, clock: clock, broker: broker, log: { _ in })
        coach = try broker.factory(.init(clientID: "coach", host: "gym.local", port: 1883))
        try coach.connect()
        let end = clock.now.offset + .seconds(10)
        while !broker.published.contains(where: { $0.topic == "gymtimer/\(name)/state" }), clock.now.offset < end {
            try station.run(for: .milliseconds(10))
        }
    }

    /// Publishes `payload` and runs the loop until an event answers `id` (10 s of virtual time at
    /// most); the answer as the coach's tools read it, and the event's QoS.
    func answer(_ payload: String, id: String) throws -> (answer: FleetAnswer?, qos: Int?) {
        let count = broker.published.count
        try coach.publish(MQTTMessage(topic: "gymtimer/\(name)/cmd", text: payload, qos: 1))
        func found() -> (FleetAnswer, Int)? {
            for message in broker.published.dropFirst(count) where message.topic == "gymtimer/\(name)/event" {
                if let (answered, answer) = FleetAnswer.parse(event: message.payload), answered == id { return (answer, message.qos) }
            }
            return nil
        }
        let end = clock.now.offset + .seconds(10)
        while found() == nil, clock.now.offset < end { try station.run(for: .milliseconds(10)) }
        return (found()?.0, found()?.1)
    }

    @Test func doneAndRefusedCommandsAreAnsweredUnderTheirIdsAtQoS1() throws {
        let start = try answer(#"{"do":"start","id":"a-1"}"#, id: "a-1")
        #expect(start.answer == .done && start.qos == 1, "\(start)")
        let pause = try answer(#"{"do":"pause","id":"a-2"}"#, id: "a-2")
        #expect(pause.answer == .done)
        let again = try answer(#"{"do":"pause","id":"a-3"}"#, id: "a-3")
        guard case .refused(let reason)? = again.answer else { Issue.record("a second pause is refused: \(again)"); return }
        #expect(reason.contains("\"pause\" not allowed now"), "\(reason)")
    }

    @Test func commandsRefusedForTheirShapeAreStillAnsweredUnderTheirIds() throws {
        for (payload, words) in [
            (#"{"do":"jump","id":"b-1"}"#, "unknown command \"jump\""),
            (#"{"do":"pause","id":"b-1","extra":1}"#, "\"extra\" is not a field of \"pause\""),
            (#"{"do":"set","rest_seconds":1e300,"id":"b-1"}"#, "\"rest_seconds\" must be"),
            (#"{"do":"start","at":1,"id":"b-1"}"#, "in the past"),
            (#"{"do":"select","mode":"program","name":"amrap 1","id":"b-1"}"#, "no program named \"amrap 1\""),
        ] {
            let got = try answer(payload, id: "b-1")
            guard case .refused(let reason)? = got.answer else { Issue.record("\(payload): \(got)"); continue }
            #expect(reason.contains(words), "\(payload): \(reason)")
        }
    }

    @Test func aBadIdIsRefusedAndAnsweredWithoutOne() throws {
        let count = broker.published.count
        for bad in [#""""#, #""has space""#, #""\u001b[2J""#, #"7"#, "\"" + String(repeating: "x", count: 41) + "\""] {
            try coach.publish(MQTTMessage(topic: "gymtimer/\(name)/cmd", text: #"{"do":"pause","id":"# + bad + "}", qos: 1))
        }
        try station.run(for: .seconds(1))
        let errors = broker.published.dropFirst(count).filter { $0.topic == "gymtimer/\(name)/event" }.map { Watcher.object($0.text) }
        #expect(errors.count == 5 && errors.allSatisfy { $0["event"]?.string == "error" && $0["id"] == nil }, "\(errors)")
        #expect(errors.allSatisfy { $0["reason"]?.string?.contains("\"id\" must be") == true }, "\(errors)")
    }

    @Test func aClassStartIsAnsweredWhenScheduledAndAgainAtItsInstant() throws {
        let at = station.unixNow + 3
        let scheduled = try answer(#"{"do":"start","at":"# + String(format: "%.3f", at) + #","id":"c-1"}"#, id: "c-1")
        #expect(scheduled.answer == .done, "scheduled: \(scheduled)")
        let count = broker.published.count
        try station.run(for: .seconds(4))
        let atInstant = broker.published.dropFirst(count).filter { $0.topic == "gymtimer/\(name)/event" }.map { Watcher.object($0.text) }
        #expect(atInstant.contains { $0["event"]?.string == "started" && $0["id"]?.string == "c-1" }, "\(atInstant)")
    }
}

/// `FleetAnswers`: what the console and `gymtimer fleet` report from the answers they got.
@Suite struct FleetAnswersTests {
    static func event(_ name: String, id: String, reason: String? = nil) -> [UInt8] {
        var text = #"{"t":1,"event":""# + name + #"","id":""# + id + "\""
        if let reason { text += #","reason":"# + String(decoding: try! JSONEncoder().encode(reason), as: UTF8.self) }
        return Array((text + "}").utf8)
    }

    @Test func aRefusalIsNeverDoneAndSilenceAndOfflineAreSaid() {
        var answers = FleetAnswers(id: "x", asked: ["rack-1", "rack-2", "rack-3", "rack-4"], offline: ["rack-5"])
        do { let took = answers.take(event: Self.event("command", id: "x"), from: "rack-1"); #expect(took) }
        do { let took = answers.take(event: Self.event("error", id: "x", reason: "busy (finished)"), from: "rack-2"); #expect(took) }
        do { let took = answers.take(event: Self.event("error", id: "x", reason: "busy (finished)"), from: "rack-3"); #expect(took) }
        do { let took = answers.take(event: Self.event("command", id: "y"), from: "rack-4"); #expect(!took, "another command's answer") }
        do { let took = answers.take(event: Self.event("command", id: "x"), from: "rack-9"); #expect(!took, "a station not asked") }
        do { let took = answers.take(event: Array(#"{"event":"phase","id":"x"}"#.utf8), from: "rack-4"); #expect(!took, "no answer") }
        #expect(!answers.isComplete && !answers.succeeded)
        #expect(answers.done == ["rack-1"] && answers.silent == ["rack-4"])
        #expect(answers.summary(done: "paused")
            == "paused on rack-1; refused on rack-2, rack-3: busy (finished); no answer from rack-4; offline: rack-5")
        do { let took = answers.take(event: Self.event("scheduled", id: "x"), from: "rack-4"); #expect(took) }
        #expect(answers.isComplete && !answers.succeeded, "complete, but two refused and one offline")
        var clean = FleetAnswers(id: "x", asked: ["rack-1"], offline: [])
        clean.take(event: Self.event("started", id: "x"), from: "rack-1")
        #expect(clean.succeeded && clean.summary() == "done on rack-1")
    }

    @Test func aHostileReasonIsMadeSafeAndBounded() {
        var answers = FleetAnswers(id: "x", asked: ["rack-1"], offline: [])
        answers.take(event: Self.event("error", id: "x", reason: "\u{1b}[2J" + String(repeating: "y", count: 5000)), from: "rack-1")
        let reason = answers.refused.first?.reason ?? ""
        #expect(!reason.unicodeScalars.contains { $0.value < 0x20 } && reason.count <= FleetAnswer.reasonWidth, "\(reason.prefix(20))")
    }

    @Test func anIdSurvivesTheRequestsJSONAndFreshIdsDiffer() {
        let request = FleetRequest(.start(at: 1_800_000_000.5), id: FleetRequest.newID())
        let (id, command) = FleetRequest.parse(Array(request.json.utf8))
        #expect(id == request.id && command == .success(.start(at: 1_800_000_000.5)), "\(request.json)")
        #expect(FleetRequest.isValidID(request.id ?? "") && FleetRequest.newID() != FleetRequest.newID())
        #expect(FleetRequest.parse(Array(#"{"do":"pause"}"#.utf8)).id == nil)
    }
}
