/// When to try the broker again after a lost connection (1 s, doubling up to 30 s, 1 s again
/// once connected), and whether to say so: the first loss of an outage is logged, and the
/// reconnection after it; the retries in between are not.
struct ReconnectBackoff {
    /// The longest wait between attempts.
    static let maximum: Duration = .seconds(30)
    private var delay: Duration = .seconds(1)
    private var reported = false

    /// A loss: how long to wait before the next attempt, and whether to log it.
    mutating func lost() -> (wait: Duration, report: Bool) {
        let wait = delay
        delay = min(delay * 2, Self.maximum)
        defer { reported = true }
        return (wait, !reported)
    }

    /// Connected: true when the outage was reported (so say it is over).
    mutating func connected() -> Bool {
        delay = .seconds(1)
        defer { reported = false }
        return reported
    }
}
