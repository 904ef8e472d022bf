/// The wall clock: where every "what time is it" of the kiosk, the fleet, the history and the
/// console comes from, injected so tests and the simulator choose the instants.
///
/// A reading is an epoch (Unix seconds) and the time elapsed since it, taken together: the
/// machine's clock (`WallClock.system`, in System) is epoch 0 plus CLOCK_REALTIME; the
/// simulator's is its virtual epoch plus virtual time; a test's is often `fixed`. Kept as two
/// parts so each conversion is the one its user always made (a `Duration` to the nanosecond, a
/// `Date` as an epoch plus an interval). The core never reads it: like a `Moment`, a wall
/// instant reaches pure code as a value.
public struct WallClock: Sendable {
    /// Reads the clock: a Unix time (seconds) and the time elapsed since it, now.
    private let reading: @Sendable () -> (epoch: Double, elapsed: Duration)

    /// A clock read by `reading`.
    public init(reading: @escaping @Sendable () -> (epoch: Double, elapsed: Duration)) {
        self.reading = reading
    }

    /// A clock `elapsed()` after the Unix time `epoch`.
    public init(epoch: Double = 0, elapsed: @escaping @Sendable () -> Duration) {
        self.init { (epoch, elapsed()) }
    }

    /// A clock that reads the Unix time `unix()`.
    public init(unix: @escaping @Sendable () -> Double) {
        self.init { (unix(), .zero) }
    }

    /// Reads the clock once: its epoch and the time since it.
    public func read() -> (epoch: Double, elapsed: Duration) { reading() }

    /// Seconds since the Unix epoch, now.
    public var now: Double {
        let (epoch, elapsed) = reading()
        return epoch + Double(elapsed.nanoseconds) / 1e9
    }

    /// The time since the Unix epoch, now.
    public var sinceEpoch: Duration {
        let (epoch, elapsed) = reading()
        return .seconds(epoch) + elapsed
    }

    /// A clock stopped at the Unix time `unix`.
    public static func fixed(_ unix: Double) -> WallClock { WallClock { (unix, .zero) } }

    /// This clock `seconds` ahead (behind, if negative).
    public func offset(by seconds: Double) -> WallClock {
        let reading = reading
        return WallClock {
            let (epoch, elapsed) = reading()
            return (epoch + seconds, elapsed)
        }
    }
}
