#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place system calls are retried and durations turned into what the kernel takes,
/// so every backend rounds the same way: up, so a wait never ends before its deadline.
public enum SystemCall {
    /// Runs `call` again while it fails with EINTR (a signal arrived); returns its last result.
    /// `call` reports failure as a negative value with `errno` set, as the C calls do.
    @inlinable
    public static func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        var result: Result
        repeat { result = call() } while result < 0 && errno == EINTR
        return result
    }

    /// poll(2)'s timeout: -1 (wait for input alone) for nil, 0 for a deadline already past,
    /// else the time rounded up to the whole millisecond (at most 1 ms late, never early),
    /// clamped to `Int32.max`.
    public static func pollMilliseconds(_ timeout: Duration?) -> Int32 {
        guard let timeout else { return -1 }
        guard timeout > .zero else { return 0 }
        let (seconds, attoseconds) = timeout.components
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return Int32.max }
        return Int32(clamping: whole + (attoseconds + perMillisecond - 1) / perMillisecond)
    }

    /// A `timespec` for `duration`, rounded up to the whole nanosecond; zero for a negative one.
    public static func timeSpec(_ duration: Duration) -> timespec {
        let (seconds, attoseconds) = max(duration, .zero).components
        let perNanosecond: Int64 = 1_000_000_000
        var nanoseconds = (attoseconds + perNanosecond - 1) / perNanosecond
        var wholeSeconds = seconds
        if nanoseconds == 1_000_000_000 {
            wholeSeconds += 1
            nanoseconds = 0
        }
        return timespec(tv_sec: Int(wholeSeconds), tv_nsec: Int(nanoseconds))
    }
}
