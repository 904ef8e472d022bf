import Foundation
import Glibc
import GymTimerCore
import GymTimerFleet
import GymTimerMQTT
import Testing
import GymTimerTestSupport
@testable import GymTimerCollector
@testable import GymTimerFleetCommands
@testable import GymTimerFleetLink
@testable import GymTimerStationLink
@testable import GymTimerUpgrade

/// The station's record path in virtual time, without a broker: what it publishes when, what
/// an acknowledgement removes, and that an empty outbox never wakes the loop.
@Suite struct FleetRecordSenderTests {
    let topics = FleetTopics(prefix: "gymtimer", station: "rack-1")

    /// A sender on a real outbox file whose publications the test reads.
    final class Wire {
        var published: [String] = []
        var up = true
        var mid: Int32 = 0
    }

    func sender(_ wire: Wire) throws -> (FleetRecordSender, FleetOutbox) {
        let outbox = try FleetOutbox(path: testDirectory("fleet-sender") + "/outbox.sqlite")
        let sender = FleetRecordSender(outbox: outbox, topics: topics, log: { print($0) })
        sender.publish = { message in
            guard wire.up else { return nil }
            wire.published.append(message.text)
            wire.mid += 1
            return wire.mid
        }
        return (sender, outbox)
    }

    func ack(stored: [String] = [], refused: [String] = []) -> MQTTMessage {
        let ack = FleetRecordAck(stored: stored, refused: refused.map { .init(id: $0, kind: "bad-sets", reason: "sets 9e18") })
        return MQTTMessage(topic: topics.ack, text: ack.payload, qos: 1)
    }

    @Test func aRecordLeavesTheOutboxOnlyWhenTheCollectorAcknowledgesIt() throws {
        let wire = Wire()
        let (records, outbox) = try sender(wire)
        let t0 = Moment.origin
        #expect(records.nextDeadline == nil, "nothing waits, nothing is due: no wake-up")
        records.connected(at: t0)
        #expect(records.nextDeadline == nil, "connected with an empty outbox: still no wake-up")
        records.add(id: "rack-1/a", payload: "A", at: t0)
        records.add(id: "rack-1/b", payload: "B", at: t0)
        #expect(wire.published == ["A", "B"])
        records.delivered(mid: 1)
        records.delivered(mid: 2)
        #expect(try outbox.count() == 2, "the broker's PUBACK removes nothing")
        #expect(records.receive(ack(stored: ["rack-1/a", "rack-2/b"]), at: t0 + .seconds(1)))
        #expect(try outbox.pending().map(\.id) == ["rack-1/b"], "only this station's acknowledged id leaves")
        #expect(records.receive(ack(refused: ["rack-1/b"]), at: t0 + .seconds(1)))
        #expect(try outbox.count() == 0, "a refused record leaves too (the local history keeps it)")
        #expect(records.nextDeadline == nil, "empty again: no retry due")
        #expect(!records.receive(MQTTMessage(topic: topics.command, text: "{}"), at: t0), "commands are not the record path's")
    }

    @Test func unacknowledgedRecordsAreSentAgainWithABoundedBackoff() throws {
        let wire = Wire()
        let (records, _) = try sender(wire)
        var now = Moment.origin
        records.connected(at: now)
        records.add(id: "rack-1/a", payload: "A", at: now)
        records.delivered(mid: 1)
        var gaps: [Duration] = []
        var last = now
        for _ in 0..<8 {
            let due = try #require(records.nextDeadline)
            #expect(due > now)
            now = due
            records.fire(at: now)
            records.delivered(mid: wire.mid)
            gaps.append(now - last)
            last = now
        }
        #expect(wire.published.count == 9, "sent once, then once per retry")
        #expect(gaps == [10, 20, 40, 80, 160, 300, 300, 300].map { Duration.seconds($0) })
        // A live announcement of a collector sends everything at once, and starts the back-off again.
        _ = records.receive(MQTTMessage(topic: FleetTopics.collector(prefix: "gymtimer"), text: "online", qos: 1), at: now)
        #expect(wire.published.count == 10)
        #expect(records.nextDeadline == now + .seconds(10))
        // The retained one, which every new connection gets, sends nothing more (the connection did).
        _ = records.receive(MQTTMessage(topic: FleetTopics.collector(prefix: "gymtimer"), text: "online", qos: 1, retain: true), at: now)
        #expect(wire.published.count == 10)
        // Disconnected: nothing is due (the connection's back-off reconnects), and on the
        // reconnection everything goes again.
        records.disconnected()
        #expect(records.nextDeadline == nil)
        records.connected(at: now + .seconds(1))
        #expect(wire.published.count == 11)
    }

    @Test func atMostAWindowIsOutAndEachAcknowledgementLetsMoreGo() throws {
        let wire = Wire()
        let (records, _) = try sender(wire)
        wire.up = false
        for n in 0..<120 { records.add(id: "rack-1/\(n)", payload: "\(n)", at: .origin) }
        wire.up = true
        records.connected(at: .origin)
        #expect(wire.published == (0..<FleetRecordSender.window).map(String.init))
        _ = records.receive(ack(stored: (0..<10).map { "rack-1/\($0)" }), at: .origin)
        #expect(wire.published.count == FleetRecordSender.window + 10)
        #expect(wire.published.last == "\(FleetRecordSender.window + 9)")
    }
}
