import GymTimerCore

/// The buzzer's version of each sound cue, for when no sound can be heard (no speaker, a dead
/// sound card): the kiosk keeps giving every cue. Cues that the core already pairs with a
/// buzzer pattern of their own (the alarm, the completion's long beep) need none.
public enum BuzzerFallback {
    public static func pattern(for sound: Sound) -> BuzzerPattern? {
        switch sound.name {
        case "warning":
            return BuzzerPattern(steps: [.milliseconds(100), .milliseconds(100), .milliseconds(100)], loops: false)
        case let name where name.hasPrefix("set-"):
            return BuzzerPattern(steps: [.milliseconds(150), .milliseconds(150), .milliseconds(150), .milliseconds(150), .milliseconds(150)], loops: false)
        case "rest-over":
            return BuzzerPattern(steps: [.milliseconds(400)], loops: false)
        // The program calls (`complete` and `time-cap` come with the core's long beep).
        case "go":
            return BuzzerPattern(steps: [.milliseconds(600)], loops: false)
        case "work":
            return steps(100, 100, 300)
        case "rest":
            return steps(300, 100, 100)
        case let name where name.hasPrefix("round-"):
            return steps(200, 150, 200)
        case "halfway":
            return steps(100, 100, 100, 100, 100, 100, 100)
        case "last-minute":
            return steps(300, 150, 300, 150, 300)
        default:
            return nil
        }
    }

    /// A one-shot pattern of alternating on/off steps in milliseconds.
    private static func steps(_ milliseconds: Int...) -> BuzzerPattern {
        BuzzerPattern(steps: milliseconds.map { .milliseconds($0) }, loops: false)
    }
}
