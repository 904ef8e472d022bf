import GymTimerFleet

extension FleetSettings {
    /// Reads `[fleet]`: nil when it has no `broker` (no fleet), or when a key is refused (the
    /// problem is recorded and the file is refused as a whole anyway).
    static func read(from reader: TOMLReader) -> FleetSettings? {
        let url = reader.string("broker", default: "")
        let station = reader.string("station", default: "")
        let prefix = reader.string("topic_prefix", default: "gymtimer")
        let username = reader.string("username", default: "")
        let passwordFile = reader.string("password_file", default: "")
        let caFile = reader.string("ca_file", default: "")
        let homeAssistant = reader.bool("home_assistant", default: true)
        let consoleURL = reader.string("console_url", default: "")
        guard reader.value("broker") != nil else {
            if reader.value("station") != nil { reader.report("broker", nil, "is required when [fleet] names a station") }
            return nil
        }
        var broker: Broker?
        switch parseBroker(url) {
        case .success(let parsed): broker = parsed
        case .failure(let problem): if reader.isValid("broker") { reader.report("broker", url, problem.description) }
        }
        if reader.value("station") == nil {
            reader.report("station", nil, "is required: this kiosk's name in the gym, [a-z0-9-]{1,32}, not \"all\"")
        } else if reader.isValid("station"), !isValidStation(station) {
            reader.report("station", station, FleetStationName.problem(station) ?? stationRule)
        }
        if reader.isValid("topic_prefix"), !isValidTopicLevel(prefix) {
            reader.report("topic_prefix", prefix, "must be one topic level: no /, + or #")
        }
        if !caFile.isEmpty, broker?.tls == false {
            reader.report("ca_file", caFile, "is used only with an mqtts:// broker")
        }
        if !consoleURL.isEmpty, reader.isValid("console_url"), !isValidConsoleURL(consoleURL) {
            reader.report("console_url", consoleURL, "must be the console's address, http://HOST[:PORT]/ or https://…")
        }
        guard let broker, isValidStation(station), isValidTopicLevel(prefix) else { return nil }
        return FleetSettings(
            broker: broker, station: station, topicPrefix: prefix,
            username: username.isEmpty ? nil : username, passwordFile: passwordFile.isEmpty ? nil : passwordFile,
            caFile: caFile.isEmpty ? nil : caFile, homeAssistant: homeAssistant,
            consoleURL: consoleURL.isEmpty ? nil : consoleURL)
    }
}
