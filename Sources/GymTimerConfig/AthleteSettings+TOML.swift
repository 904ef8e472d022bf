import GymTimerCore

extension AthleteSettings {
    /// Reads `[athletes]`: `idle_minutes`, how long an idle, untouched station keeps the athlete
    /// who tapped in, and `card_key`, the file with the gym's card key.
    static func read(from reader: TOMLReader) -> AthleteSettings {
        let defaultMinutes = Int(AthleteSettings().idleTimeout.components.seconds / 60)
        let minutes = reader.int("idle_minutes", default: defaultMinutes, in: AthleteSettings.idleMinutes)
        let keyPath = reader.string("card_key", default: "")
        if !keyPath.isEmpty, reader.isValid("card_key"), !keyPath.hasPrefix("/") {
            reader.report("card_key", keyPath, "must be an absolute path (the file with the gym's card key)")
        }
        return AthleteSettings(idleTimeout: .seconds(minutes * 60), cardKeyPath: keyPath.isEmpty || !keyPath.hasPrefix("/") ? nil : keyPath)
    }
}
