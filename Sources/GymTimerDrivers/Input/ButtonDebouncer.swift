import GymTimerCore

/// Turns one button line's raw, chattering edges into clean presses, releases and holds.
///
/// A new level counts once the line has stayed there for the settle time (default 10 ms), so
/// contact chatter and short noise spikes are rejected and a real press acts within settle time
/// plus its bounce. A press that stays down for the hold time (default 2 s) also reports `held`.
public struct ButtonDebouncer: Sendable {
    /// What the button did, after debouncing.
    public enum Gesture: Hashable, Sendable { case pressed, released, held }

    public let settle: Duration
    public let hold: Duration

    /// The accepted (debounced) level.
    public private(set) var isPressed = false
    /// A level the line changed to that has not yet been stable for `settle`.
    private var candidate: (level: Bool, since: Moment)?
    /// When the current press was accepted, while the hold has not been reported yet.
    private var holdPendingSince: Moment?

    public init(settle: Duration = InputFrontEnd.defaultSettle, hold: Duration = InputFrontEnd.defaultHold) {
        self.settle = settle
        self.hold = hold
    }

    /// The accepted press to carry across a restart, nil while released.
    public var heldPress: HeldPress? { isPressed ? HeldPress(holdPendingSince: holdPendingSince) : nil }

    /// Takes up a press a previous controller accepted (the finger is still on the button), so
    /// its hold is reported when due instead of being lost with the process.
    public mutating func resume(_ press: HeldPress) {
        isPressed = true
        candidate = nil
        holdPendingSince = press.holdPendingSince
    }

    /// Feeds one raw edge: the line's new level at `moment`.
    public mutating func edge(active: Bool, at moment: Moment) {
        // Any edge restarts the settle time; returning to the accepted level cancels the change.
        candidate = active == isPressed ? nil : (active, moment)
    }

    /// When this button next needs `advance(to:)`.
    public var nextDeadline: Moment? {
        let settleAt = candidate.map { $0.since + settle }
        let holdAt = holdPendingSince.map { $0 + hold }
        switch (settleAt, holdAt) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b?): return b
        case (nil, nil): return nil
        }
    }

    /// Reports what became certain by `now`, with the moment each gesture happened.
    public mutating func advance(to now: Moment) -> [(Gesture, Moment)] {
        var gestures: [(Gesture, Moment)] = []
        // A hold that matured before the pending change would settle came first: a loop that
        // wakes late, after the release, reports what one woken on time would have.
        if let since = holdPendingSince, isPressed, now >= since + hold,
           let pending = candidate, since + hold <= pending.since + settle {
            holdPendingSince = nil
            gestures.append((.held, since + hold))
        }
        if let pending = candidate, now >= pending.since + settle {
            let at = pending.since + settle
            candidate = nil
            isPressed = pending.level
            if isPressed {
                holdPendingSince = at
                gestures.append((.pressed, at))
            } else {
                holdPendingSince = nil
                gestures.append((.released, at))
            }
        }
        if let since = holdPendingSince, isPressed, now >= since + hold {
            holdPendingSince = nil
            gestures.append((.held, since + hold))
        }
        return gestures
    }
}
