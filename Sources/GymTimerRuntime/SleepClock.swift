import Foundation
import GymTimerCore

/// The wall clock and time zone a station's sleep window (`SleepWindow`) is read in, injected
/// into the loop so tests and the simulator choose the instant, the zone and whether the clock
/// is trusted. An untrusted clock (a Pi without a clock battery before NTP synchronises) never
/// puts the display to sleep: a timer dark at noon because it believes it is 23:00 is worse
/// than one lit at night.
public struct SleepClock {
    /// Seconds since the Unix epoch, now.
    public var unixNow: () -> Double
    /// The local zone's offset from UTC (seconds east) at a Unix instant.
    public var utcOffset: (Int64) -> Int
    /// Whether the wall clock is known to be right (synchronised).
    public var trusted: () -> Bool

    public init(
        unixNow: @escaping () -> Double, utcOffset: @escaping (Int64) -> Int,
        trusted: @escaping () -> Bool
    ) {
        self.unixNow = unixNow
        self.utcOffset = utcOffset
        self.trusted = trusted
    }

    /// The machine's: CLOCK_REALTIME, the system's time zone, adjtimex's synchronisation.
    public static func system() -> SleepClock {
        SleepClock(
            unixNow: { Double(wallTimeSinceEpoch().nanoseconds) / 1e9 },
            utcOffset: { TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0))) },
            trusted: { ClockReading.now().synchronised })
    }

    /// How often an untrusted clock is read again while a window is set (a synchronisation
    /// that slews rather than steps the clock is heard by nothing else).
    public static let untrustedRecheck: Duration = .seconds(60)

    /// Whether the display should sleep now under `window` (never without one or on an untrusted clock).
    public func isNight(_ window: SleepWindow?) -> Bool {
        guard let window, trusted() else { return false }
        return window.contains(unix: Self.whole(unixNow()), utcOffset: utcOffset)
    }

    /// When the loop must look again, `at` being now on its timeline: the window's next edge,
    /// or a recheck while the clock is untrusted; nil without a window.
    public func nextCheck(_ window: SleepWindow?, at: Moment) -> Moment? {
        guard let window else { return nil }
        guard trusted() else { return at + Self.untrustedRecheck }
        let unix = unixNow()
        guard unix.isFinite else { return at + Self.untrustedRecheck }
        let edge = window.nextEdge(after: Self.whole(unix), utcOffset: utcOffset)
        return at + .nanoseconds(Int64(((Double(edge) - unix) * 1e9).rounded(.up)))
    }

    /// A wall instant as whole seconds, clamped so no clock reading can trap.
    static func whole(_ unix: Double) -> Int64 {
        guard unix.isFinite else { return 0 }
        return Int64(max(-1e15, min(1e15, unix)).rounded(.down))
    }
}
