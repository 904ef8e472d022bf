import GymTimerCore
import GymTimerDrivers

/// Stands in for the ALSA player until it lands: plays nothing, and says so once, since the
/// buzzer and the display carry every cue anyway.
final class SilentSoundPlayer: SoundPlayer {
    private let log: (String) -> Void
    private var hasLogged = false

    init(log: @escaping (String) -> Void) { self.log = log }

    func play(_ sound: Sound?, at now: Moment) {
        guard sound != nil, !hasLogged else { return }
        hasLogged = true
        log("audio: no sound output in this build; cues go to the buzzer and display")
    }
}
