import GymTimerConfig
import GymTimerFleet
import GymTimerMQTT
import GymTimerSimulation
import GymTimerSimulator
import Testing

/// What earlier versions announced to Home Assistant per component is cleared only where the
/// broker still retains it: a restart of an up-to-date station publishes nothing there (to Home
/// Assistant an empty payload on a topic its device holds is a conflicting discovery, a warning
/// in its log on every restart), an upgraded one clears exactly the old topics it finds.
@Suite struct RetiredDiscoveryTests {
    let clock = VirtualClock()
    let broker: InMemoryBroker

    init() {
        let clock = clock
        broker = InMemoryBroker(now: { clock.now.offset })
    }

    func station() throws -> VirtualStation {
        let configuration = try GymTimerConfiguration.parse("[fleet]\nbroker = \"mqtt://gym.local:1883\"\nstation = \"rack-2\"\n")
        return VirtualStation(configuration: configuration, clock: clock, broker: broker, log: { print($0) })
    }

    /// The empty payloads the station published on the old per-component topics.
    var cleared: [String] {
        broker.published.filter { $0.topic.hasPrefix("homeassistant/") && !$0.topic.hasPrefix("homeassistant/device/") && $0.text.isEmpty }
            .map(\.topic)
    }

    @Test func onlyWhatTheBrokerStillRetainsIsCleared() throws {
        let old = try broker.factory(.init(clientID: "old-version", host: "gym.local", port: 1883))
        try old.connect()
        try old.publish(MQTTMessage(topic: "homeassistant/sensor/gymtimer_rack-2/state/config", text: "{\"name\":\"State\"}", qos: 1, retain: true))
        let station = try station()
        try station.run(for: .seconds(1))
        #expect(cleared == ["homeassistant/sensor/gymtimer_rack-2/state/config"])
        #expect(broker.published.contains { $0.topic == "homeassistant/device/gymtimer_rack-2/config" && !$0.text.isEmpty })
    }

    @Test func aStationWithNothingOldRetainedClearsNothing() throws {
        let station = try station()
        try station.run(for: .seconds(1))
        #expect(cleared.isEmpty)
        #expect(broker.published.contains { $0.topic == "homeassistant/device/gymtimer_rack-2/config" })
    }
}
