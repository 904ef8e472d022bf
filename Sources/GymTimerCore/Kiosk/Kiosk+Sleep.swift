/// The sleep window laid over the kiosk (`KioskSleep`): at night an idle display goes dark, and
/// a hand on the wall only wakes it. Why only wake: a member fumbling for the buttons in a dark
/// gym must not start a rest or open the menu by accident; the first touch shows what the
/// timer is set to, the next one acts. A coach's command (a class start) acts at once and
/// lights the display, as a run does until `awakeAfterUse` after it ends.
extension Kiosk {
    /// How long the display stays lit after the last touch or the end of a run, at night.
    public static let awakeAfterUse: Duration = .seconds(300)
    /// A pause in the knob's turning longer than this ends the spin that woke the display.
    public static let wakingSpinPause: Duration = .seconds(1)

    /// The sleep window a coach set, or nil.
    public var sleepWindow: SleepWindow? { sleepState?.window }
    /// Whether the runtime says the window is in effect now.
    public var isNight: Bool { sleepState?.night ?? false }
    /// Whether the display is dark now (asleep).
    public var isAsleep: Bool { sleepState?.dark ?? false }

    /// What the display and LEDs show while asleep.
    static let darkOutputs: [Effect] = [.display(.blank), .leds([])]

    /// Whether the display should be dark at `now`.
    func shouldBeDark(at now: Moment) -> Bool {
        guard let state = sleepState, state.window != nil, state.night, isIdle, message == nil else { return false }
        return state.usedAt.map { now >= $0 + Self.awakeAfterUse } ?? true
    }

    /// When the lit display goes dark at night, if nothing happens before.
    func sleepDeadline(after now: Moment) -> Moment? {
        guard let state = sleepState, state.window != nil, state.night, !state.dark, isIdle, message == nil,
              let used = state.usedAt else { return nil }
        return max(used + Self.awakeAfterUse, now)
    }

    /// A hand on the wall that only wakes the display (or is the rest of the press that did),
    /// with what to show; nil when the event is for the kiosk.
    mutating func wakeOnly(_ event: ControlEvent, at now: Moment) -> [Effect]? {
        guard var state = sleepState, event.isHand else { return nil }
        switch event {
        case .held(let button) where state.wakingPress == button:
            state.usedAt = now
            sleepState = state
            return []
        case .released(let button) where state.wakingPress == button:
            state.wakingPress = nil
            state.usedAt = now
            sleepState = state
            return []
        case .turned where !state.dark && state.wakingTurnAt.map({ now - $0 <= Self.wakingSpinPause }) == true:
            state.wakingTurnAt = now
            state.usedAt = now
            sleepState = state
            return []
        default:
            break
        }
        if state.wakingTurnAt != nil {
            state.wakingTurnAt = nil
            sleepState = state
        }
        guard state.dark else { return nil }
        if case .pressed(let button) = event { state.wakingPress = button }
        if case .turned = event { state.wakingTurnAt = now }
        state.usedAt = now
        state.dark = false
        sleepState = state
        return overlaid(currentOutputs(at: now), at: now)
    }

    /// `effects` as the display shows them at night: marks a use (a hand, a command, a run),
    /// then darkens or lights the display when its state changed (`wasIdle`: before the event).
    mutating func shaded(_ effects: [Effect], after event: ControlEvent, wasIdle: Bool, at now: Moment) -> [Effect] {
        guard var state = sleepState else { return effects }
        if event.isUse || !wasIdle || !isIdle { state.usedAt = now }
        let wasDark = state.dark
        sleepState = state
        let dark = shouldBeDark(at: now)
        sleepState?.dark = dark
        if dark { return effects.filter { !$0.isShown } + (wasDark ? [] : Self.darkOutputs) }
        guard wasDark else { return effects }
        return effects.filter { !$0.isShown } + overlaid(currentOutputs(at: now), at: now)
    }

    /// Sets (or clears) the window; a cleared window wakes the display.
    mutating func setSleepWindow(_ window: SleepWindow?) {
        var state = sleepState ?? KioskSleep()
        state.window = window
        if window == nil { state.night = false }
        sleepState = state
    }

    /// The runtime's word that the window began (true) or ended.
    mutating func setNight(_ night: Bool) {
        var state = sleepState ?? KioskSleep()
        state.night = night
        if !night { state.wakingPress = nil }
        sleepState = state
    }

    /// What a coach set that a restart keeps: the window (whether it is night is the runtime's to say again).
    mutating func keepSleepWindow(_ window: SleepWindow?) {
        sleepState = window.map { KioskSleep(window: $0) }
    }
}

extension Effect {
    /// Whether this is what the display or the LEDs show.
    var isShown: Bool {
        switch self {
        case .display, .leds: return true
        default: return false
        }
    }
}

extension ControlEvent {
    /// Whether this event is somebody using the kiosk (a hand, a coach's command), not the
    /// clock or the runtime's word about the sleep window.
    var isUse: Bool {
        switch self {
        case .pressed, .released, .held, .turned, .tapped: return true
        case .deadline: return false
        case .command(.sleep), .command(.wake), .command(.setSleepWindow): return false
        case .command: return true
        }
    }
}
