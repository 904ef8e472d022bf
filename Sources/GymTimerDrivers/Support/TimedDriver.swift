import GymTimerCore

/// A driver that must act at moments of its own (a debounce settling, a buzzer step, a blink).
/// The event loop wakes at the earliest `nextDeadline` of all of them and of the core, and at
/// no other time.
public protocol TimedDriver: AnyObject {
    /// When the driver next needs `fire(at:)`, or nil when it is waiting for nothing.
    var nextDeadline: Moment? { get }
    /// Does whatever fell due at or before `now`.
    func fire(at now: Moment)
}
