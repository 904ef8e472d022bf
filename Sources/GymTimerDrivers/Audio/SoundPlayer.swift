import GymTimerCore

/// Plays the kiosk's sound cues. The ALSA player and the simulated sink both sit behind this.
public protocol SoundPlayer: AnyObject {
    /// Starts `sound` at `now`, replacing whatever plays; nil stops playback at once.
    func play(_ sound: Sound?, at now: Moment)
}
