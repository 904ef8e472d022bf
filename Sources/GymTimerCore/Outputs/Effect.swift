/// What the core asks the outside world to do. Effects are data: the runtime carries them out
/// through the drivers, tests compare them, and nothing in the core performs I/O.
public enum Effect: Hashable, Sendable {
    /// Show this on the display (replacing what was there).
    case display(DisplayContent)
    /// Light exactly these status LEDs; every other one goes dark.
    case leds(Set<StatusLED>)
    /// Play this buzzer pattern from now on, replacing the current one (`.off` silences).
    case buzzer(BuzzerPattern)
    /// Start this sound, replacing any playing one; nil stops playback.
    case sound(Sound?)
    /// A finished workout to add to the history.
    case record(WorkoutRecord)
    /// A `KioskCommand` was not obeyed, and why (nothing else changed): the fleet turns it
    /// into an `error` event; the outputs ignore it.
    case refused(KioskRefusal)
    /// The display's brightness, in percent of its brightest (a coach's `brightness`
    /// command; each driver maps it onto its own steps).
    case brightness(percent: Int)
}
