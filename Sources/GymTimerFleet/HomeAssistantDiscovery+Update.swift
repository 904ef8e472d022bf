extension HomeAssistantDiscovery {
    /// The station's software as Home Assistant's `update` entity: installed and latest version
    /// from the retained `update` (`StationUpdate`, already the entity's JSON), and its install
    /// action sends `{"do":"upgrade"}`, which the station hands to its upgrade agent (done only
    /// while idle, docs/upgrades.md).
    func update() -> (String, JSONValue) {
        component("update", "update", "GymTimer", [
            "state_topic": .string(topics.update), "command_topic": .string(topics.command),
            "payload_install": .string(FleetCommand.upgrade.json), "entity_category": "config", "device_class": "firmware",
        ])
    }
}
