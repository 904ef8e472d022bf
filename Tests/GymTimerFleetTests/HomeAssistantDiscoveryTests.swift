import Foundation
import Testing
@testable import GymTimerFleet

/// The device-based discovery message checked against what Home Assistant's MQTT integration
/// requires (its documented schema: `dev` with ids, `o` with a name, `cmps` each with a
/// platform `p` and a unique id, the platform's own required keys) and against the fleet's
/// commands: every control must send a command the station parses. `scripts/ha-test.sh` has a
/// real Home Assistant read the same message.
@Suite struct HomeAssistantDiscoveryTests {
    let discovery = HomeAssistantDiscovery(
        topics: FleetTopics(prefix: "gymtimer", station: "rack-3"), restRange: 15...300, restStep: 15,
        programs: ["Tabata", "EMOM \"10\""])

    var config: [String: Any] {
        get throws {
            try #require(try JSONSerialization.jsonObject(with: Data(discovery.device.payload.utf8)) as? [String: Any])
        }
    }

    func component(_ id: String) throws -> [String: Any] {
        let components = try #require(try config["cmps"] as? [String: Any])
        return try #require(components[id] as? [String: Any], "no component \(id)")
    }

    /// `template` with `placeholder` replaced, parsed as a fleet command.
    func command(_ template: String, _ placeholder: String, _ value: String) -> Result<FleetCommand, FleetCommandError> {
        FleetCommand.parse(Array(template.replacingOccurrences(of: placeholder, with: value).utf8))
    }

    @Test func oneDeviceMessageWithOriginAvailabilityAndEveryComponent() throws {
        #expect(discovery.device.topic == "homeassistant/device/gymtimer_rack-3/config")
        let config = try config
        let device = try #require(config["dev"] as? [String: Any])
        #expect(device["ids"] as? [String] == ["gymtimer_rack-3"])
        #expect(device["name"] as? String == "GymTimer rack-3")
        let origin = try #require(config["o"] as? [String: Any])
        #expect(origin["name"] as? String == "gymtimer")
        #expect(origin["sw"] as? String == HomeAssistantDiscovery.origin.version)
        // No console named: no made-up support page, and no link on the device.
        #expect(origin["url"] == nil && device["cu"] == nil)
        #expect(config["availability_topic"] as? String == "gymtimer/rack-3/status")
        #expect(config["payload_available"] as? String == "online" && config["payload_not_available"] as? String == "offline")
        let components = try #require(config["cmps"] as? [String: [String: Any]])
        let platforms = components.mapValues { $0["p"] as? String ?? "?" }
        #expect(platforms == [
            "state": "sensor", "display": "sensor", "ends": "sensor", "remaining": "sensor",
            "start": "button", "dismiss": "button", "pause": "button", "resume": "button", "reset": "button",
            "rest_seconds": "number", "mode": "select", "message": "notify", "event": "event",
            "update": "update",
            "version": "sensor", "uptime": "sensor", "clock_synchronised": "binary_sensor", "clock_offset": "sensor",
            "cpu_temp": "sensor", "disk_free": "sensor", "wifi_signal": "sensor", "last_fault": "sensor",
            "problem": "binary_sensor",
        ])
        let required = ["sensor": ["state_topic"], "button": ["command_topic"], "number": ["command_topic"],
                        "select": ["command_topic", "options"], "event": ["state_topic", "event_types"],
                        "notify": ["command_topic", "command_template"], "update": ["state_topic", "command_topic"]]
        for (id, entry) in components {
            let platform = platforms[id]!
            for key in required[platform, default: []] + ["name", "unique_id", "default_entity_id"] {
                #expect(entry[key] != nil, "\(id) lacks \(key)")
            }
            #expect(entry["unique_id"] as? String == "gymtimer_rack-3_\(id)")
            // Home Assistant stopped honouring object_id in 2026.4: default_entity_id says the id.
            #expect(entry["default_entity_id"] as? String == "\(platform).gymtimer_rack_3_\(id)")
            #expect(entry["object_id"] == nil)
        }
        #expect(!discovery.device.payload.contains("object_id"))
    }

    @Test func theCountdownIsATimestampFromTheDeadlineAndTheStateCarriesEveryField() throws {
        let ends = try component("ends")
        #expect(ends["device_class"] as? String == "timestamp")
        #expect(ends["state_topic"] as? String == "gymtimer/rack-3/state")
        #expect((ends["value_template"] as? String)?.contains("as_datetime(value_json.deadline)") == true)
        let remaining = try component("remaining")
        #expect(remaining["device_class"] as? String == "duration" && remaining["unit_of_measurement"] as? String == "s")
        #expect(try component("state")["json_attributes_topic"] as? String == "gymtimer/rack-3/state")
    }

    @Test func buttonsAndControlsSendTheFleetsOwnCommands() throws {
        for id in ["start", "dismiss", "pause", "resume", "reset"] {
            let button = try component(id)
            #expect(button["command_topic"] as? String == "gymtimer/rack-3/cmd")
            let press = try #require(button["payload_press"] as? String)
            #expect(press == "{\"do\":\"\(id)\"}")
        }
        #expect(FleetCommand.parse(Array("{\"do\":\"start\"}".utf8)) == .success(.start(at: nil)))
        #expect(FleetCommand.parse(Array("{\"do\":\"dismiss\"}".utf8)) == .success(.dismiss))
        let number = try component("rest_seconds")
        let set = try #require(number["command_template"] as? String)
        #expect(command(set, "{{ value | int }}", "120") == .success(.setRest(seconds: 120)))
        #expect(number["min"] as? Int == 15 && number["max"] as? Int == 300 && number["step"] as? Int == 15)
    }

    @Test func theGymsConsoleIsTheDevicesLinkAndTheOriginsPage() throws {
        let linked = HomeAssistantDiscovery(
            topics: FleetTopics(prefix: "gymtimer", station: "rack-3"), consoleURL: "http://gym-server.local:8080/")
        let config = try #require(try JSONSerialization.jsonObject(with: Data(linked.device.payload.utf8)) as? [String: Any])
        #expect((config["dev"] as? [String: Any])?["cu"] as? String == "http://gym-server.local:8080/")
        #expect((config["o"] as? [String: Any])?["url"] as? String == "http://gym-server.local:8080/")
    }

    @Test func theUpdateEntityReadsTheRetainedUpdateAndInstallsWithTheUpgradeCommand() throws {
        let update = try component("update")
        #expect(update["state_topic"] as? String == "gymtimer/rack-3/update")
        #expect(update["command_topic"] as? String == "gymtimer/rack-3/cmd")
        #expect(update["entity_category"] as? String == "config")
        let install = try #require(update["payload_install"] as? String)
        #expect(FleetCommand.parse(Array(install.utf8)) == .success(.upgrade))
        // What the station retains is the entity's own JSON (Home Assistant reads it without a template).
        #expect(update["value_template"] == nil)
        let payload = StationUpdate(installedVersion: "0.9.0-1", latestVersion: "0.9.0-2", inProgress: false).json
        #expect(payload == #"{"in_progress":false,"installed_version":"0.9.0-1","latest_version":"0.9.0-2","title":"GymTimer"}"#)
    }

    @Test func theNotifyEntitySendsTheFloorMessage() throws {
        let notify = try component("message")
        #expect(notify["command_topic"] as? String == "gymtimer/rack-3/cmd")
        let template = try #require(notify["command_template"] as? String)
        // Home Assistant renders the message as a JSON string, cut at the command's 64 characters.
        #expect(template.contains("(value | string)[:64] | to_json"))
        #expect(command(template, "{{ (value | string)[:64] | to_json }}", "\"HYdrAtE\"")
            == .success(.message(text: "HYdrAtE", seconds: FleetCommand.defaultMessageSeconds)))
    }

    @Test func theSelectOffersModesAndProgramsAndSendsSelect() throws {
        let select = try component("mode")
        #expect(select["options"] as? [String] == ["rest", "interval", "workout", "program", "program: Tabata", "program: EMOM \"10\""])
        let template = try #require(select["command_template"] as? String)
        // Two branches: `program: NAME` selects that program by name, anything else the mode.
        let ifBranch = try #require(template.range(of: "%}")).upperBound
        let elseBranch = try #require(template.range(of: "{% else %}"))
        let endBranch = try #require(template.range(of: "{% endif %}"))
        let program = String(template[ifBranch..<elseBranch.lowerBound])
        let mode = String(template[elseBranch.upperBound..<endBranch.lowerBound])
        #expect(command(program, "{{ value[9:] | to_json }}", "\"EMOM \\\"10\\\"\"") == .success(.select(mode: "program", name: "EMOM \"10\"")))
        #expect(command(mode, "{{ value | to_json }}", "\"interval\"") == .success(.select(mode: "interval", name: nil)))
        // The state template knows the same options (as a Jinja list, JSON's syntax).
        let state = try #require(select["value_template"] as? String)
        #expect(state.contains("{% set options = [\"rest\",\"interval\",\"workout\",\"program\",\"program: Tabata\",\"program: EMOM \\\"10\\\"\"] %}"))
    }

    @Test func theEventEntityTakesPhaseChangesAndFinishedWorkouts() throws {
        let event = try component("event")
        #expect(event["state_topic"] as? String == "gymtimer/rack-3/event")
        #expect(event["event_types"] as? [String] == ["phase", "completed"])
        let template = try #require(event["value_template"] as? String)
        #expect(template.contains("value_json.event == 'phase'") && template.contains("value_json.event == 'completed'"))
        #expect(template.contains("{\"event_type\":\"phase\"") && template.contains("{\"event_type\":\"completed\""))
    }

    @Test func theOldPerComponentTopicsAreClearedWithEmptyPayloads() {
        #expect(discovery.retired.map(\.topic) == [
            "homeassistant/sensor/gymtimer_rack-3/state/config", "homeassistant/sensor/gymtimer_rack-3/display/config",
            "homeassistant/sensor/gymtimer_rack-3/remaining/config", "homeassistant/button/gymtimer_rack-3/start/config",
            "homeassistant/button/gymtimer_rack-3/dismiss/config", "homeassistant/number/gymtimer_rack-3/rest_seconds/config",
            "homeassistant/select/gymtimer_rack-3/mode/config",
        ])
        #expect(discovery.retired.allSatisfy { $0.payload.isEmpty })
        #expect(discovery.birthTopic == "homeassistant/status")
    }

    @Test func theHealthIsDiagnosticEntitiesReadingTheHealthTopic() throws {
        for id in ["version", "uptime", "clock_synchronised", "clock_offset", "cpu_temp", "disk_free", "wifi_signal", "last_fault", "problem"] {
            let entry = try component(id)
            #expect(entry["state_topic"] as? String == "gymtimer/rack-3/health", "\(id)")
            #expect(entry["entity_category"] as? String == "diagnostic", "\(id)")
        }
        #expect(try component("cpu_temp")["value_template"] as? String
            == "{{ value_json.cpu_temp if value_json.cpu_temp is number else None }}")
        #expect(try component("cpu_temp")["unit_of_measurement"] as? String == "°C")
        #expect(try component("wifi_signal")["device_class"] as? String == "signal_strength")
        #expect(try component("problem")["device_class"] as? String == "problem")
        #expect(try component("problem")["value_template"] as? String == "{{ 'ON' if value_json.flags else 'OFF' }}")
        #expect(try component("clock_synchronised")["value_template"] as? String
            == "{{ ('ON' if value_json.clock.synchronised else 'OFF') if value_json.clock else None }}")
    }
}
