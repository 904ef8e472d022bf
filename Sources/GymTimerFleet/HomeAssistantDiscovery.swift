import GymTimerCore

/// Home Assistant MQTT discovery (fleet.md), in Home Assistant's current format: one retained
/// device-based message, `homeassistant/device/gymtimer_<station>/config`, that makes the
/// station one device (`dev`) announced by us (`o`, the origin), available while its `status`
/// says `online`, with its entities in `cmps`: sensors (state, display, the end of the current
/// countdown as a timestamp so Home Assistant counts down itself, what is left while paused),
/// buttons (start, dismiss, pause, resume, reset), a number (rest seconds), a select (mode or
/// program), a notify entity (the floor message on its display) and an event entity (phase
/// changes, finished workouts). With the gym's console address the device links to it. Every entity reads the station's
/// retained `state`, its `event`s and `status`, and sends the ordinary fleet commands, so Home
/// Assistant needs nothing the coach's tools do not use.
public struct HomeAssistantDiscovery: Sendable {
    /// One retained discovery message (an empty payload removes what the topic announced).
    public struct Message: Hashable, Sendable {
        public var topic: String
        public var payload: String

        public init(topic: String, payload: String) {
            self.topic = topic
            self.payload = payload
        }
    }

    /// Who announces the device (Home Assistant shows it as the device's origin); its support
    /// page is the gym's console when the config names one (`console_url`), else it has none.
    public static let origin = (name: "gymtimer", version: GymTimerVersion.current)

    public let topics: FleetTopics
    /// The first level of discovery topics (Home Assistant's default).
    public let discoveryPrefix: String
    /// The rest-duration bounds and step the number entity offers (the knob's).
    public let restRange: ClosedRange<Int>
    public let restStep: Int
    /// The modes the select entity offers.
    public let modes: [String]
    /// The configured programs, offered by the select as `program: NAME`.
    public let programs: [String]
    /// The coach's console (`console_url`): the device's configuration link and the origin's page.
    public let consoleURL: String?

    public init(
        topics: FleetTopics, discoveryPrefix: String = "homeassistant", restRange: ClosedRange<Int> = 15...300,
        restStep: Int = 15, modes: [String] = ["rest", "interval", "workout", "program"], programs: [String] = [],
        consoleURL: String? = nil
    ) {
        self.topics = topics
        self.discoveryPrefix = discoveryPrefix
        self.restRange = restRange
        self.restStep = restStep
        self.modes = modes
        self.programs = programs
        self.consoleURL = consoleURL
    }

    /// `gymtimer_rack-3`: the device id and unique-id stem.
    public var node: String { "gymtimer_\(topics.station)" }
    /// `gymtimer_rack_3`: the entity-id stem (entity ids allow no `-`).
    public var entityStem: String { node.replacingOccurrences(of: "-", with: "_") }
    /// Where Home Assistant announces itself (`online` when it starts): discovery is sent again.
    public var birthTopic: String { "\(discoveryPrefix)/status" }
    /// The one device-based discovery message.
    public var device: Message {
        Message(topic: "\(discoveryPrefix)/device/\(node)/config", payload: Self.json(config()))
    }

    /// Empty retained payloads for the per-component topics earlier versions announced, so an
    /// upgraded gym does not keep a second set of entities beside the device's.
    public var retired: [Message] {
        let old = [
            ("sensor", "state"), ("sensor", "display"), ("sensor", "remaining"), ("button", "start"),
            ("button", "dismiss"), ("number", "rest_seconds"), ("select", "mode"),
        ]
        return old.map { Message(topic: "\(discoveryPrefix)/\($0)/\(node)/\($1)/config", payload: "") }
    }

    /// The select's options: the modes, then each program by name.
    public var options: [String] { modes + programs.map { "program: \($0)" } }

    /// The device-based discovery config (JSON object).
    public func config() -> JSONValue {
        let components = Dictionary(uniqueKeysWithValues: sensors() + controls() + [notify(), event(), update()] + healthDiagnostics())
        var device: [String: JSONValue] = [
            "ids": [.string(node)], "name": .string("GymTimer \(topics.station)"), "mf": "GymTimer", "mdl": "wall timer",
            "sw": .string(Self.origin.version),
        ]
        var origin: [String: JSONValue] = ["name": .string(Self.origin.name), "sw": .string(Self.origin.version)]
        if let consoleURL {
            device["cu"] = .string(consoleURL)
            origin["url"] = .string(consoleURL)
        }
        return [
            "dev": .object(device),
            "o": .object(origin),
            "availability_topic": .string(topics.status), "payload_available": "online", "payload_not_available": "offline",
            "qos": 1,
            "cmps": .object(components),
        ]
    }

    /// One component of the device: its id, and `fields` with its platform, name and ids.
    func component(_ id: String, _ platform: String, _ name: String, _ fields: [String: JSONValue]) -> (String, JSONValue) {
        var entry = fields
        entry["p"] = .string(platform)
        entry["name"] = .string(name)
        entry["unique_id"] = "\(node)_\(id)"
        entry["default_entity_id"] = "\(platform).\(entityStem)_\(id)"
        return (id, .object(entry))
    }

    /// What the station shows: its state, its display, when the countdown ends, what is left
    /// while paused.
    private func sensors() -> [(String, JSONValue)] {
        [
            component("state", "sensor", "State", [
                "state_topic": .string(topics.state), "value_template": "{{ value_json.mode }} {{ value_json.phase }}",
                // Every field of the state (deadline, remaining, round, sets, program) as attributes.
                "json_attributes_topic": .string(topics.state),
            ]),
            component("display", "sensor", "Display", ["state_topic": .string(topics.state), "value_template": "{{ value_json.display }}"]),
            component("ends", "sensor", "Countdown ends", [
                "state_topic": .string(topics.state), "device_class": "timestamp",
                "value_template": "{{ as_datetime(value_json.deadline) if value_json.deadline is number else None }}",
            ]),
            component("remaining", "sensor", "Left while paused", [
                "state_topic": .string(topics.state), "device_class": "duration", "unit_of_measurement": "s",
                "value_template": "{{ value_json.remaining if value_json.remaining is number else None }}",
            ]),
        ]
    }

    /// What Home Assistant can do to the station: its buttons, the rest length, the mode.
    private func controls() -> [(String, JSONValue)] {
        let buttons: [(String, String, FleetCommand)] = [
            ("start", "Start", .start(at: nil)), ("dismiss", "Dismiss", .dismiss), ("pause", "Pause", .pause),
            ("resume", "Resume", .resume), ("reset", "Reset", .reset),
        ]
        var controls = buttons.map { id, name, command in
            component(id, "button", name, ["command_topic": .string(topics.command), "payload_press": .string(command.json)])
        }
        controls.append(component("rest_seconds", "number", "Rest seconds", [
            "command_topic": .string(topics.command), "command_template": "{\"do\":\"set\",\"rest_seconds\":{{ value | int }}}",
            "state_topic": .string(topics.state), "value_template": "{{ value_json.rest_seconds }}",
            "min": .number(Double(restRange.lowerBound)), "max": .number(Double(restRange.upperBound)), "step": .number(Double(restStep)),
            "unit_of_measurement": "s", "mode": "box",
        ]))
        let list = JSONValue.array(options.map(JSONValue.string))
        let command = "{% if value.startswith('program: ') %}{\"do\":\"select\",\"mode\":\"program\",\"name\":{{ value[9:] | to_json }} }"
            + "{% else %}{\"do\":\"select\",\"mode\":{{ value | to_json }} }{% endif %}"
        // The mode, or the program by name; anything not offered (the menu) is no option.
        let value = "{% set options = \(Self.json(list)) %}{% set program = 'program: ' ~ value_json.program %}"
            + "{% if value_json.mode == 'program' and program in options %}{{ program }}"
            + "{% elif value_json.mode in options %}{{ value_json.mode }}{% else %}None{% endif %}"
        controls.append(component("mode", "select", "Mode", [
            "command_topic": .string(topics.command), "options": list, "state_topic": .string(topics.state),
            "command_template": .string(command), "value_template": .string(value),
        ]))
        return controls
    }

    /// The floor message: Home Assistant's `notify.send_message` shows its text on the display
    /// for the fleet's default time (its first 64 characters, the message command's limit).
    private func notify() -> (String, JSONValue) {
        component("message", "notify", "Floor message", [
            "command_topic": .string(topics.command),
            "command_template": "{\"do\":\"message\",\"text\":{{ (value | string)[:64] | to_json }} }",
        ])
    }

    /// The station's phase changes and finished workouts as Home Assistant events.
    private func event() -> (String, JSONValue) {
        // Only phase changes and finished workouts; every other event renders empty (ignored).
        let template = "{% if value_json.event == 'phase' %}"
            + "{\"event_type\":\"phase\",\"mode\":{{ value_json.mode | to_json }},\"phase\":{{ value_json.phase | to_json }} }"
            + "{% elif value_json.event == 'completed' %}"
            + "{\"event_type\":\"completed\",\"kind\":{{ value_json.kind | to_json }},\"sets\":{{ value_json.sets | to_json }} }"
            + "{% endif %}"
        return component("event", "event", "Event", [
            "state_topic": .string(topics.event), "event_types": ["phase", "completed"], "value_template": .string(template),
        ])
    }

    /// Sorted keys, slashes as they are (topics and templates hold them), as Foundation's
    /// JSONSerialization wrote it before.
    private static func json(_ value: JSONValue) -> String { FleetJSONEncoder(sortedKeys: true, escapingSlashes: false).text(value) }
}
