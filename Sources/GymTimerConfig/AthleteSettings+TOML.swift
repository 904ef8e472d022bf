import GymTimerCore

extension AthleteSettings {
    /// Reads `[athletes]`: `idle_minutes`, how long an idle, untouched station keeps the athlete
    /// who tapped in.
    static func read(from reader: TOMLReader) -> AthleteSettings {
        let defaultMinutes = Int(AthleteSettings().idleTimeout.components.seconds / 60)
        let minutes = reader.int("idle_minutes", default: defaultMinutes, in: AthleteSettings.idleMinutes)
        return AthleteSettings(idleTimeout: .seconds(minutes * 60))
    }
}
