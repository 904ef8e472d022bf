/// A command from outside the kiosk's own buttons (the fleet today, the web console later),
/// with its own meaning in the core: not a replayed press, whose meaning would depend on the
/// mode. Each is handled by the kiosk as a whole or by the active mode (`RunControllable`);
/// one that cannot be obeyed now changes nothing and comes back as `Effect.refused`.
public enum KioskCommand: Hashable, Sendable {
    /// What a press of that button (and its release) does now (`{"do": "start"}`, `dismiss`).
    case press(ControlButton)
    /// The class start: starts what is selected, only if the kiosk is still idle in `expecting`
    /// (the entry that was selected when the start was asked for; nil: whatever is selected).
    /// With `workBegins`, a program's (or workout's, or interval's) lead-in is placed to end
    /// then (begun earlier, or shortened when that is past): the class's instant is when the
    /// work begins on every station.
    case classStart(expecting: ModeMenu.Entry?, workBegins: Moment? = nil)
    /// Moves the class's run to where the class's instants say it is (`ClassTimeline`): what a
    /// station that missed a pause or a resume, or was restarted, does when it hears the class.
    case followClass(ClassTimeline)
    /// Pauses what runs (a rest, an interval, a workout or a program).
    case pause
    /// Resumes what was paused.
    case resume
    /// Ends what runs without recording it; back to idle in the same mode.
    case reset
    /// As picking `entry` in the mode menu; only while idle.
    case select(ModeMenu.Entry)
    /// As picking a program in the menu, for a class whose program the coach sent: the
    /// configured one with that definition, else the class's own after the configured ones
    /// (`ProgramMode.selecting(classProgram:)`); only while idle.
    case selectProgram(Program)
    /// The rest length, in rest mode while idle: within the knob's range and on its step.
    case setRest(seconds: Int)
    /// A coach's text on the display for `seconds` (`FloorMessage`), over whatever runs.
    case showMessage(text: String, seconds: Int)
    /// Locks the wall's buttons and knob (true) or unlocks them; commands still work.
    case lockButtons(Bool)
    /// The display's brightness, 0…100 % (0: as dark as the chip goes, not off).
    case setBrightness(percent: Int)
    /// The hours the display sleeps (dark while idle and untouched, see `Kiosk+Sleep`), or nil: never.
    case setSleepWindow(SleepWindow?)
    /// The runtime's word that the local clock entered the sleep window (`sleep`) or left it
    /// (`wake`): the kiosk keeps no wall clock, so the runtime says so at the window's edges.
    case sleep, wake
    /// The coach's class list puts this athlete on the station (nil: nobody, the next
    /// workouts are a guest's), as a tap of their card would (`Kiosk+Athlete`).
    case setAthlete(CardTap?)
}

/// Why a `KioskCommand` was not obeyed, in words for the `error` event.
public struct KioskRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The command's name (`pause`, `start`…).
    public var command: String
    public var reason: String

    public init(_ command: String, _ reason: String) {
        self.command = command
        self.reason = reason
    }

    public var description: String { "\"\(command)\" not allowed now: \(reason)" }
}

/// A mode whose running part can be paused, resumed and reset on command. The kiosk hands
/// these commands to the active mode through this protocol, so a new mode implements three
/// methods rather than a case in every switch.
public protocol RunControllable {
    /// Pauses what runs at `now`, or says why it cannot.
    mutating func pause(at now: Moment) -> Result<[Effect], KioskRefusal>
    /// Resumes what was paused at `now`, or says why it cannot.
    mutating func resume(at now: Moment) -> Result<[Effect], KioskRefusal>
    /// Ends what runs without recording it: back to idle.
    mutating func reset(at now: Moment) -> [Effect]
}
