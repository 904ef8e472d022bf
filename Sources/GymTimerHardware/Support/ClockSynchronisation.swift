import Foundation
import GymTimerHAL

/// What the kernel knows of the system clock's synchronisation (adjtimex(2), read-only), for
/// `gymtimer selftest`: a fleet's synchronised starts are only as close as the stations' clocks
/// (fleet.md, "Time"), and chrony or another NTP client keeps these figures up to date.
public struct ClockSynchronisation: Equatable, Sendable {
    /// True when an NTP client disciplines the clock (the kernel's STA_UNSYNC is clear).
    public var synchronised: Bool
    /// The last measured offset from the reference, in seconds (positive: this clock is ahead).
    public var offset: Double
    /// The NTP client's estimate of the clock's error, in seconds.
    public var estimatedError: Double
    /// The bound on the clock's error, in seconds (grows while no update arrives).
    public var maximumError: Double

    public init(synchronised: Bool, offset: Double, estimatedError: Double, maximumError: Double) {
        self.synchronised = synchronised
        self.offset = offset
        self.estimatedError = estimatedError
        self.maximumError = maximumError
    }

    /// From adjtimex's raw figures: `status` its flags, `offset` in ns with STA_NANO else µs,
    /// the errors in µs; `state` its return value (TIME_ERROR, 5: not synchronised).
    public init(state: Int32, status: Int32, offset: Int, estimatedError: Int, maximumError: Int) {
        let unsynchronisedFlag: Int32 = 0x0040, nanosecondFlag: Int32 = 0x2000, timeError: Int32 = 5
        synchronised = status & unsynchronisedFlag == 0 && state != timeError
        self.offset = Double(offset) / (status & nanosecondFlag != 0 ? 1e9 : 1e6)
        self.estimatedError = Double(estimatedError) / 1e6
        self.maximumError = Double(maximumError) / 1e6
    }

    /// The system clock's synchronisation now, as the kernel reports it.
    public static func current() throws(HALError) -> ClockSynchronisation {
        let kernel = try SystemCall.clockStatus()
        return ClockSynchronisation(
            state: kernel.state, status: kernel.status, offset: kernel.offset,
            estimatedError: kernel.estimatedError, maximumError: kernel.maximumError)
    }

    /// One line for the self-test's report, with what to do when the clock is not kept.
    public var report: String {
        guard synchronised else {
            return "clock: not synchronised (no NTP client keeps it): a fleet's synchronised starts will be as far apart "
                + "as the stations' clocks; turn on chrony (docs/fleet.md, \"Clocks\")"
        }
        return "clock: synchronised, offset \(Self.milliseconds(offset, signed: true)), estimated error ±"
            + "\(Self.milliseconds(estimatedError)), at most \(Self.milliseconds(maximumError))"
    }

    private static func milliseconds(_ seconds: Double, signed: Bool = false) -> String {
        String(format: signed ? "%+.3f ms" : "%.3f ms", seconds * 1000)
    }
}
