import Foundation
import Testing
@testable import GymTimerFleet

/// Discovery payloads checked against the keys Home Assistant's MQTT integration requires for
/// each platform (its documented schemas): a state topic for sensors, a command topic for
/// buttons, numbers and selects, options for selects, and for every entity a unique id and a
/// device with identifiers (so they group as one device) plus availability.
@Suite struct HomeAssistantDiscoveryTests {
    let messages = HomeAssistantDiscovery(topics: FleetTopics(prefix: "gymtimer", station: "rack-3")).messages()

    func config(_ component: String, _ id: String) throws -> [String: Any] {
        let message = try #require(messages.first { $0.topic == "homeassistant/\(component)/gymtimer_rack-3/\(id)/config" })
        return try #require(try JSONSerialization.jsonObject(with: Data(message.payload.utf8)) as? [String: Any])
    }

    @Test func everyEntityIsValidJSONWithTheFieldsHomeAssistantRequires() throws {
        let required: [String: [String]] = [
            "sensor": ["state_topic"], "button": ["command_topic"], "number": ["command_topic"],
            "select": ["command_topic", "options"],
        ]
        #expect(messages.count == 10)
        for message in messages {
            let parts = message.topic.split(separator: "/")
            #expect(parts.count == 5 && parts[0] == "homeassistant" && parts[4] == "config")
            let component = String(parts[1])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(message.payload.utf8)) as? [String: Any])
            for key in (required[component] ?? ["<unknown component \(component)>"]) + ["unique_id", "name", "device", "availability_topic"] {
                #expect(object[key] != nil, "\(message.topic) lacks \(key)")
            }
            let device = try #require(object["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == ["gymtimer_rack-3"])
            #expect(object["availability_topic"] as? String == "gymtimer/rack-3/status")
        }
        #expect(Set(messages.map { $0.topic }).count == messages.count, "unique topics")
    }

    @Test func buttonsAndControlsSendTheFleetsOwnCommands() throws {
        let start = try config("button", "start")
        #expect(start["command_topic"] as? String == "gymtimer/rack-3/cmd")
        let press = try #require(start["payload_press"] as? String)
        #expect(FleetCommand.parse(Array(press.utf8)) == .success(.start(at: nil)))
        for (id, command) in [("pause", FleetCommand.pause), ("resume", .resume), ("reset", .reset)] {
            let press = try #require(try config("button", id)["payload_press"] as? String)
            #expect(FleetCommand.parse(Array(press.utf8)) == .success(command), "\(id)")
        }
        let number = try config("number", "rest_seconds")
        let template = try #require(number["command_template"] as? String)
        let rendered = template.replacingOccurrences(of: "{{ value | int }}", with: "120")
        #expect(FleetCommand.parse(Array(rendered.utf8)) == .success(.setRest(seconds: 120)))
        #expect(number["min"] as? Int == 15 && number["max"] as? Int == 300 && number["step"] as? Int == 15)
        let select = try config("select", "mode")
        #expect(select["options"] as? [String] == ["rest", "interval", "workout", "program"])
        let chosen = (try #require(select["command_template"] as? String)).replacingOccurrences(of: "{{ value }}", with: "interval")
        #expect(FleetCommand.parse(Array(chosen.utf8)) == .success(.select(mode: "interval", name: nil)))
    }
}
