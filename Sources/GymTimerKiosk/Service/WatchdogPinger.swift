import GymTimerCore

/// Pings systemd's watchdog from the event loop itself, at half the interval systemd expects:
/// if the loop hangs, the pings stop and systemd restarts the kiosk. This is the only wake-up
/// the kiosk has while idle, and only when a watchdog is configured.
public final class WatchdogPinger: TimedDriver {
    private let interval: Duration
    private let ping: () -> Void
    private var next: Moment

    /// Pings now (at `start`) and every `interval / 2` after.
    public init(interval: Duration, start: Moment, ping: @escaping () -> Void) {
        self.interval = interval / 2
        self.ping = ping
        self.next = start
    }

    public var nextDeadline: Moment? { next }

    public func fire(at now: Moment) {
        guard now >= next else { return }
        ping()
        next = now + interval
    }
}
