import Foundation
import Glibc
import GymTimerCore

/// What of `WallClock` needs the operating system and Foundation: the machine's clock and a
/// reading as a `Date`.
extension WallClock {
    /// The machine's wall clock: CLOCK_REALTIME, to the nanosecond. A kiosk anchors its
    /// timeline to it (`wallClockOrigin`), so a stored deadline names the same instant after a
    /// restart; the fleet, the history and the console stamp their messages and records with it.
    public static let system = WallClock {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }

    /// Now as a `Date`.
    public var date: Date {
        let (epoch, elapsed) = read()
        return Date(timeIntervalSince1970: epoch).addingTimeInterval(Double(elapsed.nanoseconds) / 1e9)
    }

    /// A clock stopped at `date`.
    public static func fixed(_ date: Date) -> WallClock { .fixed(date.timeIntervalSince1970) }
}
