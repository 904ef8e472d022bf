import Foundation
import Glibc
import GymTimerBenchSupport
import GymTimerConfig
import GymTimerMQTT
import GymTimerSystem
import Testing
import GymTimerTestSupport

/// A gym's real Mosquitto bridged with `ChainBridge`'s snippet, over TLS with the gym's account,
/// to a real central Mosquitto kept to `ChainCentreACL`: records out under `gyms/gym-a/`, acks
/// and the chain's collector status back in, and nothing lost or doubled while the centre is down.
@Suite(.serialized) struct ChainBridgeBrokerTests {
    let directory: String

    init() throws {
        directory = testDirectory("chain-bridge")
        _ = chmod(directory, 0o755)
    }

    /// The central broker (TLS, accounts, ACL, persistence) and the gym's, bridged to it; with
    /// `gymUsers` and `gymACL`, the gym's broker has accounts and an ACL (fleet.md) of its own.
    func brokers(gymUsers: [String: String] = [:], gymACL: String? = nil) throws -> (centre: LocalBroker, gym: LocalBroker, certificate: String) {
        let tls = try LocalBroker.TLS.selfSigned(in: directory, name: "centre")
        let (certificate, key) = (tls.certificate, tls.key)
        try ChainCentreACL(gyms: ["gym-a", "gym-b"]).text.write(toFile: "\(directory)/chain.acl", atomically: true, encoding: .utf8)
        _ = chmod("\(directory)/chain.acl", 0o644)
        let centre = try LocalBroker(
            users: ["gym-a": "gym-a-pass", "gym-b": "gym-b-pass", "collector": "collector-pass"],
            tls: .init(certificate: certificate, key: key), persistence: true, extraConfig: "acl_file \(directory)/chain.acl\n")
        let bridge = try ChainBridge(
            gym: "gym-a", centre: "mqtts://127.0.0.1:\(centre.port)", username: "gym-a", password: "gym-a-pass", caFile: certificate,
            restartTimeout: (1, 2), keepalive: 5)
        var gymConfig = bridge.text
        if let gymACL {
            try gymACL.write(toFile: "\(directory)/gym.acl", atomically: true, encoding: .utf8)
            _ = chmod("\(directory)/gym.acl", 0o644)
            gymConfig += "acl_file \(directory)/gym.acl\n"
        }
        let gym = try LocalBroker(users: gymUsers, persistence: true, maxQueuedMessages: 100_000, extraConfig: gymConfig)
        return (centre, gym, certificate)
    }

    /// A client of the central broker with `username`'s account, its session kept (MQTT 3.1.1:
    /// a v5 session without an expiry interval would end with its connection).
    func centralClient(_ username: String, id: String = "central", port: Int, caFile: String) throws -> MQTTClient {
        let options = MQTTClient.Options(
            clientID: "\(id)-\(username)", host: "127.0.0.1", port: port, tls: true, caFile: caFile, username: username,
            password: "\(username)-pass", cleanSession: false)
        let client = try MQTTClient(options)
        try client.connect()
        let events = pump([client], timeout: 10) { $0[0]?.contains(.connected) == true }
        #expect(events[0]?.contains(.connected) == true, "\(username) logged in to the centre: \(events)")
        return client
    }

    /// Pumps until `client` has had messages matching `wanted`, or 20 s; returns every message it had.
    func messages(_ client: MQTTClient, timeout: Double = 20, until wanted: ([MQTTMessage]) -> Bool) -> [MQTTMessage] {
        let events = pump([client], timeout: timeout) { wanted(Self.messages(in: $0[0] ?? [])) }
        return Self.messages(in: events[0] ?? [])
    }

    static func messages(in events: [MQTTEvent]) -> [MQTTMessage] {
        events.compactMap { if case .message(let message) = $0 { message } else { nil } }
    }

    /// Publishes at QoS 1 and pumps until the broker has every one.
    func publish(_ client: MQTTClient, _ messages: [MQTTMessage]) throws {
        let mids = try messages.map { try client.publish($0) }
        let events = pump([client], timeout: 10) { events in mids.allSatisfy { (events[0] ?? []).contains(.delivered(mid: $0)) } }
        #expect(mids.allSatisfy { (events[0] ?? []).contains(.delivered(mid: $0)) }, "the broker took all \(mids.count)")
    }

    @Test func recordsGoOutAcksComeBackAndACutOffGymLosesNothing() throws {
        let (centre, gym, certificate) = try brokers()
        let local = try observer(port: gym.port, ["gymtimer/all/bridge", "gymtimer/rack-1/ack", "gymtimer/all/collector"])
        let up = messages(local) { $0.contains { $0.topic == "gymtimer/all/bridge" && $0.text == "1" } }
        #expect(up.contains { $0.topic == "gymtimer/all/bridge" && $0.text == "1" }, "the bridge said it is up: \(up)")
        let collector = try centralClient("collector", port: centre.port, caFile: certificate)
        #expect(try subscribed(collector, ["$share/central/gyms/+/+/workout"]))

        // Out: a record under the gym's name; back: its ack and the collector's retained status.
        try publish(local, [MQTTMessage(topic: "gymtimer/rack-1/workout", text: "record-1", qos: 1)])
        let first = messages(collector) { !$0.isEmpty }
        #expect(first.map(\.topic) == ["gyms/gym-a/rack-1/workout"] && first.map(\.text) == ["record-1"])
        try publish(collector, [
            MQTTMessage(topic: "gyms/gym-a/rack-1/ack", text: "record-1", qos: 1),
            MQTTMessage(topic: "gyms/all/collector", text: "online", qos: 1, retain: true),
        ])
        let back = messages(local) { messages in messages.contains { $0.topic == "gymtimer/all/collector" } && messages.contains { $0.topic == "gymtimer/rack-1/ack" } }
        #expect(back.contains { $0.topic == "gymtimer/rack-1/ack" && $0.text == "record-1" }, "the ack came back: \(back)")
        #expect(back.contains { $0.topic == "gymtimer/all/collector" && $0.text == "online" })
        let later = try observer(port: gym.port, ["gymtimer/all/collector"])
        let retained = messages(later) { !$0.isEmpty }
        #expect(retained.map(\.text) == ["online"] && retained.first?.retain == true, "kept at the gym as retained: \(retained)")

        try cutOffAndBack(centre: centre, gym: gym, local: local, certificate: certificate, collector: collector)
    }

    /// The centre stopped, 20 records published at the gym meanwhile, the gym's broker restarted,
    /// the centre started again on its port with its saved sessions: each record reaches the
    /// collector once.
    func cutOffAndBack(centre: LocalBroker, gym: LocalBroker, local: MQTTClient, certificate: String, collector: MQTTClient) throws {
        // A plain subscription in a kept session: a shared one did not come back from Mosquitto
        // 2.0.11's saved sessions (a central collector subscribes again on every connection).
        let watcher = try centralClient("collector", id: "watcher", port: centre.port, caFile: certificate)
        #expect(try subscribed(watcher, ["gyms/gym-a/+/workout"]))
        watcher.disconnect()
        collector.disconnect()
        centre.stop()
        let down = messages(local) { $0.contains { $0.topic == "gymtimer/all/bridge" && $0.text == "0" } }
        #expect(down.contains { $0.topic == "gymtimer/all/bridge" && $0.text == "0" }, "the bridge said it is down: \(down)")
        let records = (2...21).map { MQTTMessage(topic: "gymtimer/rack-\($0 % 3 + 1)/workout", text: "record-\($0)", qos: 1) }
        try publish(local, records)
        // The gym's broker restarted meanwhile: the bridge's queue comes back from its saved state.
        local.disconnect()
        gym.stop()
        try gym.start()
        try centre.start()
        let back = try centralClient("collector", id: "watcher", port: centre.port, caFile: certificate)
        defer { back.disconnect() }
        // The last record's twin: once it is in, so is every record before it (one bridge, in order).
        let again = try observer(port: gym.port, [])
        try publish(again, [MQTTMessage(topic: "gymtimer/rack-1/workout", text: "after", qos: 1)])
        let arrived = messages(back, timeout: 30) { $0.contains { $0.text == "after" } }.filter { $0.text != "after" }
        #expect(arrived.map(\.text) == records.map(\.text), "every record once, in order")
        #expect(arrived.map(\.topic) == records.map { "gyms/gym-a/" + $0.topic.dropFirst("gymtimer/".count) })
    }

    /// A gym's account publishes only under its own name: what it sends as another gym is dropped.
    @Test func aGymsAccountCannotPassItselfOffAsAnother() throws {
        let (centre, _, certificate) = try brokers()
        let collector = try centralClient("collector", port: centre.port, caFile: certificate)
        #expect(try subscribed(collector, ["$share/central/gyms/+/+/workout"]))
        let gymA = try centralClient("gym-a", port: centre.port, caFile: certificate)
        try publish(gymA, [
            MQTTMessage(topic: "gyms/gym-b/rack-1/workout", text: "forged", qos: 1),
            MQTTMessage(topic: "gyms/gym-a/rack-1/workout", text: "own", qos: 1),
        ])
        let arrived = messages(collector) { $0.contains { $0.text == "own" } }
        #expect(arrived.map(\.text) == ["own"], "only its own gym's record: \(arrived.map(\.topic))")
    }

    /// The bridge is the gym broker's own: the gym's ACL, which names no account for it, does not
    /// hold it back (out nor in).
    @Test func theGymsACLNeedsNoLineForTheBridge() throws {
        let acl = "user coach\ntopic readwrite gymtimer/#\n"
        let (centre, gym, certificate) = try brokers(gymUsers: ["coach": "whistle"], gymACL: acl)
        let coach = try MQTTClient(.init(clientID: "coach", host: "127.0.0.1", port: gym.port, username: "coach", password: "whistle"))
        try coach.connect()
        _ = pump([coach]) { $0[0]?.contains(.connected) == true }
        let collector = try centralClient("collector", port: centre.port, caFile: certificate)
        #expect(try subscribed(collector, ["$share/central/gyms/+/+/workout"]))
        #expect(try subscribed(coach, ["gymtimer/rack-1/ack"]))
        try coach.subscribe("gymtimer/all/bridge", qos: 1)  // retained: read below
        let up = messages(coach) { $0.contains { $0.topic == "gymtimer/all/bridge" && $0.text == "1" } }
        #expect(up.contains { $0.text == "1" }, "the bridge is up: \(up)")
        try publish(coach, [MQTTMessage(topic: "gymtimer/rack-1/workout", text: "record-1", qos: 1)])
        #expect(messages(collector) { !$0.isEmpty }.map(\.topic) == ["gyms/gym-a/rack-1/workout"])
        try publish(collector, [MQTTMessage(topic: "gyms/gym-a/rack-1/ack", text: "record-1", qos: 1)])
        #expect(messages(coach) { $0.contains { $0.topic == "gymtimer/rack-1/ack" } }.contains { $0.text == "record-1" })
    }
}
