#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time and peak resident memory from `getrusage(2)`, for the idle-cost and memory figures.
public struct ResourceUsage: Hashable, Sendable {
    /// User plus system CPU time.
    public var cpu: Duration
    /// Peak resident set size in bytes (`ru_maxrss`).
    public var peakResidentBytes: Int

    public init(cpu: Duration, peakResidentBytes: Int) {
        self.cpu = cpu
        self.peakResidentBytes = peakResidentBytes
    }

    /// The whole process so far.
    public static func process() -> ResourceUsage { measure(who: 0) } // RUSAGE_SELF

    /// The calling thread only (the event loop's), where the OS can tell; else the process.
    public static func thread() -> ResourceUsage {
        #if os(Linux)
        measure(who: 1) // RUSAGE_THREAD, which Glibc's module does not export
        #else
        measure(who: 0)
        #endif
    }

    /// Converts a `rusage` (e.g. a child's from `wait4`).
    public init(_ usage: rusage) {
        let user = Duration.seconds(usage.ru_utime.tv_sec) + .microseconds(usage.ru_utime.tv_usec)
        let system = Duration.seconds(usage.ru_stime.tv_sec) + .microseconds(usage.ru_stime.tv_usec)
        cpu = user + system
        #if os(Linux)
        peakResidentBytes = Int(usage.ru_maxrss) * 1024 // kilobytes on Linux
        #else
        peakResidentBytes = Int(usage.ru_maxrss) // bytes on macOS
        #endif
    }

    private static func measure(who: Int32) -> ResourceUsage {
        var usage = rusage()
        #if os(Linux)
        _ = getrusage(__rusage_who_t(who), &usage)
        #else
        _ = getrusage(who, &usage)
        #endif
        return ResourceUsage(usage)
    }
}
