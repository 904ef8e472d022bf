import Foundation

/// Home Assistant MQTT discovery (fleet.md): the retained config messages that make a station
/// appear in Home Assistant as one device with sensors (state, display, remaining), buttons
/// (start, dismiss), a number (rest seconds) and a select (mode). Each entity reads the
/// station's retained `state` and `status` topics and sends the ordinary fleet commands, so
/// Home Assistant needs nothing the coach's tools do not use.
public struct HomeAssistantDiscovery: Sendable {
    /// One retained discovery message.
    public struct Message: Hashable, Sendable {
        public var topic: String
        public var payload: String
    }

    public let topics: FleetTopics
    /// The first level of discovery topics (Home Assistant's default).
    public let discoveryPrefix: String
    /// The rest-duration bounds and step the number entity offers (the knob's).
    public let restRange: ClosedRange<Int>
    public let restStep: Int
    /// The modes the select entity offers.
    public let modes: [String]

    public init(
        topics: FleetTopics, discoveryPrefix: String = "homeassistant", restRange: ClosedRange<Int> = 15...300,
        restStep: Int = 15, modes: [String] = ["rest", "interval", "workout", "program"]
    ) {
        self.topics = topics
        self.discoveryPrefix = discoveryPrefix
        self.restRange = restRange
        self.restStep = restStep
        self.modes = modes
    }

    /// `gymtimer_rack-3`: the device and unique-id stem.
    var node: String { "gymtimer_\(topics.station)" }

    /// Every discovery message, in a fixed order.
    public func messages() -> [Message] {
        let sensors: [(String, String, String, String?)] = [
            ("state", "State", "{{ value_json.mode }} {{ value_json.phase }}", nil),
            ("display", "Display", "{{ value_json.display }}", nil),
            ("remaining", "Remaining", "{{ value_json.remaining if value_json.remaining is not none else '' }}", "s"),
        ]
        var messages = sensors.map { id, name, template, unit -> Message in
            var config = common(id: id, name: name)
            config["state_topic"] = topics.state
            config["value_template"] = template
            if let unit { config["unit_of_measurement"] = unit }
            return message("sensor", id, config)
        }
        for (id, name) in [("start", "Start"), ("dismiss", "Dismiss"), ("pause", "Pause"), ("resume", "Resume"), ("reset", "Reset")] {
            var config = common(id: id, name: name)
            config["command_topic"] = topics.command
            config["payload_press"] = "{\"do\":\"\(id)\"}"
            messages.append(message("button", id, config))
        }
        var number = common(id: "rest_seconds", name: "Rest seconds")
        number["command_topic"] = topics.command
        number["command_template"] = "{\"do\":\"set\",\"rest_seconds\":{{ value | int }}}"
        number["state_topic"] = topics.state
        number["value_template"] = "{{ value_json.rest_seconds }}"
        number["min"] = restRange.lowerBound
        number["max"] = restRange.upperBound
        number["step"] = restStep
        number["unit_of_measurement"] = "s"
        messages.append(message("number", "rest_seconds", number))
        var select = common(id: "mode", name: "Mode")
        select["command_topic"] = topics.command
        select["command_template"] = "{\"do\":\"select\",\"mode\":\"{{ value }}\"}"
        select["state_topic"] = topics.state
        select["value_template"] = "{{ value_json.mode }}"
        select["options"] = modes
        messages.append(message("select", "mode", select))
        return messages
    }

    /// What every entity of the station shares: its ids, the device and availability.
    private func common(id: String, name: String) -> [String: Any] {
        [
            "name": name,
            "unique_id": "\(node)_\(id)",
            "object_id": "\(node)_\(id)",
            "availability_topic": topics.status,
            "payload_available": "online",
            "payload_not_available": "offline",
            "device": [
                "identifiers": [node],
                "name": "GymTimer \(topics.station)",
                "manufacturer": "GymTimer",
                "model": "wall timer",
            ] as [String: Any],
        ]
    }

    private func message(_ component: String, _ id: String, _ config: [String: Any]) -> Message {
        let data = (try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Message(
            topic: "\(discoveryPrefix)/\(component)/\(node)/\(id)/config",
            payload: String(decoding: data, as: UTF8.self))
    }
}
