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
        default:
            return nil
        }
    }
}
