import GymTimerMQTT
import GymTimerSimulation
import Testing

/// The in-memory broker twin keeps the promises of MQTT 3.1.1 the fleet relies on (as
/// Mosquitto does; the real-broker tests check Mosquitto itself): retained messages and their
/// `retain` flag, wildcards, QoS 1 until acknowledged, persistent sessions, wills, keep-alive.
@Suite struct InMemoryBrokerTests {
    final class Time {
        var now: Duration = .zero
    }

    let time = Time()
    let broker: InMemoryBroker

    init() {
        let time = time
        broker = InMemoryBroker(now: { time.now })
    }

    func client(
        _ id: String, clean: Bool = true, keepAlive: Int = 0, will: MQTTMessage? = nil, deferWrites: Bool = false
    ) throws -> any MQTTTransport {
        let client = try broker.factory(.init(
            clientID: id, host: "twin", port: 1883, keepAlive: keepAlive, cleanSession: clean, will: will, deferWrites: deferWrites))
        try client.connect()
        #expect(client.takeEvents() == [.connected])
        return client
    }

    func messages(_ events: [MQTTEvent]) -> [MQTTMessage] {
        events.compactMap { if case .message(let message) = $0 { message } else { nil } }
    }

    @Test func retainedMessagesReachNewSubscriptionsFlaggedAndLiveOnesUnflagged() throws {
        let coach = try client("coach")
        try coach.publish(MQTTMessage(topic: "g/all/cmd", text: "old", qos: 1, retain: true))
        #expect(coach.takeEvents() == [.delivered(mid: 1)])
        let station = try client("rack-1")
        let mid = try station.subscribe("g/all/cmd", qos: 1)
        #expect(station.hasEvents && station.socket == -1)
        #expect(station.takeEvents() == [
            .subscribed(mid: mid), .message(MQTTMessage(topic: "g/all/cmd", text: "old", qos: 1, retain: true)),
        ])
        try coach.publish(MQTTMessage(topic: "g/all/cmd", text: "new", qos: 1, retain: true))
        #expect(messages(station.takeEvents()) == [MQTTMessage(topic: "g/all/cmd", text: "new", qos: 1, retain: false)])
        // An empty retained payload clears it.
        try coach.publish(MQTTMessage(topic: "g/all/cmd", payload: [], qos: 1, retain: true))
        #expect(broker.retained.isEmpty)
    }

    @Test func wildcardsMatchAsMQTTSays() throws {
        #expect(InMemoryBroker.matches(filter: "g/+/workout", topic: "g/rack-1/workout"))
        #expect(!InMemoryBroker.matches(filter: "g/+/workout", topic: "g/a/b/workout"))
        #expect(InMemoryBroker.matches(filter: "g/#", topic: "g"))
        #expect(InMemoryBroker.matches(filter: "g/#", topic: "g/a/b"))
        #expect(!InMemoryBroker.matches(filter: "#", topic: "$SYS/x"))
        #expect(!InMemoryBroker.matches(filter: "g/+", topic: "g"))
        let watcher = try client("watcher")
        try watcher.subscribe("g/+/state", qos: 0)
        #expect(throws: MQTTError.self) { try watcher.subscribe("g/#/x", qos: 0) }
        #expect(throws: MQTTError.self) { try watcher.publish(MQTTMessage(topic: "g/+/cmd", text: "x")) }
        _ = watcher.takeEvents()
        let station = try client("rack-1")
        try station.publish(MQTTMessage(topic: "g/rack-1/state", text: "s", qos: 1))
        try station.publish(MQTTMessage(topic: "g/rack-1/event", text: "e", qos: 0))
        // Delivered at the subscription's QoS (0), not the message's.
        #expect(messages(watcher.takeEvents()) == [MQTTMessage(topic: "g/rack-1/state", text: "s", qos: 0)])
    }

    @Test func aPersistentSessionGetsWhatWasSentWhileAwayAndACleanOneDoesNot() throws {
        let collector = try client("collector", clean: false)
        try collector.subscribe("g/+/workout", qos: 1)
        let scratch = try client("scratch")
        try scratch.subscribe("g/+/workout", qos: 1)
        collector.disconnect()
        scratch.disconnect()
        _ = (collector.takeEvents(), scratch.takeEvents())
        let station = try client("rack-1")
        try station.publish(MQTTMessage(topic: "g/rack-1/workout", text: "r1", qos: 1))
        try station.publish(MQTTMessage(topic: "g/rack-1/workout", text: "r0", qos: 0))
        #expect(broker.waiting(for: "collector") == 1)
        try collector.connect()
        #expect(collector.takeEvents() == [.connected, .message(MQTTMessage(topic: "g/rack-1/workout", text: "r1", qos: 1))])
        #expect(broker.waiting(for: "collector") == 0, "acknowledged when taken")
        try scratch.connect()
        #expect(scratch.takeEvents() == [.connected])
    }

    @Test func deferredAcknowledgementsWaitForAWriteAndADropGetsTheMessageAgain() throws {
        let collector = try client("collector", clean: false, deferWrites: true)
        try collector.subscribe("g/+/workout", qos: 1)
        #expect(collector.wantsWrite && !collector.hasEvents, "the SUBSCRIBE waits for a write")
        #expect(collector.writable().isEmpty, "the SUBACK comes later")
        #expect(collector.takeEvents().count == 1)
        let station = try client("rack-1")
        try station.publish(MQTTMessage(topic: "g/rack-1/workout", text: "r1", qos: 1))
        #expect(messages(collector.takeEvents()).map(\.text) == ["r1"])
        #expect(broker.waiting(for: "collector") == 1 && collector.wantsWrite, "its PUBACK is held")
        // Not stored: dropped, so the broker still has it, and sends it again.
        try collector.drop()
        try collector.reconnect()
        #expect(messages(collector.takeEvents()).map(\.text) == ["r1"])
        _ = collector.writable()
        #expect(broker.waiting(for: "collector") == 0)
    }

    @Test func aWillIsPublishedOnAnUncleanEndOnly() throws {
        let watcher = try client("watcher")
        try watcher.subscribe("g/+/status", qos: 1)
        _ = watcher.takeEvents()
        let will = MQTTMessage(topic: "g/rack-1/status", text: "offline", qos: 1, retain: true)
        let clean = try client("rack-1", will: will)
        clean.disconnect()
        #expect(messages(watcher.takeEvents()).isEmpty)
        let dropped = try client("rack-1", will: will)
        try dropped.drop()
        #expect(messages(watcher.takeEvents()).map(\.text) == ["offline"])
        let severed = try client("rack-1", will: will)
        broker.sever("rack-1")
        #expect(severed.takeEvents() == [.disconnected(reason: "connection lost")])
        #expect(messages(watcher.takeEvents()).map(\.text) == ["offline"])
        #expect(broker.retained["g/rack-1/status"]?.text == "offline")
    }

    @Test func aClientSilentForOneAndAHalfKeepAlivesIsCutAndItsWillPublished() throws {
        let watcher = try client("watcher")
        try watcher.subscribe("g/+/status", qos: 1)
        _ = watcher.takeEvents()
        let station = try client("rack-1", keepAlive: 10, will: MQTTMessage(topic: "g/rack-1/status", text: "offline", qos: 1))
        // Pinging every 5 s keeps it.
        for _ in 0..<20 {
            time.now += .seconds(5)
            _ = station.maintain()
        }
        #expect(broker.connectedClients == ["rack-1", "watcher"])
        #expect(broker.nextDeadline == .seconds(115))
        time.now += .seconds(15)
        #expect(!watcher.hasEvents, "15 s of silence is not yet too long")
        time.now += .milliseconds(1)
        #expect(messages(watcher.takeEvents()).map(\.text) == ["offline"])
        #expect(station.takeEvents() == [.disconnected(reason: "connection lost (keep-alive)")])
    }

    @Test func aBrokerDownRefusesAndComesBackWithItsStateOrWiped() throws {
        let station = try client("rack-1")
        try station.publish(MQTTMessage(topic: "g/rack-1/state", text: "s", qos: 1, retain: true))
        _ = station.takeEvents()
        broker.goDown()
        #expect(station.takeEvents() == [.disconnected(reason: "connection lost")])
        #expect(throws: MQTTError.self) { try station.reconnect() }
        #expect(!station.isOpen)
        broker.comeUp()
        try station.reconnect()
        #expect(station.takeEvents() == [.connected])
        #expect(broker.retained["g/rack-1/state"]?.text == "s", "persistence kept it")
        broker.goDown(forgetting: true)
        broker.comeUp()
        #expect(broker.retained.isEmpty)
    }

    @Test func aSecondConnectionWithTheSameClientIDTakesTheSessionOver() throws {
        let first = try client("collector", clean: false)
        try first.subscribe("w", qos: 1)
        let second = try client("collector", clean: false)
        #expect(first.takeEvents().contains(.disconnected(reason: "session taken over")))
        #expect(!first.isOpen && second.isOpen)
        let station = try client("rack-1")
        try station.publish(MQTTMessage(topic: "w", text: "r", qos: 1))
        #expect(messages(second.takeEvents()).map(\.text) == ["r"], "the subscription is the session's")
        #expect(throws: MQTTError.self) { try first.publish(MQTTMessage(topic: "w", text: "x")) }
    }

    @Test func aPersistentSessionQueuesAtMostMaxQueued() throws {
        broker.maxQueued = 3
        let collector = try client("collector", clean: false)
        try collector.subscribe("w", qos: 1)
        collector.disconnect()
        let station = try client("rack-1")
        for n in 0..<5 { try station.publish(MQTTMessage(topic: "w", text: "\(n)", qos: 1)) }
        #expect(broker.waiting(for: "collector") == 3 && broker.droppedQueued == 2)
    }
}
