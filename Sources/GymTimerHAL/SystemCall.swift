#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShim

/// The one place system calls are retried and durations turned into what the kernel takes,
/// so every backend rounds the same way: up, so a wait never ends before its deadline. Every
/// wait for descriptors goes through `poll(_:timeout:device:)` (ppoll, nanoseconds).
public enum SystemCall {
    /// Runs `call` again while it fails with EINTR (a signal arrived); returns its last result.
    /// `call` reports failure as a negative value with `errno` set, as the C calls do.
    @inlinable
    public static func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        var result: Result
        repeat { result = call() } while result < 0 && errno == EINTR
        return result
    }

    /// Waits in ppoll(2) until one of `fds` is ready (its `revents` set) or `timeout` has
    /// elapsed — nil: no timeout; zero or less: do not block — to the nanosecond, never
    /// before. A signal's interruption (EINTR) is retried here with the time that is left, so
    /// no caller sees it: a signal that must wake a loop does so through a descriptor (see
    /// `StopSignals`). Entries with a negative `fd` are ignored, as poll(2) does. Returns how
    /// many descriptors are ready (0: the timeout elapsed); `device` names what was waited on
    /// in the error.
    @discardableResult
    public static func poll(_ fds: inout [pollfd], timeout: Duration?, device: String) throws(HALError) -> Int {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now.advanced(by: max($0, .zero)) }
        while true {
            let left = deadline.map { clock.now.duration(to: $0) }
            let slice = left.map(pollSlice)
            let spec = pollTimeSpec(slice)
            let result = fds.withUnsafeMutableBufferPointer { buffer -> Int32 in
                guard var spec else { return gymtimer_ppoll(buffer.baseAddress, UInt(buffer.count), nil) }
                return gymtimer_ppoll(buffer.baseAddress, UInt(buffer.count), &spec)
            }
            // A slice short of the deadline ended: wait for the rest.
            if result == 0, let slice, let left, slice < left { continue }
            if result >= 0 { return Int(result) }
            guard errno == EINTR else { throw .io(device: device, operation: "poll", errno: errno) }
        }
    }

    /// How long to ask ppoll to wait when `left` remains to the deadline. The kernel lets a
    /// poll or select wake up to 0.1 % of its timeout late (select_estimate_accuracy: 1 ms on a
    /// 1 s wait, for every display tick and rest end), against only the timer slack (50 µs) for
    /// a short one. So a wait longer than `pollSliceThreshold` first stops 0.2 % short, late
    /// by at most half of that, and the short rest is waited for exactly: one more wake-up,
    /// and the deadline met to the kernel's own lateness.
    public static func pollSlice(_ left: Duration) -> Duration {
        guard left > pollSliceThreshold else { return left }
        return left - left / 500
    }

    /// Waits up to this long are asked for whole: their 0.1 % is within the timer slack.
    public static let pollSliceThreshold: Duration = .milliseconds(50)

    /// ppoll(2)'s timeout for `timeout`: nil (wait for ever) for nil, zero for a deadline
    /// already past, else `timeSpec` of it (rounded up to the nanosecond, so never early).
    public static func pollTimeSpec(_ timeout: Duration?) -> timespec? {
        timeout.map(timeSpec)
    }

    /// The longest timespec made: about 68 years, "for ever" to any loop, and far from overflow.
    public static let longestTimeSpecSeconds = Int64(Int32.max)

    /// A `timespec` for `duration`, rounded up to the whole nanosecond; zero for a negative one,
    /// at most `longestTimeSpecSeconds`.
    public static func timeSpec(_ duration: Duration) -> timespec {
        let (seconds, attoseconds) = max(duration, .zero).components
        guard seconds < longestTimeSpecSeconds else { return timespec(tv_sec: Int(longestTimeSpecSeconds), tv_nsec: 0) }
        let perNanosecond: Int64 = 1_000_000_000
        var nanoseconds = (attoseconds + perNanosecond - 1) / perNanosecond
        var wholeSeconds = seconds
        if nanoseconds == 1_000_000_000 {
            wholeSeconds += 1
            nanoseconds = 0
        }
        return timespec(tv_sec: Int(wholeSeconds), tv_nsec: Int(nanoseconds))
    }

    /// The kernel's clock synchronisation figures (adjtimex(2), read-only): its clock state,
    /// status flags, last offset (ns with STA_NANO, else µs), estimated and maximum error (µs).
    public static func clockStatus() throws(HALError) -> (state: Int32, status: Int32, offset: Int, estimatedError: Int, maximumError: Int) {
        var status: Int32 = 0
        var offset = 0, estimatedError = 0, maximumError = 0
        let state = gymtimer_clock_status(&status, &offset, &estimatedError, &maximumError)
        guard state >= 0 else { throw .io(device: "system clock", operation: "adjtimex", errno: errno) }
        return (state, status, offset, estimatedError, maximumError)
    }

    /// A new pseudo-terminal: its master side (read-write, close-on-exec) and its slave's path,
    /// for a simulated chip that stands behind a serial port; close the master when done.
    /// A pipe whose ends never block and are closed on exec: the self-pipe a thread or a signal
    /// handler wakes the loop's poll through. `device` names it in the error.
    public static func wakeUpPipe(_ device: String) throws(HALError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .io(device: device, operation: "pipe", errno: errno) }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        return (ends[0], ends[1])
    }

    /// Names the calling thread as the system shows it (`top -H`, procfs; 15 bytes at most), so
    /// a thread of ours is told apart from the loop's. Best effort: a failure changes nothing.
    public static func nameThread(_ name: String) {
        _ = gymtimer_name_thread(name)
    }

    public static func openPseudoTerminal() throws(HALError) -> (master: Int32, path: String) {
        var path = [CChar](repeating: 0, count: 128)
        let master = gymtimer_open_pty(&path, UInt(path.count))
        guard master >= 0 else { throw .io(device: "/dev/ptmx", operation: "open a pseudo-terminal", errno: errno) }
        return (master, String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// A descriptor that becomes readable when the wall clock is stepped (a timerfd on
    /// CLOCK_REALTIME with TFD_TIMER_CANCEL_ON_SET), and never otherwise; close it when done.
    public static func clockStepDescriptor() throws(HALError) -> Int32 {
        let fd = gymtimer_clock_step_fd()
        guard fd >= 0 else { throw .io(device: "system clock", operation: "timerfd_create", errno: errno) }
        return fd
    }

    /// Takes a step's readiness off `fd` (from `clockStepDescriptor`) and arms it for the next.
    public static func rearmClockStep(_ fd: Int32) throws(HALError) {
        guard gymtimer_clock_step_rearm(fd) == 0 else {
            throw .io(device: "system clock", operation: "timerfd_settime", errno: errno)
        }
    }
}
