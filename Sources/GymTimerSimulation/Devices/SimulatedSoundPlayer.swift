import GymTimerCore
import GymTimerDrivers

/// A sound output that plays nothing aloud but knows what would be playing: each cue starts
/// when asked and ends after its catalogue length (looping ones play until stopped).
public final class SimulatedSoundPlayer: SoundPlayer, TimedDriver {
    public private(set) var playing: Sound?
    private var endsAt: Moment?
    /// Called with the cue's name when playback starts, and nil when it ends or is stopped.
    public var onChange: ((String?) -> Void)?

    public init() {}

    /// When false the device is "unplugged": cues are not heard and the kiosk falls back to the buzzer.
    public var isAvailable = true

    public func play(_ sound: Sound?, at now: Moment) {
        let sound = isAvailable ? sound : nil
        guard sound != nil || playing != nil else { return }
        playing = sound
        endsAt = sound.flatMap(SoundCatalog.duration(of:)).map { now + $0 }
        onChange?(sound?.name)
    }

    public var nextDeadline: Moment? { endsAt }

    public func fire(at now: Moment) {
        guard let end = endsAt, now >= end else { return }
        play(nil, at: now)
    }
}
