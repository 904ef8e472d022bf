import Foundation
import Glibc
import GymTimerBenchSupport
import GymTimerMQTT
import Testing
import GymTimerTestSupport

/// The broker's ACL the gymtimer-server package ships (deploy/server/gymtimer.acl, docs/fleet.md's),
/// on a real Mosquitto with an account for each party: what each account may read and write.
/// docs/security.md points its rows here.
@Suite(.serialized) struct ShippedACLTests {
    let directory: String
    static let accounts = ["coach": "whistle", "collector": "ledger", "rack-1": "chalk", "rack-2": "iron", "homeassistant": "lights"]
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    init() throws {
        directory = testDirectory("shipped-acl")
        // Mosquitto drops root for its own user, which must read the ACL.
        _ = chmod(directory, 0o755)
    }

    /// A broker with the shipped ACL and the accounts above.
    func broker() throws -> LocalBroker {
        let acl = "\(directory)/gymtimer.acl"
        try Data(contentsOf: Self.root.appendingPathComponent("deploy/server/gymtimer.acl")).write(to: URL(fileURLWithPath: acl))
        _ = chmod(acl, 0o644)
        return try LocalBroker(users: Self.accounts, extraConfig: "acl_file \(acl)\n")
    }

    /// `user` connected (nil: anonymous), or nil when the broker refuses it within 5 s.
    func client(_ user: String?, _ broker: LocalBroker) throws -> MQTTClient? {
        var options = MQTTClient.Options(clientID: "\(user ?? "anonymous")-\(UUID().uuidString.prefix(6))", host: "127.0.0.1", port: broker.port)
        if let user { (options.username, options.password) = (user, Self.accounts[user]) }
        let client = try MQTTClient(options)
        try client.connect()
        let events = pump([client]) { $0[0]?.contains { if case .refused = $0 { true } else { $0 == .connected } } == true }
        return events[0]?.contains(.connected) == true ? client : nil
    }

    /// What `client` receives on `#` within `seconds` of subscribing (retained messages, and what
    /// is published meanwhile by `during`), by topic.
    func heard(by client: MQTTClient, seconds: Double = 2, during: () throws -> Void = {}) throws -> [String: String] {
        try subscribed(client, ["#"])
        try during()
        var heard: [String: String] = [:]
        for case .message(let message) in pump([client], timeout: seconds, until: { _ in false })[0] ?? [] {
            heard[message.topic] = message.text
        }
        return heard
    }

    /// `client` publishes `text` on each topic at QoS 1, retained, and waits for the broker to take each.
    func publish(_ client: MQTTClient, _ topics: [String], _ text: String) throws {
        for topic in topics {
            let mid = try client.publish(MQTTMessage(topic: topic, text: text, qos: 1, retain: true))
            _ = pump([client]) { $0[0]?.contains(.delivered(mid: mid)) == true }
        }
    }

    @Test func eachAccountReadsAndWritesOnlyWhatItNeeds() throws {
        let broker = try broker()
        #expect(try client(nil, broker) == nil, "an anonymous client is refused")
        let rack1 = try #require(try client("rack-1", broker)), rack2 = try #require(try client("rack-2", broker))
        let coach = try #require(try client("coach", broker)), collector = try #require(try client("collector", broker))
        let home = try #require(try client("homeassistant", broker))

        // What each party retains of its own, as the fleet does.
        let rack2Own = ["status", "state", "health", "update", "event", "workout", "card-ask", "athlete"].map { "gymtimer/rack-2/\($0)" }
        try publish(rack2, rack2Own, "rack-2's")
        // The collector answers rack-2's card asks on rack-2's own topic; it may still clear the
        // cards collectors before card asks retained for every station.
        try publish(collector, ["gymtimer/rack-2/card", "gymtimer/all/athletes/04A1B2C3", "gymtimer/all/gym/scores", "gymtimer/all/gym/answer/console-1"], "collector's")
        try publish(coach, ["gymtimer/rack-2/cmd", "gymtimer/rack-2/class"], "coach's")

        // A station reads its commands, its class, the answers about its own cards; nothing of
        // another station's, and no card of the gym's: no card ask, no answer, no retained card.
        let rack1Heard = try heard(by: rack1)
        #expect(rack1Heard.keys.filter { $0.hasPrefix("gymtimer/rack-2/") }.isEmpty, "rack-1 reads rack-2's: \(rack1Heard.keys.sorted())")
        #expect(!rack1Heard.keys.contains { $0.contains("/athletes/") || $0.hasSuffix("/card") || $0.hasSuffix("/card-ask") }, "\(rack1Heard.keys.sorted())")
        #expect(rack1Heard["gymtimer/all/gym/scores"] == nil && rack1Heard["gymtimer/all/gym/answer/console-1"] == nil)
        let rack2Heard = try heard(by: rack2)
        #expect(rack2Heard["gymtimer/rack-2/cmd"] == "coach's" && rack2Heard["gymtimer/rack-2/class"] == "coach's", "\(rack2Heard)")
        #expect(rack2Heard["gymtimer/rack-2/card"] == "collector's" && rack2Heard["gymtimer/all/athletes/04A1B2C3"] == nil, "\(rack2Heard)")

        // A station writes nothing as another station, as the collector or as the coach.
        let forged = ["gymtimer/rack-2/state", "gymtimer/rack-2/workout", "gymtimer/rack-2/cmd", "gymtimer/all/cmd",
                      "gymtimer/rack-2/card-ask", "gymtimer/rack-2/card", "gymtimer/rack-1/card", "gymtimer/rack-2/athlete",
                      "gymtimer/all/athletes/04A1B2C3", "gymtimer/all/gym/scores", "gymtimer/all/collector", "gymtimer/rack-2/ack"]
        let coachHeard = try heard(by: coach) { try publish(rack1, forged, "forged by rack-1") }
        #expect(!coachHeard.values.contains("forged by rack-1"), "\(coachHeard.filter { $0.value == "forged by rack-1" }.keys.sorted())")
        #expect(coachHeard["gymtimer/rack-2/state"] == "rack-2's", "the coach reads every station: \(coachHeard)")
        #expect(coachHeard["gymtimer/rack-2/athlete"] == "rack-2's", "the coach sees who is on each station")

        // The collector reads the records, statuses and events, never a station's state or health.
        let collectorHeard = try heard(by: collector)
        #expect(collectorHeard["gymtimer/rack-2/workout"] == "rack-2's" && collectorHeard["gymtimer/rack-2/status"] == "rack-2's")
        #expect(collectorHeard["gymtimer/rack-2/card-ask"] == "rack-2's", "the collector hears the card asks")
        #expect(collectorHeard["gymtimer/rack-2/state"] == nil && collectorHeard["gymtimer/rack-2/health"] == nil, "\(collectorHeard.keys.sorted())")

        // Home Assistant reads what its entities show: no scores, no answers to the console, no
        // records, no card ask or answer, no retained card.
        let homeHeard = try heard(by: home)
        for topic in ["status", "state", "health", "update", "event"] {
            #expect(homeHeard["gymtimer/rack-2/\(topic)"] == "rack-2's", "Home Assistant reads rack-2's \(topic): \(homeHeard.keys.sorted())")
        }
        for topic in ["gymtimer/all/gym/scores", "gymtimer/all/gym/answer/console-1", "gymtimer/rack-2/workout",
                      "gymtimer/rack-2/card-ask", "gymtimer/rack-2/card", "gymtimer/rack-2/athlete", "gymtimer/all/athletes/04A1B2C3"] {
            #expect(homeHeard[topic] == nil, "Home Assistant reads \(topic)")
        }
        // It may command a station, and nothing else of the fleet's.
        let rack2Commands = try heard(by: rack2) {
            try publish(home, ["gymtimer/rack-2/cmd"], #"{"do":"pause"}"#)
            try publish(home, ["gymtimer/rack-2/state", "gymtimer/all/athletes/04A1B2C3"], "forged by Home Assistant")
        }
        #expect(rack2Commands["gymtimer/rack-2/cmd"] == #"{"do":"pause"}"#, "\(rack2Commands)")
        #expect(!(try heard(by: coach)).values.contains("forged by Home Assistant"))
    }
}
