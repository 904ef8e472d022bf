import GymTimerCore

/// The kiosk's sounds and how long each lasts. The synthesised tones are exactly these lengths,
/// and the simulator uses them to report when a sound ends, so its trace matches the kiosk.
public enum SoundCatalog {
    /// Length of one play of `sound`; nil for a looping sound, which plays until stopped.
    public static func duration(of sound: Sound) -> Duration? {
        if sound.loops { return nil }
        switch sound.name {
        case "warning": return .milliseconds(300)
        case "complete": return .milliseconds(2000)
        case "rest-over": return .milliseconds(1200)
        case let name where name.hasPrefix("set-"): return .milliseconds(2800)
        case "last-minute", "time-cap": return .milliseconds(1200)
        default: return .milliseconds(1000)
        }
    }

    /// Length of one play, or of one loop period for a looping sound (the alarm's pattern
    /// repeats every second, so a dismissed alarm never lingers more than a beat).
    public static func period(of sound: Sound) -> Duration {
        duration(of: sound) ?? .milliseconds(1000)
    }
}
