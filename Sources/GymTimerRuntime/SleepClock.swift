import Foundation
import GymTimerCore
import GymTimerSystem

/// The wall clock and time zone a station's sleep window (`SleepWindow`) is read in, injected
/// into the loop so tests and the simulator choose the instant, the zone and whether the clock
/// is trusted. An untrusted clock (a Pi without a clock battery before NTP synchronises) never
/// puts the display to sleep: a timer dark at noon because it believes it is 23:00 is worse
/// than one lit at night. The loop reads it once per wake-up (`read`) and decides from that
/// one `Reading`.
public struct SleepClock {
    /// The wall clock.
    public var wall: WallClock
    /// The local zone now: its offset from UTC (seconds east) at a Unix instant.
    public var zone: () -> (Int64) -> Int
    /// Whether the wall clock is known to be right (synchronised).
    public var trusted: () -> Bool

    public init(
        wall: WallClock, zone: @escaping () -> (Int64) -> Int, trusted: @escaping () -> Bool
    ) {
        self.wall = wall
        self.zone = zone
        self.trusted = trusted
    }

    /// A clock in a fixed zone given by `utcOffset`.
    public init(
        wall: WallClock, utcOffset: @escaping (Int64) -> Int,
        trusted: @escaping () -> Bool
    ) {
        self.init(wall: wall, zone: { utcOffset }, trusted: trusted)
    }

    /// The machine's: CLOCK_REALTIME, the system's time zone, adjtimex's synchronisation.
    public static func system() -> SleepClock {
        SleepClock(
            wall: .system,
            zone: {
                let zone = TimeZone.current
                return { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0))) }
            },
            trusted: { ClockReading.now().synchronised })
    }

    /// How often an untrusted clock is read again while a window is set (a synchronisation
    /// that slews rather than steps the clock is heard by nothing else).
    public static let untrustedRecheck: Duration = .seconds(60)

    /// Reads the clock, its zone and its trust once, `at` being now on the loop's timeline.
    public func read(at: Moment) -> Reading {
        Reading(at: at, trusted: trusted(), unix: wall.now, utcOffset: zone())
    }

    /// One reading of the wall clock, taken at `at` on the loop's timeline. Until the next, the
    /// wall clock is taken to advance with the timeline: a step of it wakes the loop (the
    /// runtime's `ClockStepSource` listens while a window is set), which reads it again.
    public struct Reading {
        public let at: Moment
        public let trusted: Bool
        /// Seconds since the Unix epoch at `at`.
        public let unix: Double
        public let utcOffset: (Int64) -> Int

        /// Whether the display should sleep at `now` under `window` (never without one or on an untrusted clock).
        public func isNight(_ window: SleepWindow?, at now: Moment) -> Bool {
            guard let window, trusted else { return false }
            let unixNow = unix + Double((now - at).nanoseconds) / 1e9
            return window.contains(unix: SleepClock.whole(unixNow), utcOffset: utcOffset)
        }

        /// When the loop must look again: the window's next edge, or a recheck while the clock
        /// is untrusted; nil without a window.
        public func nextCheck(_ window: SleepWindow?) -> Moment? {
            guard let window else { return nil }
            guard trusted, unix.isFinite else { return at + SleepClock.untrustedRecheck }
            let edge = window.nextEdge(after: SleepClock.whole(unix), utcOffset: utcOffset)
            // Clamped: a wall clock read beyond the years `whole` keeps must not trap here.
            let nanoseconds = max(0, min(9e18, ((Double(edge) - unix) * 1e9).rounded(.up)))
            return at + .nanoseconds(Int64(nanoseconds))
        }
    }

    /// A wall instant as whole seconds, clamped so no clock reading can trap.
    static func whole(_ unix: Double) -> Int64 {
        guard unix.isFinite else { return 0 }
        return Int64(max(-1e15, min(1e15, unix)).rounded(.down))
    }
}
