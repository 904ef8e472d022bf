import GymTimerCore

/// The buzzer's version of each sound cue, for when no sound can be heard (no speaker, a dead
/// sound card): the kiosk keeps giving every cue. The patterns are in `SoundCatalog`.
public enum BuzzerFallback {
    /// `sound`'s buzzer pattern; nil for cues the core already pairs with a buzzer pattern of
    /// their own (the alarm, the completion's long beep).
    public static func pattern(for sound: Sound) -> BuzzerPattern? { SoundCatalog.cue(for: sound).buzzer }
}
