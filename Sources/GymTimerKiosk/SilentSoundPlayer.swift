import GymTimerCore
import GymTimerDrivers

/// The sound output when the config turns audio off (`[audio] enabled = false`): plays
/// nothing and is never available, so every cue goes to the buzzer instead.
final class SilentSoundPlayer: SoundPlayer {
    init() {}

    func play(_ sound: Sound?, at now: Moment) {}

    var isAvailable: Bool { false }
}
