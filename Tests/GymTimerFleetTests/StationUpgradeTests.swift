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
import GymTimerTestSupport
import Testing

/// The kiosk's side of upgrades, in virtual time: the retained `update` (Home Assistant's update
/// entity payload) from what the upgrade agent wrote, and `{"do":"upgrade"}` answered — refused
/// without an agent or without anything newer, else done with the request written for the agent.
@Suite struct StationUpgradeTests {
    let clock = VirtualClock()
    let broker: InMemoryBroker
    let station: VirtualStation
    let coach: any MQTTTransport
    let folder = testDirectory("station-upgrade")
    var upgrade: StationUpgrade { StationUpgrade(folder: folder, running: "0.9.0") }

    init() throws {
        let clock = clock
        broker = InMemoryBroker(now: { clock.now.offset })
        let configuration = try GymTimerConfiguration.parse(
            "[fleet]\nbroker = \"mqtt://gym.local:1883\"\nstation = \"rack-2\"\nhome_assistant = false\n")
        station = VirtualStation(configuration: configuration, clock: clock, broker: broker, log: { print($0) })
        station.station?.upgrade = StationUpgrade(folder: folder, running: "0.9.0")
        coach = try broker.factory(.init(clientID: "coach", host: "gym.local", port: 1883))
        try coach.connect()
    }

    func writeStatus(_ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: upgrade.statusPath))
    }

    /// The `update` payloads the station published, parsed.
    var updates: [[String: JSONValue]] {
        broker.published.filter { $0.topic == "gymtimer/rack-2/update" }.map { Watcher.object($0.text) }
    }

    /// Sends `{"do":"upgrade"}` with `id`; the station's answer (a `command` or `error` event carrying the id).
    func askForUpgrade(id: String) throws -> [String: JSONValue] {
        try coach.publish(MQTTMessage(topic: "gymtimer/rack-2/cmd", text: "{\"do\":\"upgrade\",\"id\":\"\(id)\"}", qos: 1))
        func answer() -> [String: JSONValue]? {
            broker.published.filter { $0.topic == "gymtimer/rack-2/event" }.map { Watcher.object($0.text) }
                .first { $0["id"]?.string == id }
        }
        let end = clock.now.offset + .seconds(5)
        while answer() == nil, clock.now.offset < end { try station.run(for: .milliseconds(10)) }
        return answer() ?? [:]
    }

    @Test func withoutAnAgentTheRunningVersionIsPublishedAndAnUpgradeIsRefused() throws {
        try station.run(for: .seconds(1))
        #expect(updates.first == ["installed_version": "0.9.0", "title": "GymTimer", "in_progress": false])
        let answer = try askForUpgrade(id: "u1")
        #expect(answer["event"]?.string == "error" && answer["kind"]?.string == "not-allowed")
        #expect(answer["reason"]?.string?.contains("no upgrade agent has checked") == true, "\(answer)")
        #expect(!FileManager.default.fileExists(atPath: upgrade.requestPath))
    }

    @Test func nothingNewerIsRefusedWithTheInstalledVersion() throws {
        try writeStatus(#"{"installed":"0.9.0-1","latest":"0.9.0-1"}"#)
        try station.run(for: .seconds(1))
        #expect(updates.first?["latest_version"]?.string == "0.9.0-1")
        let answer = try askForUpgrade(id: "u2")
        #expect(answer["reason"]?.string == "\"upgrade\" not allowed now: nothing newer: 0.9.0-1 is the gym's latest", "\(answer)")
        #expect(!upgrade.requested)
    }

    @Test func aNewerVersionIsRequestedOfTheAgentAndTheUpdateSaysItWaits() throws {
        try writeStatus(#"{"installed":"0.9.0-1","latest":"0.9.0-2"}"#)
        try station.run(for: .seconds(1))
        #expect(updates.first == [
            "installed_version": "0.9.0-1", "latest_version": "0.9.0-2", "title": "GymTimer", "in_progress": false,
        ])
        let answer = try askForUpgrade(id: "u3")
        #expect(answer["event"]?.string == "command", "\(answer)")
        let request = Watcher.object(try String(contentsOfFile: upgrade.requestPath, encoding: .utf8))
        #expect(request["id"]?.string == "u3" && request["at"]?.number.map { $0 > 1_700_000_000 } == true, "\(request)")
        #expect(updates.last?["in_progress"] == .bool(true))
    }

    @Test(arguments: [
        "not json", #"{"installed":"0.9.0; rm -rf /","latest":null}"#, #"{"latest":"1.0"}"#, #"{"installed":"1.0","latest":7}"#,
        #"{"installed":"1.0","latest":"x"}"#, "{\"installed\":\"1.0\",\"pad\":\"" + String(repeating: "x", count: 5000) + "\"}",
    ])
    func aStatusFileThatIsNoStatusIsNone(text: String) {
        #expect(UpgradeStatus.parse(Array(text.utf8)) == nil)
    }

    @Test func theStatusFileReadsBackAsItself() {
        let status = UpgradeStatus(installed: "1:0.9.0-2+rpi1", latest: "1:0.9.1~rc1-1")
        #expect(UpgradeStatus.parse(Array(status.json.utf8)) == status)
        #expect(UpgradeStatus.parse(Array(#"{"installed":"0.9.0-1","latest":null}"#.utf8)) == UpgradeStatus(installed: "0.9.0-1", latest: nil))
    }
}
