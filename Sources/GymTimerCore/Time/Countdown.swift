/// A countdown defined by its monotonic deadline, never by counting ticks: whatever the load
/// or however late the loop wakes, the remaining time is read off the clock and cannot drift.
public struct Countdown: Hashable, Sendable, Codable {
    /// The moment the countdown reaches zero.
    public var deadline: Moment

    public init(deadline: Moment) { self.deadline = deadline }

    /// A countdown of `duration` started at `start`.
    public init(from start: Moment, lasting duration: Duration) { self.deadline = start + duration }

    /// Time left at `now`, never negative.
    public func remaining(at now: Moment) -> Duration {
        now >= deadline ? .zero : deadline - now
    }

    /// Whole seconds shown at `now`: the remaining time rounded **up**, so `01:30` stays on
    /// for the whole first second and `00:00` appears exactly at the deadline.
    public func displayedSeconds(at now: Moment) -> Int {
        let left = remaining(at: now).nanoseconds
        return Int((left + 999_999_999) / 1_000_000_000)
    }

    /// The next moment after `now` at which the displayed seconds change (a whole number of
    /// seconds before the deadline), or nil once the deadline has passed.
    public func nextSecondBoundary(after now: Moment) -> Moment? {
        guard now < deadline else { return nil }
        let left = (deadline - now).nanoseconds
        let step: Int64 = 1_000_000_000
        var wholeSecondsLeft = left / step
        if wholeSecondsLeft * step == left { wholeSecondsLeft -= 1 }
        return deadline - .nanoseconds(wholeSecondsLeft * step)
    }
}
