/// A driver that must act at moments of its own (a debounce settling, a buzzer step, a blink).
/// The event loop wakes at the earliest `nextDeadline` of all of them and of the core, and at
/// no other time.
///
/// In Core, not Drivers: it is a protocol of the loop's, over Core's `Moment` only, and the
/// fleet's station and collector (no drivers) keep deadlines through it as a buzzer does.
public protocol TimedDriver: AnyObject {
    /// When the driver next needs `fire(at:)`, or nil when it is waiting for nothing.
    var nextDeadline: Moment? { get }
    /// Does whatever fell due at or before `now`.
    func fire(at now: Moment)
}
