import Glibc

/// CLOCK_MONOTONIC, the clock the kernel stamps GPIO edge events with, so an event's age is
/// `now - timestamp` on the same timeline.
public enum MonotonicTime {
    /// The time since boot (not counting suspend) as a `Duration`.
    public static var now: Duration {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }

    /// Spins for `duration` without giving up the CPU: nanosleep(2) overshoots a 5 µs wait by
    /// the timer slack (50 µs by default), which would slow a bit-banged bus tenfold.
    public static func spin(for duration: Duration) {
        let end = now + duration
        while now < end {}
    }
}
