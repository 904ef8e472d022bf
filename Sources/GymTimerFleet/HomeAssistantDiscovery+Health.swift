extension HomeAssistantDiscovery {
    /// The station's health (`P/S/health`, `StationHealth`) as diagnostic entities: version,
    /// uptime, clock synchronised and its offset, CPU temperature, disk free, Wi-Fi signal, last
    /// fault, and a `problem` binary sensor on while any flag is raised (its attributes: the
    /// whole payload). A figure the station does not know (`null`) is unknown, not zero.
    func healthDiagnostics() -> [(String, JSONValue)] {
        func number(_ field: String) -> JSONValue {
            .string("{{ value_json.\(field) if value_json.\(field) is number else None }}")
        }
        func diagnostic(_ id: String, _ platform: String, _ name: String, _ fields: [String: JSONValue]) -> (String, JSONValue) {
            var entry = fields
            entry["state_topic"] = .string(topics.health)
            entry["entity_category"] = "diagnostic"
            return component(id, platform, name, entry)
        }
        return [
            diagnostic("version", "sensor", "Version", ["value_template": "{{ value_json.version }}"]),
            diagnostic("uptime", "sensor", "Uptime", [
                "device_class": "duration", "unit_of_measurement": "s", "value_template": number("uptime"),
            ]),
            diagnostic("clock_synchronised", "binary_sensor", "Clock synchronised", [
                "value_template": "{{ ('ON' if value_json.clock.synchronised else 'OFF') if value_json.clock else None }}",
            ]),
            diagnostic("clock_offset", "sensor", "Clock offset", [
                "unit_of_measurement": "ms",
                "value_template": "{{ value_json.clock.offset_ms if value_json.clock and value_json.clock.offset_ms is number else None }}",
            ]),
            diagnostic("cpu_temp", "sensor", "CPU temperature", [
                "device_class": "temperature", "unit_of_measurement": "°C", "value_template": number("cpu_temp"),
            ]),
            diagnostic("disk_free", "sensor", "Disk free", ["unit_of_measurement": "%", "value_template": number("disk_free_percent")]),
            diagnostic("wifi_signal", "sensor", "Wi-Fi signal", [
                "device_class": "signal_strength", "unit_of_measurement": "dBm", "value_template": number("wifi_dbm"),
            ]),
            diagnostic("last_fault", "sensor", "Last fault", [
                "value_template": "{{ value_json.fault.text if value_json.fault else 'none' }}",
            ]),
            diagnostic("problem", "binary_sensor", "Problem", [
                "device_class": "problem", "value_template": "{{ 'ON' if value_json.flags else 'OFF' }}",
                "json_attributes_topic": .string(topics.health),
            ]),
        ]
    }
}
