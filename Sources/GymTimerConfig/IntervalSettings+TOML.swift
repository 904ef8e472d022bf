import GymTimerCore

extension IntervalSettings {
    /// Reads `[interval]`. A warning must fall inside its phase (else it would sound before the
    /// phase began); a default warning the file does not set is shortened to fit instead.
    static func read(from reader: TOMLReader) -> IntervalSettings {
        let defaults = IntervalSettings()
        let phaseSeconds = reader.int("phase_seconds", default: defaults.phaseSeconds, in: 1...3600)
        let sets = reader.int("sets", default: defaults.sets, in: 1...99)
        let startWith = reader.choice("start_with", default: defaults.startWith)
        var warningSeconds = reader.int("warning_seconds", default: defaults.warningSeconds, in: 0...60)
        if reader.isValid("phase_seconds", "warning_seconds"), warningSeconds >= phaseSeconds, warningSeconds > 0 {
            if let raw = reader.value("warning_seconds") {
                reader.report(
                    "warning_seconds", raw,
                    "must be less than \(reader.keyPath("phase_seconds")) (\(phaseSeconds)), or 0 for no warning")
            } else {
                warningSeconds = phaseSeconds - 1
            }
        }
        let announceSeconds = reader.int("announce_seconds", default: defaults.announceSeconds, in: 0...60)
        return IntervalSettings(
            phaseSeconds: phaseSeconds, sets: sets, startWith: startWith,
            warningSeconds: warningSeconds, announceSeconds: announceSeconds)
    }
}
