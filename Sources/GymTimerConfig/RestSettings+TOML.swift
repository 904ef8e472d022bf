import GymTimerCore

extension RestSettings {
    /// Reads `[rest]`. The bounds are read first so the duration can be checked against the actual
    /// ones; a default duration the file does not set is brought into them rather than refused.
    static func read(from reader: TOMLReader) -> RestSettings {
        let defaults = RestSettings()
        let minSeconds = reader.int("min_seconds", default: defaults.minSeconds, in: 1...3600)
        let maxFloor = reader.isValid("min_seconds") ? minSeconds : 1
        let maxSeconds = reader.int("max_seconds", default: defaults.maxSeconds, in: maxFloor...3600)
        let boundsValid = reader.isValid("min_seconds", "max_seconds") && minSeconds <= maxSeconds
        var defaultSeconds = reader.int(
            "default_seconds", default: defaults.defaultSeconds, in: boundsValid ? minSeconds...maxSeconds : nil)
        if reader.value("default_seconds") == nil, boundsValid {
            defaultSeconds = min(max(defaultSeconds, minSeconds), maxSeconds)
        }
        return RestSettings(
            defaultSeconds: defaultSeconds,
            minSeconds: minSeconds,
            maxSeconds: maxSeconds,
            stepSeconds: reader.int("step_seconds", default: defaults.stepSeconds, in: 1...300),
            warningSeconds: reader.int("warning_seconds", default: defaults.warningSeconds, in: 0...60),
            alarmTimeoutSeconds: reader.int(
                "alarm_timeout_seconds", default: defaults.alarmTimeoutSeconds, in: 1...3600)
        )
    }
}
