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

/// Every command that carries an id is answered under it (fleet.md, "Commands are answered"):
/// the station's loop on the in-memory broker in virtual time (`StationCommandTests`' rig), a
/// coach publishing with ids, the answers read back as `FleetAnswers` reads them. Then the
/// answers' arithmetic on its own: a refusal is never counted as done.
extension StationCommandTests {
    /// Publishes `payload` and runs the loop until an event answers `id` (10 s of virtual time at
    /// most); the answer as the coach's tools read it, and the event's QoS.
    func answer(_ payload: String, id: String) throws -> (answer: FleetAnswer?, qos: Int?) {
        try run { !states.isEmpty }
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
        try run { !states.isEmpty }
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
        try run { !states.isEmpty }
        let at = station.wall.now + 3
        let scheduled = try answer(#"{"do":"start","at":"# + String(format: "%.3f", at) + #","id":"c-1"}"#, id: "c-1")
        #expect(scheduled.answer == .done, "scheduled: \(scheduled)")
        let count = broker.published.count
        try station.run(for: .seconds(4))
        let atInstant = broker.published.dropFirst(count).filter { $0.topic == "gymtimer/\(name)/event" }.map { Watcher.object($0.text) }
        #expect(atInstant.contains { $0["event"]?.string == "started" && $0["id"]?.string == "c-1" }, "\(atInstant)")
    }
}
