/// Where a station's sleep window stands (`SleepWindow`, a coach's `sleep` command): the window,
/// whether the runtime says the local clock is inside it now, when a hand or a run last used the
/// kiosk, and whether the display is dark. Dark means all four digits and the LEDs off; only
/// while nothing runs, no message shows and nobody has touched it for `Kiosk.awakeAfterUse`.
public struct KioskSleep: Hashable, Sendable, Codable {
    /// The window a coach set, or nil: the display never sleeps.
    public var window: SleepWindow?
    /// Whether the window is in effect now (the runtime's `.sleep` / `.wake` at its edges).
    public var night = false
    /// The latest use: a hand on the wall, a coach's command, a run under way.
    public var usedAt: Moment?
    /// Whether the display shows dark now.
    public var dark = false
    /// A press that woke the dark display: its hold and release are swallowed with it.
    public var wakingPress: ControlButton?
    /// When the knob last turned in a spin that woke the dark display: the rest of that spin is
    /// swallowed too (each detent is an event of its own).
    public var wakingTurnAt: Moment?

    public init(window: SleepWindow? = nil) { self.window = window }
}
