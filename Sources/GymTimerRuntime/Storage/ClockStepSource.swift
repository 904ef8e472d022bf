#if canImport(Glibc)
import Glibc
#endif
import GymTimerHAL
import GymTimerSystem

/// Hears the wall clock being stepped (NTP synchronising a Pi that booted on a stale clock),
/// for the loop's one blocking point: a timerfd on CLOCK_REALTIME that the kernel makes
/// readable on a step and at no other time, so it wakes nothing while the clock runs on. The
/// loop listens only while a run is held for want of a trusted clock (`listening`), and then
/// asks `KioskStore.resumeOnSync` (see `KioskRuntime`).
public final class ClockStepSource: PollSource {
    private var fd: Int32 = -1
    /// Set by the loop: whether a step matters now.
    public var listening = false
    /// Whether a step was heard since `takeStep()` last asked.
    private var stepped = false

    /// The descriptor is opened now; a kernel without timerfd is logged to `faults` once, and
    /// the loop falls back on its slow re-check alone.
    public init(faults: FaultLog) {
        do {
            fd = try SystemCall.clockStepDescriptor()
        } catch {
            faults.note("clock: \(error); a clock step is noticed by the 10 s re-check only")
        }
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    public var pollRequest: pollfd? {
        guard listening, fd >= 0 else { return nil }
        return pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    }

    public func serve(revents: Int16) {
        stepped = true
        // A failed re-arm leaves the descriptor readable: stop polling it rather than spin.
        if (try? SystemCall.rearmClockStep(fd)) == nil {
            close(fd)
            fd = -1
        }
    }

    /// Whether the clock was stepped since the last call.
    public func takeStep() -> Bool {
        defer { stepped = false }
        return stepped
    }
}
