/// How button input is judged: the debounce settle time and the long-press time.
public struct InputTiming: Hashable, Sendable {
    public var settle: Duration
    public var hold: Duration

    public init(settle: Duration = .milliseconds(10), hold: Duration = .seconds(2)) {
        self.settle = settle
        self.hold = hold
    }
}
