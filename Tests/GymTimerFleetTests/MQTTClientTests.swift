import Glibc
import GymTimerBenchSupport
import GymTimerCollector
import GymTimerFleetCommands
import GymTimerFleetLink
import GymTimerStationLink
import GymTimerUpgrade
import Testing
@testable import GymTimerMQTT

/// The libmosquitto wrapper against a real broker on loopback, driven from one poll loop as the
/// kiosk drives it: nothing mocked at the protocol level.
@Suite(.serialized) struct MQTTClientTests {
    func client(_ id: String, port: Int, will: MQTTMessage? = nil) throws -> MQTTClient {
        try MQTTClient(.init(clientID: id, host: "127.0.0.1", port: port, keepAlive: 5, will: will))
    }

    func connected(_ events: [Int: [MQTTEvent]], _ index: Int) -> Bool { events[index]?.contains(.connected) == true }

    @Test func aMessageGoesThroughTheBrokerAndIsAcknowledged() throws {
        let broker = try LocalBroker()
        let station = try client("station", port: broker.port)
        let coach = try client("coach", port: broker.port)
        try station.connect()
        try coach.connect()
        _ = pump([station, coach]) { connected($0, 0) && connected($0, 1) }
        // Granted before the station publishes (what a broker takes with no subscriber it drops).
        let subscription = try coach.subscribe("gymtimer/+/workout", qos: 1)
        let granted = pump([station, coach]) { $0[1]?.contains(.subscribed(mid: subscription)) == true }
        #expect(granted[1]?.contains(.subscribed(mid: subscription)) == true, "the broker grants the subscription")
        let mid = try station.publish(MQTTMessage(topic: "gymtimer/rack-3/workout", text: #"{"id":"a1"}"#, qos: 1))
        let events = pump([station, coach]) { events in
            events[0]?.contains(.delivered(mid: mid)) == true && events[1]?.contains { if case .message = $0 { true } else { false } } == true
        }
        #expect(events[0]?.contains(.delivered(mid: mid)) == true, "the broker acknowledged the QoS 1 record")
        let received = events[1]?.compactMap { event -> MQTTMessage? in if case .message(let m) = event { m } else { nil } }
        #expect(received == [MQTTMessage(topic: "gymtimer/rack-3/workout", text: #"{"id":"a1"}"#, qos: 1)])
    }

    @Test func theWillSaysOfflineWhenAStationVanishesAndRetainedStatusWaits() throws {
        let broker = try LocalBroker()
        var station: MQTTClient? = try client(
            "station", port: broker.port, will: MQTTMessage(topic: "gymtimer/rack-3/status", text: "offline", qos: 1, retain: true))
        try station!.connect()
        _ = pump([station!]) { connected($0, 0) }
        try station!.publish(MQTTMessage(topic: "gymtimer/rack-3/status", text: "online", qos: 1, retain: true))
        _ = pump([station!]) { $0[0]?.contains { if case .delivered = $0 { true } else { false } } == true }
        // A newcomer gets the retained status at once.
        let owner = try client("owner", port: broker.port)
        try owner.connect()
        _ = pump([owner]) { connected($0, 0) }
        try owner.subscribe("gymtimer/+/status")
        var seen = pump([owner]) { $0[0]?.contains { if case .message = $0 { true } else { false } } == true }
        // Subscribed at QoS 1: the retained QoS 1 status comes at QoS 1, flagged as retained.
        #expect(seen[0]?.contains(.message(MQTTMessage(topic: "gymtimer/rack-3/status", text: "online", qos: 1, retain: true))) == true)
        // The station's process dies without DISCONNECT: its socket closes, the broker publishes the will.
        _ = shutdown(station!.socket, Int32(SHUT_RDWR))
        let gone = pump([station!]) { $0[0]?.contains { if case .disconnected = $0 { true } else { false } } == true }
        #expect(gone[0]?.contains { if case .disconnected = $0 { true } else { false } } == true, "the station's link is gone")
        station = nil
        seen = pump([owner]) { $0[0]?.contains { if case .message(let m) = $0 { m.text == "offline" } else { false } } == true }
        #expect(seen[0]?.contains { if case .message(let m) = $0 { m.topic == "gymtimer/rack-3/status" && m.text == "offline" } else { false } } == true)
    }

    @Test func aLostBrokerIsADisconnectAndAReconnectWorksWhenItIsBack() throws {
        let broker = try LocalBroker()
        let station = try client("station", port: broker.port)
        try station.connect()
        _ = pump([station]) { connected($0, 0) }
        broker.kill()
        let lost = pump([station]) { $0[0]?.contains { if case .disconnected = $0 { true } else { false } } == true }
        #expect(lost[0]?.contains { if case .disconnected = $0 { true } else { false } } == true)
        // The broker comes back on the same port: the same client reconnects.
        let again = try LocalBroker(port: broker.port)
        try station.reconnect()
        let back = pump([station]) { connected($0, 0) }
        #expect(connected(back, 0))
        _ = again
    }
}
