import GymTimerCore

/// Plays the kiosk's sound cues. The ALSA player and the simulated sink both sit behind this.
public protocol SoundPlayer: AnyObject {
    /// Starts `sound` at `now`, replacing whatever plays; nil stops playback at once.
    func play(_ sound: Sound?, at now: Moment)
    /// Whether sound can be heard now; while false, cues go to the buzzer instead.
    var isAvailable: Bool { get }
}

extension SoundPlayer {
    public var isAvailable: Bool { true }
}
