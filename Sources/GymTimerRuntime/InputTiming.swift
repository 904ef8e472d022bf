import GymTimerDrivers

/// How button input is judged: the debounce settle time and the long-press time.
public struct InputTiming: Hashable, Sendable {
    public var settle: Duration
    public var hold: Duration

    public init(settle: Duration = InputFrontEnd.defaultSettle, hold: Duration = InputFrontEnd.defaultHold) {
        self.settle = settle
        self.hold = hold
    }
}
